"""Arithmetic on wide integers (``bigint``; ``bit<N>``, ``signed<N>`` for N > 64),
native SQL while the values are small, the interpreter beyond.

A tree of wide-integer operations (``+ - * / %``, negation, casts) is computed on the
pairs' ``num`` parts (:mod:`dl2sql.types.wide_ints`) in DECIMAL(38,0) under a
*guard*: first, upper bounds of every intermediate value's magnitude, computed in
DOUBLE from the operands, are below :data:`LIMIT` (so no DECIMAL operation can
overflow, and every result is small); these cannot fail on any row. Then, in order,
the checks that need values: a divisor is not zero (the interpreter then fails as
DDlog does), a ``bit<N>`` result is within its range (else it wraps, and a wrapped
``bit<128>`` is huge). Where the guard fails, the interpreter computes the
expression with Python's integers: a UDF, shared by both engines. How native and UDF
are put together depends on the engine (``ExprCompiler.guard_mode``):

* ``lazy`` (DuckDB, whose CASE runs a UDF only for the rows that reach it):
  ``CASE WHEN guard THEN native ELSE udf END``;
* ``split`` (a rule's SELECT on Spark, which runs every UDF of a query on every row):
  ``CASE WHEN guard THEN native ELSE placeholder END`` and the guard goes to the
  WHERE clause; the rows failing a guard are computed by a second SELECT in which
  the expressions holding guarded parts run in the interpreter
  (:func:`dl2sql.sqlgen.blocks.block_select`);
* ``eager`` (Spark elsewhere): as lazy; correct, but the UDF runs on every row;
* ``fail`` (the NARROW representation, every engine: values are plain DECIMALs,
  :mod:`dl2sql.sqlgen.wide_ints`): ``CASE WHEN guard THEN native ELSE failure END``,
  the failure an :class:`~dl2sql.diagnostics.IntegerOverflow`, after which the run
  starts again with the WIDE representation. On Spark the guard decides (without
  ANSI mode Spark gives NULL where a DECIMAL overflows); DuckDB fails on any DECIMAL
  overflow itself (``Dialect.checked_decimals``: a
  :class:`~dl2sql.diagnostics.DecimalOverflow`, which a NARROW run takes as an
  IntegerOverflow), so there only the value checks remain.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from sqlglot import exp

from dl2sql.runtime.defaults import default_value
from dl2sql.sqlgen.trees import InsideLambda, cast
from dl2sql.sqlgen.types import sql_type
from dl2sql.sqlgen import wide_ints as sql_wide
from dl2sql.types import typed as T
from dl2sql.types.model import TBigInt, TBit, TDouble, TFloat, TSigned, Type
from dl2sql.types.wide_ints import CAP, is_wide

# Below CAP (10^38 - 1) with room for DOUBLE's rounding of the bounds (a relative
# error of about 1e-16 per operation).
LIMIT = 9e37
_ARITH = ("+", "-", "*", "/", "%")
_INTS = (TBit, TSigned, TBigInt)
DECIMAL = exp.DataType.build("DECIMAL(38, 0)")
DOUBLE = exp.DataType.build("DOUBLE")


def guarded(e: T.TExpr) -> bool:
    """Whether ``e`` is computed natively under a guard (its operands may be too)."""
    if isinstance(e, T.TBin):
        return e.op in _ARITH and is_wide(e.type)
    if isinstance(e, T.TUn):
        return e.op == "-" and is_wide(e.type)
    if isinstance(e, T.TCast):
        src, dst = e.expr.type, e.type
        return is_wide(src) and isinstance(dst, _INTS + (TFloat, TDouble))
    return False


def _double(v: float) -> exp.Expression:
    return cast(exp.Literal.number(repr(float(v))), DOUBLE.copy())


def _decimal(v: int) -> exp.Expression:
    lit = exp.Literal.number(abs(v))
    return cast(exp.Neg(this=lit) if v < 0 else lit, DECIMAL.copy())


@dataclass
class _Native:
    """A wide value computed natively: ``dec`` exact where the guard holds; ``bound``
    (DOUBLE) at least its magnitude, up to rounding."""

    dec: exp.Expression
    bound: exp.Expression


@dataclass
class _Guard:
    """Bounds (each below its limit) and, after them, the ordered value checks; without
    ``bounded``, the bounds are left to the engine (see :meth:`expression`)."""

    bounds: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    never: bool = False
    bounded: bool = True

    def expression(self) -> exp.Expression | None:
        """The guard, or None where nothing needs checking. Not ``bounded``, an engine
        that fails on a DECIMAL overflow (``Dialect.checked_decimals``) checks every
        operation itself: a NARROW plan then pays nothing for the guard but its value
        checks (an overflow inside one of them fails as any other)."""
        if self.never:
            return exp.false()
        if not self.bounded and not self.checks:
            return None
        unique = {}  # a value used twice has its bound twice
        for b, limit in self.bounds if self.bounded else ():
            unique.setdefault(b.sql(), exp.LT(this=b, expression=_double(limit)))
        within = exp.and_(*unique.values()) if unique else exp.true()
        if not self.checks:
            return within
        # CASE keeps the order: a check runs only where the bounds (and the checks
        # before it) hold, so its DECIMAL operations cannot overflow or divide by zero
        ifs = [exp.If(this=exp.Not(this=c), true=exp.false())
               for c in ([within] if unique else []) + self.checks]
        return exp.Case(ifs=ifs, default=exp.true())


def _range_checks(t: Type, dec: exp.Expression) -> list[exp.Expression]:
    """Value checks that ``dec`` lies within ``t``'s range, where a small value can
    lie outside it (bit<N> below zero, N < 127 beyond 2^N)."""
    if isinstance(t, TBigInt):
        return []
    low, high = (0, 2 ** t.width - 1) if isinstance(t, TBit) else \
        (-2 ** (t.width - 1), 2 ** (t.width - 1) - 1)
    out = []
    if low > -CAP:
        out.append(exp.GTE(this=dec.copy(), expression=_decimal(low)))
    if high < CAP:
        out.append(exp.LTE(this=dec.copy(), expression=_decimal(high)))
    return out


def _in_rule(span) -> str:
    """Where a failure of the SQL text happens: the rule's file by its name only, so
    that the SQL is the same wherever the program is compiled from."""
    if span is None:
        return ""
    return f" in the rule at {os.path.basename(span.file)}:{span.line}:{span.col}"


class WideArith:
    """Mixin of ExprCompiler: guarded wide-integer arithmetic (see the module)."""

    def wide_guarded(self, e: T.TExpr, text: T.TToString | None = None) -> exp.Expression:
        """``e`` (for which :func:`guarded` holds) natively where its guard holds; with
        ``text`` (``e`` converted to a string), that string."""
        if self.lambda_vars and self.guard_mode != "fail":
            raise InsideLambda()  # the guard or the UDF would read a lambda's variable
        g = _Guard(bounded=self.guard_mode != "fail" or not self.dialect.checked_decimals)
        if text is not None:  # the digits of a small value
            native = cast(cast(self._native(e, g).dec, DECIMAL.copy()), sql_wide.STRING.copy())
            e = text
        else:
            native = self._wide_result(e, g)
        guard = g.expression()
        if guard is None:
            return native
        if self.guard_mode == "fail":
            fallback = self.wide.overflow(_in_rule(self.rule_span))
        elif self.guard_mode == "split":
            self.guards.append(guard)
            fallback = self.literal(e.type, default_value(e.type, self.env))
        else:
            fallback = self.udf_expr(e)
            if self.guard_mode == "lazy":
                self.lazy_udfs.add(fallback.name)
        return exp.Case(ifs=[exp.If(this=guard.copy(), true=native)], default=fallback)

    def _wide_result(self, e: T.TExpr, g: _Guard) -> exp.Expression:
        if isinstance(e, T.TCast) and not is_wide(e.type):
            src = self._native(e.expr, g).dec
            if isinstance(e.type, (TFloat, TDouble)):
                return cast(src, sql_type(e.type, self.env))
            return self._wrap(cast(src, exp.DataType.build(self.dialect.exact_int)), e.type,
                              "cast")
        return self.wide.of_decimal(self._native(e, g).dec)

    def _native(self, e: T.TExpr, g: _Guard, implied: bool = False) -> _Native:
        """``e``'s value as a DECIMAL under ``g``, to which the node's bound is added
        unless ``implied`` (the parent's bound is at least this one's: a sum's)."""
        if isinstance(e, T.TConst) and is_wide(e.type):
            if not -CAP < e.value < CAP:
                g.never = True  # a huge constant: the interpreter computes
                return _Native(_decimal(0), _double(0))
            return _Native(_decimal(e.value), _double(abs(e.value)))
        if isinstance(e, T.TCast) and is_wide(e.type) and not is_wide(e.expr.type):
            inner = self.compile(e.expr)  # an integer of at most 64 bits: small
            return _Native(cast(inner, DECIMAL.copy()),
                           exp.Abs(this=cast(inner.copy(), DOUBLE.copy())))
        if not guarded(e):  # any other wide value: its pair's num, if it is small
            num = self.wide.num(self.compile(e))
            out = _Native(num, exp.Abs(this=cast(num.copy(), DOUBLE.copy())))
        elif isinstance(e, T.TUn):
            a = self._native(e.expr, g, implied=True)
            out = _Native(exp.Neg(this=a.dec), a.bound)
        elif isinstance(e, T.TCast):
            out = self._native(e.expr, g, implied=True)
        else:
            out = self._binary(e, g)
        if not implied:
            g.bounds.append((out.bound.copy(), LIMIT))
        if guarded(e):
            g.checks.extend(_range_checks(e.type, out.dec))
        return out

    def _binary(self, e: T.TBin, g: _Guard) -> _Native:
        if e.op in ("+", "-"):
            a, b = self._native(e.left, g, True), self._native(e.right, g, True)
            node = exp.Add if e.op == "+" else exp.Sub
            return _Native(node(this=a.dec, expression=b.dec),
                           exp.Add(this=a.bound, expression=b.bound))
        if e.op == "*":  # a factor may be larger than the product (zero)
            a, b = self._native(e.left, g), self._native(e.right, g)
            return _Native(exp.Mul(this=a.dec, expression=b.dec),
                           exp.Mul(this=a.bound, expression=b.bound))
        # |a / b| and |a % b| are at most |a|, which must be within the division's
        # exact range; the divisor within LIMIT and not zero
        a, b = self._native(e.left, g, True), self._native(e.right, g)
        g.bounds.append((a.bound.copy(), min(LIMIT, self.dialect.exact_division)))
        g.checks.append(exp.NEQ(this=b.dec.copy(), expression=_decimal(0)))
        if e.op == "/":
            return _Native(self.dialect.decimal_int_div(a.dec, b.dec), a.bound)
        return _Native(cast(exp.Mod(this=a.dec, expression=b.dec), DECIMAL.copy()), a.bound)
