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


def mark_bags(rules: list[T.CoreRule], relations: dict[str, RelationInfo]
              ) -> dict[str, RelationInfo]:
    """``relations`` with every generated relation that reads a bag (a group_by's
    rows) made a multiset."""
    out = dict(relations)
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
    multiset's weights could grow without end)."""
    diags = Diagnostics()
    for s in strata:
        if not s.recursive:
            continue
        for rel in s.relations:
            info = relations[rel]
            if is_bag(info):
                diags.error(info.span, f"{info.kind} `{rel}` is part of a recursive "
                                       f"computation ({', '.join(s.relations)}), which "
                                       f"dl2sql does not support")
    diags.raise_if_errors()
