"""The program cases of ``tests/programs/``: compiling and replaying one.

A case folder holds ``NAME.dl``, ``NAME.dat`` (commands; may be absent for an empty
session), ``NAME.dump.expected`` and optionally ``flags`` (replay flags such as
``--output-internal-relations`` or ``--no-init-snapshot``, one per line) and
``externs.py`` (Python implementations of the program's extern functions)."""
from __future__ import annotations

from pathlib import Path

from dl2sql.api.replaying import replay_program
from dl2sql.cli import load_externs
from dl2sql.compiler import compile_file

PROGRAMS = Path(__file__).parent / "programs"
CASES = sorted(p.name for p in PROGRAMS.iterdir() if (p / f"{p.name}.dl").is_file())


def _flags(folder: Path) -> list[str]:
    return (folder / "flags").read_text().split() if (folder / "flags").exists() else []


def compile_case(folder: Path):
    """The compiled program of one case folder."""
    return compile_file(str(folder / f"{folder.name}.dl"),
                        output_internal="--output-internal-relations" in _flags(folder))


def expected_dump(folder: Path) -> str:
    """What replaying the case prints."""
    return (folder / f"{folder.name}.dump.expected").read_text(encoding="utf-8")


def replay_case(folder: Path, runner, recompute: bool = False,
                choice=None) -> tuple[int, str, str]:
    """Compile and replay one case folder, incrementally unless ``recompute`` (choosing
    between maintaining and recomputing a stratum by ``choice``); returns (exit code,
    stdout, stderr)."""
    dat = folder / f"{folder.name}.dat"
    commands = dat.read_text(encoding="utf-8") if dat.exists() else ""
    externs = load_externs(str(folder / "externs.py")) if (folder / "externs.py").exists() \
        else {}
    return replay_program(compile_case(folder), runner, commands,
                          init_snapshot="--no-init-snapshot" not in _flags(folder),
                          filename=str(dat), externs=externs, recompute=recompute,
                          choice=choice)
