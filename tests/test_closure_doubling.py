"""Transitive closures evaluated by doubling (and with several semi-naive steps per
termination test) give exactly the linear evaluation's result, on both engines, for
random graphs with cycles and self-loops, chains and graphs with many edges per node."""
from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from graphs import closure as _closure
from dl2sql.compiler import compile_source
from dl2sql.api.evaluate import Evaluator
from dl2sql.engines import ENGINES
from dl2sql.passes.doubling import find_closure
from dl2sql.runtime.values import Record
from profiles import examples

RIGHT = """input relation Edge(a: u32, b: u32)
output relation Path(a: u32, b: u32)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
"""
LEFT = RIGHT.replace("Path(x, z) :- Path(x, y), Edge(y, z).",
                     "Path(x, z) :- Edge(x, y), Path(y, z).")
NOT_A_CLOSURE = RIGHT.replace("Path(x, z) :- Path(x, y), Edge(y, z).",
                              "Path(x, z) :- Path(x, y), Edge(y, z), x != z.")


def _run(runner_cls, engine, source, edges, doubling: bool, steps: int):
    runner = runner_cls(engine.con) if engine.dialect == "duckdb" else runner_cls(engine.spark)
    loops = dataclasses.replace(ENGINES[runner.engine].loops, closure_by_doubling=doubling,
                                steps_per_check=steps, fuse_partitioned=True)
    out = Evaluator(compile_source(source), runner, loops=loops).evaluate(
        {"Edge": {Record("Edge", e) for e in edges}})
    return {r.fields for r in out["Path"]}


def test_doubling_and_fused_steps_agree_with_linear(engine):
    cls = type(engine)
    cases = [[(i, i + 1) for i in range(16)],                     # a chain: doubling
             [(0, 0), (0, 1), (1, 2), (2, 0), (3, 3)],            # cycles, self-loops
             [(a, b) for a in range(6) for b in range(6) if a != b]]  # dense: linear
    for source in (RIGHT, LEFT):
        for edges in cases:
            expected = _closure(edges)
            assert _run(cls, engine, source, edges, False, 1) == expected
            assert _run(cls, engine, source, edges, True, 1) == expected
            assert _run(cls, engine, source, edges, True, 3) == expected


@settings(max_examples=examples(40))
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=25))
def test_doubling_on_random_graphs_duckdb(edges):
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    import duckdb

    class Engine:
        dialect = "duckdb"
        con = duckdb.connect()
    edges = sorted(set(edges))
    for source in (RIGHT, LEFT):
        got = _run(DuckDBRunner, Engine, source, edges, True, 2)
        assert got == _closure(edges)


def test_only_exact_closures_are_recognised():
    for source, expected in ((RIGHT, True), (LEFT, True), (NOT_A_CLOSURE, False)):
        program = compile_source(source)
        rules = [r for r in program.rules if r.heads[0].relation == "Path"]
        assert (find_closure("Path", rules) is not None) is expected
        assert ("Path" in program.closures) is expected
