"""Split rules at their ``group_by`` clauses.

``H :- B1, var g = p.group_by(k), B2.`` becomes three rules over two internal
relations, so that every later stage sees only joins, filters and one aggregation node:

* ``__groupN_rows(v1, ..., vn, __value) :- B1.`` -- the distinct valuations of every
  variable bound in ``B1`` with the projection ``p`` computed on each (one group element
  per body row, as DDlog's expected outputs show);
* ``__groupN(k..., g) :- <CGroupSource over __groupN_rows>.`` -- one row per key, ``g``
  holding the projections of its rows (or only their number, where the group is only
  counted, or the tuple of its number, least and greatest value where only those are
  used outside recursion: :mod:`dl2sql.passes.group_counts`);
* ``H :- __groupN(k..., g), B2.`` -- which may itself hold the next ``group_by``.

The aggregation reads ``__groupN_rows`` like a negated literal reads its relation: the
stratifier puts it in an earlier stratum, unless the rows depend on the head; then the
recursive stratum is iterated naively (:mod:`dl2sql.passes.stratify`).
"""
from __future__ import annotations

import dataclasses

from dl2sql.passes.group_counts import counted_only, summarized
from dl2sql.passes.stratify import dependency_edges
from dl2sql.types import typed as T
from dl2sql.types.model import CtorDef, RelationInfo, TNamed, Type, TypeDefn
from dl2sql.types.symbols import Symbols

VALUE = "__value"


def split_aggregations(rules: list[T.CoreRule], syms: Symbols,
                       ) -> tuple[list[T.CoreRule], dict[str, RelationInfo]]:
    """The rules with every ``CGroup`` split out, and the relations this adds."""
    out: list[T.CoreRule] = []
    added: dict[str, RelationInfo] = {}
    recursive = _recursive_rules(rules)
    for i, r in enumerate(rules):
        out += _split(r, syms, added, i in recursive)
    return out, added


def _recursive_rules(rules: list[T.CoreRule]) -> set[int]:
    """The rules (by index) some body relation of which depends on a head's."""
    reads: dict[str, set[str]] = {}
    for e in dependency_edges(rules):
        reads.setdefault(e.target, set()).add(e.source)

    def reaches(start: set[str], goal: set[str]) -> bool:
        seen, todo = set(), list(start)
        while todo:
            rel = todo.pop()
            if rel in goal:
                return True
            if rel not in seen:
                seen.add(rel)
                todo += reads.get(rel, ())
        return False
    return {i for i, r in enumerate(rules)
            if reaches({c.relation for c in r.body if isinstance(c, T.CAtom)},
                       {h.relation for h in r.heads})}


def _split(rule: T.CoreRule, syms: Symbols, added: dict,
           recursive: bool) -> list[T.CoreRule]:
    at = next((i for i, c in enumerate(rule.body) if isinstance(c, T.CGroup)), None)
    if at is None:
        return [rule]
    group: T.CGroup = rule.body[at]
    # named after the head with `__` inside, which no user relation may have
    # (:mod:`dl2sql.types.check_names`): `Dist__group1` cannot meet a user's name
    head = rule.heads[0].relation
    n = len(added) // 2 + 1
    rows_rel, group_rel = f"{head}__group{n}_rows", f"{head}__group{n}"

    variables = bound_variables(rule.body[:at])
    rows_fields = tuple(variables) + ((VALUE, group.proj.type),)
    rows_type = _declare(syms, rows_rel, rows_fields, rule, added)
    rows_rule = T.CoreRule(group.span, (T.Head(group.span, rows_rel, T.TStruct(
        rows_type, rows_rel, tuple(T.TVarRef(t, v) for v, t in variables) + (group.proj,))),),
        rule.body[:at])

    kinds = dict(variables)
    rest = T.CoreRule(rule.span, rule.heads, rule.body[at + 1:])
    counted = counted_only(rest, group.name)
    aggregate, value_type = "group", group.type
    summary = None if counted is not None or recursive else summarized(
        rest, group.name, group.type, syms.env)
    if counted is not None:  # only its size is used: store that
        (rest, value_type), aggregate = counted, "count"
    elif summary is not None:  # only its size, least and greatest values: those
        rest, value_type, aggregate = summary
    group_fields = tuple((k, kinds[k]) for k in group.keys) + ((group.name, value_type),)
    group_type = _declare(syms, group_rel, group_fields, rule, added)
    group_rule = T.CoreRule(group.span, (T.Head(group.span, group_rel, T.TStruct(
        group_type, group_rel, tuple(T.TVarRef(t, v) for v, t in group_fields))),),
        (T.CGroupSource(group.span, rows_rel, group.keys, VALUE, aggregate),))

    atom = T.CAtom(group.span, group_rel, T.PCtor(group_type, group_rel, tuple(
        (v, T.PVar(t, v)) for v, t in group_fields)))
    rest = dataclasses.replace(rest, body=(atom,) + rest.body)
    return [rows_rule, group_rule] + _split(rest, syms, added, recursive)


def _declare(syms: Symbols, rel: str, fields, rule: T.CoreRule, added: dict) -> Type:
    """A struct type and an internal relation named ``rel`` with ``fields``."""
    syms.env.defs[rel] = TypeDefn(rel, (), (CtorDef(rel, tuple(fields)),),
                                  module=rel.rsplit("::", 1)[0] if "::" in rel else "")
    syms.env.ctor_owner[rel] = rel
    rtype = TNamed(rel)
    added[rel] = RelationInfo(rel, "internal", "relation", rtype, None, rule.span,
                              generated=True)
    return rtype


def bound_variables(clauses) -> list[tuple[str, Type]]:
    """The variables the clauses bind, in binding order, with their types."""
    out: dict[str, Type] = {}
    for c in clauses:
        if isinstance(c, T.CAtom) and not c.negated:
            out.update(T.pattern_var_types(c.pattern))
        elif isinstance(c, (T.CMatch, T.CFlatMap)):
            out.update(T.pattern_var_types(c.pattern))
    return list(out.items())
