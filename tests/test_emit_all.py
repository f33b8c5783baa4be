"""Every ``--emit`` stage works on every program of ``tests/programs/`` and
``examples/``, printed for both dialects (a stage that crashed on one construct, such
as ``group_by``, showed users a Python traceback)."""
from __future__ import annotations

from pathlib import Path

import pytest

from dl2sql.cli import main
from dl2sql.compiler import compile_file
from dl2sql.emit import STAGES

ROOT = Path(__file__).parent.parent
PROGRAMS = sorted([*ROOT.glob("tests/programs/*/*.dl"), *ROOT.glob("examples/*/*.dl")])


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.stem)
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
def test_every_stage_prints_every_program(path, dialect, capsys) -> None:
    program = compile_file(str(path))
    for stage in STAGES:
        assert main(["compile", str(path), "--emit", stage, "--dialect", dialect]) == 0, stage
        out = capsys.readouterr()
        assert out.err == "" and out.out.strip(), stage
        if stage == "ra":  # every derived relation with its blocks
            for rel in program.blocks:
                assert f"{rel} <- " in out.out, (stage, rel)
        if stage == "strata":  # dl2sql's own helper relations are not the user's
            assert "ddlog_std::Singleton" not in out.out
        if stage == "types":  # every rule, one line each
            assert len([ln for ln in out.out.splitlines() if ln.endswith(".")]) \
                >= len(program.rules), stage


def test_programs_were_found() -> None:
    assert len(PROGRAMS) >= 20
