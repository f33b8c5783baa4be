"""Deterministic inputs of the field benchmark (:mod:`benchmarks.field`), in the shapes
of the published comparisons (FlowLog, RecStep, Soufflé), scaled to a 2-core machine.

Every generator takes a ``seed`` and returns sorted Python rows, so that all engines
get the same facts in the same order and a rerun gets the same workload.
"""
from __future__ import annotations

import math
import random

from benchmarks import generators


def gnp(n: int, p: float, seed: int = 1) -> list[tuple[int, int]]:
    """A directed Erdős–Rényi graph G(n, p) on nodes 0..n-1: each of the n(n-1)
    ordered pairs without self-loops is an edge with probability ``p`` (the
    "G10K-0.001" inputs of the published tc/sg runs are G(10000, 0.001)).

    Skips geometrically from edge to edge (Batagelj and Brandes), so that the cost is
    that of the edges, not of the n^2 pairs."""
    if n < 2 or p <= 0:
        return []
    rng = random.Random(seed)
    edges = []
    log_q = math.log(1.0 - p) if p < 1 else None
    total = n * (n - 1)
    k = -1
    while True:
        if log_q is None:
            k += 1
        else:
            # the gap to the next edge is geometric(p); 1 - random() is in (0, 1]
            k += 1 + int(math.log(1.0 - rng.random()) / log_q)
        if k >= total:
            break
        src, rest = divmod(k, n - 1)
        edges.append((src, rest + (rest >= src)))  # skip the self-loop slot
    return edges


def undirected(edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Both directions of every edge (connected components read edges as undirected)."""
    return sorted(set(edges) | {(b, a) for a, b in edges})


def weighted(edges: list[tuple[int, int]], low: int = 1, high: int = 100,
             seed: int = 2) -> list[tuple[int, int, int]]:
    """``edges`` with a weight drawn uniformly from ``low..high`` each (sssp)."""
    rng = random.Random(seed)
    return [(a, b, rng.randint(low, high)) for a, b in edges]


def forest(n: int, trees: int, fanout: int = 4, seed: int = 3) -> list[tuple[int, int]]:
    """``(parent, child)`` edges of a random forest of ``n`` nodes in ``trees`` trees:
    nodes 0..trees-1 are the roots, and every later node picks its parent uniformly
    among the earlier nodes of its tree that have fewer than ``fanout`` children (the
    same-generation input: its result is the pairs of nodes at equal depth in one
    tree whose ancestors differ below the root)."""
    rng = random.Random(seed)
    open_slots: list[list[int]] = [[t] for t in range(trees)]  # per tree: may take a child
    children = [0] * n
    edges = []
    for node in range(trees, n):
        tree = node % trees
        slots = open_slots[tree]
        i = rng.randrange(len(slots))
        parent = slots[i]
        edges.append((parent, node))
        children[parent] += 1
        if children[parent] == fanout:  # full: swap-remove it from the candidates
            slots[i] = slots[-1]
            slots.pop()
        slots.append(node)
    return sorted(edges)


def cspa(n_vars: int, assigns: int, derefs: int, seed: int = 5) -> dict[str, list]:
    """Facts of the context-sensitive pointer analysis (Graspan's CSPA): ``assigns``
    distinct ``Assign(dst, src)`` copies and ``derefs`` distinct
    ``Dereference(ptr, cell)`` facts over ``n_vars`` variables. Copies mostly stay
    near each other (a program's locals flow into nearby locals), so that the value
    flow forms many small chains rather than one giant component; dereferences are
    uniform."""
    rng = random.Random(seed)

    def near(k: int, spread: int) -> list[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        while len(out) < k:
            a = rng.randrange(n_vars)
            b = min(n_vars - 1, max(0, a + rng.randint(-spread, spread)))
            if a != b:
                out.add((a, b))
        return sorted(out)

    def uniform(k: int) -> list[tuple[int, int]]:
        out: set[tuple[int, int]] = set()
        while len(out) < k:
            out.add((rng.randrange(n_vars), rng.randrange(n_vars)))
        return sorted(out)
    return {"Assign": near(assigns, 20), "Dereference": uniform(derefs)}


def andersen(n_vars: int) -> dict[str, list]:
    """The points-to facts of :func:`benchmarks.generators.andersen` (one statement
    of each kind per variable)."""
    return generators.andersen(n_vars)
