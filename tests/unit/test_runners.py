"""Runners on both engines, with hand-built plans (no compiler involved)."""
from __future__ import annotations

import dataclasses

import pytest
import sqlglot
from sqlglot import exp

from graphs import closure
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.plan.interpret import execute, fetch_relation
from dl2sql.plan.nodes import Append, Column, Loop, Materialize, Plan, Rename, Table
from dl2sql.runner.progress import RecordingProgress


def T(name: str, *cols: tuple[str, str]) -> Table:
    return Table(name, tuple(Column(n, exp.DataType.build(t, dialect="spark")) for n, t in cols))


def q(sql: str) -> exp.Expression:
    return sqlglot.parse_one(sql, read="duckdb")


def as_set(rows):
    return {_hashable(r) for r in rows}


def _hashable(v):
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


# --- values -------------------------------------------------------------------------

ALL_TYPES = T(
    "Values",
    ("i", "BIGINT"),
    ("d", "DECIMAL(38,0)"),
    ("b", "BOOLEAN"),
    ("s", "STRING"),
    ("f", "DOUBLE"),
    ("st", "STRUCT<_0: BIGINT, _1: STRUCT<tag: BIGINT, name: STRING>>"),
    ("arr", "ARRAY<STRUCT<k: STRING, v: DECIMAL(38,0)>>"),
)

ROWS = [
    (0, 0, False, "", 0.0, (0, (0, "")), []),
    (
        -(2**63),
        2**64 + 5,
        True,
        "it's \"quoted\" \\ back",
        -1.5,
        (7, (1, "Zoë")),
        [("a", 2**100), ("b", -(10**37))],
    ),
    (
        2**63 - 1,
        -(10**38 - 1),
        True,
        "日本語 ünïcödé ✓",
        1e300,
        (-1, (2, "x'y")),
        [("", 0)],
    ),
]


def test_load_fetch_round_trip(engine):
    engine.load(ALL_TYPES, ROWS)
    got = engine.fetch(ALL_TYPES)
    assert sorted(got, key=repr) == sorted(ROWS, key=repr)
    # exact normalised Python types, not just equal values
    by_i = {r[0]: r for r in got}
    row = by_i[-(2**63)]
    assert type(row[1]) is int and type(row[2]) is bool and type(row[4]) is float
    assert isinstance(row[5], tuple) and isinstance(row[5][1], tuple)
    assert isinstance(row[6], list) and row[6][0] == ("a", 2**100)


def test_load_empty_and_many_rows(engine):
    edge = T("E", ("x", "BIGINT"), ("y", "BIGINT"))
    engine.load(edge, [])
    assert engine.fetch(edge) == []
    rows = [(i, i * 7 % 1000) for i in range(5000)]
    engine.load(edge, rows)  # replaces the empty table
    assert sorted(engine.fetch(edge)) == rows


def test_load_rejects_wrong_arity(engine):
    with pytest.raises(ValueError, match="row 1 has 1 columns"):
        engine.load(T("E", ("x", "BIGINT"), ("y", "BIGINT")), [(1, 2), (3,)])


def test_materialize_count_append_rename(engine):
    a = T("A", ("x", "BIGINT"))
    b = T("B", ("x", "BIGINT"))
    engine.load(a, [(1,), (2,), (2,), (3,)])
    n = engine.materialize(b, q("SELECT DISTINCT x FROM A WHERE x > 1"), count=True)
    assert n == 2
    assert engine.materialize(b, q("SELECT x FROM A WHERE x > 10"), count=True) == 0
    assert engine.materialize(b, q("SELECT x + 10 AS x FROM A"), count=False) is None
    engine.append(a, b)
    assert sorted(engine.fetch(a)) == [(1,), (2,), (2,), (3,), (11,), (12,), (12,), (13,)]
    engine.rename(a, b)
    assert sorted(engine.fetch(a)) == [(11,), (12,), (12,), (13,)]


def test_held_rows_read_as_a_table_by_every_statement(engine):
    """A held table (rows made on the driver) is read like a loaded one: by a patch's
    rows removed and added, an append, a query, a count, a fetch, a frame and a
    rename; on DuckDB it is made only when a query reads it."""
    target = T("Held_T", ("x", "BIGINT"), ("s", "STRING"))
    engine.load(target, [(1, "a"), (2, "b"), (3, "c")])
    plus = T("Held_P", ("x", "BIGINT"), ("s", "STRING"))
    minus = T("Held_M", ("x", "BIGINT"), ("s", "STRING"))
    engine.hold(plus, [(4, "d"), (5, "it's")])
    engine.hold(minus, [(2, "b")])
    assert engine.size(plus) == 2 and engine.size(minus) == 1
    engine.patch(target, plus, minus)
    assert sorted(engine.fetch(target)) == [(1, "a"), (3, "c"), (4, "d"), (5, "it's")]
    if engine.dialect == "duckdb":  # patched from the rows: neither table made
        made = {r[0] for r in engine.con.execute(
            "SELECT table_name FROM duckdb_tables()").fetchall()}
        assert not {"Held_P", "Held_M"} & made
    engine.hold(plus, [(6, "f")])  # held again: replaces what it held
    engine.append(target, plus)
    n = engine.materialize(minus, q("SELECT x, s FROM Held_P UNION ALL "
                                    "SELECT x, s FROM Held_T WHERE x < 2"), count=True)
    assert n == 2 and sorted(engine.fetch(minus)) == [(1, "a"), (6, "f")]
    engine.hold(plus, [(7, "g")])
    frame = engine.frame_of(q("SELECT x FROM Held_P"))
    rows = frame.collect() if hasattr(frame, "collect") else frame.fetchall()
    assert [tuple(r) for r in rows] == [(7,)]
    engine.hold(minus, [(8, "h")])
    engine.rename(plus, minus)
    assert engine.fetch(plus) == [(8, "h")]
    engine.hold(minus, [(9, "i")])
    engine.drop(minus)
    engine.load(minus, [])
    assert engine.fetch(minus) == [] and engine.size(minus) == 0
    with pytest.raises(ValueError, match="row 0 has 1 columns"):
        engine.hold(minus, [(1,)])


def test_fetch_all_gives_each_table_its_own_rows(engine):
    engine.load(ALL_TYPES, ROWS)
    other = dataclasses.replace(ALL_TYPES, name="Values2")
    engine.load(other, ROWS[1:])
    empty = dataclasses.replace(ALL_TYPES, name="Values3")
    engine.load(empty, [])
    pair = T("Pair", ("x", "BIGINT"), ("y", "BIGINT"))  # another row type
    engine.load(pair, [(1, 2)])
    expected = [sorted(ROWS[1:], key=repr), [], sorted(ROWS, key=repr)]
    # one row type (on Spark, one union of them), then with another type beside them
    for tables, wanted in (([other, empty, ALL_TYPES], expected),
                           ([other, empty, ALL_TYPES, pair], expected + [[(1, 2)]])):
        got = engine.fetch_all(tables)
        assert [sorted(rows, key=repr) for rows in got] == wanted
        by_i = {r[0]: r for r in got[2]}  # normalised as fetch gives them
        row = by_i[-(2**63)]
        assert type(row[1]) is int and isinstance(row[5][1], tuple)
        assert isinstance(row[6], list) and row[6][0] == ("a", 2**100)
    assert engine.fetch_all([]) == []


def test_materialize_counted_makes_and_counts_each_table(engine):
    a = T("A3", ("x", "BIGINT"))
    b, c, d = T("B3", ("x", "BIGINT")), T("C3", ("x", "BIGINT")), T("D3", ("y", "STRING"))
    engine.load(a, [(i,) for i in range(10)])
    with engine.transaction():
        counts = engine.materialize_counted([
            (b, q("SELECT x FROM A3 WHERE x < 3")), (c, q("SELECT x FROM A3 WHERE x > 100")),
            (d, q("SELECT DISTINCT CAST(x % 2 AS STRING) AS y FROM A3"))])
    assert counts == [3, 0, 2]
    assert sorted(engine.fetch(b)) == [(0,), (1,), (2,)] and engine.fetch(c) == []
    assert sorted(engine.fetch(d)) == [("0",), ("1",)]
    assert [engine.size(t) for t in (b, c, d)] == [3, 0, 2]


def test_spark_materialize_counted_is_one_action_in_a_transaction(spark):
    """Counted together, and not filled again when the transaction ends."""
    from dl2sql.runner.spark_runner import SparkRunner

    runner = SparkRunner(spark)
    a, b, c = T("A4", ("x", "BIGINT")), T("B4", ("x", "BIGINT")), T("C4", ("x", "BIGINT"))
    runner.load(a, [(i,) for i in range(10)])
    before = runner.actions
    with runner.transaction():
        assert runner.materialize_counted([(b, q("SELECT x FROM A4 WHERE x < 3")),
                                           (c, q("SELECT x + 1 AS x FROM A4"))]) == [3, 10]
    assert runner.actions - before == 1
    assert sorted(runner.fetch(c)) == [(i,) for i in range(1, 11)]


def test_spark_fetch_all_of_one_row_type_is_one_action(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    runner = SparkRunner(spark)
    a, b = T("A2", ("x", "BIGINT")), T("B2", ("y", "BIGINT"))
    runner.load(a, [(i,) for i in range(3)])
    runner.materialize(b, q("SELECT x * 10 AS y FROM A2 WHERE x > 0"), count=False)
    before = runner.actions
    assert [sorted(r) for r in runner.fetch_all([b, a])] == [[(10,), (20,)], [(0,), (1,), (2,)]]
    assert runner.actions - before == 1


def test_spark_count_is_one_action(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    runner = SparkRunner(spark)
    a, b = T("A1", ("x", "BIGINT")), T("B1", ("x", "BIGINT"))
    runner.load(a, [(i,) for i in range(100)])
    before = runner.actions
    assert runner.materialize(b, q("SELECT DISTINCT x % 7 AS x FROM A1"), count=True) == 7
    assert runner.actions - before == 1
    runner.append(a, b)  # lazy: no action of its own
    assert runner.actions - before == 1
    assert runner.count(a) == 107


def test_spark_lazy_patches_keep_the_size_joins_are_planned_with(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    runner = SparkRunner(spark)
    a, m = T("PA", ("x", "BIGINT")), T("PM", ("x", "BIGINT"))
    runner.load(a, [(i,) for i in range(2000)])
    for gone in range(3):  # each transaction patches the relation again, uncounted
        runner.load(m, [(gone,)])
        before = runner.actions
        runner.patch(a, None, m)
        assert runner.actions == before and runner.sizes["PA"] is None
        # the size before the first patch still chooses the relation's joins
        assert runner._estimates["PA"] == 2000
    assert runner.count(a) == 1997
    runner.rename(m, a)
    assert runner._estimates.get("PA") is None and runner._estimates["PM"] == 2000
    runner.drop(m)
    assert "PM" not in runner._estimates


def test_spark_views_follow_the_tables_queries_read(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    runner = SparkRunner(spark)
    a, b, c = T("VA", ("x", "BIGINT")), T("VB", ("x", "BIGINT")), T("VC", ("x", "BIGINT"))
    runner.load(a, [(1,), (2,)])
    runner.load(b, [(10,)])
    # SHOW VIEWS: spark.catalog.listTables cannot decode its rows with the shared
    # session's interpreted expressions (conftest.TEST_SQL_SETTINGS)
    views = lambda: {r.viewName for r in spark.sql("SHOW VIEWS").collect()  # noqa: E731
                     if r.isTemporary}
    # registered when a query reads them, not when they are set
    assert "VA" not in views()
    assert runner.materialize(c, q("SELECT x FROM VA"), count=True) == 2
    assert "VA" in views() and "VB" not in views() and "VC" not in views()
    # a table changed by append or rename is shown anew to the next query
    runner.append(a, b)
    assert runner.materialize(c, q("SELECT x FROM VA"), count=True) == 3
    runner.rename(a, b)
    assert runner.materialize(c, q("SELECT x FROM VA"), count=True) == 1
    runner.drop(a)
    assert "VA" not in views()


# --- loops --------------------------------------------------------------------------

def tc_plan(max_iterations: int = 1000) -> Plan:
    """Semi-naive transitive closure, as the planner lays it out."""
    edge = T("Edge", ("x", "BIGINT"), ("y", "BIGINT"))
    full = T("Path_full", ("x", "BIGINT"), ("y", "BIGINT"))
    delta = T("Path_delta", ("x", "BIGINT"), ("y", "BIGINT"))
    new = T("Path_new", ("x", "BIGINT"), ("y", "BIGINT"))
    return Plan(
        inputs=(edge,),
        statements=(
            Materialize(full, q("SELECT DISTINCT x, y FROM Edge")),
            Materialize(delta, q("SELECT x, y FROM Path_full")),
            Loop(
                body=(
                    Materialize(
                        new,
                        q(
                            "SELECT DISTINCT d.x, e.y FROM Path_delta AS d "
                            "JOIN Edge AS e ON d.y = e.x "
                            "EXCEPT SELECT x, y FROM Path_full"
                        ),
                        count=True,
                    ),
                    Append(full, new),
                    Rename(delta, new),
                ),
                until_empty=("Path_new",),
                stratum="Path",
                max_iterations=max_iterations,
            ),
        ),
        relations={"Path": full, "Edge": edge},
    )




def test_transitive_closure_cyclic_graph(engine):
    # a 3-cycle with a tail, a self-loop, and a separate component
    edges = [(1, 2), (2, 3), (3, 1), (3, 4), (4, 5), (6, 6), (7, 8), (1, 2)]
    rec = RecordingProgress()
    execute(tc_plan(), engine, {"Edge": edges}, progress=rec)
    got = fetch_relation(tc_plan(), engine, "Path")
    assert len(got) == len(set(got)), "Path_full must hold no duplicates"
    # 1, 2 and 3 reach 1..5; 4→5; 6→6; 7→8
    expected = {(a, b) for a in (1, 2, 3) for b in (1, 2, 3, 4, 5)} | {(4, 5), (6, 6), (7, 8)}
    assert set(got) == expected == closure(set(edges))
    assert rec.loops and rec.loops[0][0] == "Path"
    assert rec.iterations[-1][2] == {"Path_new": 0}
    # iterations count semi-naive steps, one per check in this plan's loop
    assert [it for _, it, _, _ in rec.iterations] == list(range(1, len(rec.iterations) + 1))


def test_loops_run_the_steps_per_check_the_plan_gives(engine):
    """Several steps per check once a counted delta was small, the first one alone."""
    plan = tc_plan()
    loop = next(s for s in plan.statements if isinstance(s, Loop))
    fused = dataclasses.replace(plan, statements=tuple(
        dataclasses.replace(s, steps_per_check=3) if s is loop else s
        for s in plan.statements))
    rec = RecordingProgress()
    chain = [(i, i + 1) for i in range(12)]
    execute(fused, engine, {"Edge": chain}, progress=rec)
    assert [it for _, it, _, _ in rec.iterations][:3] == [1, 4, 7]
    assert set(fetch_relation(fused, engine, "Path")) == closure(set(chain))


def test_transitive_closure_missing_input_is_empty(engine):
    execute(tc_plan(), engine, {})
    assert fetch_relation(tc_plan(), engine, "Path") == []


def test_max_iterations(engine):
    chain = [(i, i + 1) for i in range(10)]
    with pytest.raises(RuntimeFailure) as info:
        execute(tc_plan(max_iterations=3), engine, {"Edge": chain})
    msg = str(info.value)
    assert "Path" in msg and "3 iterations" in msg and "Path_new " in msg


def test_fetch_unknown_relation(engine):
    execute(tc_plan(), engine, {"Edge": [(1, 2)]})
    with pytest.raises(KeyError, match="known: Edge, Path"):
        fetch_relation(tc_plan(), engine, "Nope")
