"""Python implementations of the extern functions of DDlog's ``vec``, ``set`` and
``map`` library modules (the rest of those modules is DDlog code dl2sql inlines or
interprets)."""
from __future__ import annotations

from typing import Callable

from dl2sql.runtime.values import Record
from dl2sql.runtime.order import sort_key
from dl2sql.udfs.std_base import Ctx, Mut, typed


def _key(ctx: Ctx, f: Callable) -> Callable:
    t = ctx.targs[1]
    return lambda x: sort_key(t, f(x), ctx.env)


def _option(found: bool, x=None) -> Record:
    return Record("ddlog_std::Some", (x,)) if found else Record("ddlog_std::None", ())


@typed
def sort_by(ctx: Ctx, v: tuple, f: Callable) -> Mut:
    """Sort a Vec by the key ``f`` (Rust's unstable sort; ties keep their order here)."""
    return Mut((), {0: tuple(sorted(v, key=_key(ctx, f)))})


def _arg_best(ctx: Ctx, xs: tuple, f: Callable, better: Callable) -> Record:
    if not xs:
        return _option(False)
    key = _key(ctx, f)
    best = xs[0]
    for x in xs[1:]:
        if better(key(x), key(best)):
            best = x
    return _option(True, best)


@typed
def arg_min(ctx: Ctx, xs: tuple, f: Callable) -> Record:
    """The first element with the smallest key (Rust's ``min_by_key``)."""
    return _arg_best(ctx, xs, f, lambda a, b: a < b)


@typed
def arg_max(ctx: Ctx, xs: tuple, f: Callable) -> Record:
    """The last element with the largest key (Rust's ``max_by_key``)."""
    return _arg_best(ctx, xs, f, lambda a, b: a >= b)


def map_in_place(m: tuple, f: Callable) -> Mut:
    """Apply ``f(k, mut v)`` to every entry; keys (and so the order) do not change."""
    out = []
    for k, v in m:
        r = f(k, v)
        out.append((k, r.updates.get(1, v) if isinstance(r, Mut) else v))
    return Mut((), {0: tuple(out)})


LIBRARY_COLLECTIONS: dict[str, Callable] = {
    "vec::vec_sort_by": sort_by,
    "vec::vec_arg_min": arg_min,
    "vec::vec_arg_max": arg_max,
    "set::set_arg_min": arg_min,
    "set::set_arg_max": arg_max,
    "map::map_map_in_place": map_in_place,
}
