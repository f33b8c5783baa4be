"""End-to-end programs: every ``tests/programs/NAME/`` case is replayed on DuckDB and on
Spark and must print exactly ``NAME.dump.expected``.

A case folder holds ``NAME.dl``, ``NAME.dat`` (commands; may be absent for an empty
session), ``NAME.dump.expected`` and optionally ``flags`` (replay flags such as
``--output-internal-relations`` or ``--no-init-snapshot``, one per line) and
``externs.py`` (Python implementations of the program's extern functions).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from dl2sql.cli import load_externs
from dl2sql.compiler import compile_file
from dl2sql.api.replaying import replay_program

PROGRAMS = Path(__file__).parent / "programs"
CASES = sorted(p.name for p in PROGRAMS.iterdir() if (p / f"{p.name}.dl").is_file())


def replay_case(folder: Path, runner) -> tuple[int, str, str]:
    """Compile and replay one case folder; returns (exit code, stdout, stderr)."""
    name = folder.name
    flags = (folder / "flags").read_text().split() if (folder / "flags").exists() else []
    program = compile_file(str(folder / f"{name}.dl"),
                           output_internal="--output-internal-relations" in flags)
    dat = folder / f"{name}.dat"
    commands = dat.read_text(encoding="utf-8") if dat.exists() else ""
    externs = load_externs(str(folder / "externs.py")) if (folder / "externs.py").exists() \
        else {}
    return replay_program(program, runner, commands,
                          init_snapshot="--no-init-snapshot" not in flags, filename=str(dat),
                          externs=externs)


@pytest.mark.parametrize("case", CASES)
def test_program(case: str, engine) -> None:
    folder = PROGRAMS / case
    code, out, err = replay_case(folder, engine)
    expected = (folder / f"{case}.dump.expected").read_text(encoding="utf-8")
    assert err == "" and code == 0, err
    assert out == expected
