"""DDlog types as SQL types, and the layout of struct/union values in SQL STRUCTs.

One representation for both engines (see docs/sql-mapping.md): small integers are
BIGINT, wide ones DECIMAL(38,0); tuples are STRUCT<_0, _1, ...>; a single-constructor
struct is a STRUCT of its fields; a tagged union is a STRUCT with an INT ``tag`` (the
constructor's declaration index, so that SQL ordering is DDlog ordering) followed by
the fields of every constructor (``Ctor_field``); values without fields are TRUE.
"""
from __future__ import annotations

from sqlglot import exp

from dl2sql.types.model import (GROUP, INTERN, TRANSPARENT, MAP, SET, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv)
# the layout of values, shared with the runtime (which must not import sqlglot)
from dl2sql.types.storage import StructSlot, is_decimal, is_recursive, struct_slots  # noqa: F401
from dl2sql.types.storage import extern_storage

DECIMAL = exp.DataType.build("DECIMAL(38, 0)")
BIGINT = exp.DataType.build("BIGINT")


def sql_type(t: Type, env: TypeEnv) -> exp.DataType:
    """The SQL type storing values of DDlog type ``t``."""
    if is_recursive(t, env):  # stored as canonical text (dl2sql.runtime.encoded)
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
    if extern_storage(t) is not None:
        stored = extern_storage(t)
        return exp.DataType.build("STRING") if stored.hex_digits else sql_type(stored.type, env)
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


def orders_by_hash(t: Type, env: TypeEnv, _seen: frozenset = frozenset()) -> bool:
    """Whether values of ``t`` contain an interned string where SQL would compare
    them: DDlog orders those by their hash (:mod:`dl2sql.runtime.order`), which SQL's
    order of the stored contents does not reproduce, so sorting and ``<`` on them run
    in the interpreter. Recursive types are compared as text in Python already."""
    if is_recursive(t, env) or t in _seen:
        return False
    if isinstance(t, TTuple):
        return any(orders_by_hash(e, env, _seen) for e in t.elems)
    if not isinstance(t, TNamed):
        return False
    if t.name == INTERN and isinstance(t.args[0], TString):
        return True
    seen = _seen | {t}
    if any(orders_by_hash(a, env, seen) for a in t.args):
        return True
    defn = env.defs.get(t.name)
    return defn is not None and not defn.extern and any(
        orders_by_hash(ft, env, seen) for c in env.ctors(t) for _, ft in c.fields)
