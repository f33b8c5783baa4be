"""Deterministic workload generators for the benchmarks (same seed, same rows)."""
from __future__ import annotations

import random


def chain(n: int) -> list[tuple[int, int]]:
    """Edges of a chain 0 → 1 → … → n-1 (n-1 edges; its closure has n(n-1)/2 paths
    and semi-naive evaluation needs n-1 iterations: the worst case for per-iteration
    overhead)."""
    return [(i, i + 1) for i in range(n - 1)]


def random_graph(n: int, avg_out_degree: float = 2.0, seed: int = 42) -> list[tuple[int, int]]:
    """A random directed graph on ``n`` nodes with about ``avg_out_degree * n`` distinct
    edges (no self-loops), reproducible from ``seed``."""
    rng = random.Random(seed)
    target = int(avg_out_degree * n)
    edges: set[tuple[int, int]] = set()
    if n < 2:
        return []
    target = min(target, n * (n - 1))
    while len(edges) < target:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            edges.add((a, b))
    return sorted(edges)


def tree(depth: int, fanout: int = 2) -> list[tuple[int, int]]:
    """``(parent, child)`` edges of a complete tree of the given depth (root 0), the
    classic same-generation input: nodes at the same depth are of the same generation."""
    edges = []
    level = [0]
    next_id = 1
    for _ in range(depth):
        nxt = []
        for parent in level:
            for _ in range(fanout):
                edges.append((parent, next_id))
                nxt.append(next_id)
                next_id += 1
        level = nxt
    return edges


def andersen(n_vars: int, seed: int = 7) -> dict[str, list[tuple[int, int]]]:
    """A small points-to input over ``n_vars`` variables: about one statement of each
    kind (address-of, copy, load, store) per variable, reproducible from ``seed``."""
    rng = random.Random(seed)

    def pairs(k: int) -> list[tuple[int, int]]:
        return sorted({(rng.randrange(n_vars), rng.randrange(n_vars)) for _ in range(k)})
    return {"AddressOf": pairs(n_vars), "Assign": pairs(n_vars),
            "Load": pairs(n_vars // 2), "Store": pairs(n_vars // 2)}


def facts_program(n: int, seed: int = 11) -> str:
    """A DDlog program of ``n`` facts written in its text, a quarter each in four
    relations of integers, strings, a tagged union and a struct with a boolean, and
    two rules over them (a copy and a join); reproducible from ``seed``."""
    rng = random.Random(seed)
    lines = ["typedef Shape = Circle{r: s64} | Rect{w: s64, h: s64} | Dot",
             "typedef Person = Person{name: string, age: u32}",
             "relation Edge(x: s64, y: s64)",
             "output relation Name(id: s64, name: string)",
             "relation Has(id: s64, shape: Shape)",
             "output relation Who(p: Person, ok: bool)",
             "output relation Path(x: s64, y: s64)",
             "Path(x, y) :- Edge(x, y).",
             "output relation Named(n: string, s: Shape)",
             "Named(n, s) :- Name(i, n), Has(i, s).",
             ""]
    for i in range(n):
        kind = i % 4
        if kind == 0:
            lines.append(f"Edge({rng.randrange(n)}, {rng.randrange(n)}).")
        elif kind == 1:
            lines.append(f'Name({i - 1}, "name {i} \\"q\\"").')
        elif kind == 2:
            shape = rng.choice([f"Circle{{{i}}}", f"Rect{{{i}, {i + 1}}}", "Dot"])
            lines.append(f"Has({i - 2}, {shape}).")
        else:
            lines.append(f'Who(Person{{"p{i}", {i % 100}}}, {str(i % 2 == 0).lower()}).')
    return "\n".join(lines) + "\n"
