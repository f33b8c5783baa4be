"""Native SQL for the std functions of ``Group<K, V>`` values.

A group is stored as ``STRUCT<key, vals ARRAY<V>>`` with ``vals`` sorted ascending
(see :func:`dl2sql.sqlgen.blocks.group_select`), and SQL orders the value
representation as DDlog orders the values; so the smallest element is the first and
the largest the last. Everything else on groups runs in the interpreter.
"""
from __future__ import annotations

from typing import Callable, Optional

from sqlglot import exp

from dl2sql.sqlgen.trees import dot
from dl2sql.sqlgen.types import sql_type
from dl2sql.types.model import GROUP, TNamed
from dl2sql.types.storage import has_own_order


def _vals(ec, g: exp.Expression) -> exp.Expression:
    return dot(g, "vals")


def _element(index: int):
    def build(ec, g):
        return ec.dialect.groups.element(_vals(ec, g), exp.Literal.number(index))
    return build


def _size(ec, g):
    return ec.dialect.groups.size(_vals(ec, g))


_GROUP_NATIVE: dict[str, Callable] = {
    "key": lambda ec, g: dot(g, "key"),
    "group_key": lambda ec, g: dot(g, "key"),
    "count_distinct": _size,
    "group_count_distinct": _size,
    "first": _element(1),
    "group_first": _element(1),
    "min": _element(1),
    "group_min": _element(1),
    "max": _element(-1),
    "group_max": _element(-1),
    "to_vec": _vals,
    "group_to_vec": _vals,
    "to_set": lambda ec, g: ec.dialect.groups.sorted_distinct(_vals(ec, g)),
    "group_to_set": lambda ec, g: ec.dialect.groups.sorted_distinct(_vals(ec, g)),
}
_SORTING = ("to_set", "group_to_set")


def group_native(ec, call, args: list[exp.Expression]) -> Optional[exp.Expression]:
    """Native SQL for a one-argument std call on a group, or None."""
    if len(args) != 1:
        return None
    t = call.args[0].type
    if not (isinstance(t, TNamed) and t.name == GROUP):
        return None
    module, _, name = call.func.split("#", 1)[0].rpartition("::")
    if module != "ddlog_std" or name not in _GROUP_NATIVE:
        return None
    if name in _SORTING and has_own_order(t.args[1], ec.env):
        return None  # sorted in DDlog's order by the interpreter
    out = _GROUP_NATIVE[name](ec, args[0])
    if name.endswith("count_distinct"):  # usize: stored as the type says
        out = exp.Cast(this=out, to=sql_type(call.type, ec.env))
    return out
