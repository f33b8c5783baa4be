"""The incremental benchmark runs and its maintained outputs equal a fresh evaluation
(a tiny graph, so that it cannot rot; its timings are never asserted)."""
from __future__ import annotations

from benchmarks import incremental, replay


def test_incremental_benchmark_correct_duckdb(capsys):
    code = incremental.main(["--engine", "duckdb", "--nodes", "60", "--transactions", "2",
                             "--fetch-changes",
                             "--sizes", "1,1+1,10,100"])
    out = capsys.readouterr().out
    assert "all correctness checks passed" in out and "WRONG" not in out, out
    assert code == 0


def test_replay_benchmark_runs_duckdb(capsys):
    # it fails itself when the incremental and --recompute replays print different text
    assert replay.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "tc_neg_group" in out and "sg" in out, out
