"""The update plan of DDlog's transactional kinds: streams, multisets and delayed
relations (dispatched from :mod:`dl2sql.incremental.build`; nodes in
:mod:`dl2sql.incremental.bag_nodes`).

Per stratum, by kind:

- an input multiset: the deleted copies that were present (a fact's copy stays), then
  the net change: inserted copies less deleted ones, and the other way round;
- an input stream: its new contents are this transaction's rows (inserted less
  deleted, and its facts); the change is new against old contents, copy by copy;
- a delayed relation ``R-N`` (the generated input ``R__prevN``): the change ``R`` had
  ``N`` transactions ago, kept by the state in the history tables of ``R``
  (:class:`~dl2sql.incremental.bag_nodes.Delays`, shifted after every transaction);
- weights (a derived multiset): delta rules over weights. Each rule's variant that
  reads one source's ``plus`` (sources before it at their new state, after it at the
  state before the transaction) adds its rows' copies, the one over ``minus``
  subtracts them; joins multiply weights. Where a rule negates a relation, the rows
  whose derivations a change of it may turn on or off (``flip``) are counted again in
  the new state and compared with their stored copies instead;
- stream (a derived stream): its rules over the current state, which reads this
  transaction's stream rows: the stream's new contents, its change new against old;
- group over a bag: as for sets (:mod:`dl2sql.incremental.build`), the rows of the
  touched groups read with their copies, which a group sees as weights.

Each stratum can also be recomputed from scratch, with bag unions and differences.
"""
from __future__ import annotations

import dataclasses

from dl2sql.incremental.bag_nodes import (BagCommon, BagHolding, BagMinus, BagParts, BagPatch,
                                          BagPlan, Delays, Replace, history_name)
from dl2sql.incremental.nodes import StratumUpdate
from dl2sql.incremental.variants import reads, rederivations
from dl2sql.plan.build import relation_table, table_name
from dl2sql.plan.nodes import Materialize, Part, Parts, Patch, Rows, Scan, Table, Union
from dl2sql.ra.nodes import AntiJoin, Block, GroupBlock, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# source aliases no rule uses (lowering names sources t1, t2, ...)
FLIP_ALIAS, STORED_ALIAS = "dl2sql_flip", "dl2sql_stored"
# versions read from a stored table (a source at one of these is never empty)
STORED = ("full", "wide", "before")


class BagBuilder:
    """Builds the strata of bags and delayed relations with ``builder`` (the
    :class:`~dl2sql.incremental.build._Builder` of the whole plan, whose tables it
    adds to); ``kinds`` maps each bag relation to its kind (``stream``,
    ``multiset``), ``delayed`` each generated delayed relation to its
    :class:`~dl2sql.types.transactional.Delayed`."""

    def __init__(self, builder, kinds: dict[str, str], delayed: dict):
        self.b, self.kinds, self.delayed = builder, kinds, delayed
        self.depth: dict[str, int] = {}  # relation read delayed -> its largest delay
        for d in delayed.values():
            self.depth[d.relation] = max(self.depth.get(d.relation, 0), d.delay)
        self.stream_inputs: set[str] = set()

    # -- dispatch ----------------------------------------------------------------------
    def owns_input(self, rel: str) -> bool:
        """Whether input relation ``rel`` is a bag or delayed (built here)."""
        return rel in self.kinds or rel in self.delayed

    def owns(self, s) -> bool:
        """Whether derived stratum ``s`` is built here: a bag, or a group over one."""
        if s.transform is not None or s.recursive:
            return False  # bags are never recursive (dl2sql.passes.bags)
        rel = s.relations[0]
        return rel in self.kinds or any(
            isinstance(x, GroupBlock) and x.source.relation in self.kinds
            for x in self.b.p.blocks.get(rel, []))

    def plan(self) -> BagPlan:
        """What the executor keeps for these relations (their history tables too)."""
        delays = tuple(Delays(rel, tuple(
            (self._history(rel, k, "plus"), self._history(rel, k, "minus"))
            for k in range(1, depth + 1))) for rel, depth in sorted(self.depth.items()))
        return BagPlan(frozenset(self.kinds),
                       frozenset(r for r, k in self.kinds.items() if k == "stream"),
                       frozenset(self.stream_inputs), delays)

    # -- inputs ------------------------------------------------------------------------
    def input(self, rel: str, facts: bool, info) -> StratumUpdate:
        """An input bag's or delayed relation's changes."""
        for version in ("plus", "minus", "wide"):
            self.b.table(rel, version)
        if rel in self.delayed:
            return self._delayed(rel)
        if self.kinds[rel] == "stream":
            self.stream_inputs.add(rel)
            insert, delete = table_name(rel, "insert"), table_name(rel, "delete")
            parts = [Part(BagMinus(self._scan(rel, "insert"), delete), (insert,))]
            if facts:  # a stream's facts are rows of every transaction
                parts.append(Part(Scan(table_name(rel, "facts")), ()))
            stmts = [self.b.made(rel, "fresh", BagParts(rel, tuple(parts)),
                                 f"{rel}: this transaction's rows"), *self._replaced(rel)]
        else:
            stmts = self._multiset_input(rel, facts)
        return StratumUpdate((rel,), "input", (), tuple(stmts))

    def _multiset_input(self, rel: str, facts: bool) -> list:
        """Deleted copies that were present (a fact's copy is never deleted), then the
        net change."""
        b, full = self.b, table_name(rel)
        insert, delete = table_name(rel, "insert"), table_name(rel, "delete")
        stored = BagHolding(full, delete, b.columns(rel))  # the copies of deleted rows
        if facts:
            stored = BagMinus(stored, table_name(rel, "facts"))
        present = BagCommon(stored, delete)
        return [b.made(rel, "present", present, f"{rel}: copies deleted that were present"),
                b.made(rel, "plus", BagMinus(self._scan(rel, "insert"),
                                             table_name(rel, "present")), f"{rel}: copies added"),
                b.made(rel, "minus", BagMinus(self._scan(rel, "present"), insert),
                       f"{rel}: copies removed"),
                self._patch(rel)]

    def _delayed(self, rel: str) -> StratumUpdate:
        """``R-N`` follows ``R`` N transactions late: it takes the change ``R`` had
        then, from ``R``'s history."""
        d = self.delayed[rel]
        source = {v: self._history(d.relation, d.delay, v) for v in ("plus", "minus")}
        what = f"{rel}: the change of {d.relation} {d.delay} transaction(s) ago"
        if rel in self.kinds:
            stmts = [self.b.made(rel, v, BagParts(rel, (Part(Scan(t.name), (t.name,)),)),
                                 f"{what} ({v})") for v, t in source.items()]
            stmts.append(self._patch(rel))
        else:
            stmts = [self.b.made(rel, v, Parts(rel, (Part(Scan(t.name), (t.name,)),)),
                                 f"{what} ({v})") for v, t in source.items()]
            stmts.append(Patch(self.b.table(rel), self.b.table(rel, "plus"),
                               self.b.table(rel, "minus")))
        return StratumUpdate((rel,), "delayed", (history_name(d.relation, d.delay),),
                             tuple(stmts))

    def _history(self, rel: str, ago: int, version: str) -> Table:
        columns = relation_table(self.b.p.layouts, rel).columns
        t = Table(table_name(history_name(rel, ago), version), columns, (), rel)
        self.b.tables[t.name] = t
        return t

    # -- derived strata ----------------------------------------------------------------
    def stratum(self, s) -> StratumUpdate:
        """A derived bag's stratum, or a group's over a bag."""
        b, rel = self.b, s.relations[0]
        if rel not in self.kinds:  # a group (a set) over a bag: its rows keep their copies
            update = b.stratum(s)
            source = table_name(rel, "source")
            return dataclasses.replace(update, statements=tuple(
                dataclasses.replace(x, query=BagParts(rel, x.query.parts))
                if isinstance(x, Materialize) and x.target.name == source else x
                for x in update.statements))
        for version in ("plus", "minus", "wide", "old"):
            b.table(rel, version)
        blocks = b.p.blocks.get(rel, [])
        read = tuple(sorted(reads(blocks) - {rel}))
        negated = {aj.source.relation for x in blocks for aj in x.antijoins} - {rel}
        full, old = table_name(rel), table_name(rel, "old")
        recompute = (Materialize(b.table(rel), Union(rel, tuple(Rows(x) for x in blocks),
                                                     bag=True), comment=rel),)
        diff = (b.made(rel, "plus", BagMinus(BagParts(rel, (Part(Scan(full), ()),)), old),
                       f"{rel}: copies added"),
                b.made(rel, "minus", BagMinus(BagParts(rel, (Part(Scan(old), ()),)), full),
                       f"{rel}: copies removed"))
        if self.kinds[rel] == "stream":
            fresh = BagParts(rel, tuple(Part(Rows(x), ()) for x in blocks))
            method = "stream"
            stmts = [b.made(rel, "fresh", fresh, f"{rel}: what this transaction derives"),
                     *self._replaced(rel)]
        else:
            method, stmts = "weights", self._weights(rel, blocks)
        return StratumUpdate((rel,), method, read, tuple(stmts), recompute, diff,
                             tuple(sorted(negated)))

    def _weights(self, rel: str, blocks: list[Block]) -> list:
        """Delta rules over weights; rows a negation may switch are counted again."""
        b, layout = self.b, self.b.p.layouts[rel]
        negating = any(x.antijoins for x in blocks)
        plus, minus, stmts = [], [], []
        if negating:
            seeds = [_part(_negated_as_join(x, j, v)) for x in blocks
                     for j in range(len(x.antijoins)) for v in ("plus", "minus")]
            stmts.append(b.made(rel, "flip", Parts(rel, tuple(seeds)),
                                f"{rel}: rows a change of a negated relation may switch"))
            plus += [rederivations(x, layout, "flip") for x in blocks]
            minus.append(self._stored_flips(rel, blocks[0].span))
        for x in blocks:
            flips = (self._not_flipped(rel, x),) if negating else ()
            n = len(x.sources)
            for i in range(n):
                for version, out in (("plus", plus), ("minus", minus)):
                    versions = ["full" if k < i else version if k == i else "before"
                                for k in range(n)]
                    out.append(_part(_at(x, versions, x.antijoins + flips)))
        wplus, wminus = table_name(rel, "wplus"), table_name(rel, "wminus")
        return stmts + [
            b.made(rel, "wplus", BagParts(rel, tuple(plus)),
                   f"{rel}: copies new derivations add"),
            b.made(rel, "wminus", BagParts(rel, tuple(minus)),
                   f"{rel}: copies lost derivations take away"),
            b.made(rel, "plus", BagMinus(self._scan(rel, "wplus"), wminus),
                   f"{rel}: copies added"),
            b.made(rel, "minus", BagMinus(self._scan(rel, "wminus"), wplus),
                   f"{rel}: copies removed"),
            self._patch(rel)]

    def _same_row(self, rel: str, alias: str, outputs) -> tuple:
        """Conditions: the row of ``rel`` at ``alias`` equals ``outputs``."""
        return tuple(T.TBin(BOOL, "==", T.TCol(t, alias, name), out)
                     for (name, t), out in zip(self.b.p.layouts[rel].columns, outputs))

    def _not_flipped(self, rel: str, block: Block) -> AntiJoin:
        return AntiJoin(Source(FLIP_ALIAS, rel, "flip"),
                        self._same_row(rel, FLIP_ALIAS, block.outputs))

    def _stored_flips(self, rel: str, span) -> Part:
        """The stored copies of the rows counted again."""
        stored = tuple(T.TCol(t, STORED_ALIAS, n) for n, t in self.b.p.layouts[rel].columns)
        block = Block(rel, (Source(STORED_ALIAS, rel, "full"), Source(FLIP_ALIAS, rel, "flip")),
                      self._same_row(rel, FLIP_ALIAS, stored), (), stored, span)
        return Part(Rows(block), (table_name(rel, "flip"),))

    # -- shared ------------------------------------------------------------------------
    def _scan(self, rel: str, version: str) -> BagParts:
        name = table_name(rel, version)
        return BagParts(rel, (Part(Scan(name), (name,)),))

    def _replaced(self, rel: str) -> list:
        """Contents made whole in ``fresh``: the change against the stored ones, then
        ``fresh`` stored."""
        b, full, fresh = self.b, table_name(rel), table_name(rel, "fresh")
        return [b.made(rel, "plus", BagMinus(self._scan(rel, "fresh"), full),
                       f"{rel}: copies added"),
                b.made(rel, "minus", BagMinus(BagParts(rel, (Part(Scan(full), ()),)), fresh),
                       f"{rel}: copies removed"),
                Replace(b.table(rel), b.table(rel, "fresh"))]

    def _patch(self, rel: str) -> BagPatch:
        b = self.b
        return BagPatch(b.table(rel), b.table(rel, "plus"), b.table(rel, "minus"),
                        b.table(rel, "add"))


def _at(block: Block, versions: list[str], antijoins) -> Block:
    return dataclasses.replace(block, sources=tuple(
        Source(s.alias, s.relation, v) for s, v in zip(block.sources, versions)),
        antijoins=tuple(antijoins))


def _part(block: Block) -> Part:
    """The block as a part needing the changes it joins."""
    return Part(Rows(block), tuple(dict.fromkeys(
        table_name(s.relation, s.version) for s in block.sources if s.version not in STORED)))


def _negated_as_join(block: Block, j: int, version: str) -> Block:
    """The derivations of ``block`` (sources before or after the transaction: ``wide``)
    that a row of the ``version`` change of its ``j``-th negated relation matches."""
    aj = block.antijoins[j]
    wide = _at(block, ["wide"] * len(block.sources), ())
    return dataclasses.replace(
        wide, sources=wide.sources + (Source(aj.source.alias, aj.source.relation, version),),
        conditions=block.conditions + aj.conditions)
