"""Probes of a large table by a few rows, narrowed before Spark joins them
(dl2sql.runner.spark_probes): which probes are rewritten, and that Spark answers the
rewritten query as the original, for negations and existence tests."""
from __future__ import annotations

import sqlglot
from sqlglot import exp

from dl2sql.runner.spark_probes import narrowed, narrows
from dl2sql.plan.thresholds import SparkThresholds

LIMITS = SparkThresholds()

NEGATION = ("SELECT DISTINCT t1.d AS s, t1.s AS d FROM Changed AS t1 WHERE NOT EXISTS("
            "SELECT 1 FROM Big AS t2 WHERE t2.s = t1.d AND t2.d = t1.s)")
EXISTENCE = ("SELECT h.s, t1.d FROM Head AS h JOIN Changed AS t1 ON h.s = t1.s WHERE EXISTS("
             "SELECT 1 FROM Big AS t2 WHERE t2.s = t1.s AND t2.d = t1.d AND t2.d > 2)")
TWO_TABLES = ("SELECT h.s FROM Head AS h JOIN Changed AS t1 ON h.s = t1.s WHERE NOT EXISTS("
              "SELECT 1 FROM Big AS t2 WHERE t2.s = h.s AND t2.d = t1.d)")

SIZES = {"Changed": 2, "Head": 3, "Big": 10_000}


def _parse(text: str) -> exp.Expression:
    return sqlglot.parse_one(text, read="spark")


def _probed_tables(query: exp.Expression) -> list[str]:
    """The tables the EXISTS subqueries read directly (not through a subquery)."""
    return [e.this.args.get("from_", e.this.args.get("from")).this.sql("spark")
            for e in query.find_all(exp.Exists)]


def test_sizes_decide():
    assert narrows(1, LIMITS.narrow_factor, LIMITS)
    assert not narrows(1, LIMITS.narrow_factor - 1, LIMITS)
    assert not narrows(None, 10**6, LIMITS) and not narrows(1, None, LIMITS)
    assert not narrows(10**6, 10**9, LIMITS)  # too many keys to broadcast
    # the thresholds are the caller's
    assert narrows(10**6, 10**9, SparkThresholds(narrow_rows=10**6))
    assert not narrows(1, 100, SparkThresholds(narrow_factor=101))


def test_a_small_table_probing_a_large_one_is_narrowed():
    query = _parse(NEGATION)
    out = narrowed(query, SIZES.get, {}, LIMITS)
    assert out is not query and query.sql("spark") == _parse(NEGATION).sql("spark")
    text = out.sql("spark")
    assert "LEFT SEMI JOIN" in text and "BROADCAST(dl2sql_keys)" in text
    assert _probed_tables(out) != _probed_tables(query)
    # the same tree while the sizes choose the same
    cache: dict = {}
    assert narrowed(query, SIZES.get, cache, LIMITS) is narrowed(query, SIZES.get, cache, LIMITS)


def test_probes_left_as_they_are():
    for text, sizes in [(NEGATION, {**SIZES, "Changed": 5_000}),  # not small enough
                        (NEGATION, {"Big": 10_000}),  # the probing table's size unknown
                        (TWO_TABLES, SIZES),  # compared with two tables
                        ("SELECT 1 FROM Changed AS t1", SIZES)]:  # no probe
        query = _parse(text)
        assert narrowed(query, sizes.get, {}, LIMITS) is query, text


def test_spark_answers_the_narrowed_query_as_the_original(spark):
    big = [(s, d) for s in range(12) for d in range(12) if (s * 7 + d) % 3]
    tables = {"Big": big, "Changed": [(1, 2), (2, 1), (4, 5), (5, 3), (9, 9), (0, 11)],
              "Head": [(1,), (4,), (9,), (0,)]}
    for name, rows in tables.items():
        schema = "s int" if name == "Head" else "s int, d int"
        spark.createDataFrame(rows, schema).createOrReplaceTempView(name)
    for text in (NEGATION, EXISTENCE):
        query = _parse(text)
        out = narrowed(query, SIZES.get, {}, LIMITS)
        assert out is not query
        original = sorted(map(tuple, spark.sql(query.sql("spark")).collect()))
        assert 0 < len(original) < len(tables["Changed"])  # the probe decides something
        assert sorted(map(tuple, spark.sql(out.sql("spark")).collect())) == original
