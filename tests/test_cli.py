"""The command line: every --emit stage, replay from stdin, check on both engines."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from dl2sql.cli import main

ROOT = Path(__file__).parent.parent
TC = ROOT / "tests" / "programs" / "tc_cyclic" / "tc_cyclic.dl"
TC_DAT = TC.with_suffix(".dat")


@pytest.mark.parametrize("stage, needle", [
    ("ast", "RelationDecl"),
    ("types", "Reach[Reach{"),
    ("strata", "(recursive): Reach"),
    ("ra", "Join[Reach AS t1, Edge AS t2]"),
    ("plan", "until empty: Reach2__new"),
    ("sql", "CREATE OR REPLACE TEMPORARY VIEW"),
])
@pytest.mark.parametrize("dialect", ["spark", "duckdb"])
def test_emit_stages(stage, needle, dialect, capsys) -> None:
    assert main(["compile", str(TC), "--emit", stage, "--dialect", dialect]) == 0
    assert needle in capsys.readouterr().out


def test_sql_is_quoted_per_dialect(capsys) -> None:
    main(["compile", str(TC), "--dialect", "spark"])
    spark_sql = capsys.readouterr().out
    main(["compile", str(TC), "--dialect", "duckdb"])
    duck_sql = capsys.readouterr().out
    assert "`Reach2__new`" in spark_sql and '"Reach2__new"' in duck_sql


def test_replay_reads_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(TC_DAT.read_text()))
    assert main(["replay", str(TC)]) == 0
    expected = TC.with_suffix(".dump.expected").read_text()
    assert capsys.readouterr().out == expected


def test_check_reports_agreement(spark, capsys) -> None:
    assert main(["check", str(TC), "--commands", str(TC_DAT)]) == 0
    assert "spark and duckdb agree" in capsys.readouterr().out


def test_check_reports_differences(capsys) -> None:
    from dl2sql.cli.main import _report_check

    code = _report_check({"duckdb": (0, "A\nB\n", ""), "spark": (0, "A\nC\n", "")})
    out = capsys.readouterr().out
    assert code == 1
    assert "-B" in out and "+C" in out


@pytest.mark.parametrize("command, defaults", [
    ("run", ["(default: spark)", "(default: parquet)"]),
    ("replay", ["(default: duckdb)"]),
    ("compile", ["(default: spark)", "the default for --dialect spark",
                 "the default for duckdb"]),
])
def test_help_names_the_defaults(command, defaults, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps long lines
    for default in defaults:
        assert default in text


@pytest.mark.parametrize("argv, message", [
    (["run", "prog.dl"], "the following arguments are required: --input, --output"),
    (["replay", "prog.dl", "--engine", "oracle"], "argument --engine: invalid choice"),
    (["frobnicate"], "argument command: invalid choice"),
])
def test_a_misused_command_line_exits_1_like_every_user_error(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 1
    err = capsys.readouterr().err
    assert message in err and "usage: dl2sql" in err and "Traceback" not in err


def test_version_is_the_installed_distributions(capsys):
    from importlib.metadata import version

    import dl2sql
    assert dl2sql.__version__ == version("dl2sql")
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"dl2sql {version('dl2sql')}\n"
