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


def redundant(previous: list, p, t: Type, env: TypeEnv) -> bool:
    """Whether every value ``p`` matches is matched by one of ``previous`` already (an
    arm after them could never run). Patterns whose values cannot be told apart at
    compile time (an equality with a variable) count as matching nothing, so an arm
    is reported only when it surely is redundant."""
    return not _useful([[r] for r in previous], [p], [t], env)


def _head_ctor(p, t: Type):
    """(constructor, arity) of a refutable pattern head, or None if it is not one the
    algorithm knows (then the pattern is taken as useful)."""
    if isinstance(p, T.PTuple):
        return "()", len(p.elems)
    if isinstance(p, T.PCtor):
        return p.ctor, None
    if isinstance(p, T.PEq) and isinstance(p.expr, T.TConst):
        return ("=", p.expr.value) if not isinstance(t, TBool) else p.expr.value, 0
    return None


def _useful(rows: list[list], q: list, types: list[Type], env: TypeEnv) -> bool:
    """Whether some value matched by the pattern vector ``q`` is matched by no row."""
    if not types:
        return not rows
    t, rest = types[0], types[1:]
    head = _strip(q[0])
    ctors = _constructors(t, env)
    if not _irrefutable(head):
        found = _head_ctor(head, t)
        if found is None:
            return True
        ctor, arity = found
        if isinstance(ctor, tuple):  # a literal of an infinite type (a string, a number)
            spec = [r[1:] for r in rows if _irrefutable(_strip(r[0])) or (
                isinstance(_strip(r[0]), T.PEq) and isinstance(_strip(r[0]).expr, T.TConst)
                and _strip(r[0]).expr.value == ctor[1])]
            return _useful(spec, q[1:], rest, env)
        ftypes = next((f for c, f in ctors or () if c == ctor), None)
        if ftypes is None:
            return True
        return _useful(_specialized(rows, ctor, ftypes, t, env),
                       _specialize(head, ctor, len(ftypes), t, env) + q[1:],
                       list(ftypes) + rest, env)
    if ctors is None:
        return _useful([r[1:] for r in rows if _irrefutable(_strip(r[0]))], q[1:], rest, env)
    return any(_useful(_specialized(rows, ctor, ftypes, t, env),
                       [_WILD] * len(ftypes) + q[1:], list(ftypes) + rest, env)
               for ctor, ftypes in ctors)


def _specialized(rows: list[list], ctor, ftypes, t: Type, env: TypeEnv) -> list[list]:
    out = []
    for r in rows:
        sub = _specialize(r[0], ctor, len(ftypes), t, env)
        if sub is not None:
            out.append(sub + r[1:])
    return out
