"""Recursion through ``min`` and ``max`` as a semi-naive lattice loop
(dl2sql.plan.lattice, dl2sql.plan.loops): which strata take it, and that they give
exactly what DDlog's naive iteration gives, every relation of the stratum included, on
both engines, for random graphs with cycles, self-loops and several equal paths."""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dl2sql.api.evaluate import Evaluator
from dl2sql.compiler import compile_source
from dl2sql.engines import ENGINES
from dl2sql.plan.nodes import Improve, Loop, Materialize
from dl2sql.runtime.values import Record
from profiles import examples

SHORTEST = """input relation Edge(u: u32, v: u32, w: u32)
input relation Source(n: u32)
output relation Cand(n: u32, d: u32)
output relation Dist(n: u32, d: u32)
output relation Far(n: u32)
Cand(n, 0) :- Source(n).
Cand(v, d + w) :- Dist(u, d), Edge(u, v, w).
Dist(n, m) :- Cand(n, d), var m = d.group_by(n).min().
Far(n) :- Dist(n, d), d > 6.
"""
# components by the least label
COMPONENTS = """input relation Edge(u: u32, v: u32, w: u32)
input relation Source(n: u32)
relation Cand(n: u32, l: u32)
output relation Label(n: u32, l: u32)
Cand(n, n) :- Source(n).
Cand(n, n) :- Edge(n, _, _).
Cand(m, l) :- Label(n, l), Edge(n, m, _).
Cand(m, l) :- Label(n, l), Edge(m, n, _).
Label(n, m) :- Cand(n, l), var m = l.group_by(n).min().
"""
# the greatest name that reaches a node (strings: in their own order)
NAMES = """input relation Edge(u: u32, v: u32, w: u32)
input relation Source(n: u32)
relation Named(n: u32, s: string)
output relation Top(n: u32, s: string)
Named(n, "n${n}") :- Edge(n, _, _).
Named(m, s) :- Top(n, s), Edge(n, m, _).
Top(n, m) :- Named(n, s), var m = s.group_by(n).max().
"""
# two aggregates feeding each other (paths of alternating kinds), one a maximum of
# values that only lose along a cycle (signed: a difference never wraps around)
MUTUAL = """input relation Edge(u: u32, v: u32, w: u32)
input relation Source(n: u32)
relation CandA(n: u32, d: u32)
relation CandB(n: u32, d: u32)
output relation A(n: u32, d: u32)
output relation B(n: u32, d: u32)
relation CandM(n: u32, d: s32)
output relation M(n: u32, d: s32)
CandA(n, 0) :- Source(n).
CandA(v, d + 1) :- B(u, d), Edge(u, v, _).
CandB(v, d + w) :- A(u, d), Edge(u, v, w).
A(n, m) :- CandA(n, d), var m = d.group_by(n).min().
B(n, m) :- CandB(n, d), var m = d.group_by(n).min().
CandM(n, 100) :- Source(n).
CandM(v, d - (w as s32)) :- M(u, d), Edge(u, v, w).
M(n, m) :- CandM(n, d), var m = d.group_by(n).max().
"""
LATTICE_PROGRAMS = {"shortest": SHORTEST, "components": COMPONENTS, "names": NAMES,
                    "mutual": MUTUAL}

# kept naive: the value in a condition, or reversed (a larger distance a smaller
# candidate), candidates from candidates, a count, an aggregate with a second rule
NAIVE_PROGRAMS = {
    "condition": SHORTEST.replace("Edge(u, v, w).", "Edge(u, v, w), d < 5."),
    "reversed": SHORTEST.replace("d + w", "20 - d"),
    "chained": SHORTEST.replace("Dist(n, m) :-", "Cand(v, d) :- Cand(v, d), Source(v).\n"
                                                 "Dist(n, m) :-"),
    "count": SHORTEST.replace("d.group_by(n).min()", "d.group_by(n).count_distinct() as u32"),
    "second rule": SHORTEST.replace("Far(n) :-", "Dist(n, 0) :- Source(n).\nFar(n) :-"),
}


def _plan_loops(source: str, engine: str = "duckdb") -> list:
    plan = compile_source(source).engine_stage(engine, "loops")
    return [s for s in plan.statements if isinstance(s, Loop)]


def _improves(loop: Loop) -> bool:
    return any(isinstance(s, Materialize) and isinstance(s.query, Improve) for s in loop.body)


@pytest.mark.parametrize("name", sorted(LATTICE_PROGRAMS))
def test_min_and_max_in_order_take_the_lattice_loop(name):
    for engine in ("duckdb", "spark"):
        loops = _plan_loops(LATTICE_PROGRAMS[name], engine)
        assert loops and all(_improves(loop) for loop in loops), (name, engine)


@pytest.mark.parametrize("name", sorted(NAIVE_PROGRAMS))
def test_the_rest_keeps_the_naive_iteration(name):
    [loop] = _plan_loops(NAIVE_PROGRAMS[name])
    assert not _improves(loop)
    assert any(t.endswith("__changed") for t in loop.until_empty)


def test_the_policy_turns_the_lattice_loop_off():
    policy = dataclasses.replace(ENGINES["duckdb"].loops, lattice=False)
    plan = compile_source(SHORTEST).engine_stage("duckdb", "loops", policy)
    [loop] = [s for s in plan.statements if isinstance(s, Loop)]
    assert not _improves(loop)


def _evaluate(runner, source: str, edges, sources, lattice: bool) -> dict:
    loops = dataclasses.replace(ENGINES[runner.engine].loops, lattice=lattice)
    inputs = {"Edge": {Record("Edge", e) for e in edges},
              "Source": {Record("Source", (s,)) for s in sources}}
    out = Evaluator(compile_source(source), runner, loops=loops).evaluate(inputs)
    return {rel: sorted(r.fields for r in rows) for rel, rows in out.items()}


def _duckdb():
    import duckdb

    from dl2sql.runner.duckdb_runner import DuckDBRunner
    return DuckDBRunner(duckdb.connect())


def _graph(seed: int, nodes: int, edges: int) -> list[tuple]:
    rng = random.Random(seed)
    return sorted({(rng.randrange(nodes), rng.randrange(nodes), rng.randint(1, 4))
                   for _ in range(edges)})


@settings(max_examples=examples(25))
@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(1, 4)),
                max_size=24),
       st.sets(st.integers(0, 7), max_size=2),
       st.sampled_from(sorted(LATTICE_PROGRAMS)))
def test_the_lattice_loop_gives_the_naive_result_duckdb(edges, sources, name):
    source = LATTICE_PROGRAMS[name]
    naive = _evaluate(_duckdb(), source, edges, sources, lattice=False)
    assert _evaluate(_duckdb(), source, edges, sources, lattice=True) == naive


def test_the_lattice_loop_gives_the_naive_result(engine):
    # the naive iteration on DuckDB is the reference (on Spark it costs a job per
    # relation and iteration); on Spark, a minimum of numbers and a maximum of strings
    for name in ("shortest", "names"):
        source, edges = LATTICE_PROGRAMS[name], _graph(len(name), 5, 8)
        expected = _evaluate(_duckdb(), source, edges, [0, 3], lattice=False)
        assert any(expected.values()), name
        assert _evaluate(engine, source, edges, [0, 3], lattice=True) == expected, name


def test_maintained_shortest_paths_match_a_fresh_evaluation(engine):
    """Transactions that shorten, lengthen and cut paths: the maintained relations are
    the evaluation's of the new inputs (the stratum is evaluated anew by its lattice
    loop and compared), and the changes say what moved."""
    import dl2sql
    from engines import maintain_on, sorted_rows

    program = dl2sql.compile(SHORTEST)
    edges = {(0, 1, 4), (1, 2, 4), (2, 3, 1), (3, 1, 1)}
    live = maintain_on(program, engine, {"Edge": sorted(edges), "Source": [(0,)]})
    steps = [({"Edge": [(0, 2, 1)]}, {}), ({}, {"Edge": [(0, 1, 4)]}),
             ({"Edge": [(3, 4, 9)]}, {"Edge": [(0, 2, 1)]})]
    if engine.dialect == "spark":  # seconds per transaction there: the one that does all
        steps = steps[-1:]
    before = _evaluate(_duckdb(), SHORTEST, sorted(edges), [0], lattice=False)
    for insert, delete in steps:
        changes = live.apply(insert=insert, delete=delete)
        edges |= set(insert.get("Edge", ()))
        edges -= set(delete.get("Edge", ()))
        after = _evaluate(_duckdb(), SHORTEST, sorted(edges), [0], lattice=False)
        for rel in ("Dist", "Cand", "Far"):
            assert sorted_rows(live.contents(rel)) == after[rel], (rel, insert, delete)
        assert sorted_rows(changes["Dist"]) == sorted(
            [(*r, 1) for r in set(after["Dist"]) - set(before["Dist"])] +
            [(*r, -1) for r in set(before["Dist"]) - set(after["Dist"])])
        before = after
    assert "recursive aggregation" in str(live.last.methods)
