"""Aggregation clauses: ``var g = e.group_by(k)``, group_by inside a larger expression,
and the legacy ``Aggregate((k), f(e))``.

A clause holding a ``group_by`` becomes a :class:`~dl2sql.types.typed.CGroup` (binding
the group) followed, when the group is only part of the clause, by the rest of the
clause over a hidden variable holding the group.
"""
from __future__ import annotations

import dataclasses
from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.types import typed as T
from dl2sql.types.model import GROUP, TNamed, TTuple, Type


def find_aggregation(e) -> Optional[A.Expr]:
    """The first ``x.group_by(k)`` or ``Aggregate(k, f(x))`` inside AST ``e``."""
    if isinstance(e, A.EDotCall) and e.func == "group_by":
        return e
    if isinstance(e, A.ECall) and e.func == "Aggregate":
        return e
    if isinstance(e, A.EClosure):
        return None  # a closure body is evaluated per element, never aggregates rows
    if isinstance(e, tuple):
        for x in e:
            found = find_aggregation(x)
            if found is not None:
                return found
        return None
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        for f in dataclasses.fields(e):
            if f.name != "span":
                found = find_aggregation(getattr(e, f.name))
                if found is not None:
                    return found
    return None


def replace_node(e, target, replacement):
    """``e`` with the node ``target`` (by identity) replaced by ``replacement``."""
    if e is target:
        return replacement
    if isinstance(e, tuple):
        return tuple(replace_node(x, target, replacement) for x in e)
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        changes = {f.name: replace_node(getattr(e, f.name), target, replacement)
                   for f in dataclasses.fields(e) if f.name != "span"}
        return dataclasses.replace(e, **changes)
    return e


class GroupChecks:
    """Mixin of RuleChecker: clauses that aggregate."""

    def group_clauses(self, c: A.ClExpr, agg: A.Expr, scope: dict) -> list[T.Clause]:
        """The typed clauses of a body clause containing aggregation ``agg``."""
        e = c.expr
        out = self._group_clauses(c, agg, scope)
        if out is None:  # bind what the clause declares so that errors do not cascade
            if isinstance(e, A.EAssign):
                pending: dict = {}
                self._bind_silently(e.lhs, scope, pending)
                scope.update(pending)
            return []
        return out

    def _group_clauses(self, c: A.ClExpr, agg: A.Expr, scope: dict):
        e = c.expr
        direct = isinstance(e, A.EAssign) and e.rhs is agg and isinstance(e.lhs, A.EVarDecl)
        if isinstance(agg, A.EDotCall):
            if len(agg.args) != 1:
                self.diags.error(agg.span, "`group_by` takes one argument: the grouping "
                                           "variable or a tuple of variables")
                return None
            proj_ast, key_ast, then = agg.recv, agg.args[0], None
        else:
            call = agg.args[1] if len(agg.args) == 2 else None
            if not isinstance(call, A.ECall) or len(call.args) != 1:
                self.diags.error(agg.span, "`Aggregate` takes the grouping variables and "
                                           "a call of an aggregate function: "
                                           "`Aggregate((k1, k2), f(e))`")
                return None
            proj_ast, key_ast, then, direct = call.args[0], agg.args[0], call.func, False
        keys = self._group_keys(key_ast, scope)
        if keys is None:
            return None
        proj = self.expr(proj_ast, scope)
        key_type: Type = scope[keys[0]] if len(keys) == 1 and not isinstance(
            key_ast, A.ETuple) else TTuple(tuple(scope[k] for k in keys))
        gtype = TNamed(GROUP, (key_type, proj.type))
        if direct:
            name = e.lhs.name
            if e.lhs.type is not None:
                self.inf.unify(self.syms.to_type(e.lhs.type, self.module, self.tparams, self.diags),
                               gtype, e.lhs.span)
        else:
            self._groups = getattr(self, "_groups", 0) + 1
            name = f"__grouped{self._groups}"  # not the helper relation `__groupN`
        kept = {k: scope[k] for k in keys}
        self.hidden_by_group = set(scope) - set(kept)
        scope.clear()
        scope.update(kept)
        scope[name] = gtype
        out: list[T.Clause] = [T.CGroup(c.span, name, keys, key_type, proj, gtype)]
        if not direct:
            ref: A.Expr = A.EVar(agg.span, name)
            if then is not None:  # Aggregate(k, f(e)) is f(e.group_by(k))
                ref = A.ECall(agg.span, then, (ref,))
            rest = A.ClExpr(c.span, replace_node(e, agg, ref))
            if find_aggregation(rest.expr) is not None:
                self.diags.error(c.span, "a clause may hold only one `group_by`")
                return out
            out.append(self._clause_expr(rest, scope))
        return out

    def _group_keys(self, key: A.Expr, scope: dict) -> Optional[tuple[str, ...]]:
        elems = key.elems if isinstance(key, A.ETuple) else (key,)
        names = []
        for k in elems:
            if not isinstance(k, A.EVar):
                self.diags.error(k.span, "a group key must be a variable or a tuple of "
                                         "variables")
                return None
            if k.name not in scope:
                self.diags.error(k.span, f"unknown variable `{k.name}` in the group key")
                return None
            names.append(k.name)
        return tuple(names)
