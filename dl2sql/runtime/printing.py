"""Printing runtime values exactly as DDlog's CLI does (language spec §7.5).

The CLI prints ``value.into_record()`` with the ``Display`` of DDlog's untyped
``Record``: named structs as ``Ctor{.f = v}``, collections as ``[..]``, strings through
``format_ddlog_str`` (Rust's ``char::escape_debug`` except for ``'``), floats with
Rust's ``Display`` (shortest round-trip digits, never an exponent).
"""
from __future__ import annotations

import math
import struct
import unicodedata
from decimal import Decimal, localcontext

from dl2sql.types.model import (SET_KINDS, TRANSPARENT, MAP, VEC, TBigInt, TBit, TBool, TDouble,
                                TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv)
from dl2sql.runtime.values import AnyValue, Record
from dl2sql.types.storage import extern_storage
from dl2sql.runtime.extern_types import PRINTED
from dl2sql.runtime.order import normalize, to_f32


_SIMPLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t",
                   "\0": "\\0"}

# Code points with Grapheme_Extend=Yes that are not in categories Mn/Me
# (Unicode's Other_Grapheme_Extend plus ZWNJ); Python's unicodedata has no direct
# accessor for the property Rust's escape_debug consults.
_OTHER_GRAPHEME_EXTEND = (
    {0x09BE, 0x09D7, 0x0B3E, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E,
     0x0D57, 0x0DCF, 0x0DDF, 0x1B35, 0x200C, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1133E,
     0x11357, 0x114B0, 0x114BD, 0x115AF, 0x1D165}
    | set(range(0x1D16E, 0x1D173)) | set(range(0xE0020, 0xE0080)))


def _needs_unicode_escape(ch: str) -> bool:
    # Python's isprintable() excludes exactly Rust's non-printable categories
    # (Cc Cf Cs Co Cn Zl Zp Zs except ' ').
    if not ch.isprintable():
        return True
    return unicodedata.category(ch) in ("Mn", "Me") or ord(ch) in _OTHER_GRAPHEME_EXTEND


def escape_string(s: str) -> str:
    """``s`` double-quoted with DDlog's escaping (§7.5.2)."""
    out = ['"']
    for ch in s:
        esc = _SIMPLE_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        elif ch != "'" and _needs_unicode_escape(ch):
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _plain(d: Decimal) -> str:
    """A decimal without exponent and without trailing fractional zeros."""
    text = format(d.normalize(), "f")
    return text


def format_double(x: float) -> str:
    """Rust's ``Display`` of an ``f64``: ``1``, ``0.1``, ``1e21`` as 22 digits, ``NaN``."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    # repr() is the shortest round-tripping decimal (closest one when several exist),
    # which is also what Rust's Grisu/Dragon printing picks.
    return _plain(Decimal(repr(x)))


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_from_bits(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b))[0]


def format_float(x: float) -> str:
    """Rust's ``Display`` of an ``f32``; ``x`` is first rounded to binary32 in case an
    engine handed back a wider value."""
    x = to_f32(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    bits = _f32_bits(x)
    with localcontext() as ctx:
        ctx.prec = 200  # exact arithmetic on binary32 values and their midpoints
        exact = Decimal(x)
        below = Decimal(_f32_from_bits(bits - 1)) if bits > 1 else Decimal(0)
        if bits + 1 >= 0x7F800000:  # next up is infinity: use a symmetric half-ulp
            above = exact + (exact - below)
        else:
            above = Decimal(_f32_from_bits(bits + 1))
        lo, hi = (below + exact) / 2, (exact + above) / 2
        even = bits % 2 == 0  # round-half-even: boundaries belong to even mantissas

        def inside(c: Decimal) -> bool:
            return lo < c < hi or (even and (c == lo or c == hi))

        for digits in range(1, 10):
            base = Decimal(f"{x:.{digits - 1}e}")
            step = Decimal(1).scaleb(base.adjusted() - digits + 1)
            # The correctly rounded candidate can fall outside the (asymmetric)
            # rounding interval while a neighbour with the same length is inside.
            cands = [c for c in (base, base - step, base + step) if c > 0 and inside(c)]
            if cands:
                best = min(cands, key=lambda c: abs(c - exact))
                return sign + _plain(best)
    return sign + _plain(Decimal(x))  # unreachable: 9 digits always round-trip


def format_value(t: Type, v, env: TypeEnv) -> str:
    """``v`` (of type ``t``) as DDlog's ``dump`` prints it (§7.5.1)."""
    parts: list[str] = []
    _fmt(t, v, env, parts)
    return "".join(parts)


def _fmt(t: Type, v, env: TypeEnv, out: list) -> None:
    if isinstance(t, TBool):
        out.append("true" if v else "false")
    elif isinstance(t, (TBit, TSigned, TBigInt)):
        out.append(str(int(v)))
    elif isinstance(t, TString):
        out.append(escape_string(v))
    elif isinstance(t, TFloat):
        out.append(format_float(v))
    elif isinstance(t, TDouble):
        out.append(format_double(v))
    elif isinstance(t, TTuple):
        out.append("(")
        for i, (et, ev) in enumerate(zip(t.elems, v)):
            if i:
                out.append(", ")
            _fmt(et, ev, env, out)
        out.append(")")
    elif isinstance(t, TNamed):
        _fmt_named(t, v, env, out)
    else:
        out.append(str(v))


def _fmt_named(t: TNamed, v, env: TypeEnv, out: list) -> None:
    if t.name in (VEC, MAP) or t.name in SET_KINDS:
        # Sets and maps print in their iteration order whatever order the caller kept.
        items = normalize(t, v, env) if t.name != VEC else v
        if t.name == MAP:
            et = TTuple((t.args[0], t.args[1]))
        else:
            et = t.args[0]
        out.append("[")
        for i, e in enumerate(items):
            if i:
                out.append(", ")
            _fmt(et, e, env, out)
        out.append("]")
        return
    if t.name in TRANSPARENT:
        _fmt(t.args[0], v, env, out)
        return
    if isinstance(v, AnyValue):  # DDlog prints the value inside
        _fmt(v.type, v.value, env, out)
        return
    if extern_storage(t) is not None and extern_storage(t).record is not None:
        out.append(escape_string(PRINTED[t.name](v)))  # its record: a string
        return
    if extern_storage(t) is not None:
        _fmt(extern_storage(t).type, v, env, out)
        return
    defn = env.defs.get(t.name)
    if defn is None or not defn.ctors or not isinstance(v, Record):
        out.append(str(v))
        return
    ctor = env.ctors(t)[env.ctor_index(t, v.ctor)]
    if defn.closures:  # a stored closure (dl2sql.passes.function_values)
        _fmt_closure(defn.closures[env.ctor_index(t, v.ctor)], ctor, v, env, out)
        return
    out.append(v.ctor)
    out.append("{")
    for i, ((fname, ft), fv) in enumerate(zip(ctor.fields, v.fields)):
        if i:
            out.append(", ")
        out.append(f".{fname} = ")
        _fmt(ft, fv, env, out)
    out.append("}")


def _fmt_closure(description: str, ctor, v: Record, env: TypeEnv, out: list) -> None:
    """A closure as DDlog's runtime shows one: its text and the Debug form of what it
    captured (``()`` for nothing, the value itself for one variable, else a tuple).
    The text is dl2sql's rendering of the closure, not DDlog's."""
    out.append(f"<closure: {description}, captured_args: ")
    types = [ft for _, ft in ctor.fields]
    if len(types) == 1:
        _fmt(types[0], v.fields[0], env, out)
    else:
        _fmt(TTuple(tuple(types)), v.fields, env, out)
    out.append(">")
