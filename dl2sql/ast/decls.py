"""Rules, FTL statements and declarations, and the module that holds them."""
from __future__ import annotations

from dataclasses import field
from typing import Callable, Optional, Union

from dl2sql.ast.base import node
from dl2sql.ast.exprs import Attribute, Expr, FieldArg
from dl2sql.ast.type_exprs import TypeExpr
from dl2sql.diagnostics import Span


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
class TransformerParam:
    """One parameter or result of a transformer: ``R: relation[T]`` (``relation`` set)
    or ``f: function(x: A): B`` (``params`` and ``ret`` set)."""

    span: Span
    name: str
    relation: Optional[TypeExpr] = None
    params: tuple[Param, ...] = ()
    ret: Optional[TypeExpr] = None


@node
class TransformerDecl:
    """``extern transformer T(inputs) -> (outputs)``."""

    span: Span
    name: str
    inputs: tuple[TransformerParam, ...] = ()
    outputs: tuple[TransformerParam, ...] = ()


@node
class ApplyDecl:
    """``apply T(args) -> (outs)``."""

    span: Span
    transformer: str
    args: tuple[str, ...]
    outputs: tuple[str, ...]


@node
class FactTable:
    """The facts of one relation written one per line as literals (``Edge(1, 2).``),
    read without the grammar (:mod:`dl2sql.syntax.facts`): ``rows`` holds each fact's
    values as written, ``offsets`` its ``(start, end)`` in ``text`` (the module's text,
    comments blanked). ``reparse`` turns them back into :class:`Rule` s, for the
    checker when it cannot take them as data."""

    span: Span
    relation: str
    rows: tuple[tuple, ...]
    offsets: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)
    reparse: Optional[Callable[[], tuple]] = field(default=None, compare=False, repr=False)


Decl = Union[Import, TypeDef, RelationDecl, FunctionDef, Rule, ForStatement, IndexDecl,
             TransformerDecl, ApplyDecl, FactTable]


@node
class Module:
    """One parsed ``.dl`` file. ``name`` is its module path (``""`` for the main file)."""

    span: Span
    name: str
    decls: tuple[Decl, ...]
