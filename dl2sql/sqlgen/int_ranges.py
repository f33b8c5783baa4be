"""The range of values an integer expression can take, for the wrap-arounds that can
never happen: a cast to a type that holds every value of its operand (``x as u64`` of a
``u32``) and a sum, difference or product that stays inside its type (``(q as u64) *
(p as u64)`` of two ``u32``) are exact, so their SQL needs no mask, no remainders and
no 64-bit product split (:mod:`dl2sql.sqlgen.int_wrap`, :mod:`dl2sql.sqlgen.exprs`).

A range here is an interval of Python integers. An expression whose range is not known
better has its type's range: a column, a call, a wrapped operation."""
from __future__ import annotations

from typing import Optional

from dl2sql.types import typed as T
from dl2sql.types.model import TBit, TSigned, Type

Range = tuple[int, int]


def type_range(t: Type) -> Optional[Range]:
    """The values of ``bit<N>`` or ``signed<N>`` (N at most 64; wider ones are wide
    integers, :mod:`dl2sql.types.wide_ints`), else None."""
    if isinstance(t, TBit) and t.width <= 64:
        return 0, 2 ** t.width - 1
    if isinstance(t, TSigned) and t.width <= 64:
        return -2 ** (t.width - 1), 2 ** (t.width - 1) - 1
    return None


def within(r: Optional[Range], t: Type) -> bool:
    """Whether every value of range ``r`` is a value of type ``t``."""
    bounds = type_range(t)
    return r is not None and bounds is not None and bounds[0] <= r[0] and r[1] <= bounds[1]


def exact_range(e: T.TBin) -> Optional[Range]:
    """The range of ``+``, ``-`` or ``*`` of ``e``'s operands before any wrap-around
    (None where an operand's range is not known)."""
    a, b = value_range(e.left), value_range(e.right)
    if a is None or b is None:
        return None
    if e.op == "+":
        return a[0] + b[0], a[1] + b[1]
    if e.op == "-":
        return a[0] - b[1], a[1] - b[0]
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


def value_range(e) -> Optional[Range]:
    """The values integer expression ``e`` can take (its type's range unless known
    narrower), None where ``e`` is not an integer of at most 64 bits."""
    bounds = type_range(e.type)
    if bounds is None:
        return None
    if isinstance(e, T.TConst) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return (e.value, e.value) if within((e.value, e.value), e.type) else bounds
    if isinstance(e, T.TCast):
        inner = value_range(e.expr)
        return inner if within(inner, e.type) else bounds
    if isinstance(e, T.TBin) and e.op in ("+", "-", "*"):
        exact = exact_range(e)
        return exact if within(exact, e.type) else bounds
    return bounds
