"""The facts read without the grammar (:mod:`dl2sql.syntax.facts`) checked against
their relation and turned into its rows, in the stored form the runners load
(:mod:`dl2sql.runner.base`; the same as :func:`dl2sql.runtime.convert.to_sql` gives,
which ``tests/unit/test_fact_tables.py`` checks).

A relation's facts are taken as data when the relation is computed by nothing else:
not an input, stream or multiset, not the head of a rule or the output of a
transformer, and stored one column per field (``R(f: T, ...)``); and when every
value is a literal of its column's type among booleans, strings, integers of at most
64 bits, tuples and constructors of user types (no wide integers, floats,
collections, interned or recursive types). Otherwise all of the relation's facts go
back to the grammar and are checked as rules (:attr:`~dl2sql.ast.decls.FactTable.reparse`),
so that programs with errors get the diagnostics they always got.
"""
from __future__ import annotations

from dl2sql.ast import nodes as A
from dl2sql.syntax.facts import Ctor, Tup
from dl2sql.types.model import (TBool, TBit, TNamed, TSigned, TString, TTuple, Type,
                                TypeEnv)
from dl2sql.types.storage import is_recursive, struct_slots
from dl2sql.types.symbols import Symbols


class _NotData(Exception):
    """A fact value this module does not take: the grammar and the checker will."""


def fact_rows(tables: list[tuple[str, A.FactTable]], syms: Symbols,
              computed: set[str]) -> tuple[dict[str, tuple], list[tuple[str, A.Rule]]]:
    """The rows of each relation whose facts are data (distinct, in stored form), and
    the other facts as rules, with the module each is checked in. ``tables`` are the
    fact tables with their modules; ``computed`` the relations that rules or
    transformers also write."""
    by_relation: dict = {}
    for module, table in tables:
        rel = syms.resolve_relation(table.relation, module)
        by_relation.setdefault(rel, []).append((module, table))
    rows: dict[str, tuple] = {}
    rules: list[tuple[str, A.Rule]] = []
    for rel, found in by_relation.items():
        try:
            if rel is None or rel in computed:
                raise _NotData
            data: dict = {}
            for module, table in found:
                data.update(dict.fromkeys(_table_rows(rel, module, table, syms)))
            rows[rel] = tuple(data)
        except _NotData:
            rules += [(module, rule) for module, table in found for rule in table.reparse()]
    return rows, rules


def _table_rows(rel: str, module: str, table: A.FactTable, syms: Symbols) -> list[tuple]:
    info = syms.relations[rel]
    env = syms.env
    if info.role == "input" or info.kind != "relation" or info.generated:
        raise _NotData
    t = info.record_type
    if not isinstance(t, TNamed) or t.args or t.name not in env.defs \
            or env.defs[t.name].extern:
        raise _NotData
    ctors = env.ctors(t)
    if len(ctors) != 1 or not ctors[0].fields:
        raise _NotData
    types = [ft for _, ft in ctors[0].fields]
    convert = _Converter(module, syms)
    out = []
    for values in table.rows:
        if len(values) != len(types):
            raise _NotData
        out.append(tuple(convert.stored(ft, v) for ft, v in zip(types, values)))
    return out


class _Converter:
    """Literal values to their stored form, for facts written in ``module``."""

    def __init__(self, module: str, syms: Symbols):
        self.module, self.syms, self.env = module, syms, syms.env
        self._ctors: dict = {}  # (type, name as written) -> (index, CtorDef, slots)

    def stored(self, t: Type, v):
        if isinstance(t, TBool):
            if type(v) is not bool:
                raise _NotData
            return v
        if isinstance(t, TString):
            if type(v) is not str:
                raise _NotData
            return v
        if isinstance(t, (TBit, TSigned)):
            if type(v) is not int or t.width > 64 or not _fits(t, v):
                raise _NotData
            return v
        if isinstance(t, TTuple):
            if not isinstance(v, Tup) or len(v) != len(t.elems):
                raise _NotData
            return tuple(self.stored(e, x) for e, x in zip(t.elems, v))
        if not isinstance(v, Ctor):
            raise _NotData
        index, ctor, slots = self._ctor(t, v.name)
        if len(v.args) != len(ctor.fields):
            raise _NotData
        if slots is None:  # one constructor without fields: stored as TRUE
            return True
        given = {n: self.stored(ft, x) for (n, ft), x in zip(ctor.fields, v.args)}
        return tuple(index if s.ctor is None else given[s.field] if s.ctor == ctor.name
                     else self.default(s.type) for s in slots)

    def _ctor(self, t: Type, name: str):
        key = (t, name)
        if key not in self._ctors:
            env = self.env
            if not isinstance(t, TNamed) or t.args or t.name not in env.defs \
                    or env.defs[t.name].extern or is_recursive(t, env):
                raise _NotData
            q = self.syms.resolve_ctor(name, self.module)
            ctors = env.ctors(t)
            names = [c.name for c in ctors]
            if q is None or q not in names:
                raise _NotData
            index = names.index(q)
            self._ctors[key] = (index, ctors[index], struct_slots(t, env))
        return self._ctors[key]

    def default(self, t: Type):
        """DDlog's ``default()`` of ``t`` in stored form
        (:func:`dl2sql.runtime.defaults.default_value`)."""
        if isinstance(t, TBool):
            return False
        if isinstance(t, TString):
            return ""
        if isinstance(t, (TBit, TSigned)) and t.width <= 64:
            return 0
        if isinstance(t, TTuple):
            return tuple(self.default(e) for e in t.elems)
        env = self.env
        if isinstance(t, TNamed) and not t.args and t.name in env.defs \
                and not env.defs[t.name].extern and env.ctors(t) and not is_recursive(t, env):
            # the first constructor (tag 0), every field at its default
            slots = struct_slots(t, env)
            return True if slots is None else tuple(
                0 if s.ctor is None else self.default(s.type) for s in slots)
        raise _NotData


def _fits(t, v: int) -> bool:
    if isinstance(t, TBit):
        return 0 <= v < (1 << t.width)
    return -(1 << (t.width - 1)) <= v < (1 << (t.width - 1))
