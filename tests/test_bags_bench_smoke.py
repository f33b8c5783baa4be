"""The streams-and-multisets benchmark runs and its maintained relations equal an
evaluation from scratch (a tiny run, so that it cannot rot; timings never asserted)."""
from __future__ import annotations

from benchmarks import bags


def test_bags_benchmark_correct_duckdb(capsys):
    code = bags.main(["--quick"])
    out = capsys.readouterr().out
    assert "equal the evaluation from scratch" in out and "WRONG" not in out, out
    assert code == 0
