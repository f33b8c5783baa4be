"""Baselines written without dl2sql: the hand-tuned PySpark loop, DuckDB's and Spark's
own recursive queries. Each returns (result rows, iterations or 0, seconds)."""
from __future__ import annotations

import time

# The linear programs as recursive CTEs: (input relations with their columns, query).
RECURSIVE_SQL = {
    "tc.dl": ({"Edge": ("x", "y")},
              "WITH RECURSIVE Path(x, y) AS (SELECT x, y FROM Edge {union} "
              "SELECT Path.x, Edge.y FROM Path JOIN Edge ON Path.y = Edge.x) "
              "SELECT count(*) FROM (SELECT DISTINCT x, y FROM Path)"),
    "sg.dl": ({"Parent": ("p", "c")},
              "WITH RECURSIVE SG(x, y) AS (SELECT a.c, b.c FROM Parent a JOIN Parent b "
              "ON a.p = b.p WHERE a.c <> b.c {union} SELECT pa.c, pb.c FROM SG "
              "JOIN Parent pa ON pa.p = SG.x JOIN Parent pb ON pb.p = SG.y) "
              "SELECT count(*) FROM (SELECT DISTINCT x, y FROM SG)"),
}


def handtuned_tc(spark, edges):
    """The hand-tuned semi-naive loop of :mod:`benchmarks.handtuned_spark`."""
    from benchmarks.handtuned_spark import transitive_closure

    started = time.perf_counter()
    full, iterations, _ = transitive_closure(spark, edges)
    n = full.count()
    return n, iterations, time.perf_counter() - started


def duckdb_recursive(con, program: str, inputs: dict):
    """DuckDB's ``WITH RECURSIVE ... UNION`` (set semantics)."""
    tables, query = RECURSIVE_SQL[program]
    started = time.perf_counter()
    for name, cols in tables.items():
        con.execute(f"CREATE OR REPLACE TABLE {name} ({cols[0]} BIGINT, {cols[1]} BIGINT)")
        con.executemany(f"INSERT INTO {name} VALUES (?, ?)", inputs[name]) \
            if len(inputs[name]) < 2000 else con.execute(
                f"INSERT INTO {name} SELECT unnest($1::BIGINT[]), unnest($2::BIGINT[])",
                [[r[0] for r in inputs[name]], [r[1] for r in inputs[name]]])
    n = con.execute(query.format(union="UNION")).fetchone()[0]
    return n, 0, time.perf_counter() - started


def spark_recursive(spark, program: str, inputs: dict):
    """Spark's ``WITH RECURSIVE`` (``UNION ALL`` only: exact on acyclic inputs, where no
    path is derived twice, and only up to its recursion level limit)."""
    tables, query = RECURSIVE_SQL[program]
    spark.conf.set("spark.sql.cteRecursionLevelLimit", "5000")
    spark.conf.set("spark.sql.cteRecursionRowLimit", str(10 ** 9))
    started = time.perf_counter()
    for name, cols in tables.items():
        spark.createDataFrame(inputs[name], f"{cols[0]} BIGINT, {cols[1]} BIGINT") \
            .createOrReplaceTempView(name)
    n = spark.sql(query.format(union="UNION ALL")).collect()[0][0]
    return n, 0, time.perf_counter() - started
