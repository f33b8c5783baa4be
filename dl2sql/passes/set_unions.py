"""Recursion through a set that only grows, as plain recursion.

A relation ``A`` whose one rule collects a group into a set,
``A(k..., s) :- C(...), var s = v.group_by(k...).to_set()`` (split by
:mod:`dl2sql.passes.aggregation` into the group's rows ``A__groupN_rows``, its groups
``A__groupN`` and ``A``'s own rule), holds for each key the set of the ``v`` of its
rows. A rule that reads it as ``A(k..., s), var x = FlatMap(s)``, and uses ``s``
nowhere else, derives one row per (key, element), which are exactly the group's rows
``(k..., v)``: it may read those instead, ``A__groupN_rows(k..., __value = x)`` (a rule
that reads ``A`` without its set, only that a key has one, the same without the
element).

Where every rule of ``A``'s own recursive component that reads ``A`` reads it so, the
rewriting takes the ``group_by`` out of the recursion: the component becomes plain
(monotone) recursion, evaluated semi-naively and maintained by delete and rederive,
and ``A`` is made once after it from its final rows. DDlog's naive iteration of the
component climbs the same least fixpoint (a set only grows as its rows do, and a
row's elements are its rows), so the results are the same; the naive iteration
re-evaluates every rule each round and a maintained program recomputes the whole
component whenever its inputs change. Rules whose heads are multisets or streams are
left as they are (a set's element counts once, a row of the group once per copy).
"""
from __future__ import annotations

from typing import Optional

from dl2sql.passes.function_values import free_vars
from dl2sql.passes.stratify import components
from dl2sql.types import typed as T
from dl2sql.types.model import TNamed

_TO_SET = ("ddlog_std::to_set", "ddlog_std::group_to_set")


def flatten_set_groups(rules: list[T.CoreRule], relations: dict, env) -> list[T.CoreRule]:
    """``rules`` with every use of a grown set within its recursion read from the
    set's group rows (the module's docstring), where all of them can be."""
    by_head: dict[str, list[T.CoreRule]] = {}
    for r in rules:
        for h in r.heads:
            by_head.setdefault(h.relation, []).append(r)
    sets = {a: shape for a in by_head if (shape := _set_of_rows(a, by_head, env)) is not None}
    if not sets:
        return rules
    component = components(rules)
    flattened = set()
    for a, shape in sets.items():
        uses = [(r, i) for r in rules for i, c in enumerate(r.body)
                if isinstance(c, T.CAtom) and c.relation == a
                and any(component.get(h.relation) == component[a] for h in r.heads)]
        if uses and all(_rewritten(r, i, shape, relations) is not None for r, i in uses):
            flattened.add(a)
    if not flattened:
        return rules
    out = []
    for r in rules:
        if any(component.get(h.relation) == component[a] for a in flattened for h in r.heads):
            while (i := next((i for i, c in enumerate(r.body) if isinstance(c, T.CAtom)
                              and c.relation in flattened), None)) is not None:
                r = _rewritten(r, i, sets[r.body[i].relation], relations)
        out.append(r)
    return out


def _set_of_rows(a: str, by_head: dict, env) -> Optional[tuple]:
    """(rows relation, {A's key field: rows field}, A's set field) when ``A``'s one rule
    is the ``to_set`` of a group of ``rows``'s ``__value`` by its keys."""
    if len(by_head[a]) != 1:
        return None
    [rule] = by_head[a]
    if len(rule.heads) != 1 or len(rule.body) != 2:
        return None
    atom, match = rule.body
    if not (isinstance(atom, T.CAtom) and not atom.negated and isinstance(match, T.CMatch)
            and isinstance(atom.pattern, T.PCtor) and isinstance(match.pattern, T.PVar)):
        return None
    call = match.expr
    if not (isinstance(call, T.TCall) and call.func.split("#", 1)[0] in _TO_SET
            and len(call.args) == 1 and isinstance(call.args[0], T.TVarRef)):
        return None
    group_rules = by_head.get(atom.relation, [])
    if len(group_rules) != 1 or len(group_rules[0].body) != 1:
        return None
    [source] = group_rules[0].body
    if not (isinstance(source, T.CGroupSource) and source.aggregate == "group"):
        return None
    # A's fields from the group's: a key variable of the atom names a field of the
    # group relation, whose head names the rows' field (a key) it holds
    group_head = group_rules[0].heads[0].record
    group_field = {f: p.name for f, p in atom.pattern.fields if isinstance(p, T.PVar)}
    if len(group_field) != len(atom.pattern.fields) or not isinstance(group_head, T.TStruct):
        return None
    group_vars = [x.name if isinstance(x, T.TVarRef) else None for x in group_head.args]
    head = rule.heads[0].record
    if not isinstance(head, T.TStruct) or not all(isinstance(x, T.TVarRef) for x in head.args):
        return None
    fields = _field_names(head, env)
    keys, set_field = {}, None
    by_var = {v: f for f, v in group_field.items()}
    group_fields = _field_names(group_head, env)
    for name, x in zip(fields, head.args):
        if x.name == match.pattern.name and set_field is None:
            set_field = name
            continue
        f = by_var.get(x.name)
        if f is None or f not in group_fields:
            return None
        row_key = group_vars[group_fields.index(f)]
        if row_key not in source.keys:
            return None
        keys[name] = row_key
    if set_field is None or call.args[0].name != group_field.get(group_fields[-1]) or \
            len(keys) != len(source.keys):
        return None
    return source.relation, keys, set_field, source.value


def _field_names(record: T.TStruct, env) -> list[str]:
    """The field names of a rule head's record, in order (its arguments follow them)."""
    [ctor] = [c for c in env.ctors(record.type) if c.name == record.ctor]
    return [name for name, _ in ctor.fields]


def _rewritten(rule: T.CoreRule, i: int, shape: tuple, relations: dict
               ) -> Optional[T.CoreRule]:
    """``rule`` with its ``i``-th clause (an atom of A) and the FlatMap of A's set read
    from A's group rows, or None when it cannot be."""
    rows, keys, set_field, value = shape
    if any(relations[h.relation].kind != "relation" for h in rule.heads):
        return None
    atom = rule.body[i]
    if atom.negated or not isinstance(atom.pattern, T.PCtor):
        return None
    fields = dict(atom.pattern.fields)
    new_fields = [(keys[f], p) for f, p in atom.pattern.fields if f != set_field]
    if any(f not in keys for f, _ in atom.pattern.fields if f != set_field):
        return None
    body = list(rule.body)
    s = fields.get(set_field, T.PWild(None))
    if isinstance(s, T.PVar):
        flat = [j for j, c in enumerate(body) if isinstance(c, T.CFlatMap)
                and isinstance(c.expr, T.TVarRef) and c.expr.name == s.name]
        if len(flat) != 1 or flat[0] < i or not _plain(body[flat[0]].pattern):
            return None
        j = flat[0]
        rest = tuple(c for k, c in enumerate(body) if k not in (i, j))
        if s.name in free_vars(rest + rule.heads) or any(
                s.name in T.pattern_vars(c.pattern) for c in rest if hasattr(c, "pattern")):
            return None
        new_fields.append((value, body[j].pattern))
        del body[j]
    elif not isinstance(s, T.PWild):
        return None
    body[i] = T.CAtom(atom.span, rows, T.PCtor(TNamed(rows, ()), rows, tuple(new_fields)))
    return T.CoreRule(rule.span, rule.heads, tuple(body))


def _plain(p) -> bool:
    """A pattern that only binds (it reads no variable: it may move earlier)."""
    if isinstance(p, (T.PVar, T.PWild)):
        return True
    if isinstance(p, T.PTuple):
        return all(_plain(e) for e in p.elems)
    return False

