"""How DDlog values are laid out in SQL storage, described without SQL.

Shared by SQL generation (:mod:`dl2sql.sqlgen.types` turns it into SQL types) and the
runtime (:mod:`dl2sql.runtime.convert` turns values into rows), which Spark's Python
workers import, so this module needs nothing but :mod:`dl2sql.types.model`.
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.types.model import TBigInt, TBit, TNamed, TSigned, TTuple, Type, TypeEnv, unwrapped


def is_decimal(t: Type) -> bool:
    """True when integers of type ``t`` are stored as DECIMAL(38,0)."""
    return isinstance(t, TBigInt) or (isinstance(t, TBit) and t.width >= 64) or \
        (isinstance(t, TSigned) and t.width > 64)


@dataclass(frozen=True)
class StructSlot:
    """One SQL struct field: its name, DDlog type, and what it holds."""

    name: str
    type: Type
    ctor: str | None  # the constructor whose field this is (None for tag / tuples)
    field: str | None


def struct_slots(t: Type, env: TypeEnv) -> tuple[StructSlot, ...] | None:
    """The SQL struct fields of ``t``, or None when ``t`` is not stored as a STRUCT."""
    t = unwrapped(t)
    if isinstance(t, TTuple):
        if not t.elems:
            return None
        return tuple(StructSlot(f"_{i}", e, None, None) for i, e in enumerate(t.elems))
    if isinstance(t, TNamed) and t.name in env.defs and not env.defs[t.name].extern:
        ctors = env.ctors(t)
        slots = []
        if len(ctors) > 1:
            slots.append(StructSlot("tag", TSigned(32), None, None))
        elif not ctors[0].fields:
            return None
        for c in ctors:
            prefix = f"{c.short_name}_" if len(ctors) > 1 else ""
            slots += [StructSlot(prefix + n, ft, c.name, n) for n, ft in c.fields]
        return tuple(slots)
    return None


def is_recursive(t: Type, env: TypeEnv, _seen: frozenset = frozenset()) -> bool:
    """True when values of ``t`` may contain values of their own type (through
    ``Ref``): they have no finite SQL type and live only inside the interpreter."""
    if isinstance(t, TTuple):
        return any(is_recursive(e, env, _seen) for e in t.elems)
    if not isinstance(t, TNamed):
        return False
    if t in _seen:
        return True
    seen = _seen | {t}
    if any(is_recursive(a, env, seen) for a in t.args):
        return True
    if t.name in env.defs and not env.defs[t.name].extern:
        return any(is_recursive(ft, env, seen) for c in env.ctors(t) for _, ft in c.fields)
    return False
