"""Conversion between runtime DDlog values and the normalised rows of runners."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.types.model import (GROUP, SET_KINDS, TRANSPARENT, MAP, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type,
                                TypeEnv)
from dl2sql.runtime.defaults import default_value
from dl2sql.types.storage import extern_storage, is_recursive, struct_slots
from dl2sql.types import wide_ints
from dl2sql.runtime.values import GroupValue, Record
from dl2sql.runtime.encoded import decode, encode

if TYPE_CHECKING:  # the runtime imports no compiler stage
    from dl2sql.ra.nodes import RelationLayout


def as_is(t: Type, env: TypeEnv) -> bool:
    """Whether :func:`to_sql` gives values of type ``t`` back unchanged (booleans,
    strings, integers stored as SQL integers)."""
    return isinstance(t, (TBool, TString, TBit, TSigned, TBigInt)) and \
        not wide_ints.is_pair(t, env) and not wide_ints.is_wide(t)


def to_sql(t: Type, v, env: TypeEnv):
    """The normalised SQL form of value ``v`` of type ``t``."""
    if isinstance(t, TNamed) and is_recursive(t, env):
        return encode(v, env)
    if wide_ints.is_pair(t, env):
        return wide_ints.encode(v)
    if wide_ints.is_wide(t):  # NARROW: a DECIMAL(38,0), or the run goes WIDE
        return wide_ints.narrow(v)
    if isinstance(t, (TBool, TString, TBit, TSigned, TBigInt)):
        return v
    if isinstance(t, (TFloat, TDouble)):
        return float(v)
    if isinstance(t, TNamed) and (t.name == VEC or t.name in SET_KINDS):
        return [to_sql(t.args[0], x, env) for x in v]
    if isinstance(t, TNamed) and t.name == MAP:
        return [(to_sql(t.args[0], k, env), to_sql(t.args[1], x, env)) for k, x in v]
    if isinstance(t, TNamed) and t.name in TRANSPARENT:
        return to_sql(t.args[0], v, env)
    if extern_storage(t) is not None:  # as its plain type (a Vec's elements too)
        stored = extern_storage(t)
        return stored.to_sql(v) if stored.hex_digits else to_sql(stored.type, v, env)
    if isinstance(t, TNamed) and t.name == GROUP:
        return (to_sql(t.args[0], v.key, env), [to_sql(t.args[1], x, env) for x in v.items])
    slots = struct_slots(t, env)
    if slots is None:
        return True
    if isinstance(t, TTuple):
        return tuple(to_sql(s.type, x, env) for s, x in zip(slots, v))
    ctors = env.ctors(t)
    index = [c.name for c in ctors].index(v.ctor)
    given = dict(zip([n for n, _ in ctors[index].fields], v.fields))
    out = []
    for s in slots:
        if s.ctor is None:
            out.append(index)
        elif s.ctor == v.ctor:
            out.append(to_sql(s.type, given[s.field], env))
        else:
            out.append(to_sql(s.type, default_value(s.type, env), env))
    return tuple(out)


def from_sql(t: Type, v, env: TypeEnv):
    """The runtime value of type ``t`` stored as normalised SQL value ``v``."""
    if v is None and isinstance(t, (TFloat, TDouble)):
        return math.nan  # DuckDB's Python UDFs hand NaN over as NULL
    if v is None:
        raise RuntimeFailure(f"unexpected NULL for a value of type `{t}`")
    if isinstance(t, TNamed) and is_recursive(t, env):
        return decode(v)
    if isinstance(t, (TBool, TString)):
        return v
    if wide_ints.is_pair(t, env):
        return wide_ints.decode(*v)
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return int(v)
    if isinstance(t, (TFloat, TDouble)):
        return float(v)
    if isinstance(t, TNamed) and t.name == VEC:
        return tuple(from_sql(t.args[0], x, env) for x in v)
    if isinstance(t, TNamed) and t.name in SET_KINDS:
        return tuple(from_sql(t.args[0], x, env) for x in v)
    if isinstance(t, TNamed) and t.name == MAP:
        return tuple((from_sql(t.args[0], k, env), from_sql(t.args[1], x, env)) for k, x in v)
    if isinstance(t, TNamed) and t.name in TRANSPARENT:
        return from_sql(t.args[0], v, env)
    if extern_storage(t) is not None:
        stored = extern_storage(t)
        return stored.from_sql(v) if stored.hex_digits else from_sql(stored.type, v, env)
    if isinstance(t, TNamed) and t.name == GROUP:
        key, items = v
        return GroupValue(from_sql(t.args[0], key, env),
                          tuple(from_sql(t.args[1], x, env) for x in items))
    slots = struct_slots(t, env)
    if isinstance(t, TTuple):
        if slots is None:
            return ()
        return tuple(from_sql(s.type, x, env) for s, x in zip(slots, v))
    ctors = env.ctors(t)
    if slots is None:
        return Record(ctors[0].name, ())
    values = dict(zip([s.name for s in slots], v))
    if len(ctors) == 1:
        ctor = ctors[0]
    else:
        ctor = ctors[int(values["tag"])]
    fields = []
    for s in slots:
        if s.ctor == ctor.name:
            fields.append(from_sql(s.type, values[s.name], env))
    return Record(ctor.name, tuple(fields))


def record_to_row(layout: "RelationLayout", v, env: TypeEnv) -> tuple:
    """The table row storing record ``v`` of a relation."""
    if layout.flat_ctor is None:
        return (to_sql(layout.record_type, v, env),)
    if layout.unit:
        return (True,)
    return tuple(to_sql(t, x, env) for (_, t), x in zip(layout.columns, v.fields))


def row_to_record(layout: "RelationLayout", row: tuple, env: TypeEnv):
    """The record value stored in table row ``row``."""
    if layout.flat_ctor is None:
        return from_sql(layout.record_type, row[0], env)
    if layout.unit:
        return Record(layout.flat_ctor, ())
    return Record(layout.flat_ctor, tuple(from_sql(t, x, env)
                                          for (_, t), x in zip(layout.columns, row)))
