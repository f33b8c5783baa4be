"""An update plan's queries over bags as SQL (:mod:`dl2sql.incremental.bag_nodes`):
unions that keep every copy of a row (no ``DISTINCT``), differences and intersections
copy by copy (``EXCEPT ALL``, ``INTERSECT ALL``), and sources read as the transaction
found them (``before``).

Like set queries (:class:`~dl2sql.sqlgen.update_sql.Deferred`), a query is assembled
when its statement runs, for the tables empty in that transaction: parts that join an
empty change are left out, and a relation the transaction did not change is read
``before`` from its stored table alone.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Optional

from sqlglot import exp

from dl2sql.incremental.bag_nodes import (BagCommon, BagHolding, BagMinus, BagParts, BagPatch,
                                          BagPlan, Delays, Replace)
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Materialize, Part, Rows, Scan
from dl2sql.sqlgen.blocks import union_all, without_distinct
from dl2sql.sqlgen.trees import select_all, set_operand, table


class BagDeferred:
    """A bag query of an update plan: :meth:`choose` gives its SQL for the tables
    empty in this transaction (or None: it has no rows). ``before`` maps the name a
    source read ``before`` has in the SQL to its relation's (full, plus, minus)
    tables."""

    def __init__(self, node, before: dict[str, tuple[str, str, str]]):
        self.node, self.before = node, before
        changes = {t for _, plus, minus in before.values() for t in (plus, minus)}
        self.names = tuple(sorted(_names(node) | changes))
        self._made: dict[tuple, Optional[exp.Expression]] = {}

    def choose(self, empty) -> Optional[exp.Expression]:
        """The query without its parts that need an ``empty`` table."""
        key = tuple(n in empty for n in self.names)
        if key not in self._made:
            query = _assemble(self.node, empty)
            if query is not None and self.before:
                self._read_before(query, empty)
            self._made[key] = query
        return self._made[key]

    def _read_before(self, query: exp.Expression, empty) -> None:
        for t in list(query.find_all(exp.Table)):
            if t.name not in self.before:
                continue
            full, plus, minus = self.before[t.name]
            if plus in empty and minus in empty:  # unchanged: the stored rows
                t.replace(table(full, t.alias))
                continue
            rows: exp.Expression = select_all(full)
            if plus not in empty:
                rows = exp.except_(rows, select_all(plus), distinct=False)
            if minus not in empty:
                rows = exp.union(_wrapped(rows), select_all(minus), distinct=False)
            t.replace(exp.Subquery(this=rows, alias=exp.TableAlias(
                this=exp.to_identifier(t.alias, quoted=True))))


def _assemble(q, empty) -> Optional[exp.Expression]:
    if isinstance(q, BagParts):
        chosen = [_assemble(p.query, empty) for p in q.parts
                  if not any(n in empty for n in p.needs)]
        chosen = [_wrapped(without_distinct(c)) for c in chosen if c is not None]
        return union_all(chosen) if chosen else None
    if isinstance(q, (BagMinus, BagCommon)):
        inner = _assemble(q.query, empty)
        if inner is None or q.table in empty:
            return inner if isinstance(q, BagMinus) else None
        combine = exp.except_ if isinstance(q, BagMinus) else exp.intersect
        return combine(_wrapped(inner), select_all(q.table), distinct=False)
    if isinstance(q, BagHolding):
        return None if q.rows in empty else _holding(q.table, q.rows, list(q.columns))
    if isinstance(q, exp.Expression):
        return q.copy()
    raise TypeError(f"not a bag query: {q!r}")


def _names(q) -> set[str]:
    if isinstance(q, BagParts):
        return {n for p in q.parts for n in p.needs} | {
            n for p in q.parts for n in _names(p.query)}
    if isinstance(q, (BagMinus, BagCommon)):
        return _names(q.query) | {q.table}
    if isinstance(q, BagHolding):
        return {q.rows}
    return set()


def _wrapped(q: exp.Expression) -> exp.Expression:
    """``q`` as an operand of another set operation (:func:`set_operand`)."""
    return set_operand(q, "copies")


# -- lowering -----------------------------------------------------------------------------
def bag_statement(s, rows, table_sql: Callable):
    """A statement over bags with its SQL: ``rows`` lowers blocks (sources read from
    the update plan's tables), ``table_sql`` gives a table its SQL column types."""
    if isinstance(s, Materialize):
        return dataclasses.replace(s, target=table_sql(s.target),
                                   query=BagDeferred(_lower(s.query, rows), _before(s.query)))
    if isinstance(s, BagPatch):
        columns = [c.name for c in s.target.columns]
        keep = exp.except_(_wrapped(_holding(s.target.name, s.minus.name, columns)),
                           select_all(s.minus.name), distinct=False)
        keep_plus = exp.union(_wrapped(keep.copy()), select_all(s.plus.name), distinct=False)
        return BagPatch(table_sql(s.target), table_sql(s.plus), table_sql(s.minus),
                        table_sql(s.add), keep, keep_plus)
    if isinstance(s, Replace):
        return Replace(table_sql(s.target), table_sql(s.source))
    raise TypeError(f"not a bag statement: {s!r}")


def bag_plan_sql(plan: BagPlan, table_sql: Callable) -> BagPlan:
    """``plan`` with SQL column types for its history tables."""
    return dataclasses.replace(plan, delays=tuple(
        Delays(d.relation, tuple((table_sql(p), table_sql(m)) for p, m in d.tables))
        for d in plan.delays))


def _lower(q, rows):
    if isinstance(q, BagParts):
        return BagParts(q.relation, tuple(Part(_lower(p.query, rows), p.needs)
                                          for p in q.parts))
    if isinstance(q, (BagMinus, BagCommon)):
        return dataclasses.replace(q, query=_lower(q.query, rows))
    if isinstance(q, Rows):
        return rows.rows(q.block)
    if isinstance(q, Scan):
        return select_all(q.table)
    if isinstance(q, BagHolding):
        return q
    raise TypeError(f"not a bag query part: {q!r}")


def _before(q) -> dict[str, tuple[str, str, str]]:
    """The relations ``q``'s blocks read ``before`` the transaction, by the name that
    reading has in the SQL."""
    out = {}
    if isinstance(q, BagParts):
        for p in q.parts:
            out.update(_before(p.query))
    elif isinstance(q, (BagMinus, BagCommon)):
        out.update(_before(q.query))
    elif isinstance(q, Rows):
        sources = list(q.block.sources) + [aj.source for aj in getattr(q.block, "antijoins", ())]
        for s in sources:
            if s.version == "before":
                out[table_name(s.relation, "before")] = (
                    table_name(s.relation), table_name(s.relation, "plus"),
                    table_name(s.relation, "minus"))
    return out


def _holding(target: str, rows: str, columns: list[str]) -> exp.Expression:
    """Every copy in ``target`` of a row that table ``rows`` holds (a semi-join: the
    copies are kept)."""
    def col(alias: str, c: str) -> exp.Column:
        return exp.column(c, table=alias, quoted=True)
    # aliases no relation has (DuckDB's names ignore case)
    stored, wanted = "dl2sql_stored", "dl2sql_rows"
    same = exp.and_(*[exp.EQ(this=col(wanted, c), expression=col(stored, c)) for c in columns])
    found = exp.Exists(this=exp.Select(expressions=[exp.Literal.number(1)]).from_(
        table(rows, wanted)).where(same))
    return exp.Select(expressions=[exp.Star()]).from_(table(target, stored)).where(found)
