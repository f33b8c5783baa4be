"""DDlog types as SQL types, and the layout of struct/union values in SQL STRUCTs.

One representation for both engines (see docs/sql-mapping.md): integers up to 64 bits
are BIGINT (``bit<64>`` DECIMAL(38,0)), wider ones and ``bigint`` DECIMAL(38,0) or
STRUCT<num, big> as the type environment's ``integers`` says
(:mod:`dl2sql.types.wide_ints`); tuples are STRUCT<_0, _1, ...>; a single-constructor
struct is a STRUCT of its fields; a tagged union is a STRUCT with an INT ``tag`` (the
constructor's declaration index, so that SQL ordering is DDlog ordering) followed by
the fields of every constructor (``Ctor_field``); values without fields are TRUE.
"""
from __future__ import annotations

from sqlglot import exp

from dl2sql.types.model import (GROUP, SET_KINDS, TRANSPARENT, MAP, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv)
# the layout of values, shared with the runtime (which must not import sqlglot)
from dl2sql.types.storage import StructSlot, is_decimal, is_recursive, struct_slots  # noqa: F401
from dl2sql.types.storage import extern_storage
from dl2sql.types.wide_ints import BIG, NUM, is_pair, is_wide

DECIMAL = exp.DataType.build("DECIMAL(38, 0)")
BIGINT = exp.DataType.build("BIGINT")
WIDE = exp.DataType.build(f"STRUCT<`{NUM}` DECIMAL(38, 0), `{BIG}` STRING>", dialect="spark")


def sql_type(t: Type, env: TypeEnv, external: bool = False) -> exp.DataType:
    """The SQL type storing values of DDlog type ``t``; with ``external``, the type
    files and DataFrames hold them in, where a wide integer is its decimal text."""
    if is_recursive(t, env):  # stored as canonical text (dl2sql.runtime.encoded)
        return exp.DataType.build("STRING")
    if isinstance(t, TBool):
        return exp.DataType.build("BOOLEAN")
    if isinstance(t, TString):
        return exp.DataType.build("STRING")
    if is_wide(t) and external:
        return exp.DataType.build("STRING")
    if is_pair(t, env):
        return WIDE.copy()
    if isinstance(t, (TBit, TSigned, TBigInt)):  # wide ones, NARROW: DECIMAL too
        return DECIMAL.copy() if is_decimal(t) or is_wide(t) else BIGINT.copy()
    if isinstance(t, TFloat):
        return exp.DataType.build("FLOAT")
    if isinstance(t, TDouble):
        return exp.DataType.build("DOUBLE")
    if isinstance(t, TNamed) and (t.name == VEC or t.name in SET_KINDS):
        return exp.DataType(this=exp.DataType.Type.ARRAY,
                            expressions=[sql_type(t.args[0], env, external)], nested=True)
    if isinstance(t, TNamed) and t.name == MAP:
        entry = TTuple((t.args[0], t.args[1]))
        return exp.DataType(this=exp.DataType.Type.ARRAY,
                            expressions=[sql_type(entry, env, external)], nested=True)
    if isinstance(t, TNamed) and t.name == GROUP:
        return exp.DataType(this=exp.DataType.Type.STRUCT, nested=True, expressions=[
            exp.ColumnDef(this=exp.to_identifier("key"), kind=sql_type(t.args[0], env, external)),
            exp.ColumnDef(this=exp.to_identifier("vals"), kind=exp.DataType(
                this=exp.DataType.Type.ARRAY, expressions=[sql_type(t.args[1], env, external)],
                nested=True))])
    if isinstance(t, TNamed) and t.name in TRANSPARENT:
        return sql_type(t.args[0], env, external)
    if extern_storage(t) is not None:
        stored = extern_storage(t)
        return exp.DataType.build("STRING") if stored.hex_digits else \
            sql_type(stored.type, env, external)
    slots = struct_slots(t, env)
    if slots is None:
        if isinstance(t, TTuple) or (isinstance(t, TNamed) and t.name in env.defs
                                     and not env.defs[t.name].extern):
            return exp.DataType.build("BOOLEAN")
        raise NotImplementedError(f"values of type `{t}` cannot be stored yet")
    return exp.DataType(
        this=exp.DataType.Type.STRUCT, nested=True,
        expressions=[exp.ColumnDef(this=exp.to_identifier(s.name), kind=sql_type(s.type, env, external))
                     for s in slots])
