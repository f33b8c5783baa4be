"""Lowering of typed rules to select-project-join blocks."""
from __future__ import annotations

from dl2sql.ra.nodes import AntiJoin, Block, RelationLayout, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, TBool, TNamed, TTuple, TypeEnv, Type


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


def field_of(value: T.TExpr, ctor: str, name: str, ftype: Type, env: TypeEnv) -> T.TExpr:
    """Field ``name`` of ``value`` known to be built with ``ctor``, simplified."""
    if isinstance(value, T.TStruct) and value.ctor == ctor:
        ctor_def = next(c for c in env.ctors(value.type) if c.name == ctor)
        return value.args[[n for n, _ in ctor_def.fields].index(name)]
    return T.TCtorField(ftype, value, ctor, name)


def tuple_item(value: T.TExpr, index: int, etype: Type) -> T.TExpr:
    if isinstance(value, T.TTupleE):
        return value.elems[index]
    return T.TTupleGet(etype, value, index)


class RuleLowering:
    """Lowers one typed rule; ``layouts`` gives every relation's storage layout."""

    def __init__(self, layouts: dict[str, RelationLayout], env: TypeEnv):
        self.layouts, self.env = layouts, env
        self.sources: list[Source] = []
        self.conditions: list[T.TExpr] = []
        self.antijoins: list[AntiJoin] = []
        self.bindings: dict[str, T.TExpr] = {}
        self._aliases = 0

    def lower(self, rule: T.CoreRule) -> list[Block]:
        """One block per head of ``rule``."""
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
            else:
                self.conditions += self.match(clause.pattern, self.subst(clause.expr))
        blocks = []
        for h in rule.heads:
            layout = self.layouts[h.relation]
            outs = columns_of(layout, self.subst(h.record), self.env)
            blocks.append(Block(h.relation, tuple(self.sources), tuple(self.conditions),
                                tuple(self.antijoins), outs, h.span))
        return blocks

    def _alias(self) -> str:
        self._aliases += 1
        return f"t{self._aliases}"

    def match(self, p: T.Pattern, value: T.TExpr) -> list[T.TExpr]:
        """Conditions under which ``value`` matches ``p``; binds pattern variables."""
        if isinstance(p, T.PWild):
            return []
        if isinstance(p, T.PVar):
            self.bindings[p.name] = value
            return []
        if isinstance(p, T.PBind):
            self.bindings[p.name] = value
            return self.match(p.pattern, value)
        if isinstance(p, T.PEq):
            return [T.TBin(BOOL, "==", value, self.subst(p.expr))]
        if isinstance(p, T.PTuple):
            assert isinstance(p.type, TTuple)
            conds = []
            for i, (sub, et) in enumerate(zip(p.elems, p.type.elems)):
                conds += self.match(sub, tuple_item(value, i, et))
            return conds
        assert isinstance(p, T.PCtor)
        conds: list[T.TExpr] = []
        ctors = self.env.ctors(p.type)
        if len(ctors) > 1:
            if isinstance(value, T.TStruct):
                if value.ctor != p.ctor:
                    return [T.TConst(BOOL, False)]
            else:
                conds.append(T.TIsCtor(BOOL, value, p.ctor))
        ctor_def = next(c for c in ctors if c.name == p.ctor)
        ftypes = dict(ctor_def.fields)
        for name, sub in p.fields:
            conds += self.match(sub, field_of(value, p.ctor, name, ftypes[name], self.env))
        return conds

    def subst(self, e: T.TExpr) -> T.TExpr:
        """``e`` with rule variables replaced by their bound values, simplified."""
        if isinstance(e, T.TVarRef):
            return self.bindings[e.name]
        if isinstance(e, (T.TConst, T.TCol)):
            return e
        if isinstance(e, T.TGetField):
            inner = self.subst(e.expr)
            if isinstance(inner, T.TStruct):
                return field_of(inner, inner.ctor, e.field, e.type, self.env)
            return T.TGetField(e.type, inner, e.field)
        if isinstance(e, T.TTupleGet):
            return tuple_item(self.subst(e.expr), e.index, e.type)
        if isinstance(e, T.TStruct):
            return T.TStruct(e.type, e.ctor, tuple(self.subst(a) for a in e.args))
        if isinstance(e, T.TTupleE):
            return T.TTupleE(e.type, tuple(self.subst(a) for a in e.elems))
        if isinstance(e, T.TCtorField):
            return field_of(self.subst(e.expr), e.ctor, e.field, e.type, self.env)
        if isinstance(e, T.TIsCtor):
            inner = self.subst(e.expr)
            if isinstance(inner, T.TStruct):
                return T.TConst(BOOL, inner.ctor == e.ctor)
            return T.TIsCtor(e.type, inner, e.ctor)
        if isinstance(e, T.TBin):
            return T.TBin(e.type, e.op, self.subst(e.left), self.subst(e.right))
        if isinstance(e, (T.TUn, T.TCast, T.TToString)):
            return type(e)(e.type, *([e.op] if isinstance(e, T.TUn) else []),
                           self.subst(e.expr))
        if isinstance(e, T.TIf):
            return T.TIf(e.type, self.subst(e.cond), self.subst(e.then), self.subst(e.els))
        raise NotImplementedError(type(e).__name__)


def lower_rules(rules: list[T.CoreRule], layouts: dict[str, RelationLayout],
                env: TypeEnv) -> list[Block]:
    """Blocks of every rule, in rule order."""
    out: list[Block] = []
    for r in rules:
        out += RuleLowering(layouts, env).lower(r)
    return out
