"""Matching a typed pattern against a (closed) value expression: the conditions under
which it matches and the variables it binds. Shared by rule lowering and inlining."""
from __future__ import annotations

from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, TTuple, Type, TypeEnv


def field_of(value: T.TExpr, ctor: str, name: str, ftype: Type, env: TypeEnv) -> T.TExpr:
    """Field ``name`` of ``value`` known to be built with ``ctor``, simplified."""
    if isinstance(value, T.TStruct) and value.ctor == ctor:
        ctor_def = next(c for c in env.ctors(value.type) if c.name == ctor)
        return value.args[[n for n, _ in ctor_def.fields].index(name)]
    return T.TCtorField(ftype, value, ctor, name)


def tuple_item(value: T.TExpr, index: int, etype: Type) -> T.TExpr:
    """Element ``index`` of a tuple-valued expression, simplified."""
    if isinstance(value, T.TTupleE):
        return value.elems[index]
    return T.TTupleGet(etype, value, index)


def match_pattern(p: T.Pattern, value: T.TExpr, env: TypeEnv, bindings: dict,
                  close) -> list[T.TExpr]:
    """Conditions for ``value`` to match ``p``; pattern variables go to ``bindings``.
    ``close`` turns an expression inside the pattern (``PEq``) into a closed one."""
    if isinstance(p, T.PWild):
        return []
    if isinstance(p, T.PVar):
        bindings[p.name] = value
        return []
    if isinstance(p, T.PBind):
        bindings[p.name] = value
        return match_pattern(p.pattern, value, env, bindings, close)
    if isinstance(p, T.PEq):
        return [T.TBin(BOOL, "==", value, close(p.expr))]
    if isinstance(p, T.PTuple):
        assert isinstance(p.type, TTuple)
        conds: list[T.TExpr] = []
        for i, (sub, et) in enumerate(zip(p.elems, p.type.elems)):
            conds += match_pattern(sub, tuple_item(value, i, et), env, bindings, close)
        return conds
    assert isinstance(p, T.PCtor)
    conds = []
    ctors = env.ctors(p.type)
    if len(ctors) > 1:
        if isinstance(value, T.TStruct):
            if value.ctor != p.ctor:
                # never matches; the pattern's variables are still bound (to fields of
                # the constructor not in use) so that the rest of the rule stays closed
                conds.append(T.TConst(BOOL, False))
        else:
            conds.append(T.TIsCtor(BOOL, value, p.ctor))
    ftypes = dict(next(c for c in ctors if c.name == p.ctor).fields)
    for name, sub in p.fields:
        conds += match_pattern(sub, field_of(value, p.ctor, name, ftypes[name], env), env,
                               bindings, close)
    return conds


def conjunction(conds: list[T.TExpr]) -> T.TExpr:
    """``c1 and c2 ...`` (``true`` for none), dropping literal ``true``."""
    conds = [c for c in conds if not (isinstance(c, T.TConst) and c.value is True)]
    if not conds:
        return T.TConst(BOOL, True)
    out = conds[0]
    for c in conds[1:]:
        out = T.TBin(BOOL, "and", out, c)
    return out
