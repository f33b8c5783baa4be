"""Which representations of wide integers a program's runs go through
(:mod:`dl2sql.types.wide_ints`).

A program without wide integer types has one plan per engine, as it always had. One
with them starts NARROW (plain DECIMAL(38,0): native speed while every value has at
most 38 digits) and falls back to WIDE ((num, big) pairs: any value) when a value
outgrows it, unless a constant of the program is beyond 38 digits already: then it
starts WIDE."""
from __future__ import annotations

from dl2sql.runtime.values import GroupValue, Record
from dl2sql.types import typed as T
from dl2sql.types.model import NARROW, WIDE, TFunc, TNamed, TTuple, Type, TypeEnv
from dl2sql.types.storage import extern_storage, is_recursive
from dl2sql.types.wide_ints import fits_narrow, is_wide


def representations(layouts: dict, rules, functions: dict, env: TypeEnv) -> tuple[str, ...]:
    """The representations a run tries, in order: ``(NARROW,)`` for a program without
    wide integers, ``(NARROW, WIDE)``, or ``(WIDE,)`` when a constant needs it."""
    trees = list(rules) + list(functions.values())
    types = [t for layout in layouts.values() for _, t in layout.columns]
    types += [x.type for tree in trees for x in T.subexpressions(tree)]
    types += [t for f in functions.values() for _, t in f.params] + \
        [f.ret for f in functions.values()]
    if not any(holds_wide(t, env) for t in set(types)):
        return (NARROW,)
    constants = (x.value for tree in trees for x in T.subexpressions(tree)
                 if isinstance(x, T.TConst))
    if any(not _fits(v) for v in constants):
        return (WIDE,)
    return NARROW, WIDE


def holds_wide(t: Type, env: TypeEnv, _seen: frozenset = frozenset()) -> bool:
    """Whether SQL values of ``t`` contain wide integers (values stored as text, such
    as recursive types and ``uuid::Uuid``, do not)."""
    if is_wide(t):
        return True
    if t in _seen or is_recursive(t, env):
        return False
    seen = _seen | {t}
    if isinstance(t, TTuple):
        return any(holds_wide(e, env, seen) for e in t.elems)
    if isinstance(t, TFunc):
        return any(holds_wide(p, env, seen) for p in t.params) or \
            holds_wide(t.ret, env, seen)
    if not isinstance(t, TNamed):
        return False
    stored = extern_storage(t)
    if stored is not None:
        return not stored.hex_digits and holds_wide(stored.type, env, seen)
    if any(holds_wide(a, env, seen) for a in t.args):
        return True
    defn = env.defs.get(t.name)
    return defn is not None and not defn.extern and any(
        holds_wide(ft, env, seen) for c in env.ctors(t) for _, ft in c.fields)


def _fits(v) -> bool:
    """Whether every integer inside constant value ``v`` fits DECIMAL(38,0) (an integer
    beyond it can only be a wide one's)."""
    if isinstance(v, bool):
        return True
    if isinstance(v, int):
        return fits_narrow(v)
    if isinstance(v, (tuple, list, frozenset, set)):
        return all(_fits(x) for x in v)
    if isinstance(v, Record):
        return all(_fits(x) for x in v.fields)
    if isinstance(v, GroupValue):
        return _fits(v.key) and all(_fits(x) for x in v.items)
    return True
