"""Recursion through a set that only grows (``to_set()`` of a group, read back by
``FlatMap``) as plain recursion (dl2sql.passes.set_unions): which programs take it,
and that they give what DDlog's iteration gives, evaluated and maintained, on both
engines."""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dl2sql
from dl2sql.compiler import compile_source
from dl2sql.engines import ENGINES
from dl2sql.plan.nodes import Loop, Materialize, TaggedRecursion
from engines import maintain_on
from profiles import examples

# the nodes that reach each node, as a set grown along the edges
REACHERS = """input relation Edge(u: u32, v: u32)
input relation Node(n: u32)
relation Cand(n: u32, x: u32)
output relation Reach(n: u32, s: Set<u32>)
output relation Known(n: u32)
Cand(n, n) :- Node(n).
Cand(m, x) :- Reach(n, s), Edge(n, m), var x = FlatMap(s).
Cand(m, m) :- Reach(n, _), Edge(n, m).
Reach(n, s) :- Cand(n, x), var s = x.group_by(n).to_set().
Known(n) :- Reach(n, s), s.size() > 1.
"""

# kept naive: the set tested in a condition inside the recursion, or read whole
NAIVE = {
    "condition": REACHERS.replace("Cand(m, m) :- Reach(n, _), Edge(n, m).",
                                  "Cand(m, m) :- Reach(n, s), Edge(n, m), s.size() < 3."),
    "whole set": REACHERS.replace("relation Cand(n: u32, x: u32)",
                                  "relation Cand(n: u32, x: u32)\nrelation Sets(n: u32, "
                                  "s: Set<u32>)\nSets(m, s) :- Reach(n, s), Edge(n, m).\n"
                                  "Cand(n, x) :- Sets(n, s), var x = FlatMap(s)."),
}


def _loops(source: str) -> list[Loop]:
    plan = compile_source(source).engine_stage("duckdb", "loops")
    return [s for s in plan.statements if isinstance(s, Loop)]


def test_a_grown_set_read_by_its_elements_is_plain_recursion():
    # semi-naive: on DuckDB one recursive query of both relations, else a loop
    plan = compile_source(REACHERS).engine_stage("duckdb", "loops")
    assert not _loops(REACHERS)
    assert [s.query.relations for s in plan.statements if isinstance(s, Materialize)
            and isinstance(s.query, TaggedRecursion)] == [("Cand", "Reach__group1_rows")]
    no_query = dataclasses.replace(ENGINES["duckdb"].loops, recursive_union=False)
    [loop] = [s for s in compile_source(REACHERS).engine_stage("duckdb", "loops",
                                                               no_query).statements
              if isinstance(s, Loop)]
    assert not any(t.endswith("__changed") for t in loop.until_empty)
    assert loop.stratum.split(", ") == ["Cand", "Reach__group1_rows"]


@pytest.mark.parametrize("name", sorted(NAIVE))
def test_other_uses_of_the_set_keep_the_naive_iteration(name):
    loops = _loops(NAIVE[name])
    assert any(t.endswith("__changed") for loop in loops for t in loop.until_empty)


def _expected(edges, nodes) -> dict:
    """Per node, the nodes that reach it (itself included), and Known."""
    reach = {n: {n} for n in nodes}
    changed = True
    while changed:
        changed = False
        for u, v in edges:
            if u in reach:
                got = reach.setdefault(v, set())
                new = (reach[u] | {v}) - got
                if new:
                    got |= new
                    changed = True
    return {"Reach": sorted((n, tuple(sorted(s))) for n, s in reach.items()),
            "Known": sorted((n,) for n, s in reach.items() if len(s) > 1)}


def _contents(live) -> dict:
    from engines import sorted_rows

    return {"Reach": sorted((n, tuple(sorted(s))) for n, s in sorted_rows(live.contents("Reach"))),
            "Known": sorted_rows(live.contents("Known"))}


def _check(engine, edges: set, nodes: set, transactions, program=None) -> None:
    program = program or dl2sql.compile(REACHERS)
    live = maintain_on(program, engine, {"Edge": sorted(edges), "Node": sorted((n,) for n in nodes)})
    assert _contents(live) == _expected(edges, nodes)
    for insert, delete in transactions:
        live.apply(insert={"Edge": sorted(insert)}, delete={"Edge": sorted(delete)})
        edges = (edges - set(delete)) | set(insert)
        assert _contents(live) == _expected(edges, nodes), (insert, delete)
        methods = live.last.methods
        assert not any(m.startswith("recompute (recursive") for m in methods.values()), methods


def test_grown_sets_evaluated_and_maintained(engine):
    rng = random.Random(4)
    edges = {(rng.randrange(8), rng.randrange(8)) for _ in range(12)}
    removed = sorted(edges)[:2]
    steps = [({(7, 0)}, set()), (set(), set(removed)), ({(5, 6)}, {(7, 0)})]
    if engine.dialect == "spark":  # seconds per transaction there: one does both
        steps = [({(7, 0), (5, 6)}, set(removed))]
    _check(engine, edges, {0, 3, 5}, steps)


_EDGES = st.tuples(st.integers(0, 6), st.integers(0, 6))


@settings(max_examples=examples(15))
@given(st.sets(_EDGES, max_size=12), st.sets(st.integers(0, 6), max_size=3),
       st.lists(st.tuples(st.sets(_EDGES, max_size=3), st.sets(_EDGES, max_size=2)),
                max_size=3))
def test_grown_sets_match_their_meaning_duckdb(edges, nodes, transactions):
    import duckdb

    from dl2sql.runner.duckdb_runner import DuckDBRunner
    con = duckdb.connect()
    try:
        _check(DuckDBRunner(con), set(edges), set(nodes), transactions, _program())
    finally:
        con.close()


_COMPILED = {}


def _program():
    if "p" not in _COMPILED:
        _COMPILED["p"] = dl2sql.compile(REACHERS)
    return _COMPILED["p"]
