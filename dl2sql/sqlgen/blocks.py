"""Select-project-join blocks to sqlglot SELECT statements."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable

from sqlglot import exp

from dl2sql.ra.nodes import Block, GroupBlock, RelationLayout, Source
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.trees import cast, struct, table
from dl2sql.sqlgen.types import sql_type
from dl2sql.types import typed as T
from dl2sql.types.storage import has_own_order
from dl2sql.types.wide_ints import is_wide

# a source's table: its name, or a query (a union of tables, see dl2sql.incremental)
TableOf = Callable[[Source], "str | exp.Expression"]


def _source(read: "str | exp.Expression", alias: str) -> exp.Expression:
    if isinstance(read, str):
        return table(read, alias)
    return exp.Subquery(this=read, alias=exp.TableAlias(this=exp.to_identifier(alias,
                                                                                 quoted=True)))


def aliases_of(e) -> set[str]:
    """The source aliases a typed expression reads."""
    if isinstance(e, T.TCol):
        return {e.alias}
    out: set[str] = set()
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if dataclasses.is_dataclass(x) and hasattr(x, "type") and not isinstance(x, type):
                out |= aliases_of(x)
    return out


def conjunction(conds: list[exp.Expression]) -> exp.Expression | None:
    """``c1 AND c2 ...``, or None for no condition."""
    out = None
    for c in conds:  # an OR among them is parenthesized by precedence.parenthesize
        out = c if out is None else exp.And(this=out, expression=c)
    return out


def _output(e: exp.Expression, name: str) -> exp.Expression:
    """``e AS name``, or the bare column where it already has that name (the alias
    says nothing, and Spark's optimizer drops it anyway)."""
    if isinstance(e, exp.Column) and e.name == name:
        return e
    return exp.alias_(e, name, quoted=True)


@dataclass
class _Split:
    """What the native half of a split SELECT learns for the other: the guards of each
    output or condition (typed expression) compiled with some, and for an equality of
    wide integers with guards on one side only, the other half's condition: the
    interpreter computes that side only, so that a join stays a join on equal values."""

    guards: dict = field(default_factory=dict)
    halves: dict = field(default_factory=dict)
    native: bool = True  # compiling the native half


def block_select(block: Block, layout: RelationLayout, table_of: TableOf,
                 ec: ExprCompiler) -> exp.Select:
    """``SELECT DISTINCT <head columns> FROM <sources> WHERE <conditions>``.

    On an engine that runs a query's every Python UDF on every row (Spark), wide
    integer arithmetic is split (dl2sql.sqlgen.wide_arith): the SELECT computes it
    natively on the rows where its guards hold, and a second SELECT over the same
    sources, on the other rows only, has the interpreter compute every expression that
    holds guarded arithmetic; the result is the union of both."""
    if ec.guard_mode != "eager":
        return _select(block, layout, table_of, ec)
    ec.guard_mode, split = "split", _Split()
    try:
        native = _select(block, layout, table_of, ec, split)
    finally:
        ec.guard_mode = "eager"
    if not split.guards:
        return native
    guards = [g for gs in split.guards.values() for g in gs]
    split.native = False
    others = _select(block, layout, table_of, ec, split,
                     first=exp.Not(this=exp.and_(*[g.copy() for g in guards])))
    native.set("where", exp.Where(this=exp.and_(
        *([native.args["where"].this] if native.args.get("where") else []), *guards)))
    for part in (native, others):
        part.set("distinct", None)
    both = exp.union(native, others, distinct=False)
    return exp.Select(expressions=[exp.Star()]).distinct().from_(exp.Subquery(
        this=both, alias=exp.TableAlias(this=exp.to_identifier("split", quoted=True))))


def _equality(e: T.TBin, ec: ExprCompiler, split: _Split) -> exp.Expression:
    """``e`` (``a == b`` of wide integers) compiled in the native half; where only one
    side has guards, the other half's condition is recorded."""
    start = len(ec.guards)
    left = ec.compile(e.left)
    middle = len(ec.guards)
    right = ec.compile(e.right)
    if (middle > start) != (len(ec.guards) > middle):
        split.halves[e] = exp.EQ(this=left.copy(), expression=ec.udf_expr(e.right)) \
            if middle == start else exp.EQ(this=ec.udf_expr(e.left), expression=right.copy())
    return exp.EQ(this=left, expression=right)


def _select(block: Block, layout: RelationLayout, table_of: TableOf, ec: ExprCompiler,
            split: _Split | None = None, first: exp.Expression | None = None) -> exp.Select:
    """The SELECT of :func:`block_select`, or one half of a split one: the native half
    records in ``split`` the guards of what it compiles; the other computes those
    expressions in the interpreter (conditions among them go to WHERE, after
    ``first``)."""
    def compile_(e):
        if split is None:
            return ec.compile(e)
        if not split.native:
            if e in split.halves:
                return split.halves[e].copy()
            return ec.udf_expr(e) if e in split.guards else ec.compile(e)
        start = len(ec.guards)
        if isinstance(e, T.TBin) and e.op == "==" and is_wide(e.left.type):
            out = _equality(e, ec, split)
        else:
            out = ec.compile(e)
        if len(ec.guards) > start:
            split.guards[e] = ec.guards[start:]
            del ec.guards[start:]
        else:
            split.halves.pop(e, None)
        return out

    def eagerly(e):  # subqueries and unnests: guards cannot join the WHERE
        mode = ec.guard_mode  # (a NARROW plan's guards fail the query: no WHERE)
        ec.guard_mode = mode if mode == "fail" else "eager"
        try:
            return ec.compile(e)
        finally:
            ec.guard_mode = mode

    late = set() if split is None or split.native else \
        {e for e in split.guards if e not in split.halves}
    cols = [_output(compile_(o), name) for o, (name, _) in zip(block.outputs, layout.columns)]
    sel = exp.Select(expressions=cols).distinct()
    pending = [c for c in block.conditions if c not in late]
    seen: set[str] = set()
    for i, s in enumerate(block.sources):
        seen.add(s.alias)
        t = _source(table_of(s), s.alias)
        if i == 0:
            sel = sel.from_(t)
            continue
        # a condition joins at the first source where all of its columns are in scope
        on = [c for c in pending if aliases_of(c) <= seen and s.alias in aliases_of(c)]
        pending = [c for c in pending if c not in on]
        on_sql = conjunction([compile_(c) for c in on])
        sel = sel.join(t, on=on_sql) if on_sql is not None else sel.join(t, join_type="CROSS")
    if block.unnests and not block.sources:
        one = exp.Select(expressions=[exp.alias_(exp.Literal.number(1), "one")])
        sel = sel.from_(exp.Subquery(this=one, alias=exp.TableAlias(
            this=exp.to_identifier("_one"))))
    for un in block.unnests:
        sel = ec.dialect.explode(sel, eagerly(un.expr), un.alias)
    # the rows' filter first: Spark runs the UDFs of the conditions after it
    conds = ([first] if first is not None else []) + [compile_(c) for c in pending]
    conds += [compile_(c) for c in block.conditions if c in late]
    for aj in block.antijoins:
        sub = exp.Select(expressions=[exp.Literal.number(1)]).from_(
            table(table_of(aj.source), aj.source.alias))
        where = conjunction([eagerly(c) for c in aj.conditions])
        if where is not None:
            sub = sub.where(where)
        conds.append(exp.Not(this=exp.Exists(this=sub)))
    where = conjunction(conds)
    if where is not None:
        sel = sel.where(where)
    return sel


def group_select(block: GroupBlock, layout: RelationLayout, table_of: TableOf,
                 ec: ExprCompiler) -> exp.Select:
    """``SELECT keys, STRUCT(key, sorted values) FROM source GROUP BY keys`` (or the
    number of rows, ``COUNT(*)``, for a group that is only counted, the tuple of
    ``COUNT(*)``, ``MIN``, ``MAX`` for a summary); no row for an empty
    source, even without keys (DDlog's groups are never empty)."""
    names = [n for n, _ in layout.columns]
    keys = [ec.compile(k) for k in block.keys]
    if block.aggregate == "count":
        group = cast(exp.Count(this=exp.Star()), sql_type(layout.columns[-1][1], ec.env))
    elif block.aggregate != "group":  # a summary (dl2sql.passes.group_counts)
        summary, value = layout.columns[-1][1], ec.compile(block.value)
        group = ec.make_tuple(summary, [
            cast(exp.Count(this=exp.Star()), sql_type(t, ec.env)) if part == "count"
            else (exp.Min if part == "min" else exp.Max)(this=value.copy())
            for part, t in zip(block.aggregate, summary.elems)])
    else:
        vals = ec.dialect.groups.sorted_list(ec.compile(block.value))
        if has_own_order(block.value.type, ec.env):
            # SQL's order of these values is not DDlog's: the runtime sorts them again
            vals = ec.ddlog_sorted(vals, block.value.type, distinct=False)
        group = struct([("key", ec.compile(block.key)), ("vals", vals)])
    cols = [exp.alias_(k, n, quoted=True) for k, n in zip(keys, names)]
    cols.append(exp.alias_(group, names[-1], quoted=True))
    sel = exp.Select(expressions=cols).from_(table(table_of(block.source),
                                                   block.source.alias))
    if keys:
        sel = sel.group_by(*[k.copy() for k in keys])
    return sel.having(exp.GT(this=exp.Count(this=exp.Star()),
                             expression=exp.Literal.number(0)))


def empty_select(layout: RelationLayout, ec: ExprCompiler) -> exp.Select:
    """A query with the relation's columns and no rows."""
    cols = [exp.alias_(cast(exp.Null(), sql_type(t, ec.env)), name, quoted=True)
            for name, t in layout.columns]
    return exp.Select(expressions=cols).where(exp.Boolean(this=False))


def without_distinct(q: exp.Expression) -> exp.Expression:
    """``q`` without its own ``SELECT DISTINCT`` (changed in place): a bag's rows, one
    per derivation, or a part of a union that removes duplicates itself."""
    if isinstance(q, exp.Select) and not q.args.get("limit") and not q.args.get("offset"):
        q.set("distinct", None)
    return q


def union_all_distinct(queries: list[exp.Expression]) -> exp.Expression:
    """The set union of ``queries`` (left-deep: ``((q0 ∪ q1) ∪ q2) ...``)."""
    if len(queries) == 1:
        return queries[0]
    # the union removes duplicates once: a DISTINCT in each part would hash every row
    # twice (a third of a recursive query's time on DuckDB)
    # copy=False: sqlglot's default copies the union built so far at every step,
    # quadratic in the number of parts (a relation's facts are one part each)
    return exp.union(*[without_distinct(q) for q in queries], distinct=True, copy=False)




def union_all(queries: list[exp.Expression]) -> exp.Expression:
    """The bag union of ``queries``: duplicates kept (left-deep, not copied: see
    :func:`union_all_distinct`)."""
    return queries[0] if len(queries) == 1 else exp.union(*queries, distinct=False,
                                                           copy=False)
