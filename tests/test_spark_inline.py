"""A few rows loaded into Spark as a table of literals (dl2sql.runner.spark_inline):
the same rows, of the same types, as ``createDataFrame`` gives, for every type a
column can have; held in the plan, with no Python data to read; and tables whose
types have no literal there, or with no rows, are left to ``createDataFrame``."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from dl2sql.plan.nodes import Column, Table
from dl2sql.runner.spark_inline import inline_query, inlinable
from dl2sql.runner.spark_types import schema_ddl
from profiles import examples

_T = exp.DataType.build
TYPES = {
    "n": _T("BIGINT"), "wide": _T("DECIMAL(38, 0)"), "flag": _T("BOOLEAN"),
    "text": _T("STRING"), "x": _T("DOUBLE"), "f": _T("FLOAT"),
    "pair": _T("STRUCT<`a`: BIGINT, `b`: STRING>", dialect="spark"),
    "nums": _T("ARRAY<BIGINT>", dialect="spark"),
    "entries": _T("ARRAY<STRUCT<`_0`: STRING, `_1`: DOUBLE>>", dialect="spark"),
}
TABLE = Table("Many", tuple(Column(n, t) for n, t in TYPES.items()))
ROWS = [
    (0, 0, False, "", 0.0, 0.0, (0, ""), [], []),
    (-2**63, -(10**38 - 1), True, "it's a \\ back'slash\n\ttab \u00e9\U0001f600 ${x}",
     float("nan"), float("inf"), (2**63 - 1, "'"), [1, -1, 2**62], [("k", -0.0), ("", 1e-300)]),
    (7, 10**38 - 1, True, '"quoted" -- not a comment /* nor this */', float("-inf"),
     1.5, (-7, "\\'"), [3], [("k2", 2.5e300), ("k3", float("nan"))]),
]


def _collected(df) -> list[tuple]:
    return [tuple(r) for r in df.collect()]


def _same(a, b) -> bool:  # NaN equal to NaN, -0.0 told from 0.0, rows compared deeply
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) ==
                                                      math.copysign(1, b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


def _inline(spark, table, rows):
    return spark.sql(inline_query(table, rows).sql(dialect="spark"))


def test_literals_give_what_create_dataframe_gives(spark):
    import decimal
    converted = [(r[0], decimal.Decimal(r[1])) + r[2:] for r in ROWS]
    expected = spark.createDataFrame(converted, schema=schema_ddl(TABLE))
    df = _inline(spark, TABLE, ROWS)
    # the same types (nullability aside: no SQL NULL stands for a DDlog value)
    assert df.schema.simpleString() == expected.schema.simpleString()
    assert df.columns == list(TYPES)
    got, want = _collected(df), _collected(expected)
    assert len(got) == len(want) == len(ROWS)
    for g, w in zip(got, want):
        assert _same(g, w), (g, w)
    # the rows are in the plan: no RDD of Python data behind them
    plan = df._jdf.queryExecution().optimizedPlan().toString()
    assert "LocalRelation" in plan and "ExistingRDD" not in plan


@settings(max_examples=examples(25),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.text(), st.floats(), st.integers(-2**63, 2**63 - 1)),
                min_size=1, max_size=5))
def test_any_text_and_number_round_trips(spark, rows):
    table = Table("T", (Column("s", _T("STRING")), Column("x", _T("DOUBLE")),
                        Column("n", _T("BIGINT"))))
    got = _collected(_inline(spark, table, rows))
    assert len(got) == len(rows)
    for g, w in zip(got, rows):
        assert _same(g, w), (g, w)


def test_no_rows_is_an_empty_select_of_the_types(spark):
    expected = spark.createDataFrame([], schema=schema_ddl(TABLE))
    df = _inline(spark, TABLE, [])
    assert df.schema.simpleString() == expected.schema.simpleString()
    assert df.count() == 0
    plan = df._jdf.queryExecution().optimizedPlan().toString()
    assert "LocalRelation" in plan and "ExistingRDD" not in plan


def test_what_is_left_to_create_dataframe():
    assert inline_query(Table("E", ()), []) is None  # no column to select
    dated = Table("D", (Column("d", _T("DATE")),))
    assert not inlinable(dated.columns[0].type)
    assert inline_query(dated, [(None,)]) is None
    nested = _T("ARRAY<STRUCT<`a`: DATE>>", dialect="spark")
    assert not inlinable(nested) and inlinable(TYPES["entries"])
