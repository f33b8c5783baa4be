"""Python implementations of the extern functions of DDlog's ``hashset`` and ``tinyset``
library modules, with the semantics of their Rust crates.

Values are tuples in the set's canonical order (:func:`dl2sql.runtime.order.normalize`):
a ``HashSet`` in the ``im`` crate's hash order, a ``Set64`` ascending. ``targs`` carry
the element type, needed to put a new set in that order.
"""
from __future__ import annotations

from typing import Callable

from dl2sql.runtime.ops import ddlog_equal
from dl2sql.runtime.order import normalize
from dl2sql.runtime.values import GroupValue
from dl2sql.types.model import HASHSET, SET64, TNamed, Type
from dl2sql.udfs.lib_collections import arg_max, arg_min
from dl2sql.udfs.std_base import Ctx, Mut, opt_nth, typed
from dl2sql.udfs.std_collections import member


def _builder(kind: str, elem_index: int) -> Callable:
    """A function making a set of ``kind`` whose element type is ``targs[elem_index]``."""
    def build(ctx: Ctx, items) -> tuple:
        elem: Type = ctx.targs[elem_index]
        return normalize(TNamed(kind, (elem,)), tuple(items), ctx.env)
    return build


_hashset, _group_hashset = _builder(HASHSET, 0), _builder(HASHSET, 1)
_set64, _group_set64 = _builder(SET64, 0), _builder(SET64, 1)


def _without(s: tuple, x) -> tuple:
    """``s`` without ``x`` (the others keep their order)."""
    return tuple(e for e in s if not ddlog_equal(e, x))


def _common(a: tuple, b: tuple) -> tuple:
    """The elements of ``a`` also in ``b``."""
    return tuple(e for e in a if member(b, e))


def _only_in_first(a: tuple, b: tuple) -> tuple:
    """The elements of ``a`` not in ``b``."""
    return tuple(e for e in a if not member(b, e))


def _empty() -> tuple:
    """The empty set."""
    return ()


def _size(s: tuple) -> int:
    """The number of elements."""
    return len(s)


def _is_empty(s: tuple) -> bool:
    """Whether there are no elements."""
    return not s


def _nth(s: tuple, n: int):
    """Element ``n`` in iteration order, as an Option."""
    return opt_nth(s, n)


def _to_vec(s: tuple) -> tuple:
    """The elements in iteration order (the canonical order)."""
    return s


def _kind_functions(make: Callable, group_make: Callable) -> dict[str, Callable]:
    """The functions both set kinds share, over ``make`` (a set of ``targs[0]``) and
    ``group_make`` (a set of ``targs[1]``, for functions on groups)."""
    @typed
    def singleton(ctx: Ctx, x) -> tuple:
        """The set of ``x`` alone."""
        return make(ctx, (x,))

    @typed
    def insert(ctx: Ctx, s: tuple, x) -> Mut:
        """``insert(mut s, x)``."""
        return Mut((), {0: make(ctx, s + (x,))})

    @typed
    def insert_imm(ctx: Ctx, s: tuple, x) -> tuple:
        """A copy of ``s`` with ``x``."""
        return make(ctx, s + (x,))

    @typed
    def union(ctx: Ctx, a: tuple, b: tuple) -> tuple:
        """The elements of either set."""
        return make(ctx, a + b)

    @typed
    def unions(ctx: Ctx, sets: tuple) -> tuple:
        """The elements of any set of a Vec."""
        return make(ctx, (x for s in sets for x in s))

    @typed
    def group_unions(ctx: Ctx, g: GroupValue) -> tuple:
        """The elements of any set of a group."""
        return group_make(ctx, (x for s in g.items for x in s))

    @typed
    def intersection(ctx: Ctx, a: tuple, b: tuple) -> tuple:
        """The elements of both sets."""
        return make(ctx, _common(a, b))

    @typed
    def difference(ctx: Ctx, a: tuple, b: tuple) -> tuple:
        """The elements of ``a`` not in ``b``."""
        return make(ctx, _only_in_first(a, b))

    return {"singleton": singleton, "insert": insert, "insert_imm": insert_imm,
            "union": union, "unions": unions, "group_unions": group_unions,
            "intersection": intersection, "difference": difference}


_HS = _kind_functions(_hashset, _group_hashset)
_TS = _kind_functions(_set64, _group_set64)


def hashset_remove(s: tuple, x) -> Mut:
    """``remove(mut s, x)``: removing keeps the others' order (it is the hash order)."""
    return Mut((), {0: _without(s, x)})


def hashset_remove_imm(s: tuple, x) -> tuple:
    """``s`` without ``x``."""
    return _without(s, x)


@typed
def group_to_set64(ctx: Ctx, g: GroupValue) -> tuple:
    """The group's distinct elements as a ``Set64``."""
    return _group_set64(ctx, g.items)


@typed
def group_setref_unions(ctx: Ctx, g: GroupValue) -> tuple:
    """The union of a group of ``Ref<Set64>`` (a reference is its contents here)."""
    return _group_set64(ctx, (x for s in g.items for x in s))


LIBRARY_SETS: dict[str, Callable] = {
    **{f"hashset::{name}": fn for name, fn in {
        "hashset_empty": _empty, "hashset_singleton": _HS["singleton"],
        "hashset_size": _size, "hashset_is_empty": _is_empty,
        "hashset_insert": _HS["insert"], "hashset_insert_imm": _HS["insert_imm"],
        "hashset_remove": hashset_remove, "hashset_remove_imm": hashset_remove_imm,
        "hashset_contains": member, "hashset_nth": _nth, "hashset_to_vec": _to_vec,
        "hashset_union": _HS["union"], "hashset_unions": _HS["unions"],
        "group_hashset_unions": _HS["group_unions"],
        "hashset_intersection": _HS["intersection"],
        "hashset_difference": _HS["difference"],
        "hashset_arg_min": arg_min, "hashset_arg_max": arg_max,
    }.items()},
    **{f"tinyset::{name}": fn for name, fn in {
        "empty": _empty, "singleton": _TS["singleton"], "size": _size,
        "is_empty": _is_empty, "insert": _TS["insert"], "insert_imm": _TS["insert_imm"],
        "contains": member, "nth": _nth, "union": _TS["union"], "unions": _TS["unions"],
        "intersection": _TS["intersection"], "difference": _TS["difference"],
        "group_to_set": group_to_set64, "group_set_unions": _TS["group_unions"],
        "group_setref_unions": group_setref_unions,
    }.items()},
}
