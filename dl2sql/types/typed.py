"""Typed core IR: what the type checker produces from rules.

Expressions (``T*`` classes) carry their resolved :class:`~dl2sql.types.model.Type`.
Patterns (``P*``) describe what an atom argument or the left side of ``=`` matches.
A rule body is a sequence of clauses evaluated left to right, as in DDlog.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Union

from dl2sql.diagnostics import Span
from dl2sql.types.model import Type


def _node(cls):
    return dataclass(frozen=True, slots=True)(cls)


# ---------------------------------------------------------------- expressions
@_node
class TConst:
    """A constant runtime value (see :mod:`dl2sql.runtime.values`)."""

    type: Type
    value: object


@_node
class TVarRef:
    """A rule variable."""

    type: Type
    name: str


@_node
class TCol:
    """A column of a body source (produced by lowering, not by the checker)."""

    type: Type
    alias: str
    column: str


@_node
class TRecordOf:
    """The whole record of a body source whose table is flattened into columns
    (produced by lowering): ``columns`` are the column names in field order."""

    type: Type
    alias: str
    columns: tuple[str, ...]


@_node
class TStruct:
    """Constructor application; ``ctor`` is qualified, ``args`` in field order."""

    type: Type
    ctor: str
    args: tuple["TExpr", ...]


@_node
class TTupleE:
    type: Type
    elems: tuple["TExpr", ...]


@_node
class TGetField:
    """Field of a struct/union value; ``ctor`` None means "present in every
    constructor" (the checker guarantees it)."""

    type: Type
    expr: "TExpr"
    field: str


@_node
class TCtorField:
    """Field ``field`` of constructor ``ctor`` of a value known to be built with it."""

    type: Type
    expr: "TExpr"
    ctor: str
    field: str


@_node
class TTupleGet:
    type: Type
    expr: "TExpr"
    index: int


@_node
class TIsCtor:
    """``true`` when ``expr`` was built with constructor ``ctor``."""

    type: Type
    expr: "TExpr"
    ctor: str


@_node
class TBin:
    """Binary operator on typed operands; ``op`` as in the source (``++`` on strings
    has both operands already converted to strings)."""

    type: Type
    op: str
    left: "TExpr"
    right: "TExpr"


@_node
class TUn:
    """``-``, ``~`` or ``not``."""

    type: Type
    op: str
    expr: "TExpr"


@_node
class TCast:
    type: Type
    expr: "TExpr"


@_node
class TToString:
    """Conversion of a non-string value to its DDlog string form."""

    type: Type
    expr: "TExpr"


@_node
class TIf:
    type: Type
    cond: "TExpr"
    then: "TExpr"
    els: "TExpr"


@_node
class TVec:
    """Vector literal ``[e1, e2, ...]``."""

    type: Type
    elems: tuple["TExpr", ...]


@_node
class TMapLit:
    """Map literal ``[k1 -> v1, ...]`` (a later duplicate key overwrites)."""

    type: Type
    entries: tuple[tuple["TExpr", "TExpr"], ...]


@_node
class TClosure:
    """A closure ``|x: T| body`` (also a named function passed as a value, wrapped);
    captured variables are free in ``body`` until the closure is closed over a scope."""

    type: Type
    params: tuple[tuple[str, Type], ...]
    body: "TExpr"


@_node
class TApply:
    """Call of a function-typed value."""

    type: Type
    callee: "TExpr"
    args: tuple["TExpr", ...]


@_node
class TMatch:
    """``match (scrutinee) { pattern -> body, ... }``; first matching arm wins. Arm
    bodies see the variables their pattern binds."""

    type: Type
    scrutinee: "TExpr"
    arms: tuple[tuple["Pattern", "TExpr"], ...]


@_node
class TCall:
    """Call of function ``func`` (qualified name of a DDlog, extern or built-in std
    function) with ``targs`` the types its type parameters are instantiated with, in
    declaration order (so ``(func, targs)`` names one monomorphic instance)."""

    type: Type
    func: str
    args: tuple["TExpr", ...]
    targs: tuple[Type, ...] = ()
    mutates: bool = False  # the function has `mut` parameters (assigns to arguments)


@_node
class TSeq:
    """A block ``{ e1; e2; ...; en }``: items evaluated in order, value of the last
    (a block ending in ``;`` has a unit ``TTupleE`` as its last item)."""

    type: Type
    items: tuple["TExpr", ...]


@_node
class TLet:
    """``var x = e`` / ``(var a, var b) = e`` inside a block: binds the pattern's
    variables for the rest of the block; value ``()``."""

    type: Type
    pattern: "Pattern"
    expr: "TExpr"


@_node
class TAssign:
    """``target = e`` where target is a mutable local, or a field / tuple element of
    one (``TVarRef``, ``TGetField``, ``TTupleGet`` chains); value ``()``."""

    type: Type
    target: "TExpr"
    expr: "TExpr"


@_node
class TFor:
    """``for (pattern in iterable) body``; value ``()``."""

    type: Type
    pattern: "Pattern"
    iterable: "TExpr"
    body: "TExpr"


@_node
class TBreak:
    type: Type


@_node
class TContinue:
    type: Type


@_node
class TReturn:
    """``return e`` from the enclosing function (``type`` is the type of the
    expression position, which can be anything; ``expr.type`` is the return type)."""

    type: Type
    expr: "TExpr"


@_node
class TSlice:
    """Bit slice ``expr[hi:lo]`` of a ``bit<N>``/``signed<N>`` value."""

    type: Type
    expr: "TExpr"
    hi: int
    lo: int


TExpr = Union[TMapLit, TClosure, TApply, TVec, TConst, TVarRef, TCol, TRecordOf, TStruct, TTupleE, TGetField, TCtorField,
              TTupleGet, TIsCtor, TBin, TUn, TCast, TToString, TIf, TMatch, TCall, TSeq,
              TLet, TAssign, TFor, TBreak, TContinue, TReturn, TSlice]


# ---------------------------------------------------------------- patterns
@_node
class PVar:
    """Binds a new variable."""

    type: Type
    name: str


@_node
class PWild:
    type: Type


@_node
class PEq:
    """Matches values equal to ``expr`` (a literal, a bound variable, an expression)."""

    type: Type
    expr: TExpr


@_node
class PCtor:
    """Matches values built with ``ctor``; ``fields`` pairs field names and patterns
    (fields not mentioned are wildcards)."""

    type: Type
    ctor: str
    fields: tuple[tuple[str, "Pattern"], ...]


@_node
class PTuple:
    type: Type
    elems: tuple["Pattern", ...]


@_node
class PBind:
    """``v@pattern``: binds ``name`` to the whole value and matches ``pattern``."""

    type: Type
    name: str
    pattern: "Pattern"


Pattern = Union[PVar, PWild, PEq, PCtor, PTuple, PBind]


@_node
class FunctionIR:
    """One monomorphic instance of a function written in DDlog: concrete parameter and
    return types, typed body. ``name`` is the qualified function name, ``targs`` the
    type arguments of this instance."""

    name: str
    targs: tuple[Type, ...]
    params: tuple[tuple[str, Type], ...]
    mutable: tuple[bool, ...]
    ret: Type
    body: "TExpr"


# ---------------------------------------------------------------- rules
@_node
class CAtom:
    """A body literal over relation ``relation``; ``pattern`` matches whole records."""

    span: Span
    relation: str
    pattern: Pattern
    negated: bool = False


@_node
class CFilter:
    span: Span
    cond: TExpr


@_node
class CMatch:
    """``pattern = expr``: binds the pattern's variables, keeps matching rows."""

    span: Span
    pattern: Pattern
    expr: TExpr


@_node
class CFlatMap:
    """``pattern = FlatMap(expr)``: one row per element of a Vec, Set or Map (Map
    elements are ``(key, value)`` tuples)."""

    span: Span
    pattern: Pattern
    expr: TExpr


@_node
class CGroup:
    """``var name = proj.group_by(keys)``: the rows so far, grouped by the key
    variables; afterwards only the keys and ``name`` (a ``Group<K, V>``) are visible.
    Rules holding one are split by :mod:`dl2sql.passes.aggregation`."""

    span: Span
    name: str
    keys: tuple[str, ...]
    key_type: Type
    proj: TExpr
    type: Type


@_node
class CGroupSource:
    """The only clause of a rule that aggregates relation ``relation``: one row per
    distinct value of the ``keys`` columns, holding the group of the ``value`` column,
    or with ``aggregate`` "count" the number of its rows, or with a tuple of parts
    ("count", "min", "max") the tuple of those (built by
    :mod:`dl2sql.passes.aggregation`)."""

    span: Span
    relation: str
    keys: tuple[str, ...]
    value: str
    aggregate: object = "group"  # or "count", or a summary's parts


Clause = Union[CAtom, CFilter, CMatch, CFlatMap, CGroup, CGroupSource]


@_node
class Head:
    span: Span
    relation: str
    record: TExpr


@_node
class CoreRule:
    """One rule after type checking. Facts have an empty body."""

    span: Span
    heads: tuple[Head, ...]
    body: tuple[Clause, ...]


def pattern_vars(p: Pattern) -> list[str]:
    """The variables a pattern binds, in order."""
    return [name for name, _ in pattern_var_types(p)]


def pattern_var_types(p: Pattern) -> list[tuple[str, Type]]:
    """The variables a pattern binds, in order, with their types."""
    if isinstance(p, PVar):
        return [(p.name, p.type)]
    if isinstance(p, PBind):
        return [(p.name, p.type)] + pattern_var_types(p.pattern)
    if isinstance(p, PCtor):
        return [v for _, f in p.fields for v in pattern_var_types(f)]
    if isinstance(p, PTuple):
        return [v for e in p.elems for v in pattern_var_types(e)]
    return []


def subexpressions(node):
    """Every typed expression inside ``node`` (itself included), depth first."""
    if _is_expr(node):
        yield node
    for child in children(node):
        yield from subexpressions(child)


def children(node) -> list:
    """The typed expressions directly inside ``node`` (through tuples and patterns)."""
    out: list = []

    def visit(v):
        if isinstance(v, tuple):
            for x in v:
                visit(x)
        elif _is_expr(v):
            out.append(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type) and \
                v.__class__.__module__ == __name__:
            for f in dataclasses.fields(v):
                if f.name != "type":
                    visit(getattr(v, f.name))
    if isinstance(node, tuple) or not _is_expr(node):
        visit(node)
    else:
        for f in dataclasses.fields(node):
            if f.name != "type":
                visit(getattr(node, f.name))
    return out


def _is_expr(v) -> bool:
    return dataclasses.is_dataclass(v) and not isinstance(v, type) and \
        v.__class__.__module__ == __name__ and isinstance(getattr(v, "type", None), Type)
