"""Groups that are only counted or summarized: ``var n = x.group_by(k).count_distinct()``,
``var g = x.group_by(k), var n = g.count_distinct(), var m = g.max()``.

A group whose every use is ``count_distinct(g)`` (DDlog's number of elements of the
group: its rows, one per body valuation) needs none of its values: the aggregation
(:mod:`dl2sql.passes.aggregation`) then stores the count itself, ``COUNT(*)``, instead
of the sorted list of every value. Evaluating it reads no value, and incremental
maintenance adds and subtracts the rows a transaction adds to and removes from each
group (:mod:`dl2sql.incremental.build`), instead of making the touched groups again.

Likewise a group whose every use is its count, its ``min``/``first`` or its ``max``
(or an ``arg_min``/``arg_max`` that is one of those, :func:`extremum`;
:func:`summarized`) stores only those, ``(COUNT(*), MIN(v), MAX(v))`` as a tuple, where
SQL orders the values' stored form as DDlog orders the values (integers of at most 64
bits, booleans, strings, tuples of them): no list of the group's values is built when
it is evaluated (a group of 30,000 rows in the incremental suite's star join), nor
compared when its touched keys are made again in a transaction. Not inside recursion,
whose ``min``/``max`` groups the lattice loop recognizes in their list form
(:mod:`dl2sql.plan.lattice`).
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from dl2sql.types import typed as T
from dl2sql.types.model import TBit, TBool, TSigned, TString, TTuple, TypeEnv
from dl2sql.types.storage import has_own_order

COUNTS = ("ddlog_std::count_distinct", "ddlog_std::group_count_distinct")
# the parts of a summary, in the order of its tuple, and the std functions giving each
SUMMARY_PARTS = ("count", "min", "max")
_SUMMARIES = {"count_distinct": "count", "first": "min"}
_EXTREMA = {"min": "min", "max": "max"}


def counted_only(rule: T.CoreRule, group: str) -> Optional[tuple[T.CoreRule, object]]:
    """``rule`` (the clauses after a ``group_by`` that binds ``group``, and its heads)
    with every ``count_distinct(group)`` replaced by the variable ``group`` holding the
    count, and the count's type; None when ``group`` has any other use."""
    found: list = []
    rewritten = _replace(rule, group, found)
    if not found or _mentions(rewritten, group, found[0]):
        return None
    return rewritten, found[0]


def _is_count(e, group: str) -> bool:
    return (isinstance(e, T.TCall) and e.func.split("#", 1)[0] in COUNTS
            and len(e.args) == 1 and isinstance(e.args[0], T.TVarRef)
            and e.args[0].name == group)


def _replace(e, group: str, found: list, instead=None):
    """``e`` with every ``count_distinct(group)`` replaced by the variable (its type
    appended to ``found``), or where ``instead`` is given, every expression for which
    it answers something by that."""
    if instead is not None:
        new = instead(e)
        if new is not None:
            return new
    elif _is_count(e, group):
        found.append(e.type)
        return T.TVarRef(e.type, group)
    if isinstance(e, tuple):
        return tuple(_replace(x, group, found, instead) for x in e)
    if dataclasses.is_dataclass(e) and e.__class__.__module__ == T.__name__:
        return dataclasses.replace(e, **{f.name: _replace(getattr(e, f.name), group, found,
                                                          instead)
                                         for f in dataclasses.fields(e) if f.name != "type"})
    return e


def _mentions(e, group: str, count_type) -> bool:
    """Whether ``group`` is used other than as the count (a variable of the group's
    type, or any binding or capture of the name)."""
    if isinstance(e, T.TVarRef):
        return e.name == group and e.type != count_type
    if isinstance(e, tuple):
        return any(_mentions(x, group, count_type) for x in e)
    if dataclasses.is_dataclass(e) and e.__class__.__module__ == T.__name__:
        return any(_mentions(getattr(e, f.name), group, count_type)
                   for f in dataclasses.fields(e) if f.name != "type")
    return False


def summarized(rule: T.CoreRule, group: str, group_type, env: TypeEnv
               ) -> Optional[tuple[T.CoreRule, TTuple, tuple[str, ...]]]:
    """``rule`` with every ``count_distinct(group)``, ``min(group)``,
    ``first(group)`` and ``max(group)`` replaced by a field of the variable ``group``,
    now the tuple of those parts; the tuple's type and its parts (in
    :data:`SUMMARY_PARTS` order); None when ``group`` has any other use, no ``min`` or
    ``max``, or values SQL does not order as DDlog does."""
    value = group_type.args[1]
    calls: dict[str, object] = {}
    _replace(rule, group, [], lambda e: _summary_part(e, group, calls))
    parts = tuple(p for p in SUMMARY_PARTS if p in calls)
    if parts in ((), ("count",)) or not _sql_ordered(value, env):
        return None
    summary = TTuple(tuple(calls[p] for p in parts))

    def field(e):
        part = _summary_part(e, group, {})
        return None if part is None else T.TTupleGet(
            e.type, T.TVarRef(summary, group), parts.index(part))
    rewritten = _replace(rule, group, [], field)
    return None if _mentions(rewritten, group, summary) else (rewritten, summary, parts)


def _summary_part(e, group: str, calls: dict) -> Optional[str]:
    """The part of a summary that ``e`` is when it is a summarizing call on ``group``
    (recorded in ``calls`` with its type)."""
    if not (isinstance(e, T.TCall) and e.args and isinstance(e.args[0], T.TVarRef)
            and e.args[0].name == group):
        return None
    module, _, name = e.func.split("#", 1)[0].rpartition("::")
    part = extremum(e) or (_SUMMARIES.get(name.removeprefix("group_"))
                           if module == "ddlog_std" and len(e.args) == 1 else None)
    if part is not None:
        calls.setdefault(part, e.type)
    return part


def extremum(e) -> Optional[str]:
    """"min" or "max" when ``e`` is a call that yields the least or the greatest element
    of the group it is given first: ``min(g)``, ``max(g)``, and ``arg_min(g, f)`` or
    ``arg_max(g, f)`` where they are those. DDlog's ``arg_min`` keeps the first element
    with the least ``f`` in the group's (ascending) order, so with ``f`` the identity or,
    for a group of tuples, the tuple's first field (``|x| x.0``), it is the least
    element; ``arg_max`` keeps the first with the greatest ``f``, the greatest element
    only where ``f`` is the identity (with ``|x| x.0`` it is the least of the tuples
    whose first field is greatest)."""
    if not (isinstance(e, T.TCall) and e.args):
        return None
    module, _, name = e.func.split("#", 1)[0].rpartition("::")
    if module == "ddlog_std" and len(e.args) == 1:
        return _EXTREMA.get(name.removeprefix("group_"))
    f = e.args[1] if len(e.args) == 2 else None
    if module != "group" or name not in ("arg_min", "arg_max") or \
            not (isinstance(f, T.TClosure) and len(f.params) == 1):
        return None
    x, body = f.params[0][0], f.body
    if isinstance(body, T.TVarRef) and body.name == x:
        return name.removeprefix("arg_")
    if name == "arg_min" and isinstance(body, T.TTupleGet) and body.index == 0 and \
            isinstance(body.expr, T.TVarRef) and body.expr.name == x:
        return "min"
    return None


def _sql_ordered(t, env: TypeEnv) -> bool:
    """Whether SQL's ``MIN``/``MAX`` of ``t``'s stored form are DDlog's."""
    if isinstance(t, TTuple):
        return all(_sql_ordered(e, env) for e in t.elems)
    if isinstance(t, (TBit, TSigned)):
        return t.width <= 64
    return isinstance(t, (TBool, TString)) and not has_own_order(t, env)
