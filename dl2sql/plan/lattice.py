"""Which strata whose recursion goes through a ``group_by`` may be evaluated as a
lattice fixpoint, semi-naively, with the same result as DDlog's naive iteration.

Such a stratum (:mod:`dl2sql.passes.stratify`) is iterated from empty relations,
every relation remade each iteration from the last one's (DDlog's meaning). When every
aggregate of the stratum is the ``min`` or the ``max`` of its group and the values it
yields flow back into its groups only through order-preserving expressions (a column,
``x + e``, ``x - e`` with ``e`` not an aggregate's value), that iteration climbs a
lattice: an aggregate's value per key only improves (decreases for ``min``, increases
for ``max``) from one iteration to the next, and a row derived from an older value
is matched, key for key, by one derived from the newer, better value. Its result is
then the least fixpoint, which a semi-naive loop reaches by propagating, each round,
only the keys whose value improved (:meth:`dl2sql.plan.loops._Planner._lattice`).

This module decides that, conservatively; a stratum it does not accept keeps the naive
iteration. Accepted:

- each ``group_by`` step feeds exactly one relation ``A`` (its aggregate), whose only
  rule is ``A(k..., v) :- G(k..., g), v = g.min()`` (or ``max``, or an ``arg_min`` or
  ``arg_max`` that is one of those: :func:`dl2sql.passes.group_counts.extremum`):
  every group key once, and a value of a type SQL orders as DDlog does (integers of
  at most 64 bits, strings, tuples of them, ordered field by field);
- every other relation of the stratum (``C``, the candidates) reads, from the
  stratum, aggregates only: rows derived from an older value of a candidate would
  otherwise keep themselves alive through a cycle of candidates in the naive
  iteration;
- an aggregate's value (and every candidate column made from one) appears in no
  condition, negation, key or ``FlatMap``, only in outputs that are order-preserving
  in it, towards an aggregate of the same direction; strings only as they are; of a
  tuple, its first field (``x <= y`` gives ``x.0 <= y.0``), and a tuple is made from
  one only as its first field, its other fields reading no value (a tie on the first
  field then gives equal tuples).

Arithmetic that wraps around (a sum past the largest ``u32``) is taken as ordered: the
two evaluations differ only where a value overflows its type.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import dl2sql.types.typed as T
from dl2sql.plan.nodes import Best, Fixpoint, Scan, Union
from dl2sql.ra.nodes import Block, GroupBlock, RelationLayout
from dl2sql.passes.group_counts import extremum
from dl2sql.types.model import TBit, TSigned, TString, TTuple



@dataclass(frozen=True)
class Aggregate:
    """A relation made by the ``min`` or ``max`` of a group: ``relation`` (A), from
    ``group`` (G) over ``rows`` (R); ``keys`` pairs each key column of A with the
    column of R it comes from, ``value`` the value column of A with R's."""

    relation: str
    rows: str
    group: str
    direction: str
    keys: tuple[tuple[str, str], ...]
    value: tuple[str, str]

    def best_of_rows(self, rows: tuple, columns: tuple[str, ...]) -> Best:
        """The best value per key among ``rows`` (queries of the group's rows R), as
        the columns ``columns`` of A (in A's order)."""
        pairs = dict(self.keys + (self.value,))
        return Best(Union(self.rows, rows, bag=True), tuple(r for _, r in self.keys),
                    self.value[1], self.direction, tuple((c, pairs[c]) for c in columns))

    def each_of_rows(self, rows: tuple, columns: tuple[str, ...]) -> Best:
        """Every distinct value per key among ``rows`` (queries of R), as the columns
        ``columns`` of A: the best per key and value, which is that value."""
        pairs = dict(self.keys + (self.value,))
        return Best(Union(self.rows, rows, bag=True),
                    tuple(r for _, r in self.keys) + (self.value[1],), self.value[1],
                    self.direction, tuple((c, pairs[c]) for c in columns))

    def best_held(self, table: str, columns: tuple[str, ...]) -> Best:
        """The best value per key of ``table``, a table of A's ``columns``."""
        return Best(Scan(table), tuple(k for k, _ in self.keys), self.value[0],
                    self.direction, tuple((c, c) for c in columns))


@dataclass(frozen=True)
class Lattice:
    """A stratum evaluated as a lattice fixpoint: its aggregates and its other
    relations (``candidates``), each in stratum order."""

    aggregates: tuple[Aggregate, ...]
    candidates: tuple[str, ...]


def lattice_of(f: Fixpoint, blocks: dict, layouts: dict[str, RelationLayout]
               ) -> Optional[Lattice]:
    """The lattice shape of the stratum ``f`` (recursion through ``group_by``), or None
    when it must keep the naive iteration."""
    if not f.group_steps or f.bags:
        return None
    steps = set(f.group_steps)
    members = [r for r in f.relations if r not in steps]
    aggregates = []
    for g in f.group_steps:
        made = blocks.get(g, ())
        if any(isinstance(b, GroupBlock) for b in made):
            agg = _aggregate(made[0], f, blocks, layouts) if len(made) == 1 else None
            if agg is None:
                return None
            aggregates.append(agg)
    if len(aggregates) * 2 != len(f.group_steps):
        return None
    made_by = {a.relation for a in aggregates}
    if len(made_by) != len(aggregates):
        return None
    candidates = tuple(r for r in members if r not in made_by)
    flow = _Flow(aggregates, candidates, blocks, layouts, set(f.relations))
    return Lattice(tuple(aggregates), candidates) if flow.ordered() else None


def _aggregate(gb: GroupBlock, f: Fixpoint, blocks: dict, layouts: dict
               ) -> Optional[Aggregate]:
    """``gb``'s aggregate, when it is one relation's ``min`` or ``max`` of it."""
    rows = gb.source.relation
    if gb.aggregate != "group" or rows not in f.group_steps or \
            len(blocks.get(rows, ())) != 1 or isinstance(blocks[rows][0], GroupBlock):
        return None
    group_readers = [(rel, b) for rel in f.relations for b in blocks.get(rel, ())
                     if any(s.relation == gb.relation for s in b.sources)]
    rows_readers = [rel for rel in f.relations for b in blocks.get(rel, ())
                    if any(s.relation == rows for s in b.sources)]
    if rows_readers != [gb.relation] or len(group_readers) != 1:
        return None
    [(rel, block)] = group_readers
    if len(blocks[rel]) != 1 or len(block.sources) != 1 or block.conditions or \
            block.antijoins or block.unnests or isinstance(block, GroupBlock):
        return None
    alias = block.sources[0].alias
    group_columns = [n for n, _ in layouts[gb.relation].columns]
    key_columns, grouped = group_columns[:-1], group_columns[-1]
    rows_of = {}
    for i, k in enumerate(gb.keys):
        if not (isinstance(k, T.TCol) and k.alias == gb.source.alias):
            return None
        rows_of[key_columns[i]] = k.column
    if not (isinstance(gb.value, T.TCol) and gb.value.alias == gb.source.alias):
        return None
    keys, value, direction = [], None, None
    for (name, typ), out in zip(layouts[rel].columns, block.outputs):
        if isinstance(out, T.TCol) and out.alias == alias and out.column in rows_of:
            keys.append((name, rows_of[out.column]))
        elif _group_call(out, alias, grouped) and value is None and _ordered_type(typ):
            value, direction = (name, gb.value.column), _group_call(out, alias, grouped)
        else:
            return None
    if value is None or sorted(r for _, r in keys) != sorted(rows_of.values()):
        return None
    return Aggregate(rel, rows, gb.relation, direction, tuple(keys), value)


def _group_call(e, alias: str, grouped: str) -> Optional[str]:
    """The direction of ``e`` when it is the least or the greatest element of the group
    column (``min``, ``max``, or an ``arg_min``/``arg_max`` that is one of them)."""
    if not (isinstance(e, T.TCall) and e.args):
        return None
    arg = e.args[0]
    if not (isinstance(arg, T.TCol) and arg.alias == alias and arg.column == grouped):
        return None
    return extremum(e)


def _ordered_type(t) -> bool:
    if isinstance(t, TTuple):
        return bool(t.elems) and all(_ordered_type(e) for e in t.elems)
    return isinstance(t, TString) or (isinstance(t, (TBit, TSigned)) and t.width <= 64)


class _Flow:
    """Where the aggregates' values go within the stratum: every column that carries
    one (``self.carries``: (relation, column) -> direction) and whether every use of
    them keeps the lattice's order."""

    def __init__(self, aggregates, candidates, blocks, layouts, stratum: set):
        self.aggregates, self.candidates = aggregates, candidates
        self.blocks, self.layouts, self.stratum = blocks, layouts, stratum
        self.carries = {(a.relation, a.value[0]): a.direction for a in aggregates}

    def ordered(self) -> bool:
        readable = {a.relation for a in self.aggregates}
        # a candidate reads aggregates (and relations of earlier strata) only
        for rel in self.candidates:
            for b in self.blocks.get(rel, ()):
                if isinstance(b, GroupBlock) or any(
                        s.relation in self.stratum and s.relation not in readable
                        for s in b.sources):
                    return False
        self._spread()
        for rel in self.candidates:
            for b in self.blocks.get(rel, ()):
                if not self._block_ordered(b, rel, None):
                    return False
        for a in self.aggregates:
            [b] = self.blocks[a.rows]
            if any(s.relation in self.stratum and s.relation not in
                   readable | set(self.candidates) for s in b.sources):
                return False
            if not any(s.relation in self.stratum for s in b.sources):
                return False
            if not self._block_ordered(b, a.rows, a):
                return False
        return True

    def _spread(self) -> None:
        """Mark every candidate column that some rule makes from an aggregate's value."""
        changed = True
        while changed:
            changed = False
            for rel in self.candidates:
                names = [n for n, _ in self.layouts[rel].columns]
                for b in self.blocks.get(rel, ()):
                    for name, out in zip(names, b.outputs):
                        directions = set(self._carried(b, out).values())
                        if directions and (rel, name) not in self.carries:
                            self.carries[(rel, name)] = directions.pop()
                            changed = True

    def _carried(self, b: Block, e) -> dict:
        """The aggregate-carrying columns ``e`` reads: (alias, column) -> direction."""
        source = {s.alias: s.relation for s in b.sources}
        found = {}
        for x in T.subexpressions(e):
            if isinstance(x, T.TCol) and (source.get(x.alias), x.column) in self.carries:
                found[(x.alias, x.column)] = self.carries[(source[x.alias], x.column)]
            elif isinstance(x, T.TRecordOf) and x.alias in source and any(
                    (source[x.alias], c) in self.carries for c in x.columns):
                found[(x.alias, "*")] = "whole"  # a whole record: never ordered
        return found

    def _block_ordered(self, b: Block, rel: str, agg: Optional[Aggregate]) -> bool:
        for c in b.conditions:
            if self._carried(b, c):
                return False
        for aj in b.antijoins:
            if any(self._carried(b, c) for c in aj.conditions):
                return False
        if any(self._carried(b, u.expr) for u in b.unnests):
            return False
        names = [n for n, _ in self.layouts[rel].columns]
        keys = {r for _, r in agg.keys} if agg else set()
        for name, out in zip(names, b.outputs):
            if agg is not None:  # a group's rows: keys never carry, the value in order
                if name in keys and self._carried(b, out):
                    return False
                if name == agg.value[1] and not self._monotone(b, out, agg.direction):
                    return False
                continue
            direction = self.carries.get((rel, name))
            if direction is None:
                if self._carried(b, out):
                    return False
            elif not self._monotone(b, out, direction):
                return False
        return True

    def _monotone(self, b: Block, e, direction: str) -> bool:
        """Whether ``e`` preserves the order of the ``direction`` values it reads."""
        carried = self._carried(b, e)
        if not carried:
            return True
        if set(carried.values()) != {direction}:
            return False
        if isinstance(e, T.TCol):
            return True
        # tuples are ordered by their first field first: the first field of a value,
        # and a tuple whose first field alone reads values, keep the order
        if isinstance(e, T.TTupleGet) and e.index == 0:
            return self._monotone(b, e.expr, direction)
        if isinstance(e, T.TTupleE) and e.elems:
            return self._monotone(b, e.elems[0], direction) and \
                not any(self._carried(b, x) for x in e.elems[1:])
        numeric = isinstance(e.type, (TBit, TSigned))
        if isinstance(e, T.TBin) and numeric and e.op == "+":
            return self._monotone(b, e.left, direction) and \
                self._monotone(b, e.right, direction)
        if isinstance(e, T.TBin) and numeric and e.op == "-":
            return self._monotone(b, e.left, direction) and not self._carried(b, e.right)
        return False
