"""The workloads of :mod:`benchmarks.incremental_suite`: per program (in
``benchmarks/programs/suite_*.dl``) a deterministic generator of its inputs at a scale
``n``, how a transaction draws a new row, and its scales (DuckDB default, Spark,
tiny for the smoke test). Same seed, same rows.

A transaction deletes existing rows of the relations in ``changes`` (drawn in
proportion to their sizes) and inserts as many new rows, the k-th into the relation of
the k-th deletion, drawn by ``new_row(rng, rel, n, hint)`` with the deleted row as
``hint`` (a moved node keeps its child, a changed package its name).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks import generators
from benchmarks.incremental import random_tree
from dl2sql.runtime.values import Record


@dataclass(frozen=True)
class Workload:
    """A program, its inputs at scale ``n``, the relations transactions change and how
    they draw a new row, its scales ``(duckdb, spark, tiny)`` and what it exercises."""

    file: str
    inputs: Callable[[int], dict[str, list]]
    changes: tuple[str, ...]
    new_row: Callable[[random.Random, str, int, tuple | None], tuple]
    scales: tuple[int, int, int]
    what: str
    deletable: Callable[[str, tuple, int], bool] = lambda rel, row, n: True
    multisets: tuple[str, ...] = ()
    # an input stream and its rows of one transaction of k changed rows (rng, n, k)
    stream: tuple[str, Callable[[random.Random, int, int], list]] | None = None


def _pair(rng: random.Random, n: int) -> tuple[int, int]:
    a, b = rng.randrange(n), rng.randrange(n - 1)
    return a, b + (b >= a)


# -- star: orders x customers x products ------------------------------------------------
REGIONS, TIERS, CATEGORIES = 12, 5, 40


def star(n: int, seed: int = 3) -> dict[str, list]:
    """``n`` orders over n/20 customers and n/50 products."""
    rng = random.Random(seed)
    customers, products = max(4, n // 20), max(4, n // 50)
    return {
        "Customer": [(c, f"region-{rng.randrange(REGIONS)}", rng.randrange(TIERS))
                     for c in range(customers)],
        "Product": [(p, rng.randrange(CATEGORIES), rng.randrange(1, 1000))
                    for p in range(products)],
        "Order": sorted({_order(rng, "Order", n) for _ in range(n)}),
    }


def _order(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return (rng.randrange(1 << 31), rng.randrange(max(4, n // 20)),
            rng.randrange(max(4, n // 50)), rng.randrange(1, 20))


# -- pointsto: Andersen ---------------------------------------------------------------
_ANDERSEN = {"AddressOf": "TakeAddr", "Assign": "Copy", "Load": "Load", "Store": "Store"}


def pointsto(n: int) -> dict[str, list]:
    """``generators.andersen`` over ``n`` variables, under this program's names."""
    return {_ANDERSEN[k]: v for k, v in generators.andersen(n).items()}


def _statement(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return rng.randrange(n), rng.randrange(n)


# -- valueflow: copies and pointers, mutual recursion ---------------------------------
def valueflow(n: int, seed: int = 5) -> dict[str, list]:
    """``n`` variables, 0.9 n copies between random ones, n/4 pointers to cells."""
    rng = random.Random(seed)
    copies = sorted({_pair(rng, n) for _ in range(9 * n // 10)})
    points = sorted({_pointer(rng, n) for _ in range(n // 4)})
    return {"Copy": copies, "Points": points}


def _pointer(rng: random.Random, n: int) -> tuple[int, int]:
    return rng.randrange(n), rng.randrange(n)


def _flow_row(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return _pair(rng, n) if rel == "Copy" else _pointer(rng, n)


# -- forest: same generation ----------------------------------------------------------
TREE = 500  # nodes per tree


def forest(n: int) -> dict[str, list]:
    """A forest of random recursive trees of TREE nodes (fewer if ``n`` is small),
    ``n`` nodes in all; tree t holds nodes t*TREE .. (t+1)*TREE-1, its root first."""
    size = min(TREE, n)
    edges = []
    for t in range(max(1, n // size)):
        edges += [(p + t * size, c + t * size) for p, c in random_tree(size, seed=11 + t)]
    return {"Child": sorted(edges)}


def _new_parent(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    # the child of the deleted edge gets a new parent earlier in its own tree: the
    # input stays a forest of as many trees (node 1 of a tree has one possible parent)
    size = min(TREE, n)
    child = hint[1] if hint is not None else None
    if child is None or child % size < 2:
        child = rng.randrange(max(1, n // size)) * size + rng.randrange(2, size)
    first = child - child % size
    return first + rng.randrange(child - first), child


# -- strings: clusters of string ids --------------------------------------------------
CLUSTER = 20


def strings(n: int, seed: int = 13) -> dict[str, list]:
    """``n`` nodes ``"n<i>"`` in clusters of CLUSTER, each a ring with chords (one
    strongly connected component), and 1.2 links per cluster to a later cluster."""
    rng = random.Random(seed)
    links = set()
    for c in range(n // CLUSTER):
        base = c * CLUSTER
        links |= {(base + i, base + (i + 1) % CLUSTER) for i in range(CLUSTER)}
        for _ in range(CLUSTER // 4):
            links.add(_chord(rng, base))
        for _ in range(int(rng.random() < 0.2) + 1):
            if c + 1 < n // CLUSTER:
                links.add(_forward(rng, c, n))
    return {"Link": sorted((f"n{a}", f"n{b}") for a, b in links)}


def _chord(rng: random.Random, base: int) -> tuple[int, int]:
    a, b = _pair(rng, CLUSTER)
    return base + a, base + b


def _forward(rng: random.Random, c: int, n: int) -> tuple[int, int]:
    to = rng.randrange(c + 1, n // CLUSTER)
    return c * CLUSTER + rng.randrange(CLUSTER), to * CLUSTER + rng.randrange(CLUSTER)


def _not_ring(rel: str, row: tuple, n: int) -> bool:
    """Whether a link is not one of a cluster's ring (the rings stay: every cluster
    stays one strongly connected component)."""
    a, b = (int(x[1:]) for x in row)
    return not (a // CLUSTER == b // CLUSTER and (b - a) % CLUSTER == 1)


def _link(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    # a link of the deleted one's kind from its cluster (a chord for a chord, a link
    # to a later cluster for one), so that the clusters stay as they were made
    clusters = n // CLUSTER
    if hint is not None:
        a, b = (int(x[1:]) for x in hint)
        c, chord = a // CLUSTER, a // CLUSTER == b // CLUSTER
    else:
        c, chord = rng.randrange(clusters), rng.random() < 0.8
    if chord or c + 1 >= clusters:
        a, b = _chord(rng, c * CLUSTER)
    else:
        a, b = _forward(rng, c, n)
    return f"n{a}", f"n{b}"


# -- deps: a dependency graph of tagged unions ----------------------------------------
ECOSYSTEM = 200  # packages depend on packages of their own ecosystem only


def deps(n: int, seed: int = 17) -> dict[str, list]:
    """``n`` packages in ecosystems of ECOSYSTEM, about 2.7 declarations each."""
    rng = random.Random(seed)
    rows = set()
    for p in range(n):
        for _ in range(3):
            rows.add(_declaration(rng, p))
    return {"Declares": sorted(rows, key=repr)}


def _declaration(rng: random.Random, p: int) -> tuple:
    first = p - p % ECOSYSTEM
    # a package depends on earlier ones of its ecosystem (the first has none to pull)
    q = first + rng.randrange(p - first) if p > first else None
    kind = rng.random()
    if q is None or kind < 0.1:
        return p, Record("System", (f"lib{rng.randrange(30)}",))
    if kind < 0.55:
        return p, Record("Hard", (q,))
    if kind < 0.92:
        return p, Record("Soft", (q, rng.randrange(10)))
    return p, Record("Conflict", (q,))


def _redeclare(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return _declaration(rng, hint[0] if hint is not None else rng.randrange(n))


# -- reachcount: a random graph, counted reachability --------------------------------
COMMUNITY = 50


def reachcount(n: int) -> dict[str, list]:
    """``generators.random_graph`` of ``n`` nodes with 1.3 roads per node, communities
    of COMMUNITY consecutive nodes."""
    return {"Road": generators.random_graph(n, 1.3, seed=19),
            "Town": [(i, i // COMMUNITY) for i in range(n)]}


def _road(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return _pair(rng, n)


# -- shortest: recursion through min -------------------------------------------------
SOURCES = 6


def shortest(n: int, seed: int = 23) -> dict[str, list]:
    """A random graph of ``n`` nodes, 2.5 arcs per node of weights 1..20; SOURCES
    sources."""
    rng = random.Random(seed)
    arcs = {}
    for a, b in generators.random_graph(n, 2.5, seed=seed):
        arcs[(a, b)] = rng.randrange(1, 21)
    return {"Source": [(s * (n // SOURCES),) for s in range(SOURCES)],
            "Arc": sorted((a, b, w) for (a, b), w in arcs.items())}


def _arc(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    return (*_pair(rng, n), rng.randrange(1, 21))


# -- visits: a multiset and a stream --------------------------------------------------
PAGES, SITES = 2000, 50


def visits(n: int, seed: int = 29) -> dict[str, list]:
    """``n`` visits (copies: a user visits a few pages often) of n/20 users,
    PAGES pages on SITES sites; no click yet."""
    rng = random.Random(seed)
    return {"Visit": sorted(_visit(rng, "Visit", n) for _ in range(n)),
            "Page": [(p, p % SITES) for p in range(PAGES)], "Click": []}


def _visit(rng: random.Random, rel: str, n: int, hint=None) -> tuple:
    user = rng.randrange(max(2, n // 20))
    return user, (user * 7 + rng.randrange(10)) % PAGES  # ten pages per user


def _clicks(rng: random.Random, n: int, k: int) -> list:
    return [_visit(rng, "Click", n) for _ in range(max(1, k // 2))]


WORKLOADS = {
    "star": Workload("suite_star.dl", star, ("Order",), _order, (150_000, 20_000, 400),
                     "star join of orders, customers, products; sum_of and max per group"),
    "pointsto": Workload("suite_pointsto.dl", pointsto, ("TakeAddr", "Copy", "Load",
                                                         "Store"),
                         _statement, (600, 150, 30),
                         "Andersen points-to: non-linear recursion, a negation after"),
    "valueflow": Workload("suite_valueflow.dl", valueflow, ("Copy", "Points"), _flow_row,
                          (4_000, 800, 40),
                          "value flow and alias: mutual recursion"),
    "forest": Workload("suite_forest.dl", forest, ("Child",), _new_parent,
                       (24_000, 3_000, 60), "same generation on a forest; roots by negation",
                       deletable=lambda rel, row, n: row[1] % min(TREE, n) >= 2),
    "strings": Workload("suite_strings.dl", strings, ("Link",), _link, (3_000, 600, 60),
                        "closure over string ids, negation of it, interpolation",
                        deletable=_not_ring),
    "deps": Workload("suite_deps.dl", deps, ("Declares",), _redeclare,
                     (10_000, 2_000, 60),
                     "tagged unions by match, recursion through them, a count per kind"),
    "reachcount": Workload("suite_reachcount.dl", reachcount, ("Road",), _road,
                           (3_000, 600, 60),
                           "closure of a random graph, counts per node, max per community"),
    "shortest": Workload("suite_shortest.dl", shortest, ("Arc",), _arc,
                         (5_000, 1_000, 60), "shortest distances: recursion through min"),
    "visits": Workload("suite_visits.dl", visits, ("Visit",), _visit,
                       (200_000, 20_000, 200),
                       "input multiset summed by weight per site; a stream joined",
                       multisets=("Visit",), stream=("Click", _clicks)),
}
