"""Primary keys of input relations, checked when a plan runs.

DDlog refuses two rows of an input relation with one primary key; a transaction's
rows are checked by the update plan (:mod:`dl2sql.incremental.build`), and this pass
gives the whole-program plan the same check for the rows a run starts from (files,
DataFrames, the program's facts): right after the relation's rows are in place, a
table of the rows whose key another, different row holds, and a :class:`Refuse` of
the run when it has any. Identical rows are one row (relations are sets).
"""
from __future__ import annotations

import dataclasses

from dl2sql.plan.build import relation_table
from dl2sql.plan.nodes import Materialize, Plan, Refuse, Rows, Union
from dl2sql.ra.lower import key_of, record_of
from dl2sql.ra.nodes import Block, RelationLayout, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL

CLASH = "clash"


def check_input_keys(plan: Plan, relations: dict, layouts: dict[str, RelationLayout]) -> Plan:
    """``plan`` with a check after each keyed input relation's rows are in place;
    ``relations`` maps names to :class:`dl2sql.types.model.RelationInfo`."""
    keyed = [t.relation for t in plan.inputs
             if relations.get(t.relation) is not None and relations[t.relation].key is not None]
    if not keyed:
        return plan
    statements = list(plan.statements)
    for rel in keyed:
        at = next((i + 1 for i, s in enumerate(statements)
                   if isinstance(s, Materialize) and s.target.relation == rel), 0)
        statements[at:at] = _check(rel, relations[rel], layouts)
    return dataclasses.replace(plan, statements=tuple(statements))


def _check(rel: str, info, layouts: dict[str, RelationLayout]) -> list:
    layout = layouts[rel]
    row, other = "dl2sql_row", "dl2sql_other"
    same_key = T.TBin(BOOL, "==", key_of(info.key, layout, row),
                      key_of(info.key, layout, other))
    differ = T.TBin(BOOL, "!=", record_of(layout, row), record_of(layout, other))
    block = Block(rel, (Source(row, rel), Source(other, rel)), (same_key, differ), (),
                  tuple(T.TCol(t, row, n) for n, t in layout.columns), info.span)
    clash = relation_table(layouts, rel, CLASH)
    return [Materialize(clash, Union(rel, (Rows(block),)),
                        comment=f"{rel}: rows whose primary key another row has"),
            Refuse(clash, f"relation `{rel}`: two rows have the same primary key "
                          f"(DDlog keeps one row per key)")]
