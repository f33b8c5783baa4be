"""Replay maintains programs incrementally by default; ``--recompute`` evaluates them
from scratch at every commit. Both must print the same bytes for every test program
(every ``commit dump_changes`` and ``dump`` of its ``.dat``), on both engines."""
from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from dl2sql.cli import load_externs
from dl2sql.cli.main import main
from dl2sql.compiler import compile_file
from dl2sql.api.replaying import replay_program
from dl2sql.incremental.execute import Choice
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runner.spark_runner import SparkRunner
from dl2sql.plan.nodes import Table
from engines import costly_counts_duckdb

PROGRAMS = Path(__file__).parent / "programs"
CASES = sorted(p.name for p in PROGRAMS.iterdir() if (p / f"{p.name}.dl").is_file())
# recursion with negation and through group_by, replayed on Spark both ways as well
# (tests/test_programs.py replays every case incrementally on Spark against its
# expected output)
SPARK_CASES = ["negation", "stored_closures", "tc_cyclic", "recursive_aggregation"]
# streams, multisets, delayed relations and derivation counts (DDlog's transactional
# kinds), also replayed never recomputing a stratum, so that weights, streams and
# delays are maintained at every commit
TRANSACTIONAL = ["bag_maintenance", "delay_diff", "derivation_counts", "multiset_weights",
                 "streams"]


def _replay(case: str, runner, recompute: bool, choice=None) -> tuple[int, str, str]:
    folder = PROGRAMS / case
    flags = (folder / "flags").read_text().split() if (folder / "flags").exists() else []
    program = compile_file(str(folder / f"{case}.dl"),
                           output_internal="--output-internal-relations" in flags)
    dat = folder / f"{case}.dat"
    externs = load_externs(str(folder / "externs.py")) if (folder / "externs.py").exists() \
        else {}
    return replay_program(program, runner, dat.read_text() if dat.exists() else "",
                          init_snapshot="--no-init-snapshot" not in flags,
                          filename=str(dat), externs=externs, recompute=recompute,
                          choice=choice)


@pytest.mark.parametrize("case", CASES)
def test_incremental_equals_recompute_on_duckdb(case):
    incremental = _replay(case, DuckDBRunner(duckdb.connect()), recompute=False)
    recomputed = _replay(case, DuckDBRunner(duckdb.connect()), recompute=True)
    assert incremental == recomputed
    assert incremental[0] == 0, incremental[2]


@pytest.mark.parametrize("case", CASES)
def test_incremental_counting_little_equals_recompute(case):
    """Where counting a table costs (Spark), an update counts only what decides what
    runs next; replayed so on DuckDB, every case prints what recomputing prints."""
    incremental = _replay(case, costly_counts_duckdb(), recompute=False)
    recomputed = _replay(case, DuckDBRunner(duckdb.connect()), recompute=True)
    assert incremental == recomputed
    assert incremental[0] == 0, incremental[2]


@pytest.mark.parametrize("case", TRANSACTIONAL)
def test_transactional_kinds_maintained_equal_recompute(case, engine):
    """Weights, streams and delays maintained at every commit (no stratum recomputed)
    print what evaluating the program at every commit prints, on both engines."""
    program = compile_file(str(PROGRAMS / case / f"{case}.dl"))
    assert program.transactional  # the list holds what it says
    maintained = _replay(case, engine, recompute=False, choice=Choice.never())
    expected = (PROGRAMS / case / f"{case}.dump.expected").read_text()
    assert maintained == (0, expected, "")
    if engine.dialect == "duckdb":
        assert _replay(case, DuckDBRunner(duckdb.connect()), recompute=True) == maintained
        return
    runner = SparkRunner(engine.spark)
    try:
        assert _replay(case, runner, recompute=True) == maintained
    finally:
        for name in list(runner.tables):
            runner.drop(Table(name, ()))


@pytest.mark.parametrize("case", SPARK_CASES)
def test_incremental_equals_recompute_on_spark(case, spark):
    outputs = []
    for recompute in (False, True):
        runner = SparkRunner(spark)
        try:
            outputs.append(_replay(case, runner, recompute))
        finally:
            for name in list(runner.tables):
                runner.drop(Table(name, ()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 0, outputs[0][2]


def test_explain_says_how_each_stratum_was_maintained(capsys):
    folder = PROGRAMS / "tc_cyclic"
    args = ["replay", str(folder / "tc_cyclic.dl"), "--commands", str(folder / "tc_cyclic.dat")]
    assert main(args + ["--explain"]) == 0
    incremental = capsys.readouterr()
    assert "strata maintained at the commits:" in incremental.err
    assert "Edge: input" in incremental.err
    assert "dred" in incremental.err or "recompute" in incremental.err
    assert "__" not in incremental.err  # the compiler's helper relations stay hidden
    assert main(args + ["--recompute"]) == 0
    assert capsys.readouterr().out == incremental.out


def test_explain_names_recursion_through_group_by(capsys):
    folder = PROGRAMS / "recursive_aggregation"
    args = ["replay", str(folder / "recursive_aggregation.dl"), "--commands",
            str(folder / "recursive_aggregation.dat")]
    assert main(args + ["--explain"]) == 0
    err = capsys.readouterr().err
    assert "  Span: recompute (recursive aggregation) 5x" in err
    assert "  Fanin, Open: recompute (recursive aggregation)" in err
    assert "__" not in err  # the group_by's helpers stay hidden in the strata's names
