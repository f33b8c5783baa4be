"""Substituting expressions for variables in typed trees (:mod:`dl2sql.types.typed`),
shared by inlining (:mod:`dl2sql.ra.inline`) and by stored closures
(:mod:`dl2sql.passes.function_values`)."""
from __future__ import annotations

import dataclasses

from dl2sql.types import typed as T


def substitute_vars(e, scope: dict):
    """``e`` with every variable of ``scope`` replaced by its value (DDlog forbids
    shadowing, so a name bound inside ``e`` is never one of ``scope``'s)."""
    if isinstance(e, T.TVarRef) and e.name in scope:
        return scope[e.name]
    if isinstance(e, T.TMatch):  # an arm's pattern may rebind a name of the scope
        arms = []
        for p, body in e.arms:
            bound = set(T.pattern_vars(p))
            arms.append((p, substitute_vars(body, {k: v for k, v in scope.items()
                                                   if k not in bound})))
        return T.TMatch(e.type, substitute_vars(e.scrutinee, scope), tuple(arms))
    if isinstance(e, T.TClosure):
        params = dict(e.params)
        return T.TClosure(e.type, e.params, substitute_vars(
            e.body, {k: v for k, v in scope.items() if k not in params}))
    if isinstance(e, tuple):
        return tuple(substitute_vars(x, scope) for x in e)
    if dataclasses.is_dataclass(e) and e.__class__.__module__ == T.__name__:
        return dataclasses.replace(e, **{f.name: substitute_vars(getattr(e, f.name), scope)
                                         for f in dataclasses.fields(e) if f.name != "type"})
    return e
