"""Golden diagnostics: ``tests/errors/NAME.dl`` must fail to compile with exactly the
text of ``NAME.err`` on stderr and exit code 1 (no traceback). Set
``DL2SQL_UPDATE_GOLDENS=1`` to rewrite the ``.err`` files after a deliberate change."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from dl2sql.cli import main

ERRORS = Path(__file__).parent / "errors"
CASES = sorted(p.stem for p in ERRORS.glob("*.dl"))


@pytest.mark.parametrize("case", CASES)
def test_error_golden(case: str, monkeypatch, capsys) -> None:
    monkeypatch.chdir(ERRORS)
    code = main(["compile", f"{case}.dl"])
    captured = capsys.readouterr()
    golden = ERRORS / f"{case}.err"
    if os.environ.get("DL2SQL_UPDATE_GOLDENS"):
        golden.write_text(captured.err, encoding="utf-8")
    assert code == 1
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert captured.err == golden.read_text(encoding="utf-8")


REPLAY_PROGRAM = """input relation Edge(a: u32, b: u32)
output relation Path(a: u32, b: u32)
Path(a, b) :- Edge(a, b).
"""


@pytest.mark.parametrize("commands, message", [
    ("start;\ninsert Edge(1, 2);\ninsert Edge(1);\ncommit;\n", "3"),
    ("start;\ninsert Egde(1, 2);\ncommit;\n", "Egde"),
    ("start;\ninsert Edge(1, \"x\");\ncommit;\n", "2"),
    ("commit;\n", "1"),
])
def test_replay_errors(commands: str, message: str, tmp_path, capsys) -> None:
    prog = tmp_path / "p.dl"
    prog.write_text(REPLAY_PROGRAM)
    dat = tmp_path / "cmds.dat"
    dat.write_text(commands)
    code = main(["replay", str(prog), "--commands", str(dat)])
    captured = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in captured.err
    assert "error" in captured.err.lower() and message in captured.err
    first = captured.err.splitlines()[0]
    assert first.startswith(f"{dat}:"), first


def test_missing_program_file(tmp_path, capsys) -> None:
    code = main(["compile", str(tmp_path / "nope.dl")])
    assert code == 1
    assert "nope.dl" in capsys.readouterr().err


@pytest.mark.parametrize("program, message", [
    ("input relation N(x: s32)\noutput relation Q(y: s32)\nQ(10 / x) :- N(x).\n",
     "division by zero"),
    # beyond 38 digits the interpreter computes bigints, and fails as DDlog panics
    ("input relation N(x: bigint)\noutput relation Q(y: bigint)\n"
     "Q(x * x * x / (x - x)) :- N(x).\n", "division by zero"),
])
def test_runtime_errors_are_clear_on_both_engines(program, message, engine) -> None:
    from dl2sql.compiler import compile_source
    from dl2sql.api.replaying import replay_program

    value = "0" if "s32" in program else "100000000000000"
    code, out, err = replay_program(compile_source(program, "<runtime>"), engine,
                                    f"start;\ninsert N({value});\ncommit dump_changes;\n",
                                    filename="cmds.dat")
    assert code == 1
    assert err.startswith("cmds.dat:3:1: error:") and message in err
    assert "the rule at <runtime>:3:1" in err  # the rule that divides
    assert "Traceback" not in err


def test_missing_extern_binding_is_a_located_error(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ERRORS / "runtime")
    dat = tmp_path / "c.dat"
    dat.write_text("start;\ninsert User(\"a\");\ncommit dump_changes;\n")
    assert main(["replay", "missing_extern.dl", "--commands", str(dat)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("missing_extern.dl:1:1: error: extern function `risk` has no "
                          "implementation")


def test_extern_binding_from_a_python_file(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ERRORS / "runtime")
    impl = tmp_path / "impl.py"
    impl.write_text("def risk(name):\n    return len(name) * 3\n")
    dat = tmp_path / "c.dat"
    dat.write_text("start;\ninsert User(\"abc\");\ncommit dump_changes;\n")
    assert main(["replay", "missing_extern.dl", "--externs", str(impl),
                 "--commands", str(dat)]) == 0
    assert capsys.readouterr().out == 'Risk:\nRisk{.name = "abc", .r = 9}: +1\n'
