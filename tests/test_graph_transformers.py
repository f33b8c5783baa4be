"""The `graph` library's transformers on random graphs, against a reference written
here from their definitions (reachability in plain Python), on DuckDB; the program
case tests/programs/graph_transformers runs them on both engines."""
from __future__ import annotations

import random

import pytest

import dl2sql

PROGRAM = """
import graph
input relation Edge(a: u32, b: u32)
function from_node(e: Edge): u32 { e.a }
function to_node(e: Edge): u32 { e.b }
output relation Scc[(u32, u32)]
apply SCC(Edge, from_node, to_node) -> (Scc)
output relation Cc[(u32, u32)]
apply ConnectedComponents(Edge, from_node, to_node) -> (Cc)
output relation Cc64[(u32, u32)]
apply ConnectedComponents64(Edge, from_node, to_node) -> (Cc64)
output relation Bi[(u32, u32)]
apply UnsafeBidirectionalEdges(Edge, from_node, to_node) -> (Bi)
"""


def _reach(edges: set) -> dict:
    """Node -> the nodes it reaches by one edge or more."""
    succ: dict = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    out = {}
    for start in succ:
        seen, todo = set(), list(succ[start])
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo += succ.get(n, ())
        out[start] = seen
    return out


def expected(edges: set) -> dict[str, set]:
    reach = _reach(edges)
    on_cycle = [n for n in reach if n in reach[n]]
    scc = {(n, min(m for m in reach[n] if n in reach.get(m, ()))) for n in on_cycle}
    targets = {b for _, b in edges}
    cc = {(n, min(l for l in targets if l == n or n in reach.get(l, ()))) for n in targets}
    pairs: dict = {}
    for a, b in edges:
        key = (min(a, b), max(a, b))
        pairs[key] = pairs.get(key, 0) + 1
    bi = {p for (x, y), c in pairs.items() if c > 1 for p in ((x, y), (y, x))}
    return {"Scc": scc, "Cc": cc, "Cc64": cc, "Bi": bi}


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_match_the_reference(program, seed):
    rng = random.Random(seed)
    nodes = rng.randint(3, 14)
    edges = {(rng.randrange(nodes), rng.randrange(nodes))
             for _ in range(rng.randint(1, 3 * nodes))}
    out = program.run(engine="duckdb", inputs={"Edge": sorted(edges)})
    want = expected(edges)
    assert want["Scc"] or want["Cc"]  # the graphs are not all trivial
    for rel, rows in want.items():
        got = {tuple(r[0].values()) if isinstance(r[0], dict) else tuple(r)
               for r in out[rel].fetchall()}
        assert got == rows, rel
