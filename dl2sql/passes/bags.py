"""Which relations keep duplicate rows (DDlog's weights), and where they may not go.

A ``stream`` or ``multiset`` relation is stored as a bag: one row per unit of weight,
so that a row inserted twice is stored twice, a join of a bag keeps one result per
pair of rows (weights multiply) and a union adds them up. The SQL of a bag relation
is the same as a set's without ``DISTINCT`` (:mod:`dl2sql.sqlgen.plan_sql`). The rows
of a ``group_by`` over a bag are a bag too, so that the group holds each element as
many times as its weight: DDlog's ``for ((v, w) in g)`` then sees the weight as that
many elements of weight 1, which sums the same. Set relations derived from bags are
sets (``SELECT DISTINCT``).
"""
from __future__ import annotations

import dataclasses

from dl2sql.diagnostics import Diagnostics
from dl2sql.types import typed as T
from dl2sql.types.model import RelationInfo
from dl2sql.types.transactional import BAG_KINDS


def is_bag(info: RelationInfo) -> bool:
    """Whether the relation keeps duplicate rows."""
    return info.kind in BAG_KINDS


def mark_bags(rules: list[T.CoreRule], relations: dict[str, RelationInfo],
              keep_counts: bool = False) -> dict[str, RelationInfo]:
    """``relations`` with every generated relation that reads a bag (a group_by's
    rows) made a multiset; with ``keep_counts``, also the internal relations whose
    derivation counts a group_by sees (:func:`counted_internals`)."""
    out = dict(relations)
    if keep_counts:
        for rel in counted_internals(rules, out):
            out[rel] = dataclasses.replace(out[rel], kind="multiset")
    changed = True
    while changed:
        changed = False
        for r in rules:
            reads_bag = any(isinstance(c, T.CAtom) and not c.negated and is_bag(out[c.relation])
                            for c in r.body)
            for h in r.heads:
                info = out[h.relation]
                if reads_bag and info.generated and not is_bag(info):
                    out[h.relation] = dataclasses.replace(info, kind="multiset")
                    changed = True
    return out


def check_bag_strata(strata, relations: dict[str, RelationInfo]) -> None:
    """A bag in a recursive stratum is an error (upstream refuses streams there; a
    multiset's weights could grow without end). The rows of a ``group_by`` inside
    recursion may be a bag: every iteration makes them anew (:mod:`dl2sql.plan.loops`),
    so that their weights are those of one iteration's join, as DDlog's group sees."""
    diags = Diagnostics()
    for s in strata:
        if not s.recursive:
            continue
        for rel in s.relations:
            info = relations[rel]
            if is_bag(info) and rel not in s.group_steps:
                diags.error(info.span, f"{info.kind} `{rel}` is part of a recursive "
                                       f"computation ({', '.join(s.relations)}), which "
                                       f"dl2sql does not support")
    diags.raise_if_errors()


def counted_internals(rules: list[T.CoreRule], relations: dict[str, RelationInfo]
                      ) -> set[str]:
    """The declared internal relations whose derivation counts a ``group_by``, a
    stream or a multiset sees.

    DDlog applies ``distinct`` only to output relations: an internal relation holds
    each record with its number of derivations, and a group over it sees that weight
    (``for ((v, w) in g)``), as does a stream or multiset derived from it, directly or
    through other internal relations. Those relations are kept as multisets here;
    recursive ones stay sets (DDlog bounds their weights in the fixpoint). Called for
    programs with streams, multisets or delays, where bags are maintained anyway
    (:mod:`dl2sql.incremental.bags`); elsewhere internal relations stay sets
    (docs/language.md)."""
    readers: dict[str, set[str]] = {}
    for r in rules:
        for c in r.body:  # a group_by's source too: recursion may go through one
            if isinstance(c, (T.CAtom, T.CGroupSource)):
                readers.setdefault(c.relation, set()).update(h.relation for h in r.heads)
    grouped = {c.relation for r in rules for c in r.body if isinstance(c, T.CGroupSource)}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            rel = todo.pop()
            for nxt in readers.get(rel, ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    candidates = {rel for rel, info in relations.items()
                  if info.role == "internal" and info.kind == "relation"
                  and not info.generated and not reaches(rel, rel)}
    counted: set[str] = set()
    changed = True
    while changed:
        changed = False
        for rel in candidates - counted:
            if any(h in grouped or h in counted or is_bag(relations[h])
                   for h in positive_readers(rules, rel)):
                counted.add(rel)
                changed = True
    return counted


def positive_readers(rules: list[T.CoreRule], rel: str) -> set[str]:
    """The heads of the rules that read ``rel`` in a positive literal."""
    return {h.relation for r in rules
            if any(isinstance(c, T.CAtom) and not c.negated and c.relation == rel
                   for c in r.body)
            for h in r.heads}
