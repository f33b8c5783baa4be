"""A hand-tuned PySpark semi-naive transitive closure: the yardstick for SparkRunner.

What a careful Spark engineer would write by hand (design.md, "Semi-naive evaluation"):
lineage cut by ``localCheckpoint`` every iteration, shuffle partitions = cores (set on
the session), the small edge relation broadcast, and the number of new rows observed
while the checkpoint is written, so that each iteration costs exactly one Spark action.
"""
from __future__ import annotations

import time

from pyspark.sql import DataFrame, Observation, SparkSession
from pyspark.sql import functions as F


def transitive_closure(spark: SparkSession, edges: list[tuple[int, int]],
                       max_iterations: int = 100_000) -> tuple[DataFrame, int, float]:
    """Closure of ``edges``; returns (paths DataFrame, iterations, loop seconds)."""
    edge = spark.createDataFrame(edges, "x BIGINT, y BIGINT").localCheckpoint()
    e = F.broadcast(edge.select(F.col("x").alias("ex"), F.col("y").alias("ey")))
    full = edge.distinct().localCheckpoint()
    delta = full
    parts = int(spark.conf.get("spark.sql.shuffle.partitions"))
    started = time.perf_counter()
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        step = (
            delta.join(e, delta.y == e.ex)
            .select(delta.x, F.col("ey").alias("y"))
            .distinct()
            .join(full, ["x", "y"], "left_anti")
        )
        obs = Observation()
        new = step.observe(obs, F.count(F.lit(1)).alias("n")).localCheckpoint(eager=True)
        n = obs.get["n"]
        if n == 0:
            break
        # Lazy: the union is written by the next iteration's action, no action of its
        # own; every 64 iterations it is written at once, or the chain of pending
        # unions overflows the JVM stack when a task is deserialised (~700 iterations).
        full = full.union(new).coalesce(parts).localCheckpoint(eager=iterations % 64 == 0)
        delta = new
    return full, iterations, time.perf_counter() - started
