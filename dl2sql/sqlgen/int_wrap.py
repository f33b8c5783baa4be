"""DDlog's wrap-around of integers up to 64 bits (``bit<64>`` in DECIMAL(38,0), the
others in BIGINT), shared by expressions and the wide integers' casts."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.sqlgen.trees import cast
from dl2sql.sqlgen.types import is_decimal, sql_type
from dl2sql.types.model import TBit, TSigned, Type, TypeEnv

DECIMAL = "DECIMAL(38, 0)"


def _needs_decimal(t: Type, op: str) -> bool:
    """Whether ``op`` on BIGINT-stored ``t`` could overflow 64 bits before wrapping."""
    if is_decimal(t):
        return True
    width = t.width
    if op in ("+", "-"):
        return width > 62
    return width > 31


def widen(e: exp.Expression, t: Type, op: str, exact: str = DECIMAL) -> exp.Expression:
    """``e`` cast to the dialect's ``exact`` integer type (a 128-bit one) when ``op``
    might overflow BIGINT."""
    if isinstance(t, (TBit, TSigned)) and _needs_decimal(t, op) and not is_decimal(t):
        return cast(e, exp.DataType.build(exact))
    return e


def wrap(e: exp.Expression, t: Type, op: str, env: TypeEnv,
         exact: str = DECIMAL) -> exp.Expression:
    """Reduce the integer ``e`` to the range of ``t`` (``bit<N>`` or ``signed<N>``,
    N ≤ 64) with DDlog's wrap-around; wider types wrap in
    :mod:`dl2sql.sqlgen.wide_arith`. ``exact`` is the dialect's 128-bit integer type
    (``e`` is of it, of DECIMAL(38,0) or of BIGINT)."""
    width = t.width
    modulus = 2 ** width
    decimal_domain = is_decimal(t) or (op != "~" and _needs_decimal(t, op)) or op == "cast"
    if not decimal_domain or exact != DECIMAL:
        # a binary integer type wraps by a mask: no division (DuckDB's HUGEINT
        # masked is some 40 times faster than DECIMAL's remainder)
        target = exp.DataType.build(exact)
        widened = op in ("+", "-", "*") and not is_decimal(t)  # operands are of ``exact``
        if decimal_domain and not widened and not (isinstance(e, exp.Cast) and e.to == target):
            e = cast(e, target)
        mask = exp.Literal.number(modulus - 1)
        if isinstance(t, TBit):
            masked = exp.BitwiseAnd(this=e, expression=mask)
        else:
            half = exp.Literal.number(2 ** (width - 1))
            shifted = exp.Add(this=e, expression=half)
            masked = exp.Sub(this=exp.BitwiseAnd(this=shifted, expression=mask),
                             expression=half.copy())
        return cast(masked, sql_type(t, env)) if decimal_domain else masked
    dec = exp.DataType.build(DECIMAL)
    m = cast(exp.Literal.number(modulus), dec)
    if isinstance(t, TSigned):
        e = exp.Add(this=e, expression=cast(exp.Literal.number(modulus // 2), dec))
    pos = exp.Mod(this=exp.Add(this=exp.Mod(this=e, expression=m), expression=m.copy()),
                  expression=m.copy())
    if isinstance(t, TSigned):
        pos = exp.Sub(this=pos, expression=cast(exp.Literal.number(modulus // 2), dec))
    return cast(pos, sql_type(t, env))
