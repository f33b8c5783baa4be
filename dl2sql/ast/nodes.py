"""The abstract syntax tree of a DDlog module.

Every node is a frozen dataclass whose first field is its :class:`Span`. Names are kept
as written (possibly ``::``-qualified); name resolution happens later. Features whose
semantics are not implemented yet are still represented here, so that later stages can
reject them with a located error instead of a parse error.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from dl2sql.diagnostics import Span


def node(cls):
    """Decorator: a frozen, slotted dataclass (value equality, hashable)."""
    return dataclass(frozen=True, slots=True)(cls)


# ---------------------------------------------------------------------------- attributes
@node
class Attribute:
    """``#[name]`` or ``#[name = expr]``; kept for completeness, no semantic effect."""

    span: Span
    name: str
    value: Optional["Expr"] = None


# ---------------------------------------------------------------------------- types
@node
class TBoolE:
    span: Span


@node
class TStringE:
    span: Span


@node
class TBigIntE:
    span: Span


@node
class TBitE:
    """``bit<width>``."""

    span: Span
    width: int


@node
class TSignedE:
    """``signed<width>``."""

    span: Span
    width: int


@node
class TFloatE:
    span: Span


@node
class TDoubleE:
    span: Span


@node
class TTupleE:
    """``(T1, T2, ...)``; ``()`` is unit. A parenthesised single type is not a tuple."""

    span: Span
    elems: tuple["TypeExpr", ...]


@node
class TNameE:
    """A named type, maybe generic: ``Option<string>``, ``ddlog_std::Vec<u8>``."""

    span: Span
    name: str
    args: tuple["TypeExpr", ...] = ()


@node
class TVarE:
    """A type variable ``'A`` (name stored without the tick)."""

    span: Span
    name: str


@node
class FuncParamT:
    span: Span
    type: "TypeExpr"
    mutable: bool = False


@node
class TFunctionE:
    """``function(T1, mut T2): R`` or ``|T1, T2|: R``; ret None means ``()``."""

    span: Span
    params: tuple[FuncParamT, ...]
    ret: Optional["TypeExpr"]


TypeExpr = Union[TBoolE, TStringE, TBigIntE, TBitE, TSignedE, TFloatE, TDoubleE,
                 TTupleE, TNameE, TVarE, TFunctionE]


# ---------------------------------------------------------------------------- expressions
@node
class EBool:
    span: Span
    value: bool


@node
class EInt:
    """Integer literal. ``width``/``signed`` are set for ``8'd5``-style literals;
    ``width=None, signed=None`` for a plain ``5``; ``'d5`` has width None and signed False."""

    span: Span
    value: int
    width: Optional[int] = None
    signed: Optional[bool] = None


@node
class EFloat:
    """Float literal; ``width`` 32/64 for ``32'f1.5``/``64'f1.5``, else None."""

    span: Span
    value: float
    width: Optional[int] = None


@node
class EString:
    """A string literal without interpolation (escapes already decoded)."""

    span: Span
    value: str
    interned: bool = False


@node
class EInterp:
    """Interpolated string: ``parts`` alternate literal ``str`` pieces and expressions."""

    span: Span
    parts: tuple[Union[str, "Expr"], ...]
    interned: bool = False


@node
class EVar:
    """A variable reference (or a function name used as a value, resolved later)."""

    span: Span
    name: str


@node
class EVarDecl:
    """``var x`` inside a pattern or on the left of ``=``; optional type annotation."""

    span: Span
    name: str
    type: Optional[TypeExpr] = None


@node
class EWild:
    """``_``."""

    span: Span


@node
class ECall:
    """``f(args)`` where ``f`` is a (maybe qualified) function name."""

    span: Span
    func: str
    args: tuple["Expr", ...]


@node
class EDotCall:
    """``recv.f(args)`` (method-call syntax, ≡ ``f(recv, args)``); ``func`` may be qualified."""

    span: Span
    recv: "Expr"
    func: str
    args: tuple["Expr", ...]


@node
class EApply:
    """Call of a closure-valued expression: ``(e)(args)``."""

    span: Span
    callee: "Expr"
    args: tuple["Expr", ...]


@node
class EField:
    """``e.f``."""

    span: Span
    expr: "Expr"
    field: str


@node
class ETupleIdx:
    """``e.0``."""

    span: Span
    expr: "Expr"
    index: int


@node
class FieldArg:
    """A possibly named argument: ``.f = e`` (name "f") or positional (name None)."""

    span: Span
    name: Optional[str]
    value: "Expr"


@node
class EStruct:
    """Constructor application ``C{a, b}`` / ``C{.f = a}`` / bare ``C`` (args empty,
    ``braces`` False). Upper-case names in expression position are constructors."""

    span: Span
    ctor: str
    args: tuple[FieldArg, ...]
    braces: bool = True


@node
class ETuple:
    """``(a, b)``; ``()`` is unit. ``(e)`` is just ``e``."""

    span: Span
    elems: tuple["Expr", ...]


@node
class EBinOp:
    """Binary operator; ``op`` is the source spelling: ``+ - * / % << >> ++ == != < <= >
    >= & | ^ and or =>``."""

    span: Span
    op: str
    left: "Expr"
    right: "Expr"


@node
class EUnOp:
    """Prefix operator: ``-``, ``~``, ``not``."""

    span: Span
    op: str
    expr: "Expr"


@node
class ERef:
    """Prefix ``&e`` (reference pattern or ``ref_new``)."""

    span: Span
    expr: "Expr"


@node
class EIf:
    span: Span
    cond: "Expr"
    then: "Expr"
    els: Optional["Expr"]


@node
class MatchArm:
    span: Span
    pattern: "Expr"
    body: "Expr"


@node
class EMatch:
    span: Span
    scrutinee: "Expr"
    arms: tuple[MatchArm, ...]


@node
class EBlock:
    """``{ e1; e2; ... }``; ``trailing_semi`` True when the last expression is followed by
    ``;`` (the block's value is then ``()``). ``{}`` has no items."""

    span: Span
    items: tuple["Expr", ...]
    trailing_semi: bool = False


@node
class EFor:
    """``for (pattern in iterable) body``."""

    span: Span
    pattern: "Expr"
    iterable: "Expr"
    body: "Expr"


@node
class EBreak:
    span: Span


@node
class EContinue:
    span: Span


@node
class EReturn:
    span: Span
    value: Optional["Expr"]


@node
class EAssign:
    """``lhs = rhs``; lhs is a pattern (``var x``, tuple of patterns, constructor pattern)
    or an l-value."""

    span: Span
    lhs: "Expr"
    rhs: "Expr"


@node
class ETyped:
    """Type ascription ``e: T``."""

    span: Span
    expr: "Expr"
    type: TypeExpr


@node
class ECast:
    """``e as T``."""

    span: Span
    expr: "Expr"
    type: TypeExpr


@node
class ESlice:
    """Bit slice ``e[hi:lo]``."""

    span: Span
    expr: "Expr"
    hi: int
    lo: int


@node
class ETry:
    """``e?``."""

    span: Span
    expr: "Expr"


@node
class ClosureParam:
    span: Span
    name: str
    type: Optional[TypeExpr]
    mutable: bool = False


@node
class EClosure:
    """``|x, y: T| body`` or ``function(x: T): R { body }``."""

    span: Span
    params: tuple[ClosureParam, ...]
    ret: Optional[TypeExpr]
    body: "Expr"


@node
class EVec:
    """Vector literal ``[e1, e2]``."""

    span: Span
    elems: tuple["Expr", ...]


@node
class EMapLit:
    """Map literal ``[k1 -> v1, k2 -> v2]``."""

    span: Span
    entries: tuple[tuple["Expr", "Expr"], ...]


@node
class EBinding:
    """``v@pattern``: bind ``v`` to the value matched by ``pattern``."""

    span: Span
    name: str
    pattern: "Expr"


Expr = Union[EBool, EInt, EFloat, EString, EInterp, EVar, EVarDecl, EWild, ECall,
             EDotCall, EApply, EField, ETupleIdx, EStruct, ETuple, EBinOp, EUnOp, ERef,
             EIf, EMatch, EBlock, EFor, EBreak, EContinue, EReturn, EAssign, ETyped,
             ECast, ESlice, ETry, EClosure, EVec, EMapLit, EBinding]


# ---------------------------------------------------------------------------- rules
@node
class Atom:
    """``R(args)``, ``R(.f = e)``, ``R[e]`` (``whole`` set, ``args`` empty), with an
    optional ``v in`` binder, ``&R`` (``ref``), ``R-1`` (``delay``) or ``R'`` (``diff``)."""

    span: Span
    relation: str
    args: tuple[FieldArg, ...] = ()
    whole: Optional[Expr] = None
    binder: Optional[str] = None
    ref: bool = False
    delay: int = 0
    diff: bool = False


@node
class ClLiteral:
    """A positive or negated atom in a rule body."""

    span: Span
    atom: Atom
    negated: bool = False


@node
class ClExpr:
    """Any other body clause: a condition, an assignment (``EAssign``), a ``FlatMap``,
    or a ``group_by`` (both appear as ordinary expressions; ``FlatMap(e)`` is an
    ``ECall`` with func ``"FlatMap"``, ``Aggregate(k, f(e))`` one with func
    ``"Aggregate"``)."""

    span: Span
    expr: Expr


@node
class ClInspect:
    """``Inspect e`` (tracing only)."""

    span: Span
    expr: Expr


Clause = Union[ClLiteral, ClExpr, ClInspect]


@node
class Rule:
    """``H1(..), H2(..) :- body.``; a fact has an empty body. ``location`` holds the
    D3log ``@ expr`` annotation of a head, if present."""

    span: Span
    heads: tuple[Atom, ...]
    body: tuple[Clause, ...]
    attrs: tuple[Attribute, ...] = ()


# FTL statements (§3.6)
@node
class SFor:
    span: Span
    binder: str
    atom: Atom
    cond: Optional[Expr]
    body: "Stmt"


@node
class SIf:
    span: Span
    cond: Expr
    then: "Stmt"
    els: Optional["Stmt"]


@node
class SMatchArm:
    span: Span
    pattern: Expr
    body: "Stmt"


@node
class SMatch:
    span: Span
    scrutinee: Expr
    arms: tuple[SMatchArm, ...]


@node
class SLet:
    """``pattern = expr in stmt`` / ``var v = e in stmt``."""

    span: Span
    assign: Expr
    body: "Stmt"


@node
class SBlock:
    span: Span
    items: tuple["Stmt", ...]


@node
class SSkip:
    span: Span


@node
class SInsert:
    """An atom in statement position: a rule head."""

    span: Span
    atom: Atom


Stmt = Union[SFor, SIf, SMatch, SLet, SBlock, SSkip, SInsert]


@node
class ForStatement:
    """A top-level FTL ``for`` statement."""

    span: Span
    stmt: Stmt


# ---------------------------------------------------------------------------- declarations
@node
class Field:
    span: Span
    name: str
    type: TypeExpr
    attrs: tuple[Attribute, ...] = ()


@node
class Constructor:
    span: Span
    name: str
    fields: tuple[Field, ...]
    attrs: tuple[Attribute, ...] = ()


@node
class TypeDef:
    """``typedef Name<'A> = ...``. Exactly one of: ``ctors`` (struct or tagged union),
    ``alias`` (any other type), or neither with ``extern`` True (``extern type``)."""

    span: Span
    name: str
    params: tuple[str, ...]
    ctors: Optional[tuple[Constructor, ...]] = None
    alias: Optional[TypeExpr] = None
    extern: bool = False
    attrs: tuple[Attribute, ...] = ()


@node
class PrimaryKey:
    """``primary key (var) expr``."""

    span: Span
    var: str
    expr: Expr


@node
class RelationDecl:
    """A relation declaration. ``role``: "input" | "output" | "internal"; ``kind``:
    "relation" | "stream" | "multiset". Field form sets ``fields``; bracket form
    ``R[T]`` sets ``record_type``."""

    span: Span
    role: str
    kind: str
    name: str
    fields: Optional[tuple[Field, ...]] = None
    record_type: Optional[TypeExpr] = None
    ref: bool = False
    primary_key: Optional[PrimaryKey] = None
    attrs: tuple[Attribute, ...] = ()


@node
class Param:
    span: Span
    name: str
    type: TypeExpr
    mutable: bool = False
    attrs: tuple[Attribute, ...] = ()


@node
class FunctionDef:
    """``function f(params): ret { body }`` or ``extern function ...`` (body None)."""

    span: Span
    name: str
    params: tuple[Param, ...]
    ret: Optional[TypeExpr]
    body: Optional[Expr]
    extern: bool = False
    attrs: tuple[Attribute, ...] = ()


@node
class Import:
    """``import a::b`` or ``import a::b as m``."""

    span: Span
    path: str
    alias: Optional[str] = None


@node
class IndexDecl:
    """``index I(k: T, ...) on R(pattern)``."""

    span: Span
    name: str
    fields: tuple[Field, ...]
    atom: Atom


@node
class TransformerDecl:
    """``extern transformer T(...) -> (...)`` (kept as text-free stub: name only)."""

    span: Span
    name: str


@node
class ApplyDecl:
    """``apply T(args) -> (outs)``."""

    span: Span
    transformer: str
    args: tuple[str, ...]
    outputs: tuple[str, ...]


Decl = Union[Import, TypeDef, RelationDecl, FunctionDef, Rule, ForStatement, IndexDecl,
             TransformerDecl, ApplyDecl]


@node
class Module:
    """One parsed ``.dl`` file. ``name`` is its module path (``""`` for the main file)."""

    span: Span
    name: str
    decls: tuple[Decl, ...]
