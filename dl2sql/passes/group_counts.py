"""Groups that are only counted: ``var n = x.group_by(k).count_distinct()``.

A group whose every use is ``count_distinct(g)`` (DDlog's number of elements of the
group: its rows, one per body valuation) needs none of its values: the aggregation
(:mod:`dl2sql.passes.aggregation`) then stores the count itself, ``COUNT(*)``, instead
of the sorted list of every value. Evaluating it reads no value, and incremental
maintenance adds and subtracts the rows a transaction adds to and removes from each
group (:mod:`dl2sql.incremental.build`), instead of making the touched groups again.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from dl2sql.types import typed as T

COUNTS = ("ddlog_std::count_distinct", "ddlog_std::group_count_distinct")


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


def _replace(e, group: str, found: list):
    if _is_count(e, group):
        found.append(e.type)
        return T.TVarRef(e.type, group)
    if isinstance(e, tuple):
        return tuple(_replace(x, group, found) for x in e)
    if dataclasses.is_dataclass(e) and e.__class__.__module__ == T.__name__:
        return dataclasses.replace(e, **{f.name: _replace(getattr(e, f.name), group, found)
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
