"""Type expressions as written: ``bit<32>``, ``(A, B)``, ``Vec<T>``, ``'A``, ``function(...)``."""
from __future__ import annotations

from typing import Optional, Union

from dl2sql.ast.base import node
from dl2sql.diagnostics import Span


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
