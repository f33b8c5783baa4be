"""DDlog types as SQL types, and the layout of struct/union values in SQL STRUCTs.

One representation for both engines (see docs/sql-mapping.md): small integers are
BIGINT, wide ones DECIMAL(38,0); tuples are STRUCT<_0, _1, ...>; a single-constructor
struct is a STRUCT of its fields; a tagged union is a STRUCT with an INT ``tag`` (the
constructor's declaration index, so that SQL ordering is DDlog ordering) followed by
the fields of every constructor (``Ctor_field``); values without fields are TRUE.
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from dl2sql.types.model import (unwrapped, GROUP, TRANSPARENT, MAP, REF, SET, VEC, TBigInt, TBit, TBool, TDouble, TFloat,
                                TNamed, TSigned, TString, TTuple, Type, TypeEnv)

DECIMAL = exp.DataType.build("DECIMAL(38, 0)")
BIGINT = exp.DataType.build("BIGINT")


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


def sql_type(t: Type, env: TypeEnv) -> exp.DataType:
    """The SQL type storing values of DDlog type ``t``."""
    if is_recursive(t, env):  # stored as canonical text (dl2sql.values_encoded)
        return exp.DataType.build("STRING")
    if isinstance(t, TBool):
        return exp.DataType.build("BOOLEAN")
    if isinstance(t, TString):
        return exp.DataType.build("STRING")
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return DECIMAL.copy() if is_decimal(t) else BIGINT.copy()
    if isinstance(t, TFloat):
        return exp.DataType.build("FLOAT")
    if isinstance(t, TDouble):
        return exp.DataType.build("DOUBLE")
    if isinstance(t, TNamed) and t.name in (VEC, SET):
        return exp.DataType(this=exp.DataType.Type.ARRAY,
                            expressions=[sql_type(t.args[0], env)], nested=True)
    if isinstance(t, TNamed) and t.name == MAP:
        entry = TTuple((t.args[0], t.args[1]))
        return exp.DataType(this=exp.DataType.Type.ARRAY,
                            expressions=[sql_type(entry, env)], nested=True)
    if isinstance(t, TNamed) and t.name == GROUP:
        return exp.DataType(this=exp.DataType.Type.STRUCT, nested=True, expressions=[
            exp.ColumnDef(this=exp.to_identifier("key"), kind=sql_type(t.args[0], env)),
            exp.ColumnDef(this=exp.to_identifier("vals"), kind=exp.DataType(
                this=exp.DataType.Type.ARRAY, expressions=[sql_type(t.args[1], env)],
                nested=True))])
    if isinstance(t, TNamed) and t.name in TRANSPARENT:
        return sql_type(t.args[0], env)
    slots = struct_slots(t, env)
    if slots is None:
        if isinstance(t, TTuple) or (isinstance(t, TNamed) and t.name in env.defs
                                     and not env.defs[t.name].extern):
            return exp.DataType.build("BOOLEAN")
        raise NotImplementedError(f"values of type `{t}` cannot be stored yet")
    return exp.DataType(
        this=exp.DataType.Type.STRUCT, nested=True,
        expressions=[exp.ColumnDef(this=exp.to_identifier(s.name), kind=sql_type(s.type, env))
                     for s in slots])
