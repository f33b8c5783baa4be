"""Operator semantics of DDlog on runtime values (used by the interpreter)."""
from __future__ import annotations

import math

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.types import typed as T
from dl2sql.types.model import (TBigInt, TBit, TBool, TDouble, TFloat, TSigned, TString,
                                Type, TypeEnv)
from dl2sql.runtime.order import sort_key, to_f32
from dl2sql.runtime.printing import format_double, format_float


def wrap(t: Type, v: int) -> int:
    """``v`` reduced to the range of integer type ``t`` (two's complement for signed)."""
    if isinstance(t, TBit):
        return v & ((1 << t.width) - 1)
    if isinstance(t, TSigned):
        v &= (1 << t.width) - 1
        return v - (1 << t.width) if v >> (t.width - 1) else v
    return v


def storage_width(t: Type) -> int:
    """The machine width DDlog stores ``bit<N>``/``signed<N>`` in (8/16/32/64/128)."""
    for w in (8, 16, 32, 64, 128):
        if t.width <= w:
            return w
    return t.width


def _float(t: Type, v: float) -> float:
    return to_f32(v) if isinstance(t, TFloat) else v


def ddlog_equal(a, b) -> bool:
    """DDlog equality: like ``==`` but NaN equals NaN (recursively)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(ddlog_equal(x, y) for x, y in zip(a, b))
    if hasattr(a, "ctor") and hasattr(b, "ctor"):
        return a.ctor == b.ctor and ddlog_equal(a.fields, b.fields)
    return a == b


def binary(e: T.TBin, a, b, env: TypeEnv):
    """``a op b`` for the typed operator node ``e``."""
    op, t = e.op, e.left.type
    if op in ("==", "!="):
        eq = ddlog_equal(a, b)
        return eq if op == "==" else not eq
    if op in ("<", "<=", ">", ">="):
        ka, kb = sort_key(t, a, env), sort_key(t, b, env)
        return {"<": ka < kb, "<=": ka <= kb, ">": ka > kb, ">=": ka >= kb}[op]
    if op == "++":
        if isinstance(e.type, TString):
            return a + b
        return (a << e.right.type.width) | b
    if isinstance(t, (TFloat, TDouble)):
        if op == "/":
            if b == 0:
                return math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * (
                    -1 if math.copysign(1, b) < 0 else 1)
            return _float(t, a / b)
        return _float(t, {"+": a + b, "-": a - b, "*": a * b}[op])
    if op in ("/", "%"):
        if b == 0:
            raise RuntimeFailure("division by zero")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return wrap(t, q) if op == "/" else a - b * q
    if op in ("<<", ">>"):
        amount = b % storage_width(t) if not isinstance(t, TBigInt) else b
        return wrap(t, a << amount) if op == "<<" else a >> amount
    result = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[op]
    return wrap(t, result)


def unary(e: T.TUn, v):
    """``-v``, ``~v`` or ``not v``."""
    if e.op == "not":
        return not v
    if e.op == "-":
        return _float(e.type, -v) if isinstance(e.type, (TFloat, TDouble)) else wrap(e.type, -v)
    return wrap(e.type, ~v)


def cast(src: Type, dst: Type, v):
    """``v as dst`` for a value of type ``src`` (§5.2)."""
    if isinstance(dst, TFloat):
        return int_to_f32(v) if isinstance(v, int) else to_f32(v)
    if isinstance(dst, TDouble):
        if isinstance(v, int):
            try:
                return float(v)  # correctly rounded (half to even)
            except OverflowError:  # bigint beyond f64's range: Rust gives inf
                return math.copysign(math.inf, v)
        return float(v)
    return wrap(dst, int(v))


def int_to_f32(v: int) -> float:
    """``v as f32`` rounded once, half to even: going through an f64 first would round
    twice and can land on the wrong neighbour for integers wider than 53 bits."""
    mag = abs(v)
    extra = mag.bit_length() - 24
    if extra > 0:
        q, r = divmod(mag, 1 << extra)
        half = 1 << (extra - 1)
        if r > half or (r == half and q & 1):
            q += 1
        mag = q << extra
    try:
        return to_f32(math.copysign(float(mag), v))
    except OverflowError:
        return math.copysign(math.inf, v)


def slice_bits(e: T.TSlice, v: int) -> int:
    """Bits ``hi..lo`` of ``v``."""
    return (v >> e.lo) & ((1 << (e.hi - e.lo + 1)) - 1)


def to_string(t: Type, v) -> str:
    """DDlog's string conversion of a primitive value (§5.3)."""
    if isinstance(t, TString):
        return v
    if isinstance(t, TBool):
        return "true" if v else "false"
    if isinstance(t, TFloat):
        return format_float(v)
    if isinstance(t, TDouble):
        return format_double(v)
    return str(int(v))
