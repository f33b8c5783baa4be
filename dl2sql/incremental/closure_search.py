"""The search that tells whether a transaction's deletions leave every path of a
transitive closure in place (:mod:`dl2sql.incremental.closure`).

For ``P = E+`` and the edges ``E'`` after a transaction, ``E+ ⊆ E'+`` exactly when every
removed edge ``(a, b)`` is still a path of ``E'``: ``E'+`` is transitive and holds every
edge that was kept, so it then holds every path of ``E``. The search goes from the
sources of the removed edges along the new edges; it costs the nodes those sources
reach, where delete and rederive costs every path through the removed edges (on a graph
with one large strongly connected component, nearly all of them). For the sources of
the removed edges it does not find again, it goes on until it has every node they
reach, which the closure's deletion then reads.

Where the engine's policy says so (``search_on_driver_below``: on Spark each
breadth-first level costs jobs, on DuckDB the three queries cost more than fetching a
few thousand edges) and the edges are few, the executor fetches them and searches on
the driver instead (:func:`driver_rows`); the statements stay as the fallback for more
edges. With the edges on the driver, it also tells which inserted
edges are no path yet (the same function, searching the edges as they were), which
on the engine is a probe of every path of the closure; the insertion starts from those.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable, NamedTuple, Optional

from dl2sql.incremental.held import successors
from dl2sql.incremental.nodes import DriverSearch
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import (Append, Loop, Materialize, Part, Parts, RecursiveUnion, Rename,
                               Rows, Scan, Subtract, Table)
from dl2sql.ra.nodes import Block, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, TDouble, TFloat, unwrapped

# source aliases no rule uses (lowering names sources t1, t2, ...)
REMOVED, EDGE, FOUND = "dl2sql_removed", "dl2sql_edge", "dl2sql_found"


def search(builder, rel: str, edge: str, edge_columns: tuple[str, str], node, span,
           new_edges: Materialize) -> tuple[tuple, Table]:
    """The statements of the search for ``rel = edge+`` (its stratum being built by
    ``builder``, a :class:`~dl2sql.incremental.build._Builder`; ``edge_columns`` are
    where the edges leave and arrive, ``node`` their type), and the table they leave
    with the removed edges not found again. They leave in ``reached`` the pairs
    ``(a, y)`` of a removed edge's source and a node it reaches (every such node, for
    the sources in that table). ``new_edges`` makes the inserted edges that are no path
    yet; it runs first (on the driver, with the search, where the search does)."""
    s = _Search(builder, rel, edge, edge_columns, node, span)
    statements, b = s.statements(), s.b
    below = b.policy.search_on_driver_below
    # a float's NaN equals itself in SQL's joins and in no Python set
    if below and not isinstance(unwrapped(node), (TFloat, TDouble)):
        return (DriverSearch(b.table(edge), edge_columns, b.table(edge, "plus"),
                             b.table(edge, "minus"), new_edges.target,
                             b.table(rel, "reached"), b.table(rel, "pending"), below,
                             (new_edges,), statements),), b.table(rel, "pending")
    return (new_edges,) + statements, b.table(rel, "pending")


class Graph(NamedTuple):
    """Edges both ways: ``ahead.get(x, ())`` gives the ends of the edges leaving ``x``,
    ``behind.get(y, ())`` the sources of those arriving at ``y`` (dicts of
    :func:`~dl2sql.incremental.held.successors`, or the held rows'
    :class:`~dl2sql.incremental.held.Successors`)."""

    ahead: object
    behind: object


def graph_of(edges: list[tuple]) -> Graph:
    """The :class:`Graph` of the edges ``(x, y)``."""
    return Graph(successors(edges), successors((y, x) for x, y in edges))


def driver_rows(now: Graph, before: Graph, added: Iterable[tuple],
                removed: Iterable[tuple]) -> tuple[list, list, list]:
    """The search on the driver, from the edges ``now`` and ``before`` the
    transaction, and the edges ``(x, y)`` it ``added`` and ``removed``: the rows of
    ``new_edges`` (the added edges that were no path before), ``reached`` and
    ``pending`` (:func:`_search_rows`)."""
    new = [(a, b) for a, b in dict.fromkeys(added) if not reaches(before, a, b)]
    return (new, *_search_rows(now, removed))


def _search_rows(now: Graph, removed: Iterable[tuple]) -> tuple[list, list]:
    """From the edges now and the ``removed`` ones ``(a, b)``, the rows of ``reached``
    (pairs ``(a, y)`` of a removed edge's source and a node it reaches, every such
    node where one of its removed edges is not found again) and of ``pending`` (the
    removed edges not found again). Only the paths from a source with a pending edge
    are checked against ``reached``: where no edge is pending, nothing is searched
    beyond finding each removed edge's end, and nothing is loaded back."""
    reached, pending = [], []
    for a, wanted in _ends(removed).items():
        missing = {b for b in wanted if not reaches(now, a, b)}
        if missing:
            seen, _ = _reach(lambda x: now.ahead.get(x, ()), a, missing)
            reached += [(a, y) for y in seen]
            pending += [(a, b) for b in missing]
    return reached, pending


def _ends(edges: Iterable[tuple]) -> dict:
    ends = defaultdict(set)
    for a, b in edges:
        ends[a].add(b)
    return ends


def reaches(graph: Graph, a, b) -> bool:
    """Whether a path of one edge or more leads from ``a`` to ``b``: breadth first
    from both ends, a level at a time from the smaller frontier, until the searches
    meet or one of them has found everything (on a graph of one large strongly
    connected component, a few dozen nodes each instead of half the graph)."""
    ahead = set(graph.ahead.get(a, ()))  # reached from a by one edge or more
    if b in ahead:
        return True
    behind = {b}  # reaching b by no edge or more
    front, back = list(ahead), [b]
    while front and back:
        if len(front) <= len(back):
            front = _level(graph.ahead, front, ahead, behind)
            if front is None:
                return True
        else:
            back = _level(graph.behind, back, behind, ahead)
            if back is None:
                return True
    return False


def _level(edges, frontier: list, seen: set, other: set) -> Optional[list]:
    """The nodes one edge beyond ``frontier`` not ``seen`` yet (added to it), or None
    as soon as one of them is in ``other``: the two searches met."""
    further = []
    for x in frontier:
        for y in edges.get(x, ()):
            if y not in seen:
                if y in other:
                    return None
                seen.add(y)
                further.append(y)
    return further


def _reach(successors, a, wanted: set) -> tuple[set, set]:
    """The nodes reached from ``a`` by one edge or more (``successors(x)`` the ends of
    the edges leaving ``x``), breadth first, and those of ``wanted`` not among them;
    the search stops once it has found them all."""
    seen: set = set()
    frontier, missing = [a], set(wanted)
    while frontier and missing:
        further = []
        for x in frontier:
            for y in successors(x):
                if y not in seen:
                    seen.add(y)
                    further.append(y)
        missing -= seen
        frontier = further
    return seen, missing


class _Search:
    def __init__(self, builder, rel, edge, edge_columns, node, span):
        self.b, self.rel, self.edge, self.span = builder, rel, edge, span
        self.src, self.dst = edge_columns
        self.node = node
        self.columns = builder.columns(rel)
        self.removed = table_name(edge, "minus")

    def statements(self) -> tuple:
        b, rel = self.b, self.rel
        use_query = b.policy.recursive_union
        # from each removed edge's source, the paths one edge long (or, in one recursive
        # query where the engine has it, every node it reaches) along the edges now
        first = self.step(Source(REMOVED, self.edge, "minus"), self.src)
        reached = (RecursiveUnion(rel, table_name(rel, "delta"), (Rows(first),), (Rows(
            self.step(Source(FOUND, rel, "delta"), self.columns[1])),)) if use_query
            else Rows(first))
        check = [
            b.made(rel, "reached", Parts(rel, (Part(reached, (self.removed,)),)),
                   f"{rel}: nodes the removed edges' sources reach now"),
            b.made(rel, "pending", Subtract(Parts(rel, (Part(Rows(self.block(
                (Source(REMOVED, self.edge, "minus"),), (),
                (self.col(REMOVED, self.src), self.col(REMOVED, self.dst)))),
                (self.removed,)),)), table_name(rel, "reached"), self.columns),
                f"{rel}: removed edges with no path found again yet"),
        ]
        if not use_query:
            check += self.search_loop()
        return tuple(check)

    def col(self, alias: str, name: str) -> T.TCol:
        return T.TCol(self.node, alias, name)

    def block(self, sources, conditions, outputs) -> Block:
        return Block(self.rel, tuple(sources), tuple(conditions), (), tuple(outputs),
                     self.span)

    def step(self, at: Source, node: str, *more) -> Block:
        """One edge further from ``at``'s rows (whose column ``node`` is where they
        stand; their source column is the relation's first or the edge's own)."""
        start = self.columns[0] if at.relation == self.rel else self.src
        more_sources = tuple(s for s, _ in more)
        return self.block(
            (at, Source(EDGE, self.edge, "full")) + more_sources,
            (T.TBin(BOOL, "==", self.col(at.alias, node), self.col(EDGE, self.src)),)
            + tuple(c for _, c in more),
            (self.col(at.alias, start), self.col(EDGE, self.dst)))

    def search_loop(self) -> list:
        """A breadth-first search from the sources whose removed edges are still
        unfound, ``steps_per_check`` edges per iteration (each statement costs a job on
        Spark: the steps before an iteration's last are left uncounted, and one job
        computes them all); it stops once every removed edge is found, or when the
        sources still searched reach nothing new."""
        b, rel = self.b, self.rel
        steps = max(1, b.policy.steps_per_check)
        reached, pending = table_name(rel, "reached"), table_name(rel, "pending")
        wanted = Source("dl2sql_pending", rel, "pending")
        body, last, version = [], b.table(rel, "frontier"), "frontier"
        for i in range(steps):
            at = Source("dl2sql_frontier", rel, version)
            still = T.TBin(BOOL, "==", self.col(wanted.alias, self.columns[0]),
                           self.col(at.alias, self.columns[0]))
            further = self.step(at, self.columns[1], (wanted, still))
            version = "step" if i == steps - 1 else f"step{i}"
            step = b.table(rel, version)
            body += [Materialize(step, Subtract(Parts(rel, (Part(Rows(further), (
                         last.name, pending)),)), reached, self.columns),
                         count=i == steps - 1,
                         comment=f"{rel}: nodes one edge further, from sources still searched"),
                     Append(b.table(rel, "reached"), step)]
            last = step
        body += [
            b.made(rel, "unfound", Subtract(Parts(rel, (Part(Scan(pending), (pending,)),)),
                                            reached, self.columns),
                   f"{rel}: removed edges still with no path found"),
            Rename(b.table(rel, "pending"), b.table(rel, "unfound")),
            Rename(b.table(rel, "frontier"), last),
        ]
        return [b.made(rel, "frontier", Parts(rel, (Part(Scan(reached), (reached,)),)),
                       f"{rel}: the search's first frontier"),
                Loop(tuple(body), (last.name,), f"search of {rel}")]
