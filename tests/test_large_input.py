"""A recursive program over thousands of input edges, checked against a reference
closure computed in Python, on both engines."""
from __future__ import annotations

import random

from dl2sql.compiler import compile_source
from dl2sql.api.evaluate import Evaluator
from dl2sql.runtime.values import Record

PROGRAM = """
input relation Edge(a: u32, b: u32)
output relation Reach(a: u32, b: u32)
Reach(a, b) :- Edge(a, b).
Reach(a, c) :- Reach(a, b), Edge(b, c).
"""


def make_edges(seed: int = 7) -> set[tuple[int, int]]:
    """200 chains of 15 nodes plus random shortcuts inside each chain (2,800+ edges)."""
    rng = random.Random(seed)
    edges = set()
    for c in range(200):
        base = c * 100
        for i in range(14):
            edges.add((base + i, base + i + 1))
        for _ in range(3):
            i, j = sorted(rng.sample(range(15), 2))
            edges.add((base + i, base + j))
    return edges


def closure(edges: set[tuple[int, int]]) -> set[tuple[int, int]]:
    succ: dict[int, set[int]] = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    out = set()
    for start in succ:
        stack, seen = list(succ[start]), set()
        while stack:
            n = stack.pop()
            if n not in seen:
                seen.add(n)
                stack.extend(succ.get(n, ()))
        out |= {(start, n) for n in seen}
    return out


def test_thousands_of_edges(engine) -> None:
    edges = make_edges()
    assert len(edges) > 2800
    program = compile_source(PROGRAM, "<large>")
    result = Evaluator(program, engine).evaluate(
        {"Edge": {Record("Edge", e) for e in edges}})
    got = {r.fields for r in result["Reach"]}
    assert got == closure(edges)
