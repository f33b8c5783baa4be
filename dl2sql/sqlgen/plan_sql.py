"""A plan's queries as SQL for one dialect: the same statements, each query a sqlglot
tree and each column a SQL type, and the Python UDFs the queries call."""
from __future__ import annotations

import dataclasses

from sqlglot import exp

from dl2sql.plan.nodes import (TAG, Best, Changes, Choose, Column, Distribute, EdgeProbe,
                               Fixpoint, Improve, Intersect, KeyedRecursion, Materialize, Named,
                               Plan, RecursiveUnion, Rows, Scan, Subtract, Table,
                               TaggedRecursion, Union, Untagged, tagged_column)
from dl2sql.plan.statements import is_statement, map_statement
from dl2sql.plan.build import table_name
from dl2sql.ra.nodes import GroupBlock, RelationLayout
from dl2sql.sqlgen.blocks import block_select, empty_select, group_select, union_all
from dl2sql.sqlgen.blocks import union_all_distinct, without_distinct
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.precedence import parenthesize
from dl2sql.sqlgen.trees import cast, select_all, set_operand, table
from dl2sql.sqlgen.types import sql_type


def plan_sql(plan: Plan, layouts: dict[str, RelationLayout], ec: ExprCompiler) -> Plan:
    """``plan`` with SQL queries and column types for ``ec``'s dialect, and
    ``functions`` the UDFs they call (named in the order the queries first call them)."""
    lowering = Lowering(layouts, ec)
    statements = tuple(lowering.statement(s) for s in plan.statements)
    return dataclasses.replace(
        plan, inputs=tuple(lowering.table(t) for t in plan.inputs), statements=statements,
        relations={r: lowering.table(t) for r, t in plan.relations.items()},
        functions=tuple(ec.udfs.values()))


class Lowering:
    """Plan statements and queries to SQL of one dialect; ``table_of`` names the table
    (or makes the query) a block's source reads."""

    def __init__(self, layouts: dict[str, RelationLayout], ec: ExprCompiler, table_of=None):
        self.layouts, self.ec = layouts, ec
        self.table_of = table_of or (lambda src: table_name(src.relation, src.version))

    def table(self, t: Table) -> Table:
        return dataclasses.replace(t, columns=tuple(sql_column(c, self.ec.env)
                                                    for c in t.columns))

    def statement(self, s):
        if isinstance(s, Materialize):
            query = self.query(s.query)
            if s.target.partition_by:
                query = self.ec.dialect.store_partitioned(
                    query, [c.name for c in s.target.columns], list(s.target.partition_by))
            return dataclasses.replace(s, target=self.table(s.target), query=query)
        if isinstance(s, Fixpoint) or not is_statement(s):
            raise TypeError(f"not a plan statement after loop planning: {s!r}")
        # the rest: their tables typed for SQL, their nested statements made so
        made = map_statement(s, self.statement, self.table)
        if isinstance(s, Choose):
            return dataclasses.replace(made, probe_query=self.query(s.probe_query))
        return made

    def query(self, q) -> exp.Expression:
        if isinstance(q, Rows):
            return self.rows(q.block)
        if isinstance(q, Scan):
            return select_all(q.table)
        if isinstance(q, Union):
            if not q.parts:
                return empty_select(self.layouts[q.relation], self.ec)
            if q.bag:  # one row per unit of weight: no DISTINCT anywhere
                return union_all([without_distinct(self.query(x)) for x in q.parts])
            return union_all_distinct([self.query(x) for x in q.parts])
        if isinstance(q, Distribute):
            return self.ec.dialect.distribute(self.query(q.query), list(q.keys))
        if isinstance(q, Subtract):
            union = self.query(q.query)
            if isinstance(q.query, Union) and len(q.query.parts) > 1:
                union = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
                    this=union, alias=exp.TableAlias(this=exp.to_identifier("variants"))))
            return self.ec.dialect.difference(union, q.table, list(q.columns))
        if isinstance(q, Intersect):
            return self.ec.dialect.intersection(set_operand(self.query(q.query), "variants"),
                                                q.table, list(q.columns))
        if isinstance(q, Changes):
            return self.ec.dialect.changes(q.new, q.old, list(q.columns), q.side)
        if isinstance(q, RecursiveUnion):
            base = [self.query(x) for x in q.base]  # first: UDFs are named in call order
            steps = [self.query(x) for x in q.steps]
            if len(steps) > 1:
                # DuckDB binds the recursive reference in one term of the union only
                # (the last: "Circular reference to CTE" otherwise), so several
                # recursive rules are one term, the union of theirs
                steps = [exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
                    this=union_all_distinct(steps),
                    alias=exp.TableAlias(this=exp.to_identifier("steps", quoted=True))))]
            body = union_all_distinct(base + steps)
            columns = [exp.to_identifier(n, quoted=True)
                       for n, _ in self.layouts[q.relation].columns]
            return select_all(q.name).with_(
                exp.TableAlias(this=exp.to_identifier(q.name, quoted=True), columns=columns),
                as_=body, recursive=True)
        if isinstance(q, KeyedRecursion):
            return self.keyed_recursion(q)
        if isinstance(q, TaggedRecursion):
            return self.tagged_recursion(q)
        if isinstance(q, Untagged):
            index, layout = q.index, self.layouts[q.relation]
            return exp.Select(expressions=[
                exp.alias_(exp.column(tagged_column(index, n), quoted=True), n, quoted=True)
                for n, _ in layout.columns]).from_(table(q.table)).where(exp.EQ(
                    this=exp.column(TAG, quoted=True), expression=exp.Literal.number(index)))
        if isinstance(q, Named):
            body = self.query(q.body).with_(exp.to_identifier(q.name, quoted=True),
                                            as_=self.query(q.query))
            return exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
                this=body, alias=exp.TableAlias(this=exp.to_identifier("dl2sql_named"))))
        if isinstance(q, Best):
            return self.best(q)
        if isinstance(q, Improve):
            old = q.table
            if q.recurring:
                old = self.ec.dialect.recurring(q.table)
            return self.ec.dialect.improvement(self.query(q.query), old, list(q.keys),
                                               q.value, q.direction)
        if isinstance(q, EdgeProbe):
            src = exp.column(q.source, quoted=True)
            return exp.Select(expressions=[
                exp.alias_(exp.Count(this=exp.Star()), "edges", quoted=True),
                exp.alias_(exp.Count(this=exp.Distinct(expressions=[src])), "sources",
                           quoted=True)]).from_(table(q.table))
        raise TypeError(f"not a plan query: {q!r}")

    def keyed_recursion(self, q: KeyedRecursion) -> exp.Expression:
        """``WITH RECURSIVE name(columns) USING KEY (keys) AS (base UNION step)``."""
        if self.ec.dialect.recurring is None:
            raise ValueError(f"{self.ec.dialect.name} has no keyed recursive query")
        base = self.query(q.base)  # first: UDFs are named in call order
        body = exp.union(base, self.query(q.step), distinct=True)
        columns = [exp.to_identifier(n, quoted=True)
                   for n, _ in self.layouts[q.relation].columns]
        cte = exp.CTE(this=body, alias=exp.TableAlias(
            this=exp.to_identifier(q.name, quoted=True), columns=columns),
            key_expressions=[exp.to_identifier(k, quoted=True) for k in q.keys])
        query = select_all(q.name)
        query.set("with_", exp.With(expressions=[cte], recursive=True))
        return query

    def tagged_recursion(self, q: TaggedRecursion) -> exp.Expression:
        """``WITH RECURSIVE name(tag, columns) AS (base UNION step)``, each part's rows
        tagged and set in their relation's columns; the step a union of the relations'
        recursive rules over common table expressions ``R__delta`` that read each
        relation's rows of the last round from ``name`` (DuckDB binds the recursive
        reference in the last term of the union only)."""
        names = [(i, n, t) for i, rel in enumerate(q.relations)
                 for n, t in self.layouts[rel].columns]

        def tagged(index: int, rows: exp.Expression) -> exp.Expression:
            part = exp.Subquery(this=without_distinct(rows),
                                alias=exp.TableAlias(this=exp.to_identifier("dl2sql_part")))
            columns = [exp.alias_(exp.Literal.number(index), TAG, quoted=True)] + [
                exp.alias_(exp.column(n, "dl2sql_part", quoted=True) if i == index
                           else cast(exp.Null(), sql_type(t, self.ec.env)),
                           tagged_column(i, n), quoted=True) for i, n, t in names]
            return exp.Select(expressions=columns).from_(part)

        base = [tagged(i, self.query(r)) for i, r in q.base]  # first: UDFs in call order
        steps = union_all_distinct([tagged(i, self.query(r)) for i, r in q.steps])
        if not isinstance(steps, exp.Select):  # the WITH on a union of SELECTs
            steps = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
                this=steps, alias=exp.TableAlias(this=exp.to_identifier("rules"))))
        for index, rel in enumerate(q.relations):
            steps = steps.with_(exp.to_identifier(table_name(rel, "delta"), quoted=True),
                                as_=self.query(Untagged(q.name, rel, index)))
        step = exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
            this=steps, alias=exp.TableAlias(this=exp.to_identifier("steps", quoted=True))))
        columns = [exp.to_identifier(TAG, quoted=True)] + [
            exp.to_identifier(tagged_column(i, n), quoted=True) for i, n, _ in names]
        return select_all(q.name).with_(
            exp.TableAlias(this=exp.to_identifier(q.name, quoted=True), columns=columns),
            as_=union_all_distinct(base + [step]), recursive=True)

    def best(self, q: Best) -> exp.Expression:
        """``SELECT keys, MIN(value) ... GROUP BY keys`` (or ``MAX``)."""
        aggregate = exp.Min if q.direction == "min" else exp.Max
        columns = []
        for name, source in q.columns:
            c = exp.column(source, quoted=True)
            columns.append(exp.alias_(aggregate(this=c) if source == q.value else c, name,
                                      quoted=True))
        rows = exp.Subquery(this=self.query(q.query),
                            alias=exp.TableAlias(this=exp.to_identifier("dl2sql_rows")))
        return exp.Select(expressions=columns).from_(rows).group_by(
            *[exp.column(k, quoted=True) for k in q.keys])

    def rows(self, b) -> exp.Expression:
        self.ec.rule_span = b.span  # names the rule in a UDF's failure messages
        if isinstance(b, GroupBlock):
            select = group_select(b, self.layouts[b.relation], self.table_of, self.ec)
        else:
            select = block_select(b, self.layouts[b.relation], self.table_of, self.ec)
        # the expression builders leave parentheses to the operators' precedence
        return parenthesize(select)


def sql_column(c: Column, env) -> Column:
    """Plan column ``c`` (a DDlog type) with its SQL type, and its output type where
    that differs."""
    stored, output = sql_type(c.type, env), sql_type(c.type, env, external=True)
    return Column(c.name, stored, None if output == stored else output)
