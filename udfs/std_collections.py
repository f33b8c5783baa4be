"""``ddlog_std`` functions on Vec, Set and Map values (all Python tuples: a Set sorted
ascending without duplicates, a Map of ``(key, value)`` pairs sorted by key), with the
calling convention of :mod:`dl2sql.udfs.std_base`."""
from __future__ import annotations

from dl2sql.runtime.ops import ddlog_equal
from dl2sql.types.model import MAP, SET, TNamed
from dl2sql.runtime.order import normalize, sort_key
from dl2sql.udfs.std_base import NONE, Ctx, Mut, opt_nth, some, typed


def set_of(ctx: Ctx, items) -> tuple:
    """``items`` as a Set of ``targs[0]`` (sorted, deduplicated)."""
    return normalize(TNamed(SET, (ctx.targs[0],)), tuple(items), ctx.env)


def map_of(ctx: Ctx, pairs) -> tuple:
    """``pairs`` as a Map of ``targs[:2]`` (sorted by key, the last binding wins)."""
    return normalize(TNamed(MAP, tuple(ctx.targs[:2])), tuple(pairs), ctx.env)


def member(coll: tuple, x) -> bool:
    """``x`` is in the Vec/Set (DDlog equality: NaN equals NaN)."""
    return any(ddlog_equal(e, x) for e in coll)


# ------------------------------------------------------------------ Vec
def empty() -> tuple:
    """``vec_empty()`` / ``set_empty()`` / ``map_empty()``."""
    return ()


def singleton(x) -> tuple:
    """``vec_singleton(x)`` / ``set_singleton(x)``."""
    return (x,)


def vec_with_capacity(_n: int) -> tuple:
    """An empty Vec (the capacity is not observable)."""
    return ()


def vec_with_length(n: int, x) -> tuple:
    """``n`` copies of ``x``."""
    return (x,) * n


def size(coll: tuple) -> int:
    """Number of elements of a Set or Map."""
    return len(coll)


def is_empty(coll: tuple) -> bool:
    """No elements."""
    return len(coll) == 0


def nth(coll: tuple, i: int):
    """Element ``i`` (a Set's in ascending order) as an Option."""
    return opt_nth(coll, i)


def push(v: tuple, x):
    """``push(mut v, x)``."""
    return Mut((), {0: v + (x,)})


def push_imm(v: tuple, x) -> tuple:
    """``v`` with ``x`` appended."""
    return v + (x,)


def pop(v: tuple):
    """``pop(mut v)``: the last element as an Option."""
    if not v:
        return Mut(NONE, {})
    return Mut(some(v[-1]), {0: v[:-1]})


def append(v: tuple, other: tuple):
    """``append(mut v, other)``."""
    return Mut((), {0: v + tuple(other)})


@typed
def sort_imm(ctx: Ctx, v: tuple) -> tuple:
    """Stable ascending sort in DDlog order."""
    t = ctx.targs[0]
    return tuple(sorted(v, key=lambda x: sort_key(t, x, ctx.env)))


@typed
def sort(ctx: Ctx, v: tuple):
    """``sort(mut v)``."""
    return Mut((), {0: sort_imm(ctx, v)})


def reverse_imm(v: tuple) -> tuple:
    """``v`` reversed."""
    return v[::-1]


def resize(v: tuple, n: int, fill):
    """``resize(mut v, n, fill)``."""
    return Mut((), {0: v[:n] + (fill,) * max(0, n - len(v))})


def truncate(v: tuple, n: int):
    """``truncate(mut v, n)``."""
    return Mut((), {0: v[:n]})


def update_nth(v: tuple, i: int, x):
    """``update_nth(mut v, i, x)``: ``false`` and no change when out of range."""
    if i >= len(v):
        return Mut(False, {})
    return Mut(True, {0: v[:i] + (x,) + v[i + 1:]})


def swap_nth(v: tuple, i: int, x):
    """``swap_nth(mut v, i, mut x)``: exchanges ``v[i]`` and ``x``."""
    if i >= len(v):
        return Mut(False, {})
    return Mut(True, {0: v[:i] + (x,) + v[i + 1:], 2: v[i]})


def zip_(a: tuple, b: tuple) -> tuple:
    """Pairs of elements, stopping at the shorter Vec."""
    return tuple(zip(a, b))


def unzip(v: tuple) -> tuple:
    """A Vec of pairs as a pair of Vecs."""
    return tuple(a for a, _ in v), tuple(b for _, b in v)


@typed
def to_map(ctx: Ctx, v: tuple) -> tuple:
    """A Vec of ``(k, v)`` pairs as a Map (the last binding of a key wins)."""
    return map_of(ctx, v)


# ------------------------------------------------------------------ Set
@typed
def insert_imm(ctx: Ctx, coll: tuple, *item):
    """A Set with ``x`` added, or a Map with ``k`` bound to ``v`` (overwriting)."""
    if len(item) == 1:
        return set_of(ctx, coll + item)
    return map_of(ctx, coll + (item,))


@typed
def insert(ctx: Ctx, coll: tuple, *item):
    """``insert(mut s, x)`` on a Set, ``insert(mut m, k, v)`` on a Map."""
    return Mut((), {0: insert_imm(ctx, coll, *item)})


@typed
def union(ctx: Ctx, *args):
    """Set union; union of a Vec of Sets; Map union (the second map wins)."""
    if len(args) == 1:
        return set_of(ctx, (x for s in args[0] for x in s))
    if len(ctx.targs) == 2:  # only the Map overload has two type parameters
        return map_of(ctx, args[0] + args[1])
    return set_of(ctx, args[0] + args[1])


@typed
def unions(ctx: Ctx, sets: tuple):
    """Union of a Vec of Sets."""
    return union(ctx, sets)


def intersection(a: tuple, b: tuple) -> tuple:
    """Elements of Set ``a`` also in ``b``."""
    return tuple(x for x in a if member(b, x))


def difference(a: tuple, b: tuple) -> tuple:
    """Elements of Set ``a`` not in ``b``."""
    return tuple(x for x in a if not member(b, x))


# ------------------------------------------------------------------ Map
def map_singleton(k, v) -> tuple:
    """A Map with one binding."""
    return ((k, v),)


def get(m: tuple, k):
    """The value bound to ``k`` as an Option."""
    for key, v in m:
        if ddlog_equal(key, k):
            return some(v)
    return NONE


def contains_key(m: tuple, k) -> bool:
    """``k`` is bound in ``m``."""
    return any(ddlog_equal(key, k) for key, _ in m)


def remove(m: tuple, k):
    """``remove(mut m, k)``: the removed value as an Option."""
    for i, (key, v) in enumerate(m):
        if ddlog_equal(key, k):
            return Mut(some(v), {0: m[:i] + m[i + 1:]})
    return Mut(NONE, {})


def keys(m: tuple) -> tuple:
    """Keys in ascending order."""
    return tuple(k for k, _ in m)


def values(m: tuple) -> tuple:
    """Values in key order."""
    return tuple(v for _, v in m)


def nth_key(m: tuple, i: int):
    """Key ``i`` in ascending order as an Option."""
    return opt_nth(keys(m), i)


def nth_value(m: tuple, i: int):
    """Value ``i`` in key order as an Option."""
    return opt_nth(values(m), i)


COLLECTIONS = {
    "vec_empty": empty, "vec_singleton": singleton, "vec_with_capacity": vec_with_capacity,
    "vec_with_length": vec_with_length, "is_empty": is_empty, "nth": nth,
    "push": push, "pop": pop, "append": append, "push_imm": push_imm,
    "sort": sort, "sort_imm": sort_imm, "reverse_imm": reverse_imm,
    "resize": resize, "truncate": truncate, "update_nth": update_nth, "swap_nth": swap_nth,
    "zip": zip_, "unzip": unzip, "to_map": to_map,
    "set_empty": empty, "set_singleton": singleton, "size": size,
    "insert": insert, "insert_imm": insert_imm, "union": union, "unions": unions,
    "intersection": intersection, "difference": difference,
    "map_empty": empty, "map_singleton": map_singleton, "get": get,
    "contains_key": contains_key, "remove": remove, "keys": keys, "values": values,
    "nth_key": nth_key, "nth_value": nth_value,
}
