"""Strata of blocks to a Plan: one Materialize per non-recursive relation, and for each
recursive stratum an initial step plus a semi-naive Loop over delta tables."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.passes.stratify import Stratum
from dl2sql.plan.nodes import Append, Choose, Column, Loop, Materialize, Plan, Rename, Table
from dl2sql.plan.partitioning import partition_keys
from dl2sql.ra.nodes import Block, GroupBlock, RelationLayout, Source
from dl2sql.sqlgen.trees import select_all, table
from dl2sql.sqlgen.blocks import (block_select, empty_select, group_select,
                                  union_all_distinct)
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.types import sql_type


# Doubling pays when paths are long and thin: with at most this many edges per source
# on average (chains, near-functional graphs) each path extends in few ways.
MAX_DOUBLING_DEGREE = 1.5


def table_name(rel: str, version: str = "full") -> str:
    """SQL table name of a relation's full, delta, new or input table."""
    base = rel.replace("::", "__")
    return base if version == "full" else f"{base}__{version}"


class PlanBuilder:
    """Builds the plan of a program from its strata and blocks."""

    def __init__(self, layouts: dict[str, RelationLayout], ec: ExprCompiler):
        self.layouts, self.ec = layouts, ec
        self.keys: dict[str, tuple[str, ...]] = {}  # relation -> partition key

    def table(self, rel: str, version: str = "full") -> Table:
        cols = tuple(Column(n, sql_type(t, self.ec.env)) for n, t in self.layouts[rel].columns)
        return Table(table_name(rel, version), cols, self.keys.get(rel, ()))

    def build(self, strata: list[Stratum], blocks: dict[str, list[Block]],
              inputs: list[str], closures: dict | None = None) -> Plan:
        """The whole plan; ``blocks`` maps each head relation to its blocks;
        ``closures`` maps transitive-closure relations to (Closure, doubled blocks)."""
        closures = closures or {}
        if self.ec.dialect.partitioned_loops:
            self.keys = partition_keys(strata, blocks, {
                rel: {c.name: c.type for c in self.table(rel).columns} for rel in self.layouts})
        statements: list = []
        input_tables = []
        for rel in inputs:
            if blocks.get(rel):
                input_tables.append(self.table(rel, "input"))
                queries = [select_all(table_name(rel, "input"))] + [
                    self._select(b, {}) for b in blocks[rel]]
                statements.append(Materialize(self.table(rel), union_all_distinct(queries),
                                              comment=f"input {rel} with its facts"))
            else:
                input_tables.append(self.table(rel))
        for s in strata:
            if s.relations[0] in inputs:
                continue
            if s.recursive and s.relations[0] in closures:
                statements.append(self._closure(s, blocks, *closures[s.relations[0]]))
            else:
                statements += (self._recursive(s, blocks) if s.recursive
                               else self._simple(s, blocks))
        relations = {r: self.table(r) for r in self.layouts}
        return Plan(tuple(input_tables), tuple(statements), relations)

    def _select(self, b: Block, versions: dict[int, str]) -> exp.Expression:
        def table_of(src: Source) -> str:
            return table_name(src.relation, src.version)
        self.ec.rule_span = b.span  # names the rule in a UDF's failure messages
        if isinstance(b, GroupBlock):
            return group_select(b, self.layouts[b.relation], table_of, self.ec)
        return block_select(b, self.layouts[b.relation], table_of, self.ec)

    def _variant(self, b: Block) -> exp.Expression:
        """A semi-naive variant's query, its rows distributed on the relation's
        partition key where it has one."""
        query = self._select(b, {})
        key = self.keys.get(b.relation)
        if key and not isinstance(b, GroupBlock):
            return self.ec.dialect.distribute(query, list(key))
        return query

    def _union(self, rel: str, selects: list[exp.Expression]) -> exp.Expression:
        return union_all_distinct(selects) if selects else empty_select(self.layouts[rel],
                                                                        self.ec)

    def _simple(self, s: Stratum, blocks) -> list:
        rel = s.relations[0]
        selects = [self._select(b, {}) for b in blocks.get(rel, [])]
        return [Materialize(self.table(rel), self._union(rel, selects), comment=rel)]

    def _recursive_cte(self, s: Stratum, blocks) -> Materialize | None:
        """A linear recursive relation as one ``WITH RECURSIVE ... UNION`` query, where
        the dialect's UNION deduplicates against every earlier row: that is semi-naive
        evaluation done by the engine (the CTE holds each iteration's new rows)."""
        if not self.ec.dialect.recursive_union or len(s.relations) != 1:
            return None
        rel = s.relations[0]
        mine = blocks.get(rel, [])
        if any(sum(src.relation == rel for src in b.sources) > 1 for b in mine) or \
                any(aj.source.relation == rel for b in mine for aj in getattr(b, "antijoins", ())):
            return None
        base = [self._select(b, {}) for b in mine if all(src.relation != rel for src in b.sources)]
        steps = [self._select(b.with_delta(i), {}) for b in mine
                 for i, src in enumerate(b.sources) if src.relation == rel]
        if not base or not steps:
            return None
        name = table_name(rel, "delta")
        body = union_all_distinct(base + steps)
        columns = [exp.to_identifier(n, quoted=True) for n, _ in self.layouts[rel].columns]
        query = select_all(name).with_(exp.TableAlias(this=exp.to_identifier(name, quoted=True),
                                                      columns=columns),
                                       as_=body, recursive=True)
        return Materialize(self.table(rel), query, comment=f"{rel}: recursive query")

    def _closure(self, s: Stratum, blocks, closure, doubled_blocks) -> Choose:
        """Both evaluations of a transitive closure, chosen at run time."""
        rel = s.relations[0]
        base = [b for b in blocks.get(rel, []) if all(src.relation != rel for src in b.sources)]
        doubled = dict(blocks)
        doubled[rel] = base + list(doubled_blocks)
        src = exp.column(closure.edge_source, quoted=True)
        query = exp.Select(expressions=[
            exp.alias_(exp.Count(this=exp.Star()), "edges", quoted=True),
            exp.alias_(exp.Count(this=exp.Distinct(expressions=[src])), "sources",
                       quoted=True)]).from_(table(table_name(closure.edge)))
        probe = Table(table_name(rel, "probe"), (
            Column("edges", exp.DataType.build("BIGINT")),
            Column("sources", exp.DataType.build("BIGINT"))))
        # Doubling joins the relation with itself on both of its columns, which no one
        # key serves; partitioned, it measured slower (1000-chain: 44.0 s against 37.7 s),
        # so that branch's tables carry no key.
        key = self.keys.pop(rel, None)
        doubling = tuple(self._recursive(s, doubled))
        if key is not None:
            self.keys[rel] = key
        return Choose(probe, query, MAX_DOUBLING_DEGREE, doubling,
                      tuple(self._recursive(s, blocks)), rel)

    def _recursive(self, s: Stratum, blocks) -> list:
        cte = self._recursive_cte(s, blocks)
        if cte is not None:
            return [cte]
        members = set(s.relations)
        init, body = [], []
        for rel in s.relations:
            base = [self._select(b, {}) for b in blocks.get(rel, [])
                    if not any(src.relation in members for src in b.sources)]
            init.append(Materialize(self.table(rel), self._union(rel, base),
                                    comment=f"{rel}: non-recursive rules"))
            init.append(Materialize(self.table(rel, "delta"), select_all(table_name(rel)),
                                    comment=f"{rel}: first delta"))
        for rel in s.relations:
            variants = []
            for b in blocks.get(rel, []):
                for i, src in enumerate(b.sources):
                    if src.relation in members:
                        variants.append(self._variant(b.with_delta(i)))
            union = self._union(rel, variants)
            if len(variants) > 1:
                union = exp.Select(expressions=[exp.Star()]).from_(
                    exp.Subquery(this=union, alias=exp.TableAlias(
                        this=exp.to_identifier("variants"))))
            query = self.ec.dialect.difference(
                union, table_name(rel), [n for n, _ in self.layouts[rel].columns])
            body.append(Materialize(self.table(rel, "new"), query, count=True,
                                    comment=f"{rel}: new facts of this iteration"))
        for rel in s.relations:
            body.append(Append(self.table(rel), self.table(rel, "new")))
            body.append(Rename(self.table(rel, "delta"), self.table(rel, "new")))
        until = tuple(table_name(r, "new") for r in s.relations)
        return init + [Loop(tuple(body), until, ", ".join(s.relations))]
