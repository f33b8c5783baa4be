"""Desugaring of FTL ``for`` statements (§3.6) into ordinary rules.

Each path from an outer ``for`` to an insert statement becomes one rule whose body is
the conjunction of the clauses met on the way: ``for (x in R(..) if c)`` adds the
literal ``x in R(..)`` and the condition ``c``; ``if (c) s1 else s2`` adds ``c`` to the
rules of ``s1`` and ``not (c)`` to those of ``s2``; ``e in s`` adds the clause ``e``;
arm *i* of ``match (e) {...}`` adds the condition "the first arm that matches ``e`` is
arm *i*" (its pattern variables are not visible in the arm body); ``skip`` adds
nothing.
"""
from __future__ import annotations

import dataclasses

from dl2sql.ast import nodes as A


def desugar_ftl(module: A.Module) -> A.Module:
    """``module`` with every ``ForStatement`` replaced by the rules it stands for."""
    if not any(isinstance(d, A.ForStatement) for d in module.decls):
        return module
    decls: list = []
    for d in module.decls:
        if isinstance(d, A.ForStatement):
            decls += _rules(d.stmt, [])
        else:
            decls.append(d)
    return dataclasses.replace(module, decls=tuple(decls))


def _rules(s: A.Stmt, body: list) -> list[A.Rule]:
    if isinstance(s, A.SFor):
        atom = dataclasses.replace(s.atom, binder=s.binder or s.atom.binder)
        clauses = body + [A.ClLiteral(s.atom.span, atom)]
        if s.cond is not None:
            clauses.append(A.ClExpr(s.cond.span, s.cond))
        return _rules(s.body, clauses)
    if isinstance(s, A.SInsert):
        return [A.Rule(s.span, (s.atom,), tuple(body))]
    if isinstance(s, A.SSkip):
        return []
    if isinstance(s, A.SBlock):
        return [r for item in s.items for r in _rules(item, body)]
    if isinstance(s, A.SLet):
        return _rules(s.body, body + [A.ClExpr(s.assign.span, s.assign)])
    if isinstance(s, A.SIf):
        then = _rules(s.then, body + [A.ClExpr(s.cond.span, s.cond)])
        if s.els is None:
            return then
        negated = A.EUnOp(s.cond.span, "not", s.cond)
        return then + _rules(s.els, body + [A.ClExpr(s.cond.span, negated)])
    assert isinstance(s, A.SMatch), s
    out = []
    for i, arm in enumerate(s.arms):
        arms = tuple(A.MatchArm(a.span, _forget_vars(a.pattern), A.EBool(a.span, j == i))
                     for j, a in enumerate(s.arms))
        chosen = A.EMatch(arm.span, s.scrutinee, arms)
        out += _rules(arm.body, body + [A.ClExpr(arm.span, chosen)])
    return out


def _forget_vars(p: A.Expr) -> A.Expr:
    """The pattern with its variables replaced by wildcards: only the shape decides
    which arm is taken, and the condition must not bind anything."""
    if isinstance(p, (A.EVar, A.EVarDecl)):
        return A.EWild(p.span)
    if isinstance(p, A.EStruct):
        return dataclasses.replace(p, args=tuple(dataclasses.replace(
            a, value=_forget_vars(a.value)) for a in p.args))
    if isinstance(p, A.ETuple):
        return dataclasses.replace(p, elems=tuple(_forget_vars(x) for x in p.elems))
    if isinstance(p, A.EBinding):
        return _forget_vars(p.pattern)
    if isinstance(p, (A.ETyped, A.ERef)):
        return dataclasses.replace(p, expr=_forget_vars(p.expr))
    return p
