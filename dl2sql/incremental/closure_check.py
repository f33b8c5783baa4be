"""The support check of a transitive closure: whether a transaction's deletions leave
every path in place.

For ``P = E+`` (:mod:`dl2sql.passes.doubling` recognizes the rules) and the edges ``E'``
after a transaction, ``E+ ⊆ E'+`` exactly when every removed edge ``(a, b)`` is still a
path of ``E'``: ``E'+`` is transitive and holds every edge that was kept, so it then
holds every path of ``E``. The check is a search from the sources of the removed
edges along the new edges; it costs the nodes those sources reach, where delete and
rederive costs every path through the removed edges (on a graph with one large
strongly connected component, nearly all of them). When it passes, the stratum only
adds the paths the inserted edges make; otherwise it falls back to delete and
rederive (or recomputing).
"""
from __future__ import annotations

from typing import Optional

from dl2sql.incremental.nodes import SupportCheck
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import (Append, Loop, Materialize, Part, Parts, RecursiveUnion, Rename,
                               Rows, Scan, Subtract)
from dl2sql.ra.nodes import Block, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# source aliases no rule uses (lowering names sources t1, t2, ...)
REMOVED, EDGE, FOUND = "dl2sql_removed", "dl2sql_edge", "dl2sql_found"


def closure_check(builder, closure, span, insertion: tuple) -> Optional[SupportCheck]:
    """The check of ``closure`` (its relation's stratum is being built by ``builder``,
    a :class:`~dl2sql.incremental.build._Builder`); ``insertion`` are the stratum's
    statements that add what inserted edges derive, all it runs when the check passes.
    None where the two relations are not stored one column per field."""
    return _Check(builder, closure, span).statements(insertion)


class _Check:
    def __init__(self, builder, closure, span):
        self.b, self.span = builder, span
        self.rel, self.edge = closure.relation, closure.edge
        layouts = builder.p.layouts
        # the closure's rules name two fields of each relation; the check reads the
        # stored columns, so both must be exactly those two
        self.flat = all(layouts[r].flat_ctor is not None and len(layouts[r].columns) == 2
                        for r in (self.rel, self.edge))
        if not self.flat:
            return
        edge_columns = sorted(layouts[self.edge].columns,
                              key=lambda c: c[0] != closure.edge_source)
        (self.src, self.src_type), (self.dst, self.dst_type) = edge_columns
        self.columns = builder.columns(self.rel)
        self.removed = table_name(self.edge, "minus")

    def statements(self, insertion: tuple) -> Optional[SupportCheck]:
        if not self.flat:
            return None
        b, rel = self.b, self.rel
        search = b.policy.recursive_union
        # from each removed edge's source, the paths one edge long (or, in one recursive
        # query where the engine has it, every node it reaches) along the edges now
        first = self.step(Source(REMOVED, self.edge, "minus"), self.src)
        reached = (RecursiveUnion(rel, table_name(rel, "delta"), (Rows(first),), (Rows(
            self.step(Source(FOUND, rel, "delta"), self.columns[1])),)) if search
            else Rows(first))
        pending = self.b.table(rel, "pending")
        check = [
            b.made(rel, "reached", Parts(rel, (Part(reached, (self.removed,)),)),
                   f"{rel}: nodes the removed edges' sources reach now"),
            b.made(rel, "pending", Subtract(Parts(rel, (Part(Rows(self.block(
                (Source(REMOVED, self.edge, "minus"),), (),
                (self.col(REMOVED, self.src, self.src_type),
                 self.col(REMOVED, self.dst, self.dst_type)))), (self.removed,)),)),
                table_name(rel, "reached"), self.columns),
                f"{rel}: removed edges with no path found again yet"),
        ]
        if not search:
            check += self.search_loop()
        return SupportCheck(tuple(check), pending, insertion)

    def col(self, alias: str, name: str, ty) -> T.TCol:
        return T.TCol(ty, alias, name)

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
            (T.TBin(BOOL, "==", self.col(at.alias, node, self.dst_type),
                    self.col(EDGE, self.src, self.src_type)),) + tuple(c for _, c in more),
            (self.col(at.alias, start, self.src_type), self.col(EDGE, self.dst, self.dst_type)))

    def search_loop(self) -> list:
        """A breadth-first search from the sources whose removed edges are still
        unfound, ``steps_per_check`` edges per iteration (each statement costs a job on
        Spark: the steps before an iteration's last are left uncounted, and one job
        computes them all); it stops once every removed edge is found."""
        b, rel = self.b, self.rel
        steps = max(1, b.policy.steps_per_check)
        reached, pending = table_name(rel, "reached"), table_name(rel, "pending")
        wanted = Source("dl2sql_pending", rel, "pending")
        body, last, version = [], b.table(rel, "frontier"), "frontier"
        for i in range(steps):
            at = Source("dl2sql_frontier", rel, version)
            still = T.TBin(BOOL, "==", self.col(wanted.alias, self.columns[0], self.src_type),
                           self.col(at.alias, self.columns[0], self.src_type))
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
