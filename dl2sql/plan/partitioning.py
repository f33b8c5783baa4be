"""Partition keys for recursive strata: which column each table is hash-partitioned on,
so that a semi-naive step joins, deduplicates and subtracts without reshuffling.

A step of a recursive relation ``R`` joins ``R``'s delta with other tables, removes
duplicates and subtracts the rows ``R`` already holds. On Spark every one of those
operators shuffles its inputs unless they are already hash-partitioned on the keys it
needs, and a shuffle of the whole of ``R`` in every iteration is most of the cost of a
loop. So ``R`` (full, delta and new rows alike) is stored partitioned on the column
its delta is joined on (its *key*), each table joined to that column on the matching
column, and the new rows are distributed on ``R``'s key before they are deduplicated.
Then the join needs no shuffle (both sides are partitioned on the join column), the
deduplication and the set difference need none (both sides are partitioned on a
column of the rows compared), and the new rows are already partitioned as the next
step's delta: for a rule joining the delta with one table, one shuffle per step
instead of four (a rule joining three relations still re-shuffles its intermediate
result). The doubling evaluation of a transitive closure gets no keys (see
:mod:`dl2sql.plan.build`): it joins the relation with itself on both columns.

The keys are physical hints only: an engine may ignore them, and a wrong or missing
key costs a shuffle, never a wrong result. Columns that do not hash by value (floating
point, where -0.0 = 0.0, and maps) are never keys.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from dl2sql.passes.stratify import Stratum
from dl2sql.ra.nodes import Block
from dl2sql.types import typed as T
from dl2sql.types.model import TDouble, TFloat, TNamed, TTuple, Type, TypeEnv
from dl2sql.types.storage import is_recursive, struct_slots


def hashable(t: Type, env: TypeEnv) -> bool:
    """Whether rows equal in a column of DDlog type ``t`` always hash alike: no floating
    point anywhere inside its stored form (a recursive type is stored as text)."""
    if is_recursive(t, env):
        return True
    if isinstance(t, (TFloat, TDouble)):
        return False
    if isinstance(t, TTuple):
        return all(hashable(e, env) for e in t.elems)
    if isinstance(t, TNamed):
        slots = struct_slots(t, env)
        if slots is not None:
            return all(hashable(s.type, env) for s in slots)
        return all(hashable(a, env) for a in t.args)
    return True


def _joined_columns(block: Block) -> list[tuple[str, str, Optional[str], str]]:
    """(relation, column, other relation, other column) for every column = column
    condition of ``block`` between two different aliases, in both directions (the other
    relation is None where the other alias is an unnested element, not a source)."""
    by_alias = {src.alias: src.relation for src in block.sources}
    out = []
    for c in block.conditions:
        if isinstance(c, T.TBin) and c.op == "==" and isinstance(c.left, T.TCol) \
                and isinstance(c.right, T.TCol) and c.left.alias != c.right.alias:
            for mine, other in ((c.left, c.right), (c.right, c.left)):
                if mine.alias in by_alias:  # not an unnested element
                    out.append((by_alias[mine.alias], mine.column,
                                by_alias.get(other.alias), other.column))
    return out


def partition_keys(strata: list[Stratum], blocks: dict[str, list[Block]],
                   column_types: dict[str, dict[str, Type]], env: TypeEnv,
                   lattices: frozenset = frozenset()) -> dict[str, tuple[str, ...]]:
    """Relation -> the one column to hash-partition its tables on (see module docs).

    A recursive relation's key is the column its delta is most often joined on over the
    rules of its stratum (the first such rule wins a tie); a relation of an earlier
    stratum joined to that column gets the matching column, unless an earlier stratum
    already chose its key. Relations never joined by a plain column equality get none.
    ``column_types`` gives the DDlog type of each relation's columns. A stratum whose
    recursion goes through a ``group_by`` gets keys only where it is one of
    ``lattices`` (its members, :mod:`dl2sql.plan.lattice_loop`)."""
    keys: dict[str, tuple[str, ...]] = {}

    def ok(rel: str, col: str) -> bool:
        dtype = column_types.get(rel, {}).get(col)
        return dtype is not None and hashable(dtype, env)

    for s in strata:
        if not s.recursive or (s.aggregated and tuple(s.relations) not in lattices):
            continue  # no delta to join: see dl2sql.plan.loops
        members = set(s.relations)
        joins = [j for rel in s.relations for b in blocks.get(rel, []) if isinstance(b, Block)
                 for j in _joined_columns(b)]
        votes: dict[str, Counter] = {rel: Counter() for rel in s.relations}
        for rel, col, _, _ in joins:
            if rel in members and ok(rel, col):
                votes[rel][col] += 1
        for rel, counted in votes.items():
            if counted:
                keys[rel] = (counted.most_common(1)[0][0],)
        for rel, col, partner, partner_col in joins:
            if rel in members and keys.get(rel) == (col,) and partner is not None \
                    and partner not in members and partner not in keys \
                    and ok(partner, partner_col):
                keys[partner] = (partner_col,)
    return keys
