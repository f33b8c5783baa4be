"""Expressions (patterns are expressions too, checked as patterns where they stand)."""
from __future__ import annotations

from typing import Optional, Union

from dl2sql.ast.base import node
from dl2sql.ast.type_exprs import TypeExpr
from dl2sql.diagnostics import Span


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


@node
class Attribute:
    """``#[name]`` or ``#[name = expr]``; kept for completeness, no semantic effect."""

    span: Span
    name: str
    value: Optional["Expr"] = None
