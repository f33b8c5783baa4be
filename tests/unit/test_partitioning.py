"""Partition keys of recursive strata (dl2sql.plan.partitioning) and how the Spark runner
keeps its loop tables partitioned on them."""
from __future__ import annotations

import contextlib
import dataclasses
import re

import pytest
from sqlglot import exp

import dl2sql
from dl2sql.compiler import compile_source
from dl2sql.plan.interpret import execute
from dl2sql.plan.nodes import Choose, Loop, Materialize
from dl2sql.plan.partitioning import hashable
from dl2sql.engines import ENGINES
from dl2sql.types.model import MAP, VEC, TDouble, TNamed, TSigned, TString, TTuple
from engines import session_setting
from std_env import std_env
from test_runners import closure

# Spark's loop policy without doubling: the tests below look at the linear loop
LINEAR = dataclasses.replace(ENGINES["spark"].loops, closure_by_doubling=False)

TC = """
input relation Edge(x: s64, y: s64)
output relation Path(x: s64, y: s64)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
"""


def keys_of(source: str, dialect: str = "spark") -> dict[str, tuple[str, ...]]:
    plan = compile_source(source).plan_for(dialect)
    tables = list(plan.inputs) + list(plan.relations.values())
    return {t.name: t.partition_by for t in tables}


def loop_of(plan) -> Loop:
    """The plan's (first) loop; of a transitive closure, the linear evaluation's."""
    for stmt in plan.statements:
        if isinstance(stmt, Choose):
            stmt = next(s for s in stmt.linear if isinstance(s, Loop))
        if isinstance(stmt, Loop):
            return stmt
    raise AssertionError("no loop in plan")


def test_linear_closure_partitions_on_the_join_columns():
    keys = keys_of(TC)
    assert keys["Path"] == ("y",)  # the delta is joined on its second column
    assert keys["Edge"] == ("x",)  # ... with Edge's first
    # DuckDB does not partition: its plan carries no keys
    assert not any(keys_of(TC, "duckdb").values())


def test_left_recursive_closure_partitions_on_the_other_column():
    keys = keys_of(TC.replace("Path(x, y), Edge(y, z)", "Edge(x, y), Path(y, z)"))
    assert keys["Path"] == ("x",) and keys["Edge"] == ("y",)


def test_loop_tables_share_the_key_and_spark_distributes_before_distinct():
    body = loop_of(compile_source(TC).plan_for("spark")).body
    new = next(s for s in body if isinstance(s, Materialize))
    assert new.target.partition_by == ("y",)
    distributes = list(new.query.find_all(exp.Distribute))
    assert [d.expressions[0].name for d in distributes] == ["y"]
    # the DISTINCT is outside the distributed select, not inside it
    inner = distributes[0].parent
    assert not inner.args.get("distinct")
    assert "DISTRIBUTE BY" in new.query.sql(dialect="spark")


def test_doubling_evaluation_is_not_partitioned():
    choose = next(s for s in compile_source(TC).plan_for("spark").statements
                  if isinstance(s, Choose))
    doubling = [s for s in choose.doubling if isinstance(s, Materialize)]
    doubling += [s for loop in choose.doubling if isinstance(loop, Loop) for s in loop.body
                 if isinstance(s, Materialize)]
    assert doubling and all(s.target.partition_by == () for s in doubling)
    assert "DISTRIBUTE BY" not in " ".join(s.query.sql(dialect="spark") for s in doubling)


def test_non_recursive_and_float_columns_get_no_key():
    keys = keys_of("""
input relation E(x: double, y: double)
output relation R(x: double, y: double)
R(x, y) :- E(x, y).
R(x, z) :- R(x, y), E(y, z).
output relation S(a: s64)
input relation F(a: s64)
S(a) :- F(a).
""")
    assert keys["R"] == () and keys["E"] == ()  # -0.0 = 0.0 but hashes differently
    assert keys["S"] == () and keys["F"] == ()


def test_hashable_types():
    env = std_env()
    assert hashable(TSigned(64), env)
    assert hashable(TTuple((TString(), TNamed(VEC, (TSigned(64),)))), env)
    assert not hashable(TNamed(VEC, (TDouble(),)), env)
    assert not hashable(TNamed(MAP, (TString(), TDouble())), env)
    assert hashable(TNamed(MAP, (TString(), TSigned(64))), env)  # an array of pairs


def test_mutual_recursion_keys_follow_each_delta():
    keys = keys_of("""
input relation E(a: string, b: string)
output relation Even(a: string, b: string)
output relation Odd(a: string, b: string)
Odd(a, b) :- E(a, b).
Even(a, c) :- Odd(a, b), E(b, c).
Odd(a, c) :- Even(a, b), E(b, c).
""")
    assert keys["Even"] == ("b",) and keys["Odd"] == ("b",) and keys["E"] == ("a",)


class _RefusingConf:
    """A session conf that accepts its first change and refuses the next."""

    def __init__(self):
        self.values = {"spark.sql.adaptive.enabled": "true"}
        self.sets = 0

    def get(self, key, default=None):
        return self.values.get(key, default)

    def set(self, key, value):
        self.sets += 1
        if self.sets == 2:
            raise RuntimeError("cannot modify the value of a static config")
        self.values[key] = value

    def unset(self, key):
        self.values.pop(key, None)


def test_a_session_refusing_the_settings_is_left_as_it_was():
    from types import SimpleNamespace

    from dl2sql.runner.spark_partitioning import CoPartitioner

    conf = _RefusingConf()
    co = CoPartitioner(SimpleNamespace(conf=conf), partitions=2)
    table = compile_source(TC).plan_for("spark").relations["Path"]
    assert co.wants(table)
    with co.planning(table):
        assert not co.wants(table)  # partitioning given up for this runner
    assert conf.values == {"spark.sql.adaptive.enabled": "true"}


# --- on Spark ------------------------------------------------------------------------
# (two partitions per table, whatever the session's parallelism: the test run's shared
# session has one, conftest.TEST_SESSION_SETTINGS)

def _partitioning(df) -> str:
    return df._jdf.queryExecution().executedPlan().outputPartitioning().toString()


def test_spark_loop_tables_stay_partitioned_and_confs_are_restored(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    program = compile_source(TC)
    plan = program.plan_for("spark", LINEAR)
    edges = [(i, i + 1) for i in range(30)] + [(30, 0)]  # a cycle of 31 nodes
    before = {k: spark.conf.get(k) for k in ("spark.sql.adaptive.enabled",
                                           "spark.sql.requireAllClusterKeysForCoPartition")}
    runner = SparkRunner(spark, partitions=2)
    execute(plan, runner, {"Edge": edges})
    rows = runner.fetch(plan.relations["Path"])
    assert len(rows) == 31 * 31 and len(set(rows)) == len(rows)
    # the user's session plans as before
    assert {k: spark.conf.get(k) for k in before} == before
    # the relation and its input are partitioned on their keys after 31 appends; the
    # hash partitioning is on the second column of Path, the first of Edge
    # (Path is a union of stored pieces: planned as loop queries are, without AQE)
    # (fresh DataFrames: fetch planned the stored one already, with AQE)
    path, edge = runner.tables["Path"].select("*"), runner.tables["Edge"].select("*")
    with runner.co.holding():
        assert _partitioning(path).startswith("hashpartitioning(y#")
        assert _partitioning(edge).startswith("hashpartitioning(x#")
        assert path.rdd.getNumPartitions() == runner.partitions
    every = runner.thresholds.compact_every
    assert 1 < len(runner._pieces["Path"]) <= every  # 31 appends, few pieces


def test_spark_loop_step_shuffles_once(spark):
    from dl2sql.runner.spark_runner import SparkRunner

    program = compile_source(TC)
    plan = program.plan_for("spark", LINEAR)
    runner = SparkRunner(spark, partitions=2)
    execute(plan, runner, {"Edge": [(1, 2), (2, 3), (3, 4)]})
    new = next(s for s in loop_of(plan).body if isinstance(s, Materialize))
    text, names = runner._printed(new.query)
    runner._register_views(names)
    with runner.co.planning(new.target):
        physical = spark.sql(text)._jdf.queryExecution().executedPlan().toString()
    # a broadcast of a tiny table may appear; the shuffle is of the new rows only
    shuffles = re.findall(r"(?<!Broadcast)Exchange (\w+)", physical)
    assert shuffles == ["hashpartitioning"], physical


@pytest.mark.parametrize("partitions", [0, 3])
def test_spark_partition_count_does_not_change_results(spark, partitions):
    from dl2sql.runner.spark_runner import SparkRunner

    program = compile_source(TC)
    plan = program.plan_for("spark", LINEAR)
    edges = [(i % 7, (3 * i) % 11) for i in range(40)]
    runner = SparkRunner(spark, partitions=2)
    runner.co.partitions = partitions  # 0: off; 3: not the session's shuffle partitions
    execute(plan, runner, {"Edge": edges})
    assert sorted(runner.fetch(plan.relations["Path"])) == sorted(closure(edges))


def _shuffles_of_self_joins(spark, runner, tables) -> dict[str, list[str]]:
    """The shuffles Spark plans for joining each of ``tables`` with itself on its key."""
    saved = spark.conf.get("spark.sql.autoBroadcastJoinThreshold")
    spark.conf.set("spark.sql.autoBroadcastJoinThreshold", "-1")
    try:
        found = {}
        for table in tables:
            runner._register_views([table.name])
            key = table.partition_by[0]
            query = (f"SELECT a.* FROM `{table.name}` AS a JOIN `{table.name}` AS b "
                     f"ON a.`{key}` = b.`{key}`")
            with runner.co.planning(table):
                physical = spark.sql(query)._jdf.queryExecution().executedPlan().toString()
            found[table.name] = re.findall(r"Exchange (\w+)", physical)
        return found
    finally:
        spark.conf.set("spark.sql.autoBroadcastJoinThreshold", saved)


def test_spark_partitioning_survives_a_table_read_twice(spark):
    """A self-join re-instantiates one side's checkpoint with fresh attributes; its
    partitioning must follow them, for a table stored from a query (the delta) and for
    one stored from unions (the relation). Checked in the middle of a loop, where
    the delta's columns are still those of the query that made it."""
    from dl2sql.runner.spark_runner import SparkRunner

    program = compile_source(TC)
    plan = program.plan_for("spark", LINEAR)
    loop = loop_of(plan)
    new = next(s.target for s in loop.body if isinstance(s, Materialize))
    checked = [dataclasses.replace(new, name=n)
               for n in ("Path", "Path__delta")]
    found = []

    class Checking(SparkRunner):
        def materialize(self, table, query, count):
            if table.name == new.name and len(self._pieces.get("Path", ())) == 3:
                found.append(_shuffles_of_self_joins(spark, self, checked))
            return super().materialize(table, query, count)

    execute(plan, Checking(spark, partitions=2), {"Edge": [(i, i + 1) for i in range(6)]})
    assert found == [{"Path": [], "Path__delta": []}]


def test_spark_loop_switches_the_settings_once(spark):
    """The co-partitioning settings are applied once per loop, not once per step."""
    from types import SimpleNamespace

    from dl2sql.runner.spark_runner import SparkRunner

    plan = compile_source(TC).plan_for("spark", LINEAR)

    class CountingConf:
        def __init__(self, conf):
            self.conf, self.sets = conf, 0

        def get(self, *args):
            return self.conf.get(*args)

        def set(self, key, value):
            self.sets += 1
            self.conf.set(key, value)

        def unset(self, key):
            self.sets += 1
            self.conf.unset(key)

    def switches(length: int) -> int:
        runner = SparkRunner(spark, partitions=2)
        conf = CountingConf(spark.conf)
        runner.co.spark = SimpleNamespace(conf=conf)
        execute(plan, runner, {"Edge": [(i, i + 1) for i in range(length)]})
        assert len(runner.fetch(plan.relations["Path"])) == length * (length + 1) // 2
        return conf.sets

    assert switches(3) == switches(12) > 0


# a naive loop (recursion through a count), whose tables are not kept partitioned
NAIVE = """
input relation Edge(x: u32, y: u32)
input relation Root(n: u32)
output relation Open(n: u32)
relation Fanin(n: u32, k: u64)
Open(n) :- Root(n).
Open(n) :- Fanin(n, k), k <= 1.
Fanin(p, k) :- Open(c), Edge(c, p), var k = c.group_by(p).count_distinct().
"""


def test_a_loop_not_kept_partitioned_plans_without_adaptive_execution(spark, monkeypatch):
    # with it, each shuffle and broadcast of a lazily checkpointed loop statement is a
    # Spark job of its own (docs/performance.md); the session's value comes back after
    from dl2sql.runner.spark_runner import SparkRunner

    key = "spark.sql.adaptive.enabled"
    seen, inside = [], []
    looping, materialize = SparkRunner.looping, SparkRunner.materialize

    @contextlib.contextmanager
    def recording_loop(self, loop):
        assert not self._partitioned(loop)
        with looping(self, loop):
            inside.append(True)
            try:
                yield
            finally:
                inside.pop()

    def recording_materialize(self, *args, **kwargs):
        seen.append((bool(inside), spark.conf.get(key)))
        return materialize(self, *args, **kwargs)

    monkeypatch.setattr(SparkRunner, "looping", recording_loop)
    monkeypatch.setattr(SparkRunner, "materialize", recording_materialize)
    with session_setting(spark, key, "true"):
        program = dl2sql.compile(NAIVE)
        inputs = {"Edge": [(1, 2), (2, 3), (4, 3), (3, 5)], "Root": [(1,), (4,)]}
        expected = sorted(program.run(engine="duckdb", inputs=inputs)["Open"].fetchall())
        program.close()
        out = program.run(spark=spark, inputs=inputs, on_driver_below=0)
        assert sorted(tuple(r) for r in out["Open"].collect()) == expected
        program.close()
        assert len(expected) > 2 and any(looped for looped, _ in seen)
        assert {value for looped, value in seen if looped} == {"false"}
        assert {value for looped, value in seen if not looped} <= {"true"}
        assert spark.conf.get(key) == "true"
