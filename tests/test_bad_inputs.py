"""The bad-input corpus (tests/bad_inputs/cases.py): every case exits 1 with a message
saying what to fix, without a Python traceback, and writes nothing; on both engines
where the case reads data (and the engines give the same message)."""
from __future__ import annotations

import os

import pytest

from bad_inputs.cases import CASES, PROGRAM
from dl2sql.cli import main

PARAMS = [pytest.param(case, engine, id=f"{case.id}-{engine}")
          for case in CASES for engine in case.engines]


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40
    assert len({case.id for case in CASES}) == len(CASES)


def _run(case, engine, tmp_path, monkeypatch, capsys) -> tuple[int, str]:
    tmp_path.mkdir()
    monkeypatch.chdir(tmp_path)
    for name, text in (("prog.dl", case.program or PROGRAM), ("cmds.dat", case.commands)):
        path = tmp_path / name  # bytes: a file that is not UTF-8
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    if case.id != "input-dir-missing":
        (tmp_path / "in").mkdir()
    for name, text in case.files:
        (tmp_path / "in" / name).write_text(text)
    before = sorted(os.listdir(tmp_path))
    argv = [arg.replace("{engine}", engine) for arg in case.argv]
    try:
        code = main(argv)
    except SystemExit as done:  # argparse: usage errors
        code = done.code
    assert sorted(os.listdir(tmp_path)) == before  # nothing written, nothing half-written
    return code, capsys.readouterr().err


def _errors(err: str) -> list[str]:
    return [line for line in err.splitlines() if "error:" in line]


@pytest.mark.parametrize("case, engine", PARAMS)
def test_bad_input_says_what_to_fix(case, engine, tmp_path, monkeypatch, capsys,
                                    request) -> None:
    if engine == "spark":
        request.getfixturevalue("spark")  # the shared session, started outside the run
    code, err = _run(case, engine, tmp_path / engine, monkeypatch, capsys)
    assert code == 1, err
    assert case.message in err
    assert "Traceback" not in err
    assert _errors(err), err
    if engine == "spark":  # and DuckDB says the same of it
        _, duckdb_err = _run(case, "duckdb", tmp_path / "duckdb", monkeypatch, capsys)
        assert _errors(err) == _errors(duckdb_err)
