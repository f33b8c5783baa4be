"""Maintenance of a stratum whose recursion goes through ``min`` or ``max`` (a lattice
stratum, :mod:`dl2sql.plan.lattice`), as delete and rederive over the lattice.

Rows added to the relations the stratum reads only add candidates, so values only
improve; rows removed may take away the candidate a key's value came from. So:

1. **Suspects.** A key whose stored value equals a candidate the removed rows may have
   made (a superset) is suspect, and so, round by round, is a key whose value equals a
   candidate made from a suspect's value (any of them: one made along a row the
   transaction added may be better than the value held, and is no reason to keep
   it). Every key that may lose its value is found; the others keep theirs, supported
   by candidates that stay.
2. **Rederivation.** The suspects' values are removed; their candidates from the
   values that stay (and the rows below, after the transaction), and the candidates
   of the rows added, seed the evaluation's lattice loop
   (:mod:`dl2sql.plan.lattice_loop`), which goes on from the stored values: its
   rounds handle only the keys that improve on what is held.
3. **Changes.** The values gained (each key's best) and the suspects' old values give
   the aggregate's net ``plus`` and ``minus``; the stratum's candidates then follow
   by the delta rules of non-recursive strata
   (:meth:`dl2sql.incremental.build._Builder.rules`) over those changes. The
   ``group_by`` steps' helper relations are not kept (empty, as the evaluation leaves
   them: only the aggregates' rules read them).

A transaction that only adds finds no suspect, and is the lattice loop alone.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from dl2sql.incremental.variants import deletion_seeds, insertion_seeds
from dl2sql.plan.build import table_name
from dl2sql.plan.lattice import Aggregate, Lattice
from dl2sql.plan.lattice_loop import rounds_at_once, with_candidates
from dl2sql.plan.nodes import (Append, Improve, Intersect, KeyedRecursion, Loop, Materialize,
                               Part, Parts, Patch, RecursiveUnion, Rename, Rows, Scan)
from dl2sql.ra.nodes import Block, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# the method's name in StratumUpdate and in a transaction's methods
LATTICE = "lattice"


def lattice_update(builder, shape: Lattice, group_steps: tuple[str, ...]) -> Optional[list]:
    """The statements of a transaction, or None where the stratum's shape has no such
    maintenance (a rule reading two of its relations, a group's rows reading a
    relation below it or keyed by an expression)."""
    blocks = builder.p.blocks
    made = [a.relation for a in shape.aggregates]
    members = frozenset(made) | frozenset(shape.candidates)

    def reads(b) -> int:
        return sum(src.relation in members for src in b.sources)

    if any(reads(b) > 1 for rel in shape.candidates for b in blocks.get(rel, [])) or any(
            len(blocks[a.rows][0].sources) != 1 for a in shape.aggregates):
        return None
    keyed = {a.relation: _candidate_keys(builder, a) for a in shape.aggregates}
    if any(k is None for k in keyed.values()):
        return None
    suspects = _suspects(builder, shape, members)
    stmts = [Patch(builder.table(a.relation), None, builder.table(a.relation, "suspect"))
             for a in shape.aggregates]
    for rel in shape.candidates:
        seeds = [p for b in blocks.get(rel, []) for p in insertion_seeds(b, members)]
        seeds += [_rederived(builder, b, a, keyed[a.relation])
                  for b in blocks.get(rel, []) for a in shape.aggregates
                  if a.rows and blocks[a.rows][0].sources[0].relation == rel]
        stmts.append(builder.made(rel, "delta", Parts(rel, tuple(seeds)),
                                  f"{rel}: candidates of the suspects and of the rows added"))
    if builder.policy.keyed_recursion and len(shape.aggregates) == 1:
        [a] = shape.aggregates
        stmts.append(builder.made(a.relation, "gained", _improved_at_once(builder, shape, a),
                                  f"{a.relation}: every value gained, one recursive query"))
    else:
        stmts += _improvement_loop(builder, shape, members)
    for a in shape.aggregates:
        stmts += _net_changes(builder, a)
    for rel in shape.candidates:
        stmts += builder.rules(rel, blocks.get(rel, []))
    # the group_by steps' helper relations stay empty, as the evaluation leaves them
    # (dl2sql.plan.lattice_loop)
    assert set(group_steps) == {x for a in shape.aggregates for x in (a.rows, a.group)}
    return suspects + stmts


def _improvement_loop(builder, shape: Lattice, members: frozenset) -> list:
    """The evaluation's lattice loop from the candidates seeded (``C__delta``): each
    round, the keys whose value improves on the one stored and on those gained so far
    (``A__gained``)."""
    blocks = builder.p.blocks
    init, body, moves, swap = [], [], [], []
    for a in shape.aggregates:
        for version in ("delta", "gained"):
            init.append(Materialize(builder.table(a.relation, version), Parts(a.relation, ()),
                                    comment=f"{a.relation}: no value gained yet"))
        body.append(builder.made(a.relation, "new", _improved(builder, a),
                                 f"{a.relation}: keys whose {a.direction} improved"))
        moves.append(Append(builder.table(a.relation, "gained"),
                            builder.table(a.relation, "new")))
        moves.append(Rename(builder.table(a.relation, "delta"),
                            builder.table(a.relation, "new")))
    for rel in shape.candidates:
        swap.append(builder.made(rel, "delta", Parts(rel, _variants(blocks, rel, members,
                                                                     "delta")),
                                 f"{rel}: candidates from the improved values"))
    made = [a.relation for a in shape.aggregates]
    return init + [Loop(tuple(body + moves + swap), tuple(table_name(r, "new") for r in made),
                        ", ".join(made))]


def _improved_at_once(builder, shape: Lattice, a: Aggregate) -> KeyedRecursion:
    """Every round of the loop above as one keyed recursive query (where the engine
    has one and the stratum one aggregate), the evaluation's (``A__kdelta``,
    ``C__kdelta`` inside it), from the best candidate seeded (``C__delta``) of each key
    that beats the value stored; its rows are each improved key's best value gained."""
    [rows] = builder.p.blocks[a.rows]
    columns, stored = builder.columns(a.relation), table_name(a.relation)
    first = Improve(a.best_of_rows((Rows(rows.with_delta(0)),), columns), stored,
                    tuple(k for k, _ in a.keys), a.value[0], a.direction)
    return rounds_at_once(builder.p.blocks, shape, a, columns, "kdelta", first, stored)


def _variants(blocks: dict, rel: str, members: frozenset, version: str) -> tuple:
    """``rel``'s rules, each with the stratum relation it reads at ``version``."""
    return tuple(Part(Rows(b.with_version(i, version)), (table_name(src.relation, version),))
                 for b in blocks.get(rel, [])
                 for i, src in enumerate(b.sources) if src.relation in members)


def _suspects(builder, shape: Lattice, members: frozenset) -> list:
    """The statements that find every key that may lose its value (``A__suspect``,
    its stored rows): those whose value a lost candidate equals, round by round."""
    blocks = builder.p.blocks
    stmts, body, moves, swap = [], [], [], []
    for rel in shape.candidates:
        lost = Parts(rel, tuple(p for b in blocks.get(rel, [])
                                for p in deletion_seeds(b, members)))
        stmts.append(builder.made(rel, "lost", lost,
                                  f"{rel}: candidates the rows removed may have made"))
        swap.append(builder.made(rel, "lost", Parts(rel, _variants(blocks, rel, members,
                                                                    "sdelta")),
                                 f"{rel}: candidates the suspects' values made"))
    if builder.policy.recursive_union and len(shape.aggregates) == 1:
        [a] = shape.aggregates
        return stmts + [builder.made(a.relation, "suspect", _suspects_at_once(builder, shape, a),
                                     f"{a.relation}: every suspect, one recursive query")]
    for a in shape.aggregates:
        for version in ("suspect", "sdelta"):
            stmts.append(Materialize(builder.table(a.relation, version), Parts(a.relation, ()),
                                     comment=f"{a.relation}: no suspect yet"))
        [rows] = blocks[a.rows]
        lost = table_name(rows.sources[0].relation, "lost")
        # every lost candidate, not the best of them: a candidate the suspects' values
        # make along an inserted row may beat the value a key holds, and hide the lost
        # candidate that equals it (shortest paths, 100 arcs changed)
        each = a.each_of_rows((Rows(rows.with_version(0, "lost")),),
                              builder.columns(a.relation))
        columns = builder.columns(a.relation)
        held = Intersect(Parts(a.relation, (Part(each, (lost,)),)), table_name(a.relation),
                         columns)
        body.append(builder.made(a.relation, "snew", builder.minus(held, a.relation, "suspect"),
                                 f"{a.relation}: keys whose value a lost candidate equals"))
        moves.append(Append(builder.table(a.relation, "suspect"),
                            builder.table(a.relation, "snew")))
        moves.append(Rename(builder.table(a.relation, "sdelta"),
                            builder.table(a.relation, "snew")))
    until = tuple(table_name(a.relation, "snew") for a in shape.aggregates)
    return stmts + [Loop(tuple(body + moves + swap), until,
                         ", ".join(a.relation for a in shape.aggregates))]


def _suspects_at_once(builder, shape: Lattice, a: Aggregate) -> RecursiveUnion:
    """The loop above as one recursive query (where the engine has one and the stratum
    one aggregate): the stored rows that a lost candidate (``C__lost``) equals, then,
    step by step, those that a candidate made from the last step's suspects equals
    (``A__ssusp``, ``C__slost`` inside the step); the union leaves out the suspects
    found before."""
    blocks = builder.p.blocks
    [rows] = blocks[a.rows]
    columns = builder.columns(a.relation)

    def held(version: str) -> Intersect:
        each = a.each_of_rows((Rows(rows.with_version(0, version)),), columns)
        return Intersect(each, table_name(a.relation), columns)
    step = with_candidates(blocks, shape, a, "ssusp", "slost", held("slost"))
    return RecursiveUnion(a.relation, table_name(a.relation, "ssusp"), (held("lost"),),
                          (step,))


def _candidate_keys(builder, a: Aggregate) -> Optional[dict]:
    """For each key column of ``a``, the candidate column it comes from (the group's
    rows read one candidate relation), or None where a key is computed."""
    [rows] = builder.p.blocks[a.rows]
    alias = rows.sources[0].alias
    outputs = dict(zip(builder.columns(a.rows), rows.outputs))
    found = {}
    for column, row_column in a.keys:
        out = outputs[row_column]
        if not (isinstance(out, T.TCol) and out.alias == alias):
            return None
        found[column] = out.column
    return found


def _rederived(builder, b: Block, a: Aggregate, keys: dict) -> Part:
    """The candidates of rule ``b`` for the suspect keys, from the stratum's state once
    their values are removed."""
    layout = builder.p.layouts[b.relation]
    out = dict(zip((n for n, _ in layout.columns), b.outputs))
    alias = "dl2sql_suspect"
    suspect = Source(alias, a.relation, "suspect")
    types = dict(builder.p.layouts[a.relation].columns)
    same = tuple(T.TBin(BOOL, "==", out[candidate], T.TCol(types[column], alias, column))
                 for column, candidate in keys.items())
    narrowed = dataclasses.replace(b, sources=b.sources + (suspect,),
                                   conditions=b.conditions + same)
    return Part(Rows(narrowed), (table_name(a.relation, "suspect"),))


def _net_changes(builder, a: Aggregate) -> list:
    """The aggregate's net changes, and the stored relation patched: each touched key's
    best value gained replaces the value held (the suspects' are gone already)."""
    fresh = builder.made(a.relation, "fresh", _gained(builder, a),
                         f"{a.relation}: the best value gained of each key")
    replaced = builder.made(a.relation, "replaced", _replaced(builder, a),
                            f"{a.relation}: the values held that those replace")
    lost = builder.made(a.relation, "worse", builder.minus(
        builder.scan(a.relation, "suspect"), a.relation, "fresh"),
        f"{a.relation}: the suspects' values not found again")
    plus = builder.minus(builder.scan(a.relation, "fresh"), a.relation, "suspect")
    minus = Parts(a.relation, tuple(
        Part(Scan(table_name(a.relation, v)), (table_name(a.relation, v),))
        for v in ("worse", "replaced")))
    return [fresh, replaced, lost,
            builder.made(a.relation, "plus", plus, f"{a.relation}: rows added"),
            builder.made(a.relation, "minus", minus, f"{a.relation}: rows removed"),
            Patch(builder.table(a.relation), builder.table(a.relation, "fresh"),
                  builder.table(a.relation, "replaced"))]


def _improved(builder, a: Aggregate) -> Improve:
    """The best candidate of the last round per key, where it beats both the value
    stored before the transaction and every value gained since."""
    [rows] = builder.p.blocks[a.rows]
    best = a.best_of_rows((Rows(rows.with_delta(0)),), builder.columns(a.relation))
    keys = tuple(k for k, _ in a.keys)
    stored = Improve(best, table_name(a.relation), keys, a.value[0], a.direction)
    return Improve(stored, builder.table(a.relation, "gained").name, keys, a.value[0],
                   a.direction)


def _gained(builder, a: Aggregate) -> Parts:
    """Each improved key's best value gained."""
    gained = builder.table(a.relation, "gained").name
    best = a.best_held(gained, builder.columns(a.relation))
    return Parts(a.relation, (Part(best, (gained,)),))


def _replaced(builder, a: Aggregate) -> Parts:
    """The stored rows of the keys that gained a value."""
    layout = builder.p.layouts[a.relation]
    span = builder.p.blocks[a.rows][0].span
    stored, plus = Source("s", a.relation, "full"), Source("p", a.relation, "fresh")
    same = tuple(T.TBin(BOOL, "==", T.TCol(t, "s", n), T.TCol(t, "p", n))
                 for n, t in layout.columns if n != a.value[0])
    block = Block(a.relation, (stored, plus), same, (),
                  tuple(T.TCol(t, "s", n) for n, t in layout.columns), span)
    return Parts(a.relation, (Part(Rows(block), (builder.table(a.relation, "fresh").name,)),))
