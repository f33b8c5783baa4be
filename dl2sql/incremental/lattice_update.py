"""Maintenance of a stratum whose recursion goes through ``min`` or ``max`` (a lattice
stratum, :mod:`dl2sql.plan.lattice`) when a transaction only adds to what it reads.

Rows added to the relations the stratum reads (or removed from those it negates) only
add candidates, so an aggregate's values only improve: the lattice loop of the
evaluation (:mod:`dl2sql.plan.lattice_loop`) goes on from the values stored, seeded
with the candidates of the added rows, and its work is that of the improvements. The
values gained make the aggregate's ``plus`` (each key's best) and ``minus`` (the
values they replace); the stratum's other relations (the candidates, the group's
helper relations) then follow by the delta rules of non-recursive strata
(:meth:`dl2sql.incremental.build._Builder.rules`, ``group``) over those changes.

A transaction that removes rows there (or adds to a negated relation) may make values
worse, which no improvement finds: the stratum is then evaluated anew, as before
(``recompute (recursive aggregation)``, :mod:`dl2sql.incremental.execute`).
"""
from __future__ import annotations

from typing import Optional

from dl2sql.incremental.nodes import Enough
from dl2sql.incremental.variants import insertion_seeds
from dl2sql.plan.build import table_name
from dl2sql.plan.lattice import Aggregate, Lattice
from dl2sql.plan.nodes import (Append, Best, Improve, Loop, Materialize, Part, Parts, Rename,
                               Rows, Scan, Union)
from dl2sql.ra.nodes import Block, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# the method's name in StratumUpdate and in a transaction's methods
LATTICE = "lattice"


def lattice_update(builder, shape: Lattice, group_steps: tuple[str, ...]) -> Optional[list]:
    """The statements of a transaction that only adds to what the stratum reads, or
    None where the stratum's shape has no such maintenance (a rule reading two of its
    relations, a group's rows reading a relation below it)."""
    blocks = builder.p.blocks
    made = [a.relation for a in shape.aggregates]
    members = frozenset(made) | frozenset(shape.candidates)

    def reads(b) -> int:
        return sum(src.relation in members for src in b.sources)

    if any(reads(b) > 1 for rel in shape.candidates for b in blocks.get(rel, [])) or any(
            len(blocks[a.rows][0].sources) != 1 for a in shape.aggregates):
        return None
    stmts, body, moves, swap = [], [], [], []
    for rel in shape.candidates:
        seeds = Parts(rel, tuple(p for b in blocks.get(rel, [])
                                 for p in insertion_seeds(b, members)))
        stmts.append(builder.made(rel, "delta", seeds,
                                  f"{rel}: candidates of the rows added below"))
        variants = tuple(Part(Rows(b.with_delta(i)), (table_name(src.relation, "delta"),))
                         for b in blocks.get(rel, [])
                         for i, src in enumerate(b.sources) if src.relation in members)
        swap.append(builder.made(rel, "delta", Parts(rel, variants),
                                 f"{rel}: candidates from the improved values"))
    for a in shape.aggregates:
        for version in ("delta", "gained"):
            stmts.append(Materialize(builder.table(a.relation, version), Parts(a.relation, ()),
                                     comment=f"{a.relation}: no value gained yet"))
        body.append(builder.made(a.relation, "new", _improved(builder, a),
                                 f"{a.relation}: keys whose {a.direction} improved"))
        moves.append(Append(builder.table(a.relation, "gained"),
                            builder.table(a.relation, "new")))
        moves.append(Rename(builder.table(a.relation, "delta"),
                            builder.table(a.relation, "new")))
    until = tuple(table_name(r, "new") for r in made)
    stmts.append(Loop(tuple(body + moves + swap), until, ", ".join(made)))
    for a in shape.aggregates:
        stmts += builder.changes(a.relation, _gained(builder, a), _replaced(builder, a))
    for rel in shape.candidates:
        stmts += builder.rules(rel, blocks.get(rel, []))
    for a in shape.aggregates:
        stmts += builder.rules(a.rows, blocks[a.rows])
        # a give-up there would leave the aggregate patched: the groups are made again
        # however many are touched
        stmts += [s for s in builder.group(a.group, blocks[a.group][0])
                  if not isinstance(s, Enough)]
    assert set(group_steps) == {x for a in shape.aggregates for x in (a.rows, a.group)}
    return stmts


def _improved(builder, a: Aggregate) -> Improve:
    """The best candidate of the last round per key, where it beats both the value
    stored before the transaction and every value gained since."""
    [rows] = builder.p.blocks[a.rows]
    pairs = dict(a.keys + (a.value,))
    best = Best(Union(a.rows, (Rows(rows.with_delta(0)),), bag=True),
                tuple(r for _, r in a.keys), a.value[1], a.direction,
                tuple((c, pairs[c]) for c in builder.columns(a.relation)))
    keys = tuple(k for k, _ in a.keys)
    stored = Improve(best, table_name(a.relation), keys, a.value[0], a.direction)
    return Improve(stored, builder.table(a.relation, "gained").name, keys, a.value[0],
                   a.direction)


def _gained(builder, a: Aggregate) -> Parts:
    """Each improved key's best value gained."""
    gained = builder.table(a.relation, "gained").name
    columns = builder.columns(a.relation)
    best = Best(Scan(gained), tuple(k for k, _ in a.keys), a.value[0], a.direction,
                tuple((c, c) for c in columns))
    return Parts(a.relation, (Part(best, (gained,)),))


def _replaced(builder, a: Aggregate) -> Parts:
    """The stored rows of the improved keys."""
    layout = builder.p.layouts[a.relation]
    span = builder.p.blocks[a.rows][0].span
    stored, plus = Source("s", a.relation, "full"), Source("p", a.relation, "plus")
    same = tuple(T.TBin(BOOL, "==", T.TCol(t, "s", n), T.TCol(t, "p", n))
                 for n, t in layout.columns if n != a.value[0])
    block = Block(a.relation, (stored, plus), same, (),
                  tuple(T.TCol(t, "s", n) for n, t in layout.columns), span)
    return Parts(a.relation, (Part(Rows(block), (builder.table(a.relation, "plus").name,)),))
