"""Lowering of typed rules to select-project-join blocks."""
from __future__ import annotations

import dataclasses

from dl2sql.ra.inline import Inliner
from dl2sql.ra.nodes import AntiJoin, Block, GroupBlock, RelationLayout, Source, Unnest
from dl2sql.ra.patterns import field_of, match_pattern
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, GROUP, VEC, TBool, TNamed, TTuple, TypeEnv, Type


def relation_layout(rel: str, rtype: Type, env: TypeEnv) -> RelationLayout:
    """The storage layout of relation ``rel`` with record type ``rtype``."""
    if isinstance(rtype, TNamed) and rtype.name in env.defs:
        ctors = env.ctors(rtype)
        if len(ctors) == 1 and not env.defs[rtype.name].extern:
            c = ctors[0]
            if not c.fields:
                return RelationLayout(rel, rtype, (("_unit", TBool()),), c.name, unit=True)
            return RelationLayout(rel, rtype, tuple(c.fields), c.name)
    return RelationLayout(rel, rtype, (("_v", rtype),), None)


def record_of(layout: RelationLayout, alias: str) -> T.TExpr:
    """The record value of a source row, as an expression over its columns."""
    if layout.flat_ctor is None:
        return T.TCol(layout.record_type, alias, "_v")
    if layout.unit:
        return T.TStruct(layout.record_type, layout.flat_ctor, ())
    return T.TStruct(layout.record_type, layout.flat_ctor,
                     tuple(T.TCol(t, alias, n) for n, t in layout.columns))


def columns_of(layout: RelationLayout, record: T.TExpr, env: TypeEnv) -> tuple[T.TExpr, ...]:
    """The column values that store ``record`` in a relation with ``layout``."""
    if layout.flat_ctor is None:
        return (record,)
    if layout.unit:
        return (T.TConst(BOOL, True),)
    return tuple(field_of(record, layout.flat_ctor, n, t, env) for n, t in layout.columns)


class RuleLowering:
    """Lowers one typed rule; ``layouts`` gives every relation's storage layout."""

    def __init__(self, layouts: dict[str, RelationLayout], env: TypeEnv, inliner: Inliner,
                 column_names: frozenset[str] = frozenset()):
        self.layouts, self.env, self.inliner = layouts, env, inliner
        self._column_names = column_names
        self.sources: list[Source] = []
        self.conditions: list[T.TExpr] = []
        self.antijoins: list[AntiJoin] = []
        self.unnests: list[Unnest] = []
        self.bindings: dict[str, T.TExpr] = {}
        self._aliases = 0

    def lower(self, rule: T.CoreRule) -> list[Block]:
        """One block per head of ``rule``."""
        if len(rule.body) == 1 and isinstance(rule.body[0], T.CGroupSource):
            return [self._group_block(rule, rule.body[0])]
        for clause in rule.body:
            if isinstance(clause, T.CAtom) and not clause.negated:
                src = Source(self._alias(), clause.relation)
                self.sources.append(src)
                rec = record_of(self.layouts[clause.relation], src.alias)
                self.conditions += self.match(clause.pattern, rec)
            elif isinstance(clause, T.CAtom):
                src = Source(self._alias(), clause.relation)
                rec = record_of(self.layouts[clause.relation], src.alias)
                self.antijoins.append(AntiJoin(src, tuple(self.match(clause.pattern, rec))))
            elif isinstance(clause, T.CFilter):
                self.conditions.append(self.subst(clause.cond))
            elif isinstance(clause, T.CFlatMap):
                elem, expr = clause.pattern.type, self.subst(clause.expr)
                if isinstance(expr.type, TNamed) and expr.type.name == GROUP:
                    # a group yields (element, weight) pairs; every weight is 1
                    k, v = expr.type.args
                    vec = T.TCall(TNamed(VEC, (v,)), "ddlog_std::group_to_vec", (expr,), (k, v))
                    un = Unnest(self._alias(), vec, v)
                    item = T.TTupleE(elem, (T.TCol(v, un.alias, "_e"),
                                            T.TConst(elem.elems[1], 1)))
                else:
                    un = Unnest(self._alias(), expr, elem)
                    item = T.TCol(elem, un.alias, "_e")
                self.unnests.append(un)
                self.conditions += self.match(clause.pattern, item)
            else:
                self.conditions += self.match(clause.pattern, self.subst(clause.expr))
        blocks = []
        for h in rule.heads:
            layout = self.layouts[h.relation]
            outs = columns_of(layout, self.subst(h.record), self.env)
            blocks.append(Block(h.relation, tuple(self.sources), tuple(self.conditions),
                                tuple(self.antijoins), outs, h.span, tuple(self.unnests)))
        return blocks

    def _group_block(self, rule: T.CoreRule, cg: T.CGroupSource) -> GroupBlock:
        src = Source(self._alias(), cg.relation)
        columns = dict(self.layouts[cg.relation].columns)
        keys = tuple(T.TCol(columns[k], src.alias, k) for k in cg.keys)
        head = rule.heads[0]
        group_type = self.layouts[head.relation].columns[-1][1]
        key_type = (group_type.args[0] if cg.aggregate == "group"
                    else keys[0].type if len(keys) == 1 else TTuple(tuple(k.type for k in keys)))
        key = (keys[0] if len(keys) == 1 and not isinstance(key_type, TTuple)
               else T.TTupleE(key_type, keys))
        value = T.TCol(columns[cg.value], src.alias, cg.value)
        return GroupBlock(head.relation, src, keys, key, value, cg.span, cg.aggregate)

    def _alias(self) -> str:
        # inside a correlated subquery, DuckDB reads `t1.x` as field x of a struct
        # column named t1 when the inner table has one: no alias is a column's name
        self._aliases += 1
        while f"t{self._aliases}" in self._column_names:
            self._aliases += 1
        return f"t{self._aliases}"

    def match(self, p: T.Pattern, value: T.TExpr) -> list[T.TExpr]:
        """Conditions under which ``value`` matches ``p``; binds pattern variables."""
        return match_pattern(p, value, self.env, self.bindings, self.subst)

    def subst(self, e: T.TExpr) -> T.TExpr:
        """``e`` with rule variables replaced by their bound values, function calls
        inlined where possible, simplified."""
        return self.inliner.close(e, self.bindings)


def lower_rules(rules: list[T.CoreRule], layouts: dict[str, RelationLayout],
                env: TypeEnv, functions: dict) -> list[Block]:
    """Blocks of every rule, in rule order; calls of DDlog functions are inlined
    where their bodies can be expressed as expressions."""
    out: list[Block] = []
    inliner = Inliner(env, functions)
    column_names = frozenset(c for layout in layouts.values() for c, _ in layout.columns)
    for r in rules:
        out += RuleLowering(layouts, env, inliner, column_names).lower(r)
    return out


def key_of(key: T.TExpr, layout: RelationLayout, alias: str) -> T.TExpr:
    """A primary key's expression (over the record, ``TVarRef``) over the columns of
    the source ``alias`` of a relation stored with ``layout``; a field of a record
    stored flat is its column."""
    record = record_of(layout, alias)
    names = [n for n, _ in layout.columns]

    def sub(e):
        if isinstance(e, T.TVarRef):
            return record
        if isinstance(e, T.TGetField):
            inner = sub(e.expr)
            if inner is record and isinstance(record, T.TStruct) and e.field in names:
                return record.args[names.index(e.field)]
            return dataclasses.replace(e, expr=inner)
        if not dataclasses.is_dataclass(e):
            return e
        changed = {}
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            if isinstance(v, tuple):
                changed[f.name] = tuple(sub(x) if _is_expr(x) else x for x in v)
            elif _is_expr(v):
                changed[f.name] = sub(v)
        return dataclasses.replace(e, **changed)
    return sub(key)


def _is_expr(v) -> bool:
    return dataclasses.is_dataclass(v) and not isinstance(v, type) and hasattr(v, "type")
