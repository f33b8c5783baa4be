"""Exhaustiveness of ``match`` patterns (the usual pattern-matrix algorithm)."""
from __future__ import annotations

from typing import Optional

from dl2sql.types import typed as T
from dl2sql.types.model import TBool, TNamed, TTuple, Type, TypeEnv

_WILD = T.PWild(TBool())


def _irrefutable(p) -> bool:
    if isinstance(p, (T.PVar, T.PWild)):
        return True
    if isinstance(p, T.PBind):
        return _irrefutable(p.pattern)
    return False


def _strip(p):
    while isinstance(p, T.PBind):
        p = p.pattern
    return p


def _constructors(t: Type, env: TypeEnv):
    """(name, field types) of every constructor of ``t``, or None if infinite."""
    if isinstance(t, TBool):
        return [(True, ()), (False, ())]
    if isinstance(t, TTuple):
        return [("()", t.elems)]
    if isinstance(t, TNamed) and t.name in env.defs and env.defs[t.name].ctors:
        return [(c.name, tuple(ft for _, ft in c.fields)) for c in env.ctors(t)]
    return None


def _specialize(p, ctor, arity: int, t: Type, env: TypeEnv):
    """The sub-patterns of ``p`` for constructor ``ctor``, or None if ``p`` excludes it."""
    p = _strip(p)
    if _irrefutable(p):
        return [_WILD] * arity
    if isinstance(p, T.PTuple):
        return list(p.elems)
    if isinstance(p, T.PCtor):
        if p.ctor != ctor:
            return None
        names = [n for n, _ in next(c for c in env.ctors(t) if c.name == ctor).fields]
        given = dict(p.fields)
        return [given.get(n, _WILD) for n in names]
    if isinstance(p, T.PEq) and isinstance(p.expr, T.TConst) and isinstance(t, TBool):
        return [] if p.expr.value == ctor else None
    return None


def _missing(rows: list[list], types: list[Type], env: TypeEnv) -> Optional[list[str]]:
    """A description of one uncovered value (one string per column), or None."""
    if not types:
        return None if rows else []
    t, rest = types[0], types[1:]
    ctors = _constructors(t, env)
    if ctors is None or not any(not _irrefutable(_strip(r[0])) for r in rows):
        default = [r[1:] for r in rows if _irrefutable(_strip(r[0]))]
        gap = _missing(default, rest, env)
        return None if gap is None else ["_"] + gap
    for ctor, ftypes in ctors:
        spec = []
        for r in rows:
            sub = _specialize(r[0], ctor, len(ftypes), t, env)
            if sub is not None:
                spec.append(sub + r[1:])
        gap = _missing(spec, list(ftypes) + rest, env)
        if gap is not None:
            n = len(ftypes)
            return [_show(ctor, gap[:n])] + gap[n:]
    return None


def _show(ctor, fields: list[str]) -> str:
    if ctor in (True, False):
        return str(ctor).lower()
    if ctor == "()":
        return "(" + ", ".join(fields) + ")"
    name = ctor.rsplit("::", 1)[-1]
    return f"{name}{{{', '.join(fields)}}}"


def missing_case(patterns: list, t: Type, env: TypeEnv) -> Optional[str]:
    """A value of type ``t`` matched by none of ``patterns`` (as text), or None."""
    gap = _missing([[p] for p in patterns], [t], env)
    return None if gap is None else gap[0]
