"""The frames of a transaction's changes (``Maintained.changes``): right on both
engines, and on Spark read as one partition where their tables are known to be small,
so that counting one is a single Spark job (dl2sql/runner/spark_runner.py, frame_of)."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.plan.thresholds import SparkThresholds
from engines import maintain_on, sorted_rows
from graphs import closure

PROGRAM = """
input relation Edge(s: u32, d: u32)
output relation Path(s: u32, d: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Edge(s, m), Path(m, d).
"""

START = {(i, i + 1) for i in range(30)}


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def weighted_changes(before: set, after: set) -> list:
    return sorted([(s, d, 1) for s, d in after - before] +
                  [(s, d, -1) for s, d in before - after])


def test_changes_are_right(program, engine):
    live = maintain_on(program, engine, {"Edge": sorted(START)})
    edges = set(START)
    for inserted, deleted in [([(30, 31)], [(10, 11)]), ([(10, 11)], [(0, 1), (30, 31)])]:
        changes = live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        before, edges = closure(edges), (edges - set(deleted)) | set(inserted)
        assert sorted_rows(changes["Path"]) == weighted_changes(before, closure(edges))


def jobs_of(spark, action) -> int:
    """The Spark jobs that ``action`` runs."""
    sc = spark.sparkContext
    sc.setJobGroup("dl2sql-test-change-frames", "counting a frame of changes")
    try:
        action()
        return len(sc.statusTracker().getJobIdsForGroup("dl2sql-test-change-frames"))
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)


def test_small_changes_are_one_partition_counted_in_one_job(program, spark):
    live = program.maintain(spark=spark, inputs={"Edge": sorted(START)})
    changes = live.apply(insert={"Edge": [(30, 31)]}, delete={"Edge": [(29, 30)]})
    frame = changes["Path"]
    assert frame.rdd.getNumPartitions() == 1
    before = closure(START)
    after = closure((START - {(29, 30)}) | {(30, 31)})
    assert jobs_of(spark, frame.count) == 1
    assert frame.count() == len(weighted_changes(before, after))


def test_changes_beyond_the_bound_keep_their_partitions(program, spark):
    live = program.maintain(spark=spark, inputs={"Edge": sorted(START)},
                            thresholds=SparkThresholds(one_partition_rows=0))
    changes = live.apply(insert={"Edge": [(30, 31)]}, delete={"Edge": [(29, 30)]})
    plan = changes["Path"]._jdf.queryExecution().logical().toString()
    assert "Repartition" not in plan
    assert sorted_rows(changes["Path"]) == weighted_changes(
        closure(START), closure((START - {(29, 30)}) | {(30, 31)}))
