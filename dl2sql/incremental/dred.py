"""The maintenance of a recursive stratum: delete and rederive (DRed), and deletion by
derivation levels.

DRed over-deletes everything derived from a removed row, then puts back what is still
derived. On dense recursion (points-to) that is most of the stratum, and it gives up
and recomputes (docs/performance.md, incremental suite).

Deletion by levels keeps beside each relation ``R`` of the stratum a table
``R__level`` of its rows with a *level*, under one invariant: every row has a
derivation whose rows of the stratum all have lower levels. A semi-naive evaluation's
round is such a level; so is, for a row inserted later, one more than the level of the
last round's rows it was derived from, every level before being at most that. A
deletion is DRed's over-deletion with one check: a candidate (a stored row derived from
a deleted one) that has a derivation from rows of lower levels, none deleted, and rows
of other strata as they are now, is kept. A kept row is checked again whenever a row
it was derived from is deleted (that row's step finds it, and only rows above a deleted
row's level are candidates), so when nothing is left to check, every row not deleted
has a derivation from lower rows not deleted: it is derived in the new state, by
induction on levels. The deleted rows are a superset of those lost (a row lost loses
every derivation from lower rows, each through a row lost or removed below it); DRed's
second phase puts back those still derived, and insertion goes on as in DRed, each
round's rows one level above the last round's. Unlike DRed, a row with another
derivation from below stops the propagation: on a dense graph a removed edge deletes
a few rows, not the downstream closure.

The level tables are made by :func:`levels`' ``rebuild`` (a semi-naive evaluation on
them, each row's level its round) and kept up to date by either deletion (DRed's
removes the rows it deletes from them too) and the insertion with levels; the executor
(:mod:`dl2sql.incremental.execute`) knows when they are not (after a plain DRed or
recomputation, a rollback, a failed transaction) and when to make them again
(:class:`~dl2sql.incremental.choice.Choice` ``levels``).
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.incremental.nodes import BySize, OverDeletion, levels_then_at_once
from dl2sql.incremental.variants import (HEAD_ALIAS, deletion_seeds, deletion_steps,
                                         insertion_seeds, insertion_steps,
                                         rederivations)
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import (Append, Best, Intersect, Loop, Materialize, OneAbove, Part,
                               Parts, Patch, RecursiveUnion, Rename, Rows, Scan, Subtract, Table,
                               Union)
from dl2sql.ra.nodes import AntiJoin, Block, RelationLayout, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, DOUBLE

LEVEL = "dl2sql_level"
# a double: its sum is plain SQL arithmetic (a fixed-width integer's wraps, computed in
# decimals for every joined row); integers up to 2**53 are exact
LEVEL_TYPE = DOUBLE
TOP = "dl2sql_top"  # the alias of a stratum's one-row table of its highest level
# a round of the evaluation with levels whose last rows (of one relation) are more than
# this many gets its level once, not per joined row (_Stratum.level_loop)
ONCE_ABOVE_ROWS = 10_000


@dataclass(frozen=True)
class Levels:
    """A recursive stratum's maintenance by levels: ``lasting`` are its level tables,
    kept between transactions beside the relations; ``deletion`` (or ``dred``, DRed's
    over-deletion, which costs less where rows have one derivation each) and then
    ``insertion`` maintain the stratum and them (a deletion does nothing where the
    transaction removes nothing from what the stratum reads); ``rebuild`` evaluates
    the stratum from scratch and makes them (in place of its plain recomputation)."""

    lasting: tuple[Table, ...]  # the level tables
    deletion: tuple
    dred: tuple  # DRed's deletion, the rows it deletes removed from the level tables too
    insertion: tuple
    rebuild: tuple


def dred(b, rels: tuple[str, ...], members: frozenset[str]) -> tuple[list, list]:
    """Delete and rederive: the statements of its deletion phases, and those of its
    insertion phase (with the changes made), which are all a transaction that
    removes nothing from the stratum runs."""
    s = _Stratum(b, rels, members)
    return s.over_deletion(), s.insertion(leveled=False)


def levels(b, rels: tuple[str, ...], members: frozenset[str]) -> Levels:
    """The stratum's maintenance by levels (the module's docstring)."""
    s = _Stratum(b, rels, members)
    dred_deletion = s.over_deletion() + [
        stmt for r in rels for stmt in (
            s.made(r, "dlv", Parts(r, (s.block(r, (Source("l", r, "level"), Source(
                "d", r, "del")), s.same(r, "l", "d"), level=_level("l"),
                needs=(Source("d", r, "del"),)),)), f"{r}: the rows deleted, with their levels"),
            Patch(s.level(r), None, s.level(r, "dlv")))]
    return Levels(tuple(s.level(r) for r in rels), tuple(s.deletion()), tuple(dred_deletion),
                  tuple(s.insertion(leveled=True)), tuple(s.rebuild()))


class _Stratum:
    """The statements of one recursive stratum's maintenance (``b``: the update plan's
    builder, :class:`dl2sql.incremental.build._Builder`)."""

    def __init__(self, b, rels: tuple[str, ...], members: frozenset[str]):
        self.b, self.rels, self.members = b, rels, members
        self.blocks = {r: b.p.blocks.get(r, []) for r in rels}
        self.span = next((x.span for r in rels for x in self.blocks[r]), None)

    def parts(self, rel: str, make, *extra) -> Parts:
        return Parts(rel, tuple(p for x in self.blocks[rel] for p in make(x, self.members))
                     + tuple(extra))

    def seeds(self, r: str):
        """The stored rows of ``r`` that rows removed from lower strata derived."""
        return Intersect(self.parts(r, deletion_seeds), table_name(r), self.b.columns(r))

    # -- tables ------------------------------------------------------------------------
    def leveled_layout(self, r: str) -> str:
        return self.b.widened(r, "level", LEVEL, LEVEL_TYPE).relation

    def level(self, r: str, version: str = "level") -> Table:
        """A table of rows of ``r`` with their levels."""
        return self.b._helper(r, version, self.b.widened(r, "level", LEVEL, LEVEL_TYPE))

    def made(self, r: str, version: str, query, comment: str) -> Materialize:
        """A counted table of rows of ``r`` with their levels."""
        return Materialize(self.level(r, version), query, count=True, comment=comment)

    def top(self) -> Table:
        """The one-row table of the stratum's highest level (made per transaction)."""
        name = f"{self.rels[0]}#top"
        if name not in self.b.helper_layouts:
            self.b.helper_layouts[name] = RelationLayout(name, LEVEL_TYPE,
                                                         ((LEVEL, LEVEL_TYPE),), None)
        return self.b._helper(self.rels[0], "top", self.b.helper_layouts[name])

    # -- blocks ------------------------------------------------------------------------
    def row(self, r: str, alias: str) -> tuple:
        return tuple(T.TCol(t, alias, n) for n, t in self.b.p.layouts[r].columns)

    def same(self, r: str, a: str, c: str) -> tuple:
        return tuple(T.TBin(BOOL, "==", x, y) for x, y in zip(self.row(r, a), self.row(r, c)))

    def block(self, r: str, sources, conditions=(), antijoins=(), level=None,
              needs=None) -> Part:
        """A part of rows of ``r`` from ``sources`` (the first gives the row), with
        ``level`` (an expression) as their level when given; it needs the tables of
        the sources given in ``needs`` (all but the stored ones by default)."""
        outs = self.row(r, sources[0].alias) + ((level,) if level is not None else ())
        rel = self.leveled_layout(r) if level is not None else r
        x = Block(rel, tuple(sources), tuple(conditions), tuple(antijoins), outs, self.span)
        if needs is None:
            needs = [s for s in sources if s.version not in ("full", "level", "top")]
        return Part(Rows(x), tuple(dict.fromkeys(table_name(s.relation, s.version)
                                                 for s in needs)))

    # -- deletion ------------------------------------------------------------------------
    def over_deletion(self) -> list:
        """DRed's deletion: every row derived from a removed row deleted (``R__del``),
        then those still derived found (``R__redo``)."""
        b, rels = self.b, self.rels
        stmts = [b.made(r, "del", self.seeds(r), f"{r}: rows the removed rows derived")
                 for r in rels]
        for r in rels:
            stmts.append(b.made(r, "ddelta", b.scan(r, "del"), f"{r}: first delta"))
        body = [b.made(r, "dnew", b.minus(Intersect(self.parts(r, deletion_steps),
                                                    table_name(r), b.columns(r)), r, "del"),
                       f"{r}: rows derived from the last over-deleted rows") for r in rels]
        loop = self.deleting(body, b.table, ("del", "dnew"), ("ddelta", "dnew"), "dnew",
                             f"over-deletion of {', '.join(rels)}")
        return [*stmts, loop, *self.rederive()]

    def deleting(self, body: list, table, append: tuple[str, str], rename: tuple[str, str],
                 until: str, name: str) -> OverDeletion:
        """A deletion's loop: ``body``, then per relation the version ``append[1]``
        appended to ``append[0]`` (the rows deleted, which its give-up check counts)
        and ``rename[1]`` renamed to ``rename[0]``; until every ``until`` is empty."""
        body = list(body)
        for r in self.rels:
            body += [Append(table(r, append[0]), table(r, append[1])),
                     Rename(table(r, rename[0]), table(r, rename[1]))]
        loop = Loop(tuple(body), tuple(table_name(r, until) for r in self.rels), name)
        return OverDeletion(loop, tuple((r, table_name(r, append[0])) for r in self.rels))

    def deletion(self) -> list:
        """Over-deletion that keeps a candidate with a derivation from rows of lower
        levels, none deleted (``R__dlv``: the rows deleted, with their levels); then, as
        in DRed, the deleted rows removed (from the level tables too) and those still
        derived found (``R__redo``)."""
        b, rels = self.b, self.rels
        stmts = [b.made(r, "lseed", self.seeds(r), f"{r}: rows the removed rows derived")
                 for r in rels]
        for r in rels:
            seed, lv = Source("s", r, "lseed"), Source("l", r, "level")
            stmts.append(self.made(r, "cand", Parts(r, (self.block(
                r, (lv, seed), self.same(r, "l", "s"), level=_level("l"), needs=(seed,)),)),
                f"{r}: those rows with their levels (candidates)"))
        body = [b.made(r, "keep", self.kept(r), f"{r}: candidates derived from rows of "
                                                f"lower levels, none deleted") for r in rels]
        for r in rels:
            cand, keep = Source("c", r, "cand"), Source("k", r, "keep")
            body.append(self.made(r, "snew", Parts(r, (self.block(
                r, (cand,), antijoins=(AntiJoin(keep, self.same(r, "c", "k")),),
                level=_level("c")),)), f"{r}: the others, deleted"))
        body += [self.made(r, "cand_next", Parts(r, tuple(self.derived(r))),
                           f"{r}: rows the deleted rows derived (candidates)") for r in rels]
        stmts.append(self.deleting(body, self.level, ("dlv", "snew"), ("cand", "cand_next"),
                                   "cand_next", f"deletion by levels from {', '.join(rels)}"))
        stmts += [Patch(self.level(r), None, self.level(r, "dlv")) for r in rels]
        for r in rels:
            stmts.append(b.made(r, "del", Parts(r, (self.block(r, (Source("d", r, "dlv"),)),)),
                                f"{r}: the rows deleted"))
        return stmts + self.rederive()

    def derived(self, r: str) -> list[Part]:
        """The stored rows of ``r`` that the rows just deleted derive with the rows as
        they were, with their levels: those above the deleted row's, not deleted yet
        (each rule's step over a deleted row joined with the level table)."""
        lv = Source("dl2sql_lv", r, "level")
        stored = self.row(r, lv.alias)
        parts = []
        for x in self.blocks[r]:
            for part in deletion_steps(x, self.members, "snew"):
                step = part.query.block
                # the step's row of a deleted relation (a member may be read twice)
                deleted = [s for s in step.sources if s.version == "snew"][0]
                gone = tuple(AntiJoin(Source(f"dl2sql_{v}", r, v),
                                      self.same(r, f"dl2sql_{v}", lv.alias))
                             for v in ("dlv", "snew"))
                block = Block(
                    self.leveled_layout(r), step.sources + (lv,),
                    step.conditions + tuple(T.TBin(BOOL, "==", o, c)
                                            for o, c in zip(step.outputs, stored))
                    + (T.TBin(BOOL, ">", _level(lv.alias), _level(deleted.alias)),),
                    gone, stored + (_level(lv.alias),), step.span, step.unnests)
                parts.append(Part(Rows(block), part.needs))
        return parts

    def kept(self, r: str):
        """The candidates of ``r`` with a derivation from rows of the stratum of lower
        levels than theirs, none deleted (other relations as they are now)."""
        layout = self.b.p.layouts[r]
        parts = []
        for x in self.blocks[r]:
            # joined on every head column: the level compared is the candidate's own
            part = rederivations(x, layout, "cand", narrow=False)
            block = part.query.block
            stratum = [s for s in block.sources
                       if s.relation in self.members and s.alias != HEAD_ALIAS]
            below = tuple(T.TBin(BOOL, "<", _level(s.alias), _level(HEAD_ALIAS))
                          for s in stratum)
            deleted = tuple(AntiJoin(Source(f"{s.alias}_dlv", s.relation, "dlv"),
                                     self.same(s.relation, s.alias, f"{s.alias}_dlv"))
                            for s in stratum)
            sources = tuple(Source(s.alias, s.relation, "level") if s in stratum else s
                            for s in block.sources)
            block = Block(block.relation, sources, block.conditions + below,
                          block.antijoins + deleted, block.outputs, block.span, block.unnests)
            parts.append(Part(Rows(block), part.needs))
        return Parts(r, tuple(parts))

    def rederive(self) -> list:
        """The deleted rows (``R__del``) removed, and those still derived found."""
        b = self.b
        stmts = [Patch(b.table(r), None, b.table(r, "del")) for r in self.rels]
        for r in self.rels:
            layout = b.p.layouts[r]
            stmts.append(b.made(r, "redo", b.among(r, "del", self.blocks[r], Parts(r, tuple(
                rederivations(x, layout, "del") for x in self.blocks[r]))),
                f"{r}: over-deleted rows derived still"))
        return stmts

    # -- insertion -----------------------------------------------------------------------
    def insertion(self, leveled: bool) -> list:
        """Semi-naive insertion from the rows derived anew and those put back, and the
        changes made; ``leveled``: the level tables too (:meth:`leveled_insertion`)."""
        b, rels = self.b, self.rels
        if leveled:
            stmts = self.leveled_insertion()
        else:
            stmts = [self.born(r, "added") for r in rels]
            for r in rels:
                stmts += [Patch(b.table(r), b.table(r, "added"), None),
                          b.made(r, "idelta", b.scan(r, "added"), f"{r}: first delta")]
            body = [b.made(r, "inew", b.minus(self.parts(r, insertion_steps), r, "full"),
                           f"{r}: rows derived from the last new rows") for r in rels]
            for r in rels:
                body += [Append(b.table(r), b.table(r, "inew")),
                         Append(b.table(r, "added"), b.table(r, "inew")),
                         Rename(b.table(r, "idelta"), b.table(r, "inew"))]
            at_once = self.rest_at_once()
            if at_once is None:
                stmts.append(Loop(tuple(body), tuple(table_name(r, "inew") for r in rels),
                                  f"insertion into {', '.join(rels)}"))
            else:
                stmts += levels_then_at_once(b.table(rels[0], "idelta"), tuple(body), at_once,
                                             (b.table(rels[0]), b.table(rels[0], "added")))
        for r in rels:
            stmts.append(b.made(r, "plus", b.minus(b.scan(r, "added"), r, "del"),
                                f"{r}: rows added"))
            stmts.append(b.made(r, "minus", b.minus(b.scan(r, "del"), r, "added"),
                                f"{r}: rows removed"))
        return stmts

    def rest_at_once(self):
        """Where the engine has a recursive query and the stratum is one relation whose
        rules read it once each (linear recursion): the statement that finds, as one
        query, every row derived from the last new rows (``idelta``, stored already)
        and from those in turn, each step leaving out the stored rows; None otherwise.
        (A level as a statement probes the stored relation; the query hashes it once:
        ``closure``'s further_at_once.)"""
        b, r = self.b, self.rels[0]
        if not b.policy.recursive_union or len(self.rels) != 1 or any(
                sum(s.relation == r for s in x.sources) > 1 for x in self.blocks[r]):
            return None

        def steps(delta: str) -> tuple:
            return tuple(b.minus(p.query, r, "full") for x in self.blocks[r]
                         for p in insertion_steps(x, self.members, delta))
        query = RecursiveUnion(r, table_name(r, "ifurther"), steps("idelta"),
                               steps("ifurther"))
        return b.made(r, "iall", Parts(r, (Part(query, (table_name(r, "idelta"),)),)),
                      f"{r}: rows derived from the last new rows, and on, until none is new")

    def born(self, r: str, version: str) -> Materialize:
        """The rows of ``r`` derived anew or put back, not stored."""
        redo = Part(Scan(table_name(r, "redo")), (table_name(r, "redo"),))
        return self.b.made(r, version, self.b.minus(self.parts(r, insertion_seeds, redo),
                                                    r, "full"), f"{r}: rows derived anew")

    def leveled_insertion(self) -> list:
        """The insertion on the level tables: the first rows one level above the
        highest, each round's one above the last (the rows of a round are derived from
        the last round's, all of the highest level so far); the relations patched with
        all of them at the end (``R__added``)."""
        b, rels = self.b, self.rels
        stmts = [self.born(r, "born") for r in rels]
        # level 0 where the stratum is empty: a level is never NULL (rows compare equal)
        none = Block(f"{rels[0]}#top", (), (), (), (T.TConst(LEVEL_TYPE, 0.0),), self.span)
        highest = Union(f"{rels[0]}#top", (Rows(none),) + tuple(Rows(Block(
            f"{rels[0]}#top", (Source("l", r, "level"),), (), (), (_level("l"),), self.span))
            for r in rels))
        stmts.append(Materialize(self.top(), Best(highest, (), LEVEL, "max", ((LEVEL, LEVEL),)),
                                 comment=f"{', '.join(rels)}: the highest level"))
        top = Source(TOP, rels[0], "top")
        for r in rels:
            born = Source("n", r, "born")
            stmts += [self.made(r, "ladded", Parts(r, (self.block(
                r, (born, top), level=_next(_level(TOP))),)),
                f"{r}: those rows, a level above the highest"),
                Append(self.level(r), self.level(r, "ladded")),
                self.made(r, "lidelta", Parts(r, (Part(Scan(table_name(r, "ladded")),
                                                       (table_name(r, "ladded"),)),)),
                          f"{r}: first delta")]
        stmts.append(self.level_loop(also=("ladded",)))
        for r in rels:
            stmts += [b.made(r, "added", Parts(r, (self.block(r, (Source("a", r, "ladded"),)),)),
                             f"{r}: rows derived anew"),
                      Patch(b.table(r), b.table(r, "added"), None)]
        return stmts

    def level_loop(self, also: tuple[str, ...]) -> Loop:
        """Semi-naive rounds on the level tables from ``R__lidelta`` until nothing new
        is derived; each round's rows added to the level tables and to their ``also``
        versions."""
        rels = self.rels
        deltas = tuple(table_name(r, "lidelta") for r in rels)
        body = []
        for r in rels:
            comment = f"{r}: rows derived from the last new rows"

            def steps(per_row: bool) -> Parts:
                return Parts(r, tuple(self.leveled_step(p, per_row) for x in self.blocks[r]
                                      for p in insertion_steps(x, self.members)))
            level, columns = table_name(r, "level"), self.b.columns(r)
            # every row of a round is one level above the last round's rows, which
            # share one level: on a large round computed once, after the rows are
            # deduplicated as in the plain loop (per joined row, the rounds of
            # points-to cost 1.3x the plain ones, once 1.05x); on a small one per
            # joined row (once, a scalar subquery: 1.3x on value flow's 55 rounds of
            # a few hundred rows, per row 1.06x)
            body.append(BySize(self.level(r, "lidelta"), ONCE_ABOVE_ROWS, (
                self.made(r, "linew", Subtract(steps(True), level, columns, (LEVEL,)),
                          comment + ", the level per joined row"),), (
                self.made(r, "linew", OneAbove(Subtract(steps(False), level, columns),
                                               deltas, LEVEL),
                          comment + ", the level once for the round"),)))
        for r in rels:
            body += [Append(self.level(r), self.level(r, "linew"))]
            body += [Append(self.level(r, v), self.level(r, "linew")) for v in also]
            body += [Rename(self.level(r, "lidelta"), self.level(r, "linew"))]
        return Loop(tuple(body), tuple(table_name(r, "linew") for r in rels),
                    f"insertion into {', '.join(rels)}")

    def leveled_step(self, part: Part, per_row: bool) -> Part:
        """A rule's insertion step on the level tables: the last round's rows
        (``R__lidelta``) and every row so far (``R__level``); ``per_row``: its rows
        one level above the last round's, else without their level (added once for
        all of them, :meth:`level_loop`)."""
        x = part.query.block
        delta = [s for s in x.sources if s.version == "idelta"][0]
        sources = tuple(Source(s.alias, s.relation, "lidelta") if s is delta else
                        Source(s.alias, s.relation, "level") if s.relation in self.members
                        else s for s in x.sources)
        layout, outputs = ((self.leveled_layout(x.relation),
                            x.outputs + (_next(_level(delta.alias)),)) if per_row
                           else (x.relation, x.outputs))
        block = Block(layout, sources, x.conditions, x.antijoins, outputs, x.span, x.unnests)
        return Part(Rows(block), tuple(n.replace("__idelta", "__lidelta") for n in part.needs))

    # -- evaluation with levels ----------------------------------------------------------
    def rebuild(self) -> list:
        """The stratum evaluated from scratch semi-naively on its level tables, each
        row's level its round (the rules that read no relation of the stratum give
        level 1); the relations made from them."""
        b, rels = self.b, self.rels
        stmts = []
        for r in rels:
            base = tuple(Part(Rows(Block(self.leveled_layout(r), x.sources, x.conditions,
                                         x.antijoins, x.outputs + (T.TConst(LEVEL_TYPE, 1.0),),
                                         x.span, x.unnests)), ())
                         for x in self.blocks[r]
                         if not any(s.relation in self.members for s in x.sources))
            stmts.append(self.made(r, "level", Parts(r, base),
                                   f"{r}: the rows of its first rules, level 1"))
        for r in rels:
            stmts.append(self.made(r, "lidelta", Parts(r, (Part(Scan(table_name(r, "level")),
                                                                 (table_name(r, "level"),)),)),
                                   f"{r}: first delta"))
        stmts.append(self.level_loop(also=()))
        for r in rels:
            stmts.append(b.made(r, "full", Parts(r, (self.block(r, (Source("l", r, "level"),)),)),
                                f"{r}: its rows"))
        return stmts


def _level(alias: str) -> T.TCol:
    return T.TCol(LEVEL_TYPE, alias, LEVEL)


def _next(level: T.TExpr) -> T.TExpr:
    return T.TBin(LEVEL_TYPE, "+", level, T.TConst(LEVEL_TYPE, 1.0))
