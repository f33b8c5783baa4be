"""User transformers through the Python API (DuckDB; tests/programs/user_transformer
runs one on both engines): the callable's DataFrames in and out, a missing binding,
a callable that raises, outputs of the wrong shape, and maintenance."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.diagnostics import CompileError, RuntimeFailure

PROGRAM = """input relation Edge(src: u32, dst: u32)
output relation Fanout(node: u32, n: u64)
extern transformer Count(Edges: relation[Edge]) -> (Counts: relation[Fanout])
apply Count(Edge) -> (Fanout)
output relation Hub(node: u32)
Hub(x) :- Fanout(x, n), n > 1.
"""
EDGES = [(1, 2), (1, 3), (2, 3), (3, 1), (3, 2), (3, 4)]


def fanout(edges):
    return edges.aggregate("src AS node, count(*) AS n", "src")


def _rows(out, rel):
    return sorted(out[rel].fetchall())


def test_the_callable_gets_and_returns_engine_frames():
    seen = []

    def count(edges):
        seen.append(type(edges).__name__)
        return fanout(edges)
    out = dl2sql.compile(PROGRAM, extern={"Count": count}).run(
        engine="duckdb", inputs={"Edge": EDGES})
    assert seen == ["DuckDBPyRelation"]
    degrees: dict = {}
    for src, _ in EDGES:
        degrees[src] = degrees.get(src, 0) + 1
    assert _rows(out, "Fanout") == sorted(degrees.items())
    assert _rows(out, "Hub") == sorted((n,) for n, d in degrees.items() if d > 1)


def test_a_missing_binding_is_located_at_the_apply():
    with pytest.raises(CompileError) as e:
        dl2sql.compile(PROGRAM)
    text = e.value.render()
    assert "<source>:4:1: error: extern transformer `Count` has no implementation" in text


@pytest.mark.parametrize("fn, message", [
    (lambda edges: 1 / 0, "raised ZeroDivisionError: division by zero"),
    (lambda edges: (fanout(edges), fanout(edges)), "returned 2 DataFrame(s), expected 1"),
    (lambda edges: edges.project("src AS node, 'many' AS n"),
     "output `Fanout`: column `n` has type VARCHAR"),
    (lambda edges: edges.project("src AS node"), "output `Fanout`: column `n`"),
])
def test_failures_name_the_transformer_and_its_apply(fn, message):
    program = dl2sql.compile(PROGRAM, extern={"Count": fn})
    with pytest.raises(RuntimeFailure) as e:
        program.run(engine="duckdb", inputs={"Edge": EDGES})
    assert str(e.value).startswith("transformer `Count` applied at <source>:4:1")
    assert message in str(e.value)


def test_a_maintained_program_runs_the_transformer_again():
    program = dl2sql.compile(PROGRAM, extern={"Count": fanout})
    handle = program.maintain(engine="duckdb", inputs={"Edge": EDGES})
    changes = handle.apply(insert={"Edge": [(2, 4)]}, delete={"Edge": [(3, 4)]})
    got = {(tuple(r[:-1]), r[-1]) for r in changes["Fanout"].fetchall()}
    assert got == {((2, 1), -1), ((2, 2), 1), ((3, 3), -1), ((3, 2), 1)}
    hubs = {(tuple(r[:-1]), r[-1]) for r in changes["Hub"].fetchall()}
    assert hubs == {((2,), 1)}
