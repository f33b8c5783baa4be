"""Golden SQL: the statements ``dl2sql compile`` prints for every ``tests/programs/``
case, on both dialects, are stored beside the case (``NAME.spark.sql``,
``NAME.duckdb.sql``), and so is each engine's plan (``--emit plan``: loop planning's
choices, ``NAME.spark.plan``), so that any change to either shows in review.

After an intended change, regenerate them and review the diff::

    python -m pytest tests/test_golden_sql.py --update-golden
"""
from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from dl2sql.compiler import compile_file
from dl2sql.compiler.emit import emit

PROGRAMS = Path(__file__).parent / "programs"
CASES = sorted(p.name for p in PROGRAMS.iterdir() if (p / f"{p.name}.dl").is_file())


def golden_text(case: str, dialect: str, stage: str = "sql") -> str:
    """What ``dl2sql compile tests/programs/CASE/CASE.dl --dialect DIALECT --emit STAGE``
    prints."""
    flags = PROGRAMS / case / "flags"
    internal = flags.exists() and "--output-internal-relations" in flags.read_text().split()
    program = compile_file(str(PROGRAMS / case / f"{case}.dl"), output_internal=internal)
    return emit(program, stage, dialect)


@pytest.mark.parametrize("stage", ["sql", "plan"])
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
@pytest.mark.parametrize("case", CASES)
def test_generated_sql_is_the_stored_sql(case: str, dialect: str, stage: str,
                                         request) -> None:
    stored = PROGRAMS / case / f"{case}.{dialect}.{stage}"
    text = golden_text(case, dialect, stage)
    if request.config.getoption("--update-golden"):
        stored.write_text(text, encoding="utf-8")
    assert stored.exists(), f"{stored} is missing: run with --update-golden and review it"
    expected = stored.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                        str(stored), "generated"))
    assert text == expected, "the generated SQL changed (if intended, rerun with " \
                             "--update-golden and review the diff):\n" + diff


def test_every_case_has_its_golden_files() -> None:
    assert len(CASES) >= 20
    stored = {p.name for p in [*PROGRAMS.glob("*/*.sql"), *PROGRAMS.glob("*/*.plan")]}
    assert stored == {f"{c}.{d}.{s}" for c in CASES for d in ("spark", "duckdb")
                      for s in ("sql", "plan")}
