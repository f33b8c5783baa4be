"""Python implementations of the std functions on ``Group<K, V>`` values
(:class:`dl2sql.runtime.values.GroupValue`), for the interpreter and the UDFs built on it.

Group functions share names with Vec/Set/scalar builtins (``min``, ``to_set``,
``union``...); :func:`with_groups` merges them into the STD table so that a call
dispatches on whether its first argument is a group.
"""
from __future__ import annotations

from typing import Callable

from dl2sql.runtime.ops import ddlog_equal
from dl2sql.runtime.ops import wrap
from dl2sql.runtime.order import normalize
from dl2sql.runtime.values import GroupValue, Record
from dl2sql.types.model import MAP, SET, TNamed
from dl2sql.udfs.std_base import Ctx, typed


def _set(ctx: Ctx, elem, items) -> tuple:
    return normalize(TNamed(SET, (elem,)), tuple(items), ctx.env)


def _some(x) -> Record:
    return Record("ddlog_std::Some", (x,))


def _none() -> Record:
    return Record("ddlog_std::None", ())


def _nth(g: GroupValue, n: int) -> Record:
    return _some(g.items[n]) if 0 <= n < len(g.items) else _none()


def _to_map(ctx: Ctx, g: GroupValue) -> tuple:
    # later elements overwrite earlier ones: the largest value per key wins
    return normalize(TNamed(MAP, tuple(ctx.targs[1:3])), g.items, ctx.env)


def _to_setmap(ctx: Ctx, g: GroupValue) -> tuple:
    # items are sorted, so the values of one key are adjacent
    k2, v = ctx.targs[1], ctx.targs[2]
    pairs: list = []
    for key, value in g.items:
        if pairs and ddlog_equal(pairs[-1][0], key):
            pairs[-1][1].append(value)
        else:
            pairs.append((key, [value]))
    return tuple((key, _set(ctx, v, values)) for key, values in pairs)


def _union(ctx: Ctx, g: GroupValue) -> tuple:
    return _set(ctx, ctx.targs[1], (x for s in g.items for x in s))


def _unzip(ctx: Ctx, g: GroupValue) -> tuple:
    return tuple(x for x, _ in g.items), tuple(y for _, y in g.items)


def _sum_of(ctx: Ctx, g: GroupValue, f) -> object:
    """``group::sum_of``: the sum of ``f`` over the elements, wrapped to its type."""
    total = sum(f(x) for x in g.items)
    t = ctx.targs[-1]
    return total if isinstance(total, float) else wrap(t, total)


GROUP_FUNCTIONS: dict[str, Callable] = {
    "key": lambda ctx, g: g.key,
    "count_distinct": lambda ctx, g: len(g.items),
    "first": lambda ctx, g: g.items[0],
    "nth": lambda ctx, g, n: _nth(g, n),
    "min": lambda ctx, g: g.items[0],   # items are kept in ascending order
    "max": lambda ctx, g: g.items[-1],
    "to_vec": lambda ctx, g: tuple(g.items),
    "to_set": lambda ctx, g: _set(ctx, ctx.targs[1], g.items),
    "to_map": _to_map,
    "to_setmap": _to_setmap,
    "union": _union,
    "setref_unions": _union,
    "set_unions": _union,
    "group_unzip": _unzip,
}
GROUP_FUNCTIONS.update({f"group_{n}": f for n, f in list(GROUP_FUNCTIONS.items())
                        if not n.startswith("group_")})


MODULE_FUNCTIONS: dict[str, Callable] = {"group::sum_of": typed(_sum_of)}


def with_groups(std: dict[str, Callable], prefix: str) -> None:
    """Add the group functions to ``std`` (qualified with ``prefix``), dispatching
    names that other builtins already use on the type of the first argument."""
    for name, group_fn in GROUP_FUNCTIONS.items():
        key = prefix + name
        other = std.get(key)
        std[key] = typed(_dispatch(group_fn, other))
    std.update(MODULE_FUNCTIONS)


def _dispatch(group_fn: Callable, other: Callable | None) -> Callable:
    def call(ctx: Ctx, *args):
        if args and isinstance(args[0], GroupValue):
            return group_fn(ctx, *args)
        if other is None:
            raise TypeError("a group function called without a group")
        return other(ctx, *args) if getattr(other, "typed", False) else other(*args)
    call.__doc__ = getattr(group_fn, "__doc__", None) or "A group function."
    return call
