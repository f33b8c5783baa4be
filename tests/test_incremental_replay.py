"""Replay maintains programs incrementally by default; ``--recompute`` evaluates them
from scratch at every commit. Both must print the same bytes for every test program
(every ``commit dump_changes`` and ``dump`` of its ``.dat``): compared here on DuckDB,
counting tables as DuckDB does and as Spark does; on Spark, tests/test_programs.py
replays each case one way or the other against its expected output."""
from __future__ import annotations


import duckdb
import pytest

from dl2sql.cli.main import main
from dl2sql.compiler import compile_file
from dl2sql.incremental.execute import Choice
from dl2sql.runner.duckdb_runner import DuckDBRunner
from engines import costly_counts_duckdb
from replays import CASES, PROGRAMS, expected_dump, replay_case

# streams, multisets, delayed relations and derivation counts (DDlog's transactional
# kinds), also replayed never recomputing a stratum, so that weights, streams and
# delays are maintained at every commit
TRANSACTIONAL = ["bag_maintenance", "delay_diff", "derivation_counts", "multiset_weights",
                 "streams"]


def _replay(case: str, runner, recompute: bool, choice=None) -> tuple[int, str, str]:
    return replay_case(PROGRAMS / case, runner, recompute=recompute, choice=choice)


def _expected(case: str) -> tuple[int, str, str]:
    """What a replay of ``case`` returns: exit code 0, its expected dump, nothing on
    stderr (tests/test_programs.py replays it incrementally against the same)."""
    return 0, expected_dump(PROGRAMS / case), ""


@pytest.mark.parametrize("case", CASES)
def test_recompute_prints_what_incremental_replay_prints(case):
    """Evaluated from scratch at every commit, every case prints what its incremental
    replay (test_program[duckdb-...]) prints: its expected dump."""
    assert _replay(case, DuckDBRunner(duckdb.connect()), recompute=True) == _expected(case)


@pytest.mark.parametrize("case", CASES)
def test_incremental_counting_little_prints_the_same(case):
    """Where counting a table costs (Spark), an update counts only what decides what
    runs next; replayed so on DuckDB, every case prints its expected dump too."""
    assert _replay(case, costly_counts_duckdb(), recompute=False) == _expected(case)


@pytest.mark.parametrize("case", TRANSACTIONAL)
def test_transactional_kinds_maintained_equal_recompute(case, engine):
    """Weights, streams and delays maintained at every commit (no stratum recomputed)
    print what evaluating the program at every commit prints, on both engines
    (recomputed on DuckDB; tests/test_programs.py evaluates programs at every commit
    on Spark)."""
    program = compile_file(str(PROGRAMS / case / f"{case}.dl"))
    assert program.transactional  # the list holds what it says
    maintained = _replay(case, engine, recompute=False, choice=Choice.never())
    # what recomputing prints (test_recompute_prints_what_incremental_replay_prints)
    assert maintained == _expected(case)


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
