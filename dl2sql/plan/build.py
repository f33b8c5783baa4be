"""Strata of blocks to a Plan, without SQL: one Materialize per non-recursive relation
(and per input relation with facts), and a :class:`Fixpoint` for each recursive
stratum, which loop planning (:mod:`dl2sql.plan.loops`) turns into statements."""
from __future__ import annotations

from dl2sql.passes.stratify import Stratum
from dl2sql.plan.nodes import (Column, Fixpoint, Load, Materialize, Plan, Rows, Scan, Table,
                               Transform, Union)
from dl2sql.ra.nodes import Block, RelationLayout
from dl2sql.types.check_names import table_base


def table_name(rel: str, version: str = "full") -> str:
    """SQL table name of a relation's full, delta, new, input or probe table."""
    base = table_base(rel)  # the one spelling, which dl2sql.types.check_names checks
    return base if version == "full" else f"{base}__{version}"


def relation_table(layouts: dict[str, RelationLayout], rel: str, version: str = "full",
                   keys: dict | None = None) -> Table:
    """The table of ``rel``'s ``version``, with its partition key from ``keys``."""
    cols = tuple(Column(n, t) for n, t in layouts[rel].columns)
    return Table(table_name(rel, version), cols, (keys or {}).get(rel, ()), rel)


def build_plan(strata: list[Stratum], blocks: dict[str, list[Block]], inputs: list[str],
               layouts: dict[str, RelationLayout], bags: frozenset = frozenset(),
               facts: dict | None = None) -> Plan:
    """The whole plan; ``blocks`` maps each head relation to its blocks; the relations
    in ``bags`` keep duplicate rows (:mod:`dl2sql.passes.bags`); those in ``facts``
    (no rule each) are loaded with the rows the program writes as facts
    (:mod:`dl2sql.types.check_facts`)."""
    facts = facts or {}
    statements: list = []
    input_tables = []
    for rel in inputs:
        if blocks.get(rel):
            input_tables.append(relation_table(layouts, rel, "input"))
            query = Union(rel, (Scan(table_name(rel, "input")),)
                          + tuple(Rows(b) for b in blocks[rel]), rel in bags)
            statements.append(Materialize(relation_table(layouts, rel), query,
                                          comment=f"input {rel} with its facts"))
        else:
            input_tables.append(relation_table(layouts, rel))
    for s in strata:
        if s.relations[0] in inputs:
            continue
        if s.recursive:
            statements.append(Fixpoint(tuple(s.relations), s.group_steps, tuple(
                r for r in s.group_steps if r in bags)))
            continue
        if s.transform is not None:
            statements.append(transform_statement(s.transform, layouts))
            continue
        rel = s.relations[0]
        if rel in facts:
            # rows as data: as SQL text (a VALUES list or a UNION per fact) they cost
            # the compiler, the printer and the engine's parser far more than a load
            statements.append(Load(relation_table(layouts, rel), facts[rel], "",
                                   f"{rel}: {len(facts[rel])} facts of the program"))
            continue
        query = Union(rel, tuple(Rows(b) for b in blocks.get(rel, [])), rel in bags)
        statements.append(Materialize(relation_table(layouts, rel), query, comment=rel))
    relations = {r: relation_table(layouts, r) for r in layouts}
    return Plan(tuple(input_tables), tuple(statements), relations)


def transform_statement(app, layouts: dict[str, RelationLayout]) -> Transform:
    """The statement that runs a user transformer's application ``app``."""
    return Transform(app.transformer,
                     tuple(relation_table(layouts, r) for r in app.relations),
                     tuple(relation_table(layouts, r) for r in app.outputs),
                     str(app.decl.span))
