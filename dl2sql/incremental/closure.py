"""Maintaining a transitive closure ``P = E+`` (:mod:`dl2sql.passes.doubling` recognizes
its two rules) by what the changed edges do to it, instead of delete and rederive.

Insertion first, as the semi-naive evaluation does it: the new heads ``(x, b)`` of the
inserted edges ``(a, b)`` (``x = a``, or ``(x, a)`` a path), then the paths one edge
further from the last new ones (along every edge now), until none is new. Where the new
heads are few, each is first extended by every path from ``b`` (one statement instead
of one per edge of the longest new path); where they are many, that join would be
large (every node reaching ``a`` with every node ``b`` reaches: 640,000 rows for an
edge into a node that the rest of a large component can newly reach) while one edge
further finds that all those paths exist.

Then deletion, on ``P1`` (``P`` with the insertions, the closure of the old edges and the
inserted ones) and the edges ``E'`` after the transaction. A search from the source ``a``
of every removed edge along ``E'`` finds the nodes it reaches
(:mod:`dl2sql.incremental.closure_search`; it reads only the edges, so it runs before
the insertion, and on the driver with the probe of the inserted edges that are no path
yet); a removed edge whose end is among them loses nothing, and when every removed edge
is so, no path is lost. Otherwise, for the
removed edges ``(a, b)`` not found again:

* ``L``: the pairs ``(a, y)`` of ``P1`` whose ``y`` the search did not reach from ``a``;
* the candidates ``(x, y)`` of ``P1`` with ``(a, y)`` in ``L``, ``x = a`` or ``(x, a)``
  in ``P1``, and (where the engine has a recursive query to find them) ``x`` not
  reaching ``b`` along ``E'``. Every lost path is one: on any of its old paths, replace
  each removed edge that is still a path by a path of ``E'``; of the removed edges left
  (none found again), take the last ``(a, b)`` whose source ``x`` reaches along ``E'``.
  Then ``x`` cannot reach ``b`` (from ``b`` the path goes on to the next removed edge's
  source, or to ``y``, along ``E'``), and ``a`` cannot reach ``y`` (or ``x ~> y`` would
  be kept). Without the condition on ``b``, removing the only edge out of a node of a
  large strongly connected component makes every node reaching it a candidate with
  every node of the component;
* a candidate is kept when an edge ``(z, y)`` of ``E'`` has ``z = x``, or ``(x, z)`` in
  ``P1`` and not a candidate (every pair of ``P1`` that is no candidate is kept), or
  ``(x, z)`` a kept candidate (a recursive query, a loop where the engine has none);
* the candidates not kept are lost.

The candidates are few when a removed edge was the only way into a few nodes, and
many when it splits a large strongly connected component: when the nodes that may
lose paths times the nodes they may lose exceed the executor's over-deletion share of
``P``'s rows, the stratum is recomputed instead. That check runs first on ``P`` itself,
before the insertions: the two tables it multiplies (``L`` and the pairs ``(x, a)``)
only grow with the paths inserted, so it gives up wherever the check on ``P1`` would
have given up because of the paths of ``P``, and costs neither the insertions (often
dozens of statements, one per edge of the longest new path) nor their undo. After the
insertions, the rows they add to the two tables (a join of the paths inserted, few
where the first check passed) are added and the check runs again; a give-up there
undoes the insertions first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from dl2sql.incremental.closure_search import search
from dl2sql.incremental.nodes import BySize, Enough, levels_then_at_once
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import (Append, Loop, Materialize, Part, Parts, Patch, RecursiveUnion,
                               Rename, Rows, Scan, Subtract, Table)
from dl2sql.ra.nodes import AntiJoin, Block, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# at most this many new heads (x, b) are joined with every path from their end b at
# once: that costs a row per head and node b reaches (the number of nodes, at most),
# and saves a statement per edge of the longest new path (a new head (a, b) from a node
# a nothing reaches into a large component makes a path to every node of it, one
# breadth-first level per statement otherwise)
SPREAD_HEADS = 64

# the method's reason when the check before the insertions gives up (the one after
# them says "over-deletion too large", as DRed's)
EARLY = "over-deletion too large before the insertions"

# source aliases no rule uses (lowering names sources t1, t2, ...)
EDGE, PATH, PATH2, ROW, OTHER = ("dl2sql_edge", "dl2sql_path", "dl2sql_path2", "dl2sql_row",
                                 "dl2sql_other")


@dataclass(frozen=True)
class ClosureUpdate:
    """The statements of a closure stratum's update: ``statements`` run it whole
    (leaving ``plus`` and ``minus``); ``undo`` puts the stored relation back as it was
    when the stratum gives up on the candidates (and is recomputed); ``pending`` holds,
    after the run, the removed edges not found again (empty: no path lost)."""

    statements: tuple
    undo: tuple
    pending: Table


def closure_update(builder, closure, span) -> Optional[ClosureUpdate]:
    """The update of ``closure``'s stratum (being built by ``builder``, a
    :class:`~dl2sql.incremental.build._Builder`), or None where the two relations are
    not stored one column per field."""
    layouts = builder.p.layouts
    if not all(layouts[r].flat_ctor is not None and len(layouts[r].columns) == 2
               for r in (closure.relation, closure.edge)):
        return None
    return _Closure(builder, closure, span).update()


class _Closure:
    def __init__(self, builder, closure, span):
        self.b, self.span = builder, span
        self.rel, self.edge = closure.relation, closure.edge
        edge_columns = sorted(builder.p.layouts[self.edge].columns,
                              key=lambda c: c[0] != closure.edge_source)
        (self.src, self.node), (self.dst, _) = edge_columns
        self.first, self.second = builder.columns(self.rel)

    # -- small builders ------------------------------------------------------------------
    def col(self, alias: str, name: str) -> T.TCol:
        return T.TCol(self.node, alias, name)

    def eq(self, a: T.TCol, b: T.TCol) -> T.TBin:
        return T.TBin(BOOL, "==", a, b)

    def path(self, alias: str) -> tuple[T.TCol, T.TCol]:
        """The two columns of a source of the closure (or of one of its versions)."""
        return self.col(alias, self.first), self.col(alias, self.second)

    def arc(self, alias: str) -> tuple[T.TCol, T.TCol]:
        """The two columns of a source of the edges, where they leave and arrive."""
        return self.col(alias, self.src), self.col(alias, self.dst)

    def rows(self, sources, conditions, outputs, antijoins=()) -> Rows:
        return Rows(Block(self.rel, tuple(sources), tuple(conditions), tuple(antijoins),
                          tuple(outputs), self.span))

    def part(self, rows: Rows, *versions: str) -> Part:
        return Part(rows, tuple(table_name(r, v) for r, v in versions))

    def made(self, version: str, parts, comment: str, subtract=(), count=True) -> Materialize:
        query = Parts(self.rel, tuple(parts))
        for v in subtract:
            query = Subtract(query, table_name(self.rel, v), (self.first, self.second))
        return Materialize(self.b.table(self.rel, version), query, count=count, comment=comment)

    def scan(self, version: str) -> Part:
        name = self.b.table(self.rel, version).name
        return Part(Scan(name), (name,))

    # -- the update ----------------------------------------------------------------------
    def update(self) -> ClosureUpdate:
        b, rel = self.b, self.rel
        # the search reads the edges now and the removed ones only: it runs first, with
        # the probe of the inserted edges (on the driver where the edges are few)
        check, pending = search(b, self.rel, self.edge, (self.src, self.dst), self.node,
                                self.span, self.new_edges())
        changes = [
            self.made("plus", [self.scan("added")], f"{rel}: rows added", subtract=("lost",)),
            self.made("minus", [self.scan("lost")], f"{rel}: rows removed",
                      subtract=("added",)),
        ]
        # the candidates' bound before the insertions, so that a give-up costs neither
        # the insertions nor their undo; grown by the paths inserted, and checked again
        statements = (list(check) + self.bound() + self.insertion(self.grown())
                      + self.deletion() + changes)
        undo = (Patch(b.table(rel), None, b.table(rel, "added")),)
        return ClosureUpdate(tuple(statements), undo, pending)

    def new_edges(self) -> Materialize:
        """The inserted edges that are no path yet (an edge ``(a, b)`` that is one adds
        nothing: every ``x ~> a`` goes on to every ``b ~> y`` already)."""
        return self.made("iedge", [self.part(self.rows(
            (Source(EDGE, self.edge, "plus"),), (), self.arc(EDGE)), (self.edge, "plus"))],
            f"{self.rel}: inserted edges that are no path yet", subtract=("full",))

    def insertion(self, after: list) -> list:
        """From the inserted edges that are no path yet (:meth:`new_edges`), their new
        heads ``(x, b)`` (few of them: with every path from ``b``), then the paths one
        edge further from the last new ones, until none is new; then ``after``, where
        a path was inserted."""
        b, rel = self.b, self.rel
        e_s, e_d = self.arc(EDGE)
        p_s, p_d = self.path(PATH)
        r_s, r_d = self.path(ROW)
        n_s, n_d = self.path(EDGE)
        inserted = Source(EDGE, rel, "iedge")
        heads = self.made("ihead", [
            self.scan("iedge"),
            self.part(self.rows((Source(PATH, rel, "full"), inserted), (self.eq(p_d, n_s),),
                                (p_s, n_d)), (rel, "iedge")),
        ], f"{rel}: new paths to an inserted edge's end", subtract=("full",))
        spread = self.made("inew", [
            self.scan("ihead"),
            self.part(self.rows((Source(ROW, rel, "ihead"), Source(PATH, rel, "full")),
                                (self.eq(p_s, r_d),), (r_s, p_d)), (rel, "ihead")),
        ], f"{rel}: the new heads with every path from their end", subtract=("full",))
        further = self.made("inew", [self.part(self.one_edge_further("idelta"),
                                               (rel, "idelta"))],
                            f"{rel}: new paths one edge further", subtract=("full",))
        full, added, new = b.table(rel), b.table(rel, "added"), b.table(rel, "inew")
        start = (heads, BySize(b.table(rel, "ihead"), SPREAD_HEADS, (spread,),
                               (Rename(new, b.table(rel, "ihead")),)))
        keep = (Append(full, new), Append(added, new), Rename(b.table(rel, "idelta"), new))
        if b.policy.recursive_union:
            # a few levels as statements, the rest at once (see further_at_once)
            rest = levels_then_at_once(new, (*keep, further), self.further_at_once(),
                                       (full, added))
        else:
            rest = (*keep, Loop((further, *keep), (new.name,), f"insertion into {rel}"))
        # sized (a count decides) where counting costs: no edge left, nothing to insert
        return [BySize(b.table(rel, "iedge"), 0, (), (*start, *rest, *after))]

    def further_at_once(self) -> Materialize:
        """The new paths ``inew`` and every path one edge further from them that is
        not in ``P``, until none is new, as one recursive query. A level as a
        statement probes every path of ``P`` (17 ms for 1.5 M paths on DuckDB); the
        recursive query builds their hash table once (60-80 ms) and then costs little
        a level: 49 levels of an insertion into a 3,000-node graph's closure took
        0.07 s as one query against 0.8 s as statements, 2 levels 0.08 s against
        0.025 s. Hence the first levels as statements
        (:func:`~dl2sql.incremental.nodes.levels_then_at_once`)."""
        rel = self.rel
        base = self.rows((Source(ROW, rel, "inew"),), (), self.path(ROW))
        step = Subtract(self.one_edge_further("ifurther"), table_name(rel),
                        (self.first, self.second))
        query = RecursiveUnion(rel, table_name(rel, "ifurther"), (base,), (step,))
        return self.made("iall", [self.part(query, (rel, "inew"))],
                         f"{rel}: the new paths and those one edge further, until none is new")

    def one_edge_further(self, version: str) -> Rows:
        """The paths of version ``version`` of the closure, each one edge longer."""
        e_s, e_d = self.arc(EDGE)
        r_s, r_d = self.path(ROW)
        return self.rows((Source(ROW, self.rel, version), Source(EDGE, self.edge, "full")),
                         (self.eq(r_d, e_s),), (r_s, e_d))

    def unreached(self, paths: str) -> Rows:
        """The paths ``(a, y)`` of version ``paths`` of the closure from the source
        ``a`` of a removed edge not found again to a node ``y`` it no longer reaches."""
        p_s, p_d = self.path(PATH)
        q_s, _ = self.path(ROW)
        r_s, r_d = self.path(OTHER)
        return self.rows(
            (Source(ROW, self.rel, "pending"), Source(PATH, self.rel, paths)),
            (self.eq(p_s, q_s),), (p_s, p_d),
            (AntiJoin(Source(OTHER, self.rel, "reached"),
                      (self.eq(r_s, p_s), self.eq(r_d, p_d))),))

    def sources(self, paths: str) -> Rows:
        """The paths ``(x, a)`` of version ``paths`` into the source ``a`` of a removed
        edge not found again, from a node ``x`` that does not reach its end ``b`` (where
        the engine has a recursive query to find the nodes that reach ``b``; ``b``
        itself reaches ``b`` by a path of one edge or more only, so that ``(b, b)``
        stays a candidate)."""
        p_s, p_d = self.path(PATH)
        r_s, r_d = self.path(OTHER)
        antijoins = []
        if self.b.policy.recursive_union:
            c_s, c_d = self.path("dl2sql_reaching")
            antijoins = [AntiJoin(Source("dl2sql_reaching", self.rel, "reaching"),
                                  (self.eq(c_s, p_s), self.eq(c_d, r_d)))]
        return self.rows((Source(OTHER, self.rel, "pending"), Source(PATH, self.rel, paths)),
                         (self.eq(p_d, r_s),), (p_s, r_s), antijoins)

    def bound(self) -> list:
        """Before the insertions: ``unreached`` and ``sources`` on the closure ``P`` as
        it was, and the give-up check on them. Both only grow with the paths inserted
        (every path of ``P`` is one of ``P1``), so their product is a lower bound of the
        check after the insertions (:meth:`grown`): a transaction that gives up there
        gives up here, with no insertion to make and undo."""
        b, rel = self.b, self.rel
        r_s, _ = self.path(OTHER)
        pending = (rel, "pending")
        unreached = self.made("unreached", [self.part(self.unreached("full"), pending)],
                              f"{rel}: paths from a removed edge's source to nodes it no "
                              f"longer reaches")
        sources = self.made("sources", [
            self.part(self.rows((Source(OTHER, rel, "pending"),), (), (r_s, r_s)), pending),
            self.part(self.sources("full"), pending),
        ], f"{rel}: nodes whose paths through a removed edge's source may be lost")
        search = [self.reaching()] if b.policy.recursive_union else []
        return [unreached, *search, sources,
                Enough((b.table(rel, "sources"), b.table(rel, "unreached")), rel,
                       EARLY, "overdelete_share")]

    def grown(self) -> list:
        """After insertions: ``unreached`` and ``sources`` with the rows the inserted
        paths add (those on ``P1``: a copy of each with a part over ``added``, few rows
        where the check before passed), and the give-up check on them."""
        b, rel = self.b, self.rel
        needs = ((rel, "pending"), (rel, "added"))
        return [
            self.made("unew", [self.scan("unreached"), self.part(self.unreached("added"),
                                                                 *needs)],
                      f"{rel}: unreached, with the paths inserted"),
            self.made("snew", [self.scan("sources"), self.part(self.sources("added"), *needs)],
                      f"{rel}: sources, with the paths inserted"),
            Rename(b.table(rel, "unreached"), b.table(rel, "unew")),
            Rename(b.table(rel, "sources"), b.table(rel, "snew")),
            Enough((b.table(rel, "sources"), b.table(rel, "unreached")), rel,
                   "over-deletion too large", "overdelete_share"),
        ]

    def deletion(self) -> list:
        """The candidates of the removed edges not found again (from ``sources`` and
        ``unreached``, :meth:`bound`), those kept, and the lost ones removed."""
        b, rel = self.b, self.rel
        p_s, p_d = self.path(PATH)
        q_s, q_d = self.path(ROW)
        x_s, x_a = self.path("dl2sql_source")
        candidates = self.made("cand", [self.part(self.rows(
            (Source("dl2sql_source", rel, "sources"), Source(ROW, rel, "unreached"),
             Source(PATH, rel, "full")),
            (self.eq(q_s, x_a), self.eq(p_s, x_s), self.eq(p_d, q_d)), (x_s, q_d)),
            (rel, "sources"), (rel, "unreached"))], f"{rel}: paths that may be lost")
        return [candidates, *self.kept(),
                self.made("lost", [self.scan("cand")], f"{rel}: paths lost",
                          subtract=("kept",)),
                Patch(b.table(rel), None, b.table(rel, "lost"))]

    def reaching(self) -> Materialize:
        """The pairs ``(x, b)`` of a node and the end ``b`` of a removed edge not found
        again that ``x`` reaches along the edges now (one recursive query)."""
        rel = self.rel
        e_s, e_d = self.arc(EDGE)
        q_s, q_d = self.path(ROW)
        f_s, f_d = self.path(PATH)
        edge = Source(EDGE, self.edge, "full")
        base = self.rows((Source(ROW, rel, "pending"), edge), (self.eq(e_d, q_d),), (e_s, q_d))
        step = self.rows((Source(PATH, rel, "rdelta"), edge), (self.eq(e_d, f_s),), (e_s, f_d))
        return self.made("reaching", [self.part(
            RecursiveUnion(rel, table_name(rel, "rdelta"), (base,), (step,)), (rel, "pending"))],
            f"{rel}: nodes that reach a removed edge's end now")

    def kept(self) -> list:
        """The candidates with a path along the edges now: one recursive query, or a
        loop where the engine has none."""
        b, rel = self.b, self.rel
        c_s, c_d = self.path(ROW)
        e_s, e_d = self.arc(EDGE)
        p_s, p_d = self.path(PATH)
        o_s, o_d = self.path(OTHER)
        cand, edge = Source(ROW, rel, "cand"), Source(EDGE, self.edge, "full")
        base = (
            self.rows((cand, edge), (self.eq(e_s, c_s), self.eq(e_d, c_d)), (c_s, c_d)),
            self.rows((cand, edge, Source(PATH, rel, "full")),
                      (self.eq(e_d, c_d), self.eq(p_s, c_s), self.eq(p_d, e_s)), (c_s, c_d),
                      (AntiJoin(Source(OTHER, rel, "cand"),
                                (self.eq(o_s, c_s), self.eq(o_d, e_s))),)),
        )
        k_s, k_d = self.path(PATH2)

        def step(version: str) -> Rows:
            return self.rows((Source(PATH2, rel, version), edge, cand),
                             (self.eq(e_s, k_d), self.eq(c_s, k_s), self.eq(c_d, e_d)),
                             (c_s, c_d))
        needs = (rel, "cand")
        if b.policy.recursive_union:
            query = RecursiveUnion(rel, table_name(rel, "kdelta"), base, (step("kdelta"),))
            return [self.made("kept", [self.part(query, needs)],
                              f"{rel}: candidates with a path still")]
        kept, delta = b.table(rel, "kept"), b.table(rel, "kdelta")
        return [
            self.made("kept", [self.part(x, needs) for x in base],
                      f"{rel}: candidates with an edge from a path kept"),
            Materialize(delta, Parts(rel, (self.scan("kept"),)), comment=f"{rel}: first delta"),
            Loop((self.made("knew", [self.part(step("kdelta"), (rel, "kdelta"))],
                            f"{rel}: candidates one edge from the last ones kept",
                            subtract=("kept",)),
                  Append(kept, b.table(rel, "knew")),
                  Rename(delta, b.table(rel, "knew"))),
                 (table_name(rel, "knew"),), f"candidates of {rel} kept"),
        ]
