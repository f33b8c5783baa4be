"""The benchmark of the Spark SQL script against the driver
(:mod:`benchmarks.script_vs_driver`) runs, and both give the same rows (tiny graphs,
so that it cannot rot; its timings are never asserted). A step of the script costs
about a second even on tiny tables (a few statements, each a Spark job writing
Parquet), so the graphs are smaller than the other smoke tests'."""
from __future__ import annotations

from benchmarks import script_vs_driver


def test_script_vs_driver_benchmark_agrees(spark, tmp_path):
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {script_vs_driver.SCHEMA} "
              f"LOCATION '{tmp_path.as_posix()}'")
    try:
        # compare raises OutputsDiffer when the two outputs hold different rows
        results = script_vs_driver.compare(spark, script_vs_driver.workloads(8, 4), 1,
                                           do_settle=False, log=lambda *a, **k: None)
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {script_vs_driver.SCHEMA} CASCADE")
    by_name = {r["workload"]: r for r in results}
    assert set(by_name) == {"tc_random8", "tc_chain4"}
    assert all(r["same_rows"] and r["paths"] > 0 for r in results)
    chain = by_name["tc_chain4"]
    assert chain["paths"] == 6 and chain["script_steps"] == 3  # 4 * 3 / 2 paths
    assert chain["ratio_script_driver"] > 0
