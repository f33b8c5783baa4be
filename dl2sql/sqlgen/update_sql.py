"""An update plan's queries as SQL for one dialect (:mod:`dl2sql.incremental`).

A transaction changes few relations, so most rule variants of a stratum join an empty
change: their queries are left out when the statement runs. Each query of the update
plan becomes a :class:`Deferred` whose rule variants are SQL already and whose union
(with the set differences and intersections around it) is made for the tables that
are empty in this transaction, once per combination.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from sqlglot import exp

from dl2sql.incremental.nodes import (CountChange, Lookup, StratumUpdate, UpdatePlan,
                                      VariantsOnDriver)
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import (Best, Changes, Improve, Intersect, KeyedRecursion, Materialize,
                               OneAbove, Part, Parts, RecursiveUnion, Rows, Scan, Subtract,
                               TaggedRecursion, Untagged)
from dl2sql.plan.statements import is_statement, map_statement
from dl2sql.sqlgen.blocks import union_all, union_all_distinct
from dl2sql.sqlgen.dialects import Dialect
from dl2sql.incremental.bag_nodes import BAG_STATEMENTS, bag_query
from dl2sql.sqlgen.bag_sql import bag_plan_sql, bag_statement
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.plan_sql import Lowering
from dl2sql.sqlgen.trees import cast, select_all, set_operand, table
from dl2sql.sqlgen.types import sql_type


class Deferred:
    """A query of an update plan: :meth:`choose` gives its SQL for the tables empty
    in this transaction (or None: it has no rows)."""

    def __init__(self, node, dialect: Dialect):
        self.node, self.dialect = node, dialect
        self.names = tuple(sorted(_names(node)))  # the tables whose emptiness matters
        self._made: dict[tuple, Optional[exp.Expression]] = {}

    def choose(self, empty) -> Optional[exp.Expression]:
        """The query without its parts that need an ``empty`` table."""
        key = tuple(n in empty for n in self.names)
        if key not in self._made:
            self._made[key] = self._assemble(self.node, empty)
        return self._made[key]

    def _assemble(self, q, empty) -> Optional[exp.Expression]:
        if isinstance(q, Parts):
            chosen = [p.query for p in q.parts if not any(n in empty for n in p.needs)]
            return union_all_distinct([c.copy() for c in chosen]) if chosen else None
        if isinstance(q, (Subtract, Intersect)):
            inner = self._assemble(q.query, empty)
            if inner is None or q.table in empty:
                return inner if isinstance(q, Subtract) else None
            inner = set_operand(inner, "variants")
            if isinstance(q, Subtract):
                return self.dialect.difference(inner, q.table, list(q.columns),
                                               list(q.carried))
            return self.dialect.intersection(inner, q.table, list(q.columns))
        if isinstance(q, OneAbove):
            inner = self._assemble(q.query, empty)
            tables = [t for t in q.tables if t not in empty]
            return None if inner is None or not tables else _one_above(inner, tables, q.column)
        if isinstance(q, Changes):
            if q.new in empty and q.old in empty:
                return None
            if q.new in empty or q.old in empty:  # the other table's rows, every one
                return _side(q, q.old not in empty)
            return self.dialect.changes(q.new, q.old, list(q.columns), q.side)
        if isinstance(q, exp.Expression):
            return q.copy()
        raise TypeError(f"not an update query: {q!r}")


def _one_above(rows: exp.Expression, tables: list[str], column: str) -> exp.Select:
    """``SELECT rows.*, (SELECT MAX(column) FROM tables) + 1.0 AS column`` (all of
    them: one not known to be empty may be, where tables are not counted)."""
    values = union_all([exp.Select(expressions=[exp.column(column, quoted=True)]).from_(
        table(t)) for t in tables])
    if len(tables) > 1:
        values = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
            this=values, alias=exp.TableAlias(this=exp.to_identifier("dl2sql_levels"))))
    highest = exp.Subquery(this=values.select(exp.Max(
        this=exp.column(column, quoted=True)), append=False))
    level = exp.Add(this=highest, expression=cast(exp.Literal.number("1.0"),
                                                  exp.DataType.build("DOUBLE")))
    alias = exp.to_identifier("dl2sql_rows", quoted=True)
    return exp.Select(expressions=[exp.Column(this=exp.Star(), table=alias),
                                   exp.alias_(level, column, quoted=True)]).from_(
        exp.Subquery(this=rows, alias=exp.TableAlias(this=alias.copy())))


def _side(q: Changes, new: bool) -> exp.Select:
    """The rows of one table of ``q`` (the other empty), marked with their side."""
    columns = [exp.column(c, quoted=True) for c in q.columns]
    if q.side is not None:
        columns.append(exp.alias_(exp.true() if new else exp.false(), q.side, quoted=True))
    return exp.Select(expressions=columns).from_(table(q.new if new else q.old))


def _names(q) -> set[str]:
    if isinstance(q, Parts):
        return {n for p in q.parts for n in p.needs}
    if isinstance(q, (Subtract, Intersect)):
        return _names(q.query) | {q.table}
    if isinstance(q, Changes):
        return {q.new, q.old}
    if isinstance(q, OneAbove):
        return _names(q.query) | set(q.tables)
    return set()


def update_sql(plan: UpdatePlan, layouts: dict, ec: ExprCompiler) -> UpdatePlan:
    """``plan`` with its queries made SQL (deferred where they have parts) and its
    tables' columns SQL types, for ``ec``'s dialect."""
    lowered = _UpdateLowering({**layouts, **plan.layouts}, ec).plan(plan)
    return dataclasses.replace(lowered, functions=tuple(ec.udfs.values()))


class _UpdateLowering:
    def __init__(self, layouts: dict, ec: ExprCompiler):
        self.ec, self.layouts = ec, layouts
        self.plain = Lowering(layouts, ec)  # statements of a from-scratch evaluation
        self.rows = Lowering(layouts, ec, table_of=_read)

    def plan(self, plan: UpdatePlan) -> UpdatePlan:
        table = self.plain.table
        return dataclasses.replace(
            plan,
            changes={r: {kind: table(t) for kind, t in tables.items()}
                     for r, tables in plan.changes.items()},
            init=tuple(self.plain.statement(s) for s in plan.init),
            strata=tuple(self.stratum(s) for s in plan.strata),
            tables={n: table(t) for n, t in plan.tables.items()},
            relations={r: table(t) for r, t in plan.relations.items()},
            bags=plan.bags and bag_plan_sql(plan.bags, table),
            lookups={r: Lookup(table(k.keys), self.statement(k.found))
                     for r, k in plan.lookups.items()})

    def stratum(self, s: StratumUpdate) -> StratumUpdate:
        return dataclasses.replace(
            s, statements=tuple(self.statement(x) for x in s.statements),
            recompute=tuple(self.plain.statement(x) for x in s.recompute),
            diff=tuple(self.statement(x) for x in s.diff),
            undo=tuple(self.statement(x) for x in s.undo),
            lossless=s.lossless and self.plain.table(s.lossless),
            levels=s.levels and dataclasses.replace(
                s.levels, lasting=tuple(self.plain.table(t) for t in s.levels.lasting),
                **{k: tuple(self.statement(x) for x in getattr(s.levels, k))
                   for k in ("deletion", "dred", "insertion", "rebuild")}))

    def statement(self, s):
        table = self.plain.table
        if isinstance(s, BAG_STATEMENTS) or (isinstance(s, Materialize) and bag_query(s.query)):
            return bag_statement(s, self.rows, table)
        if isinstance(s, Materialize):
            return dataclasses.replace(s, target=table(s.target), query=Deferred(
                self.query(s.query), self.ec.dialect))
        if isinstance(s, VariantsOnDriver):
            return VariantsOnDriver(self.statement(s.statement), tuple(
                p and dataclasses.replace(p, source=table(p.source), absent=tuple(
                    dataclasses.replace(a, edges=table(a.edges)) for a in p.absent))
                for p in s.parts))
        if not is_statement(s):
            raise TypeError(f"not an update statement: {s!r}")
        # the rest: their tables typed for SQL, their nested statements made so
        return map_statement(s, self.statement, table)

    def query(self, q):
        if isinstance(q, Parts):
            return dataclasses.replace(q, parts=tuple(
                Part(self.part(p.query), p.needs) for p in q.parts))
        if isinstance(q, (Subtract, Intersect)):
            return dataclasses.replace(q, query=self.query(q.query))
        if isinstance(q, Changes):  # made when the statement runs (Deferred)
            return q
        if isinstance(q, OneAbove):
            return dataclasses.replace(q, query=self.query(q.query))
        return self.part(q)

    def part(self, q) -> exp.Expression:
        if isinstance(q, Rows):
            return self.rows.rows(q.block)
        if isinstance(q, Scan):
            return select_all(q.table)
        if isinstance(q, (RecursiveUnion, KeyedRecursion, TaggedRecursion, Untagged, Best,
                          Improve)):
            return self.rows.query(q)
        if isinstance(q, CountChange):
            return self.counts(q)
        raise TypeError(f"not an update query part: {q!r}")

    def counts(self, q: CountChange) -> exp.Expression:
        """``SELECT keys, SUM(w)`` over the prior counts and a weight of 1 per added
        row and -1 per removed one, ``GROUP BY keys HAVING SUM(w) > 0``."""
        layout = self.layouts[q.block.relation]
        names = [n for n, _ in layout.columns]
        count_type = sql_type(layout.columns[-1][1], self.ec.env)
        keys = [self.ec.compile(k) for k in q.block.keys]

        def columns(values) -> list:
            return [exp.alias_(v, n, quoted=True) for v, n in zip(values, names[:-1])]

        def weighted(name: str, weight: int) -> exp.Select:
            w = cast(exp.Literal.number(weight), count_type)
            return exp.Select(expressions=columns([k.copy() for k in keys]) + [
                exp.alias_(w, "dl2sql_w", quoted=True)]).from_(table(name, q.block.source.alias))
        stored = [exp.column(n, quoted=True) for n in names]
        prior = exp.Select(expressions=columns(stored[:-1]) + [
            exp.alias_(stored[-1], "dl2sql_w", quoted=True)]).from_(table(q.prior))
        changes = union_all([prior, weighted(q.plus, 1), weighted(q.minus, -1)])
        total = exp.Sum(this=exp.column("dl2sql_w", quoted=True))
        select = exp.Select(expressions=[exp.column(n, quoted=True) for n in names[:-1]] + [
            exp.alias_(cast(total, count_type), names[-1], quoted=True)]).from_(
            exp.Subquery(this=changes, alias=exp.TableAlias(
                this=exp.to_identifier("dl2sql_changes"))))
        if keys:
            select = select.group_by(*[exp.column(n, quoted=True) for n in names[:-1]])
        return select.having(exp.GT(this=total.copy(), expression=exp.Literal.number(0)))


def _read(src) -> "str | exp.Expression":
    """A source's table; the ``wide`` version is the stored rows and the removed ones."""
    if src.version == "wide":
        return exp.union(select_all(table_name(src.relation)),
                         select_all(table_name(src.relation, "minus")), distinct=False)
    return table_name(src.relation, src.version)
