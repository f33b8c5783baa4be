"""The incremental workload suite runs every workload on DuckDB at its tiny scale, one
transaction of each size, and every maintained output equals the recomputation's (the
suite compares them after each transaction; its timings are never asserted)."""
from __future__ import annotations

from benchmarks import incremental_suite
from benchmarks.suite_data import WORKLOADS


def test_incremental_suite_correct_duckdb(capsys):
    code = incremental_suite.main(["--quick", "--engine", "duckdb"])
    out = capsys.readouterr().out
    assert "every maintained output matched the recomputation" in out, out
    assert "FAILED" not in out and "WRONG" not in out, out
    for name in WORKLOADS:  # every workload reported every size
        rows = [r for r in out.splitlines() if r.startswith(f"{name} ") and " duckdb " in r]
        assert len(rows) >= 3, (name, out)
    assert code == 0
