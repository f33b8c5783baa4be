"""The benchmark script runs and its variants agree on row counts (tiny inputs, so
that it cannot rot; speed itself is only measured by running it, never asserted)."""
from __future__ import annotations

from benchmarks import run


def test_benchmark_variants_agree_duckdb(capsys):
    assert run.main(["--quick", "--runs", "1", "--no-spark"]) == 0
    assert "all row counts agree" in capsys.readouterr().out


def test_benchmark_variants_agree_spark(spark, capsys):
    assert run.main(["--quick", "--runs", "1", "--only", "tc_chain200,sg"]) == 0
    out = capsys.readouterr().out
    assert "hand-tuned PySpark" in out and "all row counts agree" in out


def test_wide_ints_benchmark_runs_duckdb(capsys):
    from benchmarks import wide_ints

    assert wide_ints.main(["--no-spark", "--runs", "1", "--layers", "4", "--width", "5"]) == 0
    out = capsys.readouterr().out
    assert "bigint narrow DuckDB" in out and "bigint wide DuckDB" in out and "u64 DuckDB" in out
    assert "bigint narrow DuckDB / u64 DuckDB: wall" in out


def test_facts_benchmark_runs(capsys):
    from benchmarks import facts
    from dl2sql.syntax.facts import MIN_FACTS

    # 4 relations of 2 * MIN_FACTS facts: read as data, the path the benchmark measures
    assert facts.main(["--sizes", f"{8 * MIN_FACTS},{16 * MIN_FACTS}", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "compile spark" in out and "run duckdb" in out and "s/1k facts" in out
    assert "results agree between runs" in out


def test_deep_insertion_benchmark_runs_duckdb(capsys):
    from benchmarks import deep_insertion

    assert deep_insertion.main(["--sizes", "8", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "duckdb n=8: insertion" in out and "matched the recomputation" in out
