"""Golden SQL: the statements ``dl2sql compile`` prints for every ``tests/programs/``
case, on both dialects, are stored beside the case (``NAME.spark.sql``,
``NAME.duckdb.sql``), and so is each engine's plan (``--emit plan``: loop planning's
choices, ``NAME.spark.plan``), so that any change to either shows in review.

A program with wide integers (bigint, bit<N> and signed<N> for N > 64) also stores the
plan its runs go on with once a value needs more than 38 digits
(``NAME.wide.spark.sql``, ...: ``dl2sql compile --integers wide``).

Every case also stores the Spark SQL script that ``dl2sql compile`` prints by default
(``NAME.spark.script``, :mod:`dl2sql.compiler.spark_script`), or the error that says
why it has none.

After an intended change, regenerate them and review the diff::

    python -m pytest tests/test_golden_sql.py --update-golden
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from dl2sql.compiler import compile_file
from dl2sql.compiler.emit import emit
from dl2sql.compiler.spark_script import spark_script
from dl2sql.diagnostics import CompileError, InputError
from dl2sql.types.model import NARROW, WIDE

PROGRAMS = Path(__file__).parent / "programs"
CASES = sorted(p.name for p in PROGRAMS.iterdir() if (p / f"{p.name}.dl").is_file())
# the cases whose runs start with wide integers NARROW and go on WIDE where needed
WIDE_CASES = ["bigints", "constants", "facts_only", "fp_library", "typed_literals",
              "uuid_url_base64"]


def _compiled(case: str):
    flags = PROGRAMS / case / "flags"
    internal = flags.exists() and "--output-internal-relations" in flags.read_text().split()
    return compile_file(str(PROGRAMS / case / f"{case}.dl"), output_internal=internal)


def golden_text(case: str, dialect: str, stage: str = "sql", integers: str = "") -> str:
    """What ``dl2sql compile tests/programs/CASE/CASE.dl --dialect DIALECT --emit STAGE``
    prints (with ``--integers INTEGERS`` where given)."""
    program = _compiled(case)
    return emit(program.represented(integers) if integers else program, stage, dialect)


def script_text(case: str) -> str:
    """What ``dl2sql compile tests/programs/CASE/CASE.dl`` prints, run from the
    repository's top folder: the Spark SQL script, or the error that refuses it."""
    top = PROGRAMS.parent.parent.as_posix() + "/"
    try:
        text = spark_script(_compiled(case))
    except (CompileError, InputError) as e:
        text = f"error: {e}\n"
    return text.replace(top, "")


def _check_golden(stored: Path, text: str, request) -> None:
    if request.config.getoption("--update-golden"):
        stored.write_text(text, encoding="utf-8")
    assert stored.exists(), f"{stored} is missing: run with --update-golden and review it"
    expected = stored.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                        str(stored), "generated"))
    assert text == expected, "the generated SQL changed (if intended, rerun with " \
                             "--update-golden and review the diff):\n" + diff


@pytest.mark.parametrize("case", CASES)
def test_the_script_is_the_stored_script(case: str, request) -> None:
    _check_golden(PROGRAMS / case / f"{case}.spark.script", script_text(case), request)


@pytest.mark.parametrize("stage", ["sql", "plan"])
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
@pytest.mark.parametrize("case", CASES + [f"{c}.wide" for c in WIDE_CASES])
def test_generated_sql_is_the_stored_sql(case: str, dialect: str, stage: str,
                                         request) -> None:
    name, _, integers = case.partition(".")
    stored = PROGRAMS / name / f"{case}.{dialect}.{stage}"
    _check_golden(stored, golden_text(name, dialect, stage, integers), request)


def test_every_case_has_its_golden_files() -> None:
    assert len(CASES) >= 20
    stored = {p.name for p in [*PROGRAMS.glob("*/*.sql"), *PROGRAMS.glob("*/*.plan"),
                               *PROGRAMS.glob("*/*.script")]}
    assert stored == {f"{c}.{d}.{s}" for c in CASES + [f"{w}.wide" for w in WIDE_CASES]
                      for d in ("spark", "duckdb") for s in ("sql", "plan")} | \
        {f"{c}.spark.script" for c in CASES}


def test_the_wide_cases_are_those_with_two_representations() -> None:
    """Exactly the cases whose runs can switch store their wide plans; the others have
    one plan per engine (no wide integer type, or a constant beyond 38 digits)."""
    both = [c for c in CASES if _compiled(c).integers == (NARROW, WIDE)]
    assert both == WIDE_CASES
