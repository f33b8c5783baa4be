"""DDlog values as JSON trees (:mod:`dl2sql.udfs.json_text`), by their type, as the
serde ``Serialize`` implementations of DDlog's generated Rust code write them (the
encoding is described in :mod:`dl2sql.udfs.lib_json`)."""
from __future__ import annotations

from dl2sql.runtime.ops import to_string
from dl2sql.types.model import (MAP, OPTION, SET_KINDS, VEC, TBigInt, TBit, TBool, TDouble,
                                TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv,
                                unwrapped)
from dl2sql.udfs.json_text import Float, Obj
from dl2sql.udfs.json_value import jvalue_node, node_tree

JSON_VALUE, JSON_WRAPPER = "json::JsonValue", "json::JsonWrapper"


class SerError(Exception):
    """A serialization failure with serde_json's message."""


def attrs(env: TypeEnv, t: TNamed) -> dict[str, str]:
    """The serde attributes of named type ``t`` (see :mod:`dl2sql.types.serde_attrs`)."""
    return dict(env.defs[t.name].serde)


def field_name(a: dict, ctor: str, field: str) -> str:
    """The JSON name of ``field`` of constructor ``ctor`` (short name)."""
    return a.get(f"rename:{ctor}.{field}", field)


def is_struct(env: TypeEnv, t: TNamed) -> bool:
    """A type DDlog emits as a Rust struct: exactly one constructor."""
    return len(env.defs[t.name].ctors) == 1


def to_tree(env: TypeEnv, t: Type, v):
    """The JSON tree of value ``v`` of type ``t`` (raises :class:`SerError`)."""
    t = unwrapped(t)
    if isinstance(t, (TBool, TString)):
        return v
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return int(v)
    if isinstance(t, TFloat):
        return Float(v, True)
    if isinstance(t, TDouble):
        return Float(v)
    if isinstance(t, TTuple):
        if not t.elems:
            return None
        return [to_tree(env, et, x) for et, x in zip(t.elems, v)]
    if t.name == VEC or t.name in SET_KINDS:  # sets in their iteration order
        return [to_tree(env, t.args[0], x) for x in v]
    if t.name == MAP:
        return Obj(tuple((_key(t.args[0], k), to_tree(env, t.args[1], x)) for k, x in v))
    if t.name == OPTION:
        return None if v.ctor.endswith("None") else to_tree(env, t.args[0], v.fields[0])
    if t.name == JSON_VALUE:
        return node_tree(jvalue_node(v))
    if t.name == JSON_WRAPPER:
        return to_tree(env, t.args[0], v.fields[0])
    if t.name == "uuid::Uuid":  # DDlog's binding writes a Uuid as its u128
        return int(v)
    if t.name == "url::Url":  # DDlog's Url is a struct whose field `url` is the text
        return Obj((("url", v),))
    if env.defs[t.name].extern:
        raise SerError(f"values of the extern type `{t.name}` have no JSON form")
    return _record(env, t, v)


def _key(kt: Type, k) -> str:
    """A map key as serde_json writes it: strings as is, integers as their digits."""
    kt = unwrapped(kt)
    if isinstance(kt, TString):
        return k
    if isinstance(kt, (TBit, TSigned, TBigInt)):
        return str(k)
    raise SerError("key must be a string")


def _fields(env: TypeEnv, a: dict, ctor, v) -> list:
    """The object entries of a constructor's fields (flattened ones inlined)."""
    short = ctor.short_name
    out = []
    for (name, ft), x in zip(ctor.fields, v.fields):
        where = f"{short}.{name}"
        if f"flatten:{where}" in a:
            inner = to_tree(env, ft, x)
            if not isinstance(inner, Obj):
                raise SerError("can only flatten structs and maps")
            out.extend(inner.entries)
        elif a.get(f"with:{where}") == "serde_string":
            out.append((field_name(a, short, name), to_string(unwrapped(ft), x)))
        elif f"from_array:{where}" in a:  # the map's values, in key order
            vt = unwrapped(ft).args[1]
            out.append((field_name(a, short, name), [to_tree(env, vt, v) for _, v in x]))
        else:
            out.append((field_name(a, short, name), to_tree(env, ft, x)))
    return out


def _record(env: TypeEnv, t: TNamed, v):
    a = attrs(env, t)
    ctors = env.ctors(t)
    ctor = next(c for c in ctors if c.name == v.ctor)
    if len(ctors) == 1:
        return Obj(tuple(_fields(env, a, ctor, v)))
    name = a.get(f"rename:{ctor.short_name}", ctor.short_name)
    if "tag" in a:
        return Obj(((a["tag"], name),) + tuple(_fields(env, a, ctor, v)))
    if not ctor.fields:
        return name
    return Obj(((name, Obj(tuple(_fields(env, a, ctor, v)))),))
