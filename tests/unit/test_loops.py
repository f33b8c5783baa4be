"""Loop planning (dl2sql.plan.loops): each engine's policy decides, in the plan, how a
recursive stratum is evaluated; runners only execute what the plan says."""
from __future__ import annotations

import dataclasses

from dl2sql.compiler import compile_source
from dl2sql.compiler.emit import emit
from dl2sql.engines import ENGINES
from dl2sql.plan.loops import LoopPolicy
from dl2sql.plan.nodes import (Choose, Distribute, Fixpoint, Loop, Materialize, RecursiveUnion,
                               TaggedRecursion, Untagged)

TC = """
input relation Edge(x: s64, y: s64)
output relation Path(x: s64, y: s64)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
"""
NON_LINEAR = TC.replace("Path(x, y), Edge(y, z)", "Path(x, y), Path(y, z)")


def _statements(source: str, engine: str, policy=None) -> list:
    return list(compile_source(source).engine_stage(engine, "loops", policy).statements)


def _walk(stmts):
    for s in stmts:
        yield s
        if isinstance(s, Loop):
            yield from _walk(s.body)
        if isinstance(s, Choose):
            yield from _walk(s.doubling + s.linear)


def test_the_plan_before_loop_planning_has_fixpoints_and_no_sql():
    plan = compile_source(TC).plan
    assert [s for s in plan.statements if isinstance(s, Fixpoint)] == [Fixpoint(("Path",))]
    assert all(not hasattr(s.query, "sql") for s in plan.statements
               if isinstance(s, Materialize))


def test_duckdb_evaluates_a_linear_relation_as_one_recursive_query():
    stmts = list(_walk(_statements(TC, "duckdb")))
    assert any(isinstance(s, Materialize) and isinstance(s.query, RecursiveUnion)
               for s in stmts)
    assert not any(isinstance(s, (Loop, Choose)) for s in stmts)
    # a non-linear one loops, one step per check, nothing partitioned
    loops = [s for s in _walk(_statements(NON_LINEAR, "duckdb")) if isinstance(s, Loop)]
    assert [(l.steps_per_check, l.fuse_below_rows) for l in loops] == [(1, float("inf"))]


# mutual recursion of two relations of different columns, one of them with no rule of
# its own outside the stratum, and a string column beside integers
MUTUAL = """
input relation Copy(dst: u32, src: u32)
input relation Points(ptr: u32, cell: u32, name: string)
output relation Flow(src: u32, dst: u32)
output relation Alias(a: u32, b: u32, why: string)
Flow(s, d) :- Copy(d, s).
Flow(s, d) :- Flow(s, m), Copy(d, m).
Flow(a, b) :- Alias(a, b, _).
Alias(a, b, "${n}~${m}") :- Points(p, a, n), Flow(p, q), Points(q, b, m), a != b.
"""


def test_duckdb_evaluates_linear_mutual_recursion_as_one_tagged_query():
    stmts = _statements(MUTUAL, "duckdb")
    (tagged,) = [s for s in stmts if isinstance(s, Materialize)
                 and isinstance(s.query, TaggedRecursion)]
    assert tagged.query.relations == ("Alias", "Flow")
    assert sorted((s.target.name, s.query.relation) for s in stmts
                  if isinstance(s, Materialize) and isinstance(s.query, Untagged)) == \
        [("Alias", "Alias"), ("Flow", "Flow")]
    assert not any(isinstance(s, Loop) for s in stmts)
    # Spark has no deduplicating recursive union, and a non-linear rule needs the loop
    assert any(isinstance(s, Loop) for s in _walk(_statements(MUTUAL, "spark")))
    non_linear = MUTUAL.replace("Flow(s, m), Copy(d, m)", "Flow(s, m), Flow(m, d)")
    assert any(isinstance(s, Loop) for s in _statements(non_linear, "duckdb"))


def test_the_tagged_query_gives_the_loops_rows():
    import duckdb

    from dl2sql.runner.duckdb_runner import DuckDBRunner
    from dl2sql.plan.interpret import run_statements

    program = compile_source(MUTUAL)
    copies = [(i + 1, i) for i in range(30)] + [(0, 30), (40, 7)]
    points = [(3, 100, "a"), (17, 101, "b"), (25, 102, "c"), (40, 103, "d")]
    got = {}
    for policy in (None, dataclasses.replace(ENGINES["duckdb"].loops, recursive_union=False)):
        plan = program.engine_stage("duckdb", "sql", policy)
        assert any(isinstance(s, Loop) for s in plan.statements) == (policy is not None)
        runner = DuckDBRunner(duckdb.connect())
        runner.load(plan.relations["Copy"], copies)
        runner.load(plan.relations["Points"], points)
        run_statements(plan.statements, runner)
        got[policy is None] = {r: sorted(runner.fetch(plan.relations[r]))
                               for r in ("Flow", "Alias")}
    assert got[True] == got[False]
    assert len(got[True]["Alias"]) > 4 and ("a~b" in {w for _, _, w in got[True]["Alias"]})


def test_spark_chooses_doubling_partitions_and_fuses_as_its_policy_says():
    (choose,) = [s for s in _statements(TC, "spark") if isinstance(s, Choose)]
    (linear,) = [s for s in choose.linear if isinstance(s, Loop)]
    (doubling,) = [s for s in choose.doubling if isinstance(s, Loop)]
    policy = ENGINES["spark"].loops
    # the linear loop's tables are partitioned: one step per check, variants distributed
    assert linear.steps_per_check == 1
    new = next(s for s in linear.body if isinstance(s, Materialize))
    assert new.target.partition_by == ("y",)
    assert isinstance(new.query.query.parts[0], Distribute)
    # the doubling loop's are not: several steps per check while deltas are small
    assert (doubling.steps_per_check, doubling.fuse_below_rows) == \
        (policy.steps_per_check, policy.fuse_below_rows)
    assert all(not s.target.partition_by for s in doubling.body if isinstance(s, Materialize))


def test_a_policy_is_one_value_and_changes_only_the_plan():
    plain = LoopPolicy()
    stmts = list(_walk(_statements(TC, "spark", plain)))
    assert not any(isinstance(s, Choose) for s in stmts)
    assert all(not s.target.partition_by for s in stmts if isinstance(s, Materialize))
    fused = dataclasses.replace(ENGINES["spark"].loops, closure_by_doubling=False,
                                fuse_partitioned=True)
    (loop,) = [s for s in _walk(_statements(TC, "spark", fused)) if isinstance(s, Loop)]
    assert loop.steps_per_check == fused.steps_per_check


def test_emit_plan_shows_the_choices():
    program = compile_source(TC)
    spark, duckdb = emit(program, "plan", "spark"), emit(program, "plan", "duckdb")
    assert "[partitioned by y]" in spark and "rows per distinct x (long thin paths)" in spark
    assert "4 steps per check while every delta is below 10000 rows" in spark
    assert "Path := Path: recursive query" in duckdb and "repeat" not in duckdb


# recursion through a group_by (upstream's simple.dl `Span`), with a second relation in
# the component and two aggregations in one rule
SPAN = """
input relation Tag(n: u32, t: u32)
input relation Edge(c: u32, p: u32)
output relation Span(n: u32, ts: Set<u32>)
Span(n, ts) :- Tag(n, t), var ts = t.group_by(n).to_set().
Span(p, ts) :- Edge(c, p), Seen(c), Span(c, s), var u = s.group_by((p, c)).union(),
               var ts = u.group_by(p).union().
output relation Seen(n: u32)
Seen(n) :- Span(n, _).
"""


def test_recursion_through_group_by_is_a_naive_loop_on_every_engine():
    program = compile_source(SPAN)
    (stratum,) = [s for s in program.strata if s.aggregated]
    # the aggregations' helpers in the order one iteration makes them
    assert stratum.group_steps == ("Span__group2_rows", "Span__group2", "Span__group3_rows", "Span__group3")
    assert set(stratum.relations) == {"Seen", "Span", *stratum.group_steps}
    for engine in ("duckdb", "spark"):
        stmts = _statements(SPAN, engine)
        (loop,) = [s for s in stmts if isinstance(s, Loop)]
        assert loop.stratum == "Seen, Span" and loop.until_empty == (
            "Seen__changed", "Span__changed")
        made = [s.target.name for s in loop.body if isinstance(s, Materialize)]
        assert made == ["Span__group2_rows", "Span__group2", "Span__group3_rows", "Span__group3",
                        "Seen__next", "Span__next", "Seen__changed", "Span__changed"]
        counted = [s.target.name for s in loop.body if isinstance(s, Materialize) and s.count]
        assert counted == ["Seen__changed", "Span__changed"]
        # every member starts empty; nothing in the loop is partitioned or semi-naive
        empty = [s for s in stmts[:stmts.index(loop)] if isinstance(s, Materialize)
                 and s.target.relation in ("Seen", "Span")]
        assert [(s.target.name, s.query.parts) for s in empty] == [("Seen", ()), ("Span", ())]
        assert all(not s.target.partition_by for s in _walk(stmts)
                   if isinstance(s, Materialize))
        assert not any("delta" in s.target.name for s in _walk(stmts)
                       if isinstance(s, Materialize))


def test_monotone_recursion_stays_semi_naive():
    (stratum,) = [s for s in compile_source(NON_LINEAR).strata if s.recursive]
    assert not stratum.aggregated
    (loop,) = [s for s in _walk(_statements(NON_LINEAR, "duckdb")) if isinstance(s, Loop)]
    assert loop.until_empty == ("Path__new",)


def test_a_recursive_aggregate_that_never_settles_stops_naming_its_stratum():
    import duckdb
    import pytest

    from dl2sql.diagnostics import RuntimeFailure
    from dl2sql.plan.interpret import execute
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    # Flip holds 0 and 1 - max(Flip): {0}, {0, 1}, {0}, ... never the same twice running
    program = compile_source("""
input relation Seed(x: u32)
output relation Flip(x: u32)
Flip(x) :- Seed(x).
Flip(1 - m) :- Flip(x), var m = x.group_by(()).max().
""")
    plan = program.plan_for("duckdb")
    bounded = dataclasses.replace(plan, statements=tuple(
        dataclasses.replace(s, max_iterations=50) if isinstance(s, Loop) else s
        for s in plan.statements))
    with pytest.raises(RuntimeFailure, match="stratum Flip did not converge within 50"):
        execute(bounded, DuckDBRunner(duckdb.connect()), {"Seed": [(0,)]})


def test_the_rows_of_a_recursive_group_by_over_a_multiset_keep_their_duplicates():
    # the rows helper reads a multiset, so it is one too (dl2sql.passes.bags); being
    # made anew every iteration, it may be part of the recursion
    source = SPAN.replace("input relation Edge", "input multiset Edge")
    program = compile_source(source)
    (stratum,) = [s for s in program.strata if s.aggregated]
    assert program.relations["Span__group2_rows"].kind == "multiset"
    (fixpoint,) = [s for s in program.plan.statements if isinstance(s, Fixpoint)]
    assert fixpoint.group_steps == stratum.group_steps and fixpoint.bags == ("Span__group2_rows",)
    (loop,) = [s for s in _statements(source, "duckdb") if isinstance(s, Loop)]
    bags = {s.target.name: s.query.bag for s in loop.body if isinstance(s, Materialize)
            and "__group" in s.target.name}
    assert bags == {"Span__group2_rows": True, "Span__group2": False, "Span__group3_rows": False,
                    "Span__group3": False}
