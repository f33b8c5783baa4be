"""The rule variants incremental maintenance evaluates: a rule's block with each
source read from one version of its relation.

Versions of a relation ``R`` during a transaction (tables of :func:`table_name`):
``full`` is the stored state (already updated for the strata before the one being
maintained, not yet for it); ``plus`` and ``minus`` are the rows the transaction added
to and removed from ``R``; ``wide`` is ``full ∪ minus``, a superset of ``R`` before the
transaction (it also holds ``plus``), which is all the deletion rules need. The
maintenance of a stratum adds its own versions (``del``, ``ddelta``, ``idelta``).

Every derivation that the transaction invalidated reads, for some source, a row of its
``minus`` (or, for a negated relation, a row of its ``plus``), and every new derivation a
row of its ``plus`` (or, negated, of its ``minus``). Telescoping over the sources keeps
each derivation to a few variants: the sources before the changed one are read at the
state after the transaction, the sources after it at a superset of the state before.
"""
from __future__ import annotations

import dataclasses

from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Part, Rows
from dl2sql.ra.lower import key_of  # noqa: F401 (build and modify import it from here)
from dl2sql.ra.nodes import Block, RelationLayout, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

# a source alias no rule uses (lowering names sources t1, t2, ...)
HEAD_ALIAS = "dl2sql_head"


def _at(block: Block, versions: list[str], antijoins=None, extra_sources=(),
        extra_conditions=()) -> Block:
    sources = tuple(Source(s.alias, s.relation, v) for s, v in zip(block.sources, versions))
    return dataclasses.replace(
        block, sources=tuple(extra_sources) + sources,
        conditions=block.conditions + tuple(extra_conditions),
        antijoins=block.antijoins if antijoins is None else tuple(antijoins))


def _part(block: Block) -> Part:
    """The block as a part needing every change it joins (not those it negates; the
    stored relations are never known empty, and ``wide`` holds them)."""
    needs = tuple(dict.fromkeys(table_name(s.relation, s.version) for s in block.sources
                                if s.version not in ("full", "wide")))
    return Part(Rows(block), needs)


def _negated_as_join(block: Block, j: int, version: str, keep_antijoins: bool) -> Block:
    """``block`` with its ``j``-th negation turned into a join with that relation's
    ``version``: the bindings a change of the negated relation affects."""
    aj = block.antijoins[j]
    antijoins = block.antijoins if keep_antijoins else ()
    return dataclasses.replace(
        block, sources=block.sources + (Source(aj.source.alias, aj.source.relation, version),),
        conditions=block.conditions + aj.conditions, antijoins=antijoins)


def deletion_seeds(block: Block, members: frozenset[str]) -> list[Part]:
    """Derivations of ``block`` that rows removed from lower strata may have
    invalidated (a superset): negations are left out, which only adds candidates."""
    parts = []
    for i, src in enumerate(block.sources):
        if src.relation in members:
            continue
        # before the changed source: the state after the transaction for a lower
        # relation, the state before it for a member (over-deletion runs first)
        versions = ["full" if k < i else "minus" if k == i else _old(s, members)
                    for k, s in enumerate(block.sources)]
        parts.append(_part(_at(block, versions, antijoins=())))
    for j in range(len(block.antijoins)):
        versions = [_old(s, members) for s in block.sources]
        parts.append(_part(_negated_as_join(_at(block, versions), j, "plus",
                                            keep_antijoins=False)))
    return parts


def deletion_steps(block: Block, members: frozenset[str], delta: str = "ddelta") -> list[Part]:
    """Derivations that read a row over-deleted in the previous step (``delta``) of a
    relation of the same recursive stratum."""
    parts = []
    for i, src in enumerate(block.sources):
        if src.relation not in members:
            continue
        versions = [delta if k == i else _old(s, members)
                    for k, s in enumerate(block.sources)]
        parts.append(_part(_at(block, versions, antijoins=())))
    return parts


def insertion_seeds(block: Block, members: frozenset[str]) -> list[Part]:
    """Derivations that rows added to lower strata (or removed from negated
    relations) may have made, all read at the state after the transaction."""
    parts = []
    for i, src in enumerate(block.sources):
        if src.relation in members:
            continue
        versions = ["plus" if k == i else "full" for k in range(len(block.sources))]
        parts.append(_part(_at(block, versions)))
    for j in range(len(block.antijoins)):
        versions = ["full"] * len(block.sources)
        parts.append(_part(_negated_as_join(_at(block, versions), j, "minus",
                                            keep_antijoins=True)))
    return parts


def insertion_steps(block: Block, members: frozenset[str], delta: str = "idelta") -> list[Part]:
    """Derivations that read a row the previous step added (version ``delta``) to a
    relation of the same recursive stratum."""
    parts = []
    for i, src in enumerate(block.sources):
        if src.relation in members:
            versions = [delta if k == i else "full" for k in range(len(block.sources))]
            parts.append(_part(_at(block, versions)))
    return parts


def rederivations(block: Block, layout: RelationLayout, candidates: str,
                  narrow: bool = True) -> Part:
    """Rows that ``block`` derives from the current state, among them those of the
    ``candidates`` version of the head relation it still derives: the block joined
    with the candidates on every head column, so that only their derivations are
    looked for. Where some head columns are computed (see :func:`narrowed`), on the
    others only (unless not ``narrow``): the caller keeps the candidates among the
    rows."""
    head = Source(HEAD_ALIAS, block.relation, candidates)
    pairs = list(zip(layout.columns, block.outputs))
    if narrow and narrowed(block):
        pairs = [(c, out) for c, out in pairs if isinstance(out, T.TCol)]
    equal = tuple(T.TBin(BOOL, "==", T.TCol(t, HEAD_ALIAS, name), out)
                  for (name, t), out in pairs)
    return _part(_at(block, ["full"] * len(block.sources), extra_sources=(head,),
                     extra_conditions=equal))


def narrowed(block: Block) -> bool:
    """Whether :func:`rederivations` of ``block`` joins the candidates on its column
    heads only: some head is computed (a function's result, an aggregate's) and some
    is a column. Joined on a computed head too, the engine computes it for every row
    of the sources before the join (a join key), calling a Python function once per
    group of a whole ``group_by`` where a transaction touched a few (measured 0.41 s of
    a 0.52 s transaction, docs/performance.md, incremental suite); joined on the
    columns, it computes it for the rows that match a candidate."""
    plain = [isinstance(out, T.TCol) for out in block.outputs]
    return any(plain) and not all(plain)


def _old(src: Source, members: frozenset[str]) -> str:
    """A source after the changed one: a superset of its state before the transaction
    (a member's own table still holds that state while rows are over-deleted)."""
    return "full" if src.relation in members else "wide"


def reads(blocks: list[Block]) -> set[str]:
    """Every relation the blocks join or negate."""
    out = set()
    for b in blocks:
        out |= {s.relation for s in b.sources}
        out |= {aj.source.relation for aj in getattr(b, "antijoins", ())}
    return out


