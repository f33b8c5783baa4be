"""Every ``--emit`` stage works on every program of ``tests/programs/`` and
``examples/``, printed for both dialects (a stage that crashed on one construct, such
as ``group_by``, showed users a Python traceback)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dl2sql.cli import main
from dl2sql.compiler import compile_file
from dl2sql.compiler.emit import STAGES, emit, is_helper
from dl2sql.compiler.emit_update import emit_update

ROOT = Path(__file__).parent.parent
PROGRAMS = sorted([*ROOT.glob("tests/programs/*/*.dl"), *ROOT.glob("examples/*/*.dl")])


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
def test_every_stage_prints_every_program(path, dialect, capsys) -> None:
    # one compilation for every stage (the command line compiles the program again for
    # each): the command line's own path is the last stage's, and the stages' printers
    # are what `--emit` calls
    program = compile_file(str(path))
    helpers = [r for r in program.relations if is_helper(program, r)]
    for stage in STAGES:
        if stage == STAGES[-1]:
            assert main(["compile", str(path), "--emit", stage, "--dialect", dialect]) == 0
            out = capsys.readouterr()
            assert out.err == "", stage
            text = out.out
        else:
            text = emit(program, stage, dialect)
        assert text.strip(), stage
        if stage == "ra":  # every derived relation with its blocks
            for rel in program.blocks:
                if not is_helper(program, rel):
                    assert f"\n{rel} <- " in "\n" + text, (stage, rel)
        if stage in ("strata", "types"):  # the compiler's relations are not the user's
            assert not [r for r in helpers if _mentions(text, r)], stage
        if stage == "types":  # every rule the user wrote, one line each (an `apply`
            # stands for the one rule that derives its output from helper relations)
            assert len([ln for ln in text.splitlines()
                        if ln.endswith(".") or ln.startswith("apply ")]) \
                >= len([r for r in program.typed_rules
                        if not is_helper(program, r.heads[0].relation)]), stage


def _mentions(text: str, relation: str) -> bool:
    """``relation`` appears as a whole name (``Audit__group1`` is not in ``Audit__group1_rows``)."""
    return re.search(rf"(?<![\w:]){re.escape(relation)}(?!\w)", text) is not None


def test_programs_were_found() -> None:
    assert len(PROGRAMS) >= 20


def test_helper_relations_are_shown_when_asked_for(capsys) -> None:
    path = str(ROOT / "examples/rbac/rbac.dl")
    program = compile_file(path)
    helpers = sorted(r for r in program.relations if is_helper(program, r))
    assert "Audit__group1_rows" in helpers and "ddlog_std::Singleton" in helpers
    for stage in ("types", "strata", "ra"):
        assert main(["compile", path, "--emit", stage]) == 0
        hidden = capsys.readouterr().out
        assert main(["compile", path, "--emit", stage, "--internal"]) == 0
        shown = capsys.readouterr().out
        for rel in helpers:
            assert _mentions(shown, rel), (stage, rel)
            if stage != "ra":
                assert not _mentions(hidden, rel), (stage, rel)
    # without --internal, an aggregation's steps sit under the rule that reads them
    assert main(["compile", path, "--emit", "ra"]) == 0
    ra = capsys.readouterr().out
    assert "      where Audit__group1 <- Group[" in ra
    assert "\nAudit__group1 <- " not in ra and "ddlog_std::Singleton" not in ra
    assert main(["compile", path, "--emit", "strata"]) == 0
    assert "--internal shows them" in capsys.readouterr().out


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
def test_the_update_plan_prints_every_program(path, dialect, capsys) -> None:
    """``--emit update``: a line per stratum of the update plan, with its method, and
    every statement in words (a statement kind the printer does not know would show
    as its bare class name)."""
    program = compile_file(str(path))
    plan = program.update_for(dialect)
    # what `--emit update` prints (its command line: the tests below)
    out = emit_update(program, dialect)
    strata = [ln for ln in out.splitlines() if ln.startswith("stratum ")]
    assert strata == [ln for ln in strata if ": " in ln]
    assert [ln[len("stratum "):].split(": ")[0] for ln in strata] == \
        [s.name for s in plan.strata]
    for s in plan.strata:
        assert f"stratum {s.name}: {s.method} (" in out
    bare = [ln for ln in out.splitlines() if re.fullmatch(r"\s*[A-Z][A-Za-z]+", ln)]
    assert bare == [], "statements printed as bare class names"


def test_the_update_plan_shows_the_closure_and_its_branches(capsys) -> None:
    path = ROOT / "benchmarks" / "programs" / "tc_neg_group.dl"
    assert main(["compile", str(path), "--emit", "update", "--dialect", "spark"]) == 0
    out = capsys.readouterr().out
    assert "stratum Path: closure (when Edge changed)" in out
    assert "the closure's search on the driver" in out and "or, recomputed:" in out
    assert "recompute instead when" in out and "patched in place" in out
    # the thresholds of those branches: the engine's loop policy and the default choice
    assert "-- loops: recursive_union=False, partitioned=True" in out
    assert "search_on_driver_below=200000" in out
    assert "-- choice (the default): recompute_share=0.5, overdelete_share=0.25" in out


def test_the_update_plan_names_the_tables_a_transaction_loads(capsys) -> None:
    """A keyed input's updates load into tables of their own names (``User__upsert``),
    which the plan names as they are."""
    path = ROOT / "tests" / "programs" / "primary_key" / "primary_key.dl"
    program = compile_file(str(path))
    changes = program.update_for("duckdb").changes["User"]
    assert main(["compile", str(path), "--emit", "update", "--dialect", "duckdb"]) == 0
    out = capsys.readouterr().out
    assert f"insert_or_update in {changes['insert_or_update'].name}" in out
    assert "User__insert_or_update" not in out
