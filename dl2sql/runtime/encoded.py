"""A canonical text form of runtime values, for types SQL has no type for.

Values of self-referencing types (linked lists and trees built through ``Ref``) and
``Any`` values (any type, so no one SQL type) are stored in one STRING column. Equal
values have equal text, so set semantics, joins and DISTINCT work on it; only the
interpreter looks inside. An ``Any`` carries its value's type in the text, as
``{"y": TYPE, "v": VALUE}``; an ``Any`` stored by itself starts with its DDlog sort key
as ordered text (:mod:`dl2sql.runtime.ordered_text`), so that SQL orders such columns,
and arrays of them, as DDlog does.
"""
from __future__ import annotations

import json

from dl2sql.runtime.values import AnyValue, GroupValue, Record
from dl2sql.runtime.order import sort_key
from dl2sql.runtime.ordered_text import ordered_text, skip
from dl2sql.types.model import (ANY, TBigInt, TBit, TBool, TDouble, TFloat, TNamed, TSigned,
                                TString, TTuple, Type, TypeEnv)

# the types without parameters, by the name their text uses
_SIMPLE = {"bool": TBool(), "string": TString(), "bigint": TBigInt(), "float": TFloat(),
           "double": TDouble()}


def encode(v, env: TypeEnv | None = None) -> str:
    """The canonical text of runtime value ``v``; an ``Any`` value is prefixed with
    its ordered sort key (which needs ``env``)."""
    if isinstance(v, AnyValue) and env is not None:
        return ordered_text(sort_key(TNamed(ANY), v, env)) + encode(v)
    return json.dumps(_plain(v), separators=(",", ":"), ensure_ascii=False,
                      allow_nan=True)


def decode(text: str):
    """The runtime value whose canonical text is ``text``."""
    if text.startswith("("):  # an Any after its ordered key
        text = text[skip(text):]
    return _value(json.loads(text))


def _plain(v):
    if isinstance(v, AnyValue):
        return {"y": _plain_type(v.type), "v": _plain(v.value)}
    if isinstance(v, Record):
        return {"c": v.ctor, "f": [_plain(x) for x in v.fields]}
    if isinstance(v, GroupValue):
        return {"g": _plain(v.key), "i": [_plain(x) for x in v.items]}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _value(p):
    if isinstance(p, dict) and "y" in p:
        return AnyValue(_type(p["y"]), _value(p["v"]))
    if isinstance(p, dict) and "c" in p:
        return Record(p["c"], tuple(_value(x) for x in p["f"]))
    if isinstance(p, dict):
        return GroupValue(_value(p["g"]), tuple(_value(x) for x in p["i"]))
    if isinstance(p, list):
        return tuple(_value(x) for x in p)
    return p


def _plain_type(t: Type):
    """Type ``t`` as JSON data: a name, ``{"b"|"s": width}``, ``{"t": [elems]}`` or
    ``{"n": name, "a": [args]}``."""
    if isinstance(t, TBit):
        return {"b": t.width}
    if isinstance(t, TSigned):
        return {"s": t.width}
    if isinstance(t, TTuple):
        return {"t": [_plain_type(e) for e in t.elems]}
    if isinstance(t, TNamed):
        return {"n": t.name, "a": [_plain_type(a) for a in t.args]}
    return str(t)  # bool, string, bigint, float, double (a value's type has no variables)


def _type(p) -> Type:
    if isinstance(p, str):
        return _SIMPLE[p]
    if "b" in p:
        return TBit(p["b"])
    if "s" in p:
        return TSigned(p["s"])
    if "t" in p:
        return TTuple(tuple(_type(e) for e in p["t"]))
    return TNamed(p["n"], tuple(_type(a) for a in p["a"]))
