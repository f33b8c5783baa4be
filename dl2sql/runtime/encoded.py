"""A canonical text form of runtime values, for types SQL has no type for.

Values of self-referencing types (linked lists and trees built through ``Ref``) are
stored in one STRING column. Equal values have equal text, so set semantics, joins
and DISTINCT work on it; only the interpreter looks inside.
"""
from __future__ import annotations

import json

from dl2sql.runtime.values import GroupValue, Record


def encode(v) -> str:
    """The canonical text of runtime value ``v``."""
    return json.dumps(_plain(v), separators=(",", ":"), ensure_ascii=False,
                      allow_nan=True)


def decode(text: str):
    """The runtime value whose canonical text is ``text``."""
    return _value(json.loads(text))


def _plain(v):
    if isinstance(v, Record):
        return {"c": v.ctor, "f": [_plain(x) for x in v.fields]}
    if isinstance(v, GroupValue):
        return {"g": _plain(v.key), "i": [_plain(x) for x in v.items]}
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def _value(p):
    if isinstance(p, dict) and "c" in p:
        return Record(p["c"], tuple(_value(x) for x in p["f"]))
    if isinstance(p, dict):
        return GroupValue(_value(p["g"]), tuple(_value(x) for x in p["i"]))
    if isinstance(p, list):
        return tuple(_value(x) for x in p)
    return p
