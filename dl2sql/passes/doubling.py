"""Transitive closures that may be evaluated by doubling (repeated squaring).

A stratum whose only relation ``T(a, b)`` has exactly the two rules

    T(x, y) :- E(x, y).
    T(x, z) :- T(x, y), E(y, z).        (or  T(x, z) :- E(x, y), T(y, z).)

with ``E`` a two-column relation of an earlier stratum, plain distinct variables and
nothing else in the bodies, defines ``T = E+``, the transitive closure of ``E``. So
does the same base rule with ``T(x, z) :- T(x, y), T(y, z)``, which semi-naive
evaluation finishes in about log2(longest path) iterations instead of one iteration per
edge of the longest path. The linear form does less work per iteration when paths
branch (each new path extends by one edge, not by every known path), so the plan keeps
both and chooses at run time from the out-degree of ``E`` (see
:class:`dl2sql.plan.nodes.Choose`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from dl2sql.types import typed as T


@dataclass(frozen=True)
class Closure:
    """``relation`` is the transitive closure of ``edge``; ``doubled`` is its
    non-linear recursive rule, ``edge_source`` the column of ``edge`` edges leave."""

    relation: str
    edge: str
    edge_source: str
    doubled: T.CoreRule


def _pair(p: T.Pattern) -> Optional[tuple[str, str, str, str]]:
    """(field1, var1, field2, var2) of a two-field constructor pattern of variables."""
    if not isinstance(p, T.PCtor) or len(p.fields) != 2:
        return None
    (f1, p1), (f2, p2) = p.fields
    n1, n2 = _var(p1), _var(p2)
    if n1 is None or n2 is None or n1 == n2:
        return None
    return f1, n1, f2, n2


def _var(p: T.Pattern) -> Optional[str]:
    """The variable a pattern binds or repeats (a plain variable occurrence)."""
    if isinstance(p, T.PVar):
        return p.name
    if isinstance(p, T.PEq) and isinstance(p.expr, T.TVarRef):
        return p.expr.name
    return None


def _head_vars(rule: T.CoreRule) -> Optional[tuple[str, str]]:
    if len(rule.heads) != 1:
        return None
    rec = rule.heads[0].record
    if not isinstance(rec, T.TStruct) or len(rec.args) != 2 or \
            not all(isinstance(a, T.TVarRef) for a in rec.args):
        return None
    return rec.args[0].name, rec.args[1].name


def _atom(c) -> Optional[tuple[str, tuple[str, str, str, str]]]:
    if not isinstance(c, T.CAtom) or c.negated:
        return None
    pair = _pair(c.pattern)
    return (c.relation, pair) if pair else None


def find_closure(relation: str, rules: list[T.CoreRule]) -> Optional[Closure]:
    """The closure form of ``relation``'s rules (all of them, given), or None."""
    if len(rules) != 2:
        return None
    base = next((r for r in rules if len(r.body) == 1), None)
    rec = next((r for r in rules if len(r.body) == 2), None)
    if base is None or rec is None:
        return None
    b_atom, bh = _atom(base.body[0]), _head_vars(base)
    if b_atom is None or bh is None:
        return None
    edge, (e1, u, e2, v) = b_atom
    if edge == relation or bh != (u, v):
        return None
    atoms = [_atom(c) for c in rec.body]
    rh = _head_vars(rec)
    if None in atoms or rh is None:
        return None
    (r1, (a1, p, a2, q)), (r2, (b1, s, b2, t)) = atoms
    if (r1, r2) == (relation, edge):        # T(x, y), E(y, z)
        ok = q == s and rh == (p, t) and (b1, b2) == (e1, e2)
    elif (r1, r2) == (edge, relation):      # E(x, y), T(y, z)
        ok = q == s and rh == (p, t) and (a1, a2) == (e1, e2)
    else:
        return None
    if not ok or len({p, q, t}) != 3:
        return None
    own = rec.body[0] if r1 == relation else rec.body[1]
    doubled = T.CoreRule(rec.span, rec.heads, (
        T.CAtom(own.span, relation, _rename(own.pattern, p, q, False)),
        T.CAtom(own.span, relation, _rename(own.pattern, q, t, True))))
    return Closure(relation, edge, e1, doubled)


def _rename(p: T.PCtor, first: str, second: str, joined: bool) -> T.PCtor:
    """``T(first, second)``; with ``joined`` ``first`` is already bound (a join)."""
    (f1, v1), (f2, v2) = p.fields
    head = T.PEq(v1.type, T.TVarRef(v1.type, first)) if joined else T.PVar(v1.type, first)
    return T.PCtor(p.type, p.ctor, ((f1, head), (f2, T.PVar(v2.type, second))))


def closures(strata, rules: list[T.CoreRule]) -> dict[str, Closure]:
    """Every recursive single-relation stratum that is a transitive closure."""
    out = {}
    for s in strata:
        if s.recursive and len(s.relations) == 1:
            rel = s.relations[0]
            found = find_closure(rel, [r for r in rules if any(h.relation == rel
                                                                for h in r.heads)])
            if found is not None:
                out[rel] = found
    return out
