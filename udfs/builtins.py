"""Python implementations of dl2sql's ``ddlog_std`` functions, with Rust's semantics.

Calling convention: ``BUILTINS[qualified name](interp, call, *args)`` where ``interp``
is the running :class:`~dl2sql.interpreter.Interpreter` (for the type environment and
for calling closures) and ``call`` the typed ``TCall`` node, whose argument and result
types resolve overloads and give widths (``pow32``) and orders (``min``). Arguments and
results are runtime values (:mod:`dl2sql.values`).
"""
from __future__ import annotations

from typing import Callable

from dl2sql.interp_ops import to_string as _prim_to_string, wrap
from dl2sql.types.model import TNamed, default_value
from dl2sql.values import Record
from dl2sql.values_order import sort_key

NONE = Record("ddlog_std::None", ())


def some(x) -> Record:
    return Record("ddlog_std::Some", (x,))


def _bytes(s: str) -> bytes:
    return s.encode("utf-8")


def substr(_i, _c, s: str, start: int, end: int) -> str:
    """Byte offsets, both clamped to the length; ``end < start`` gives ``""``."""
    b = _bytes(s)
    start, end = min(start, len(b)), min(end, len(b))
    if end <= start:
        return ""
    return b[start:end].decode("utf-8")


def split(_i, _c, s: str, sep: str) -> tuple:
    """Rust ``str::split``: empty pieces kept; an empty separator splits between every
    character, with an empty piece at both ends."""
    if sep == "":
        return ("",) + tuple(s) + ("",)
    return tuple(s.split(sep))


def trim(_i, _c, s: str) -> str:
    """Unicode White_Space at both ends (Python's ``str.strip`` without arguments)."""
    return s.strip()


def hex_(_i, _c, x: int) -> str:
    return format(x, "x") if x >= 0 else "-" + format(-x, "x")


def _parse_dec(text: str, lo: int, hi: int):
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit():
        return NONE
    v = int(text)
    return some(v) if lo <= v <= hi else NONE


def to_string(interp, call, x) -> str:
    t = call.args[0].type
    if isinstance(t, TNamed):
        raise ValueError(f"to_string of `{t}` needs a user to_string function")
    return _prim_to_string(t, x)


def _min(interp, call, a, b):
    t = call.type
    return a if sort_key(t, a, interp.env) <= sort_key(t, b, interp.env) else b


def _max(interp, call, a, b):
    t = call.type
    return b if sort_key(t, b, interp.env) >= sort_key(t, a, interp.env) else a


def pow32(interp, call, base: int, e: int) -> int:
    return wrap(call.type, pow(base, e, 1 << 130) if e >= 0 else 0)


def unwrap_or(interp, call, v, default):
    if v.ctor in ("ddlog_std::Some", "ddlog_std::Ok"):
        return v.fields[0]
    return default


def unwrap_or_default(interp, call, v):
    return unwrap_or(interp, call, v, default_value(call.type, interp.env))


def _is(ctor: str) -> Callable:
    return lambda _i, _c, v: v.ctor == ctor


def ok_or(_i, _c, o, err):
    return Record("ddlog_std::Ok", o.fields) if o.ctor == "ddlog_std::Some" else \
        Record("ddlog_std::Err", (err,))


def range_vec(_i, _c, start: int, end: int, step: int) -> tuple:
    if step == 0:
        return ()
    return tuple(range(start, end, step))


def _len(_i, call, x) -> int:
    return len(_bytes(x)) if isinstance(x, str) else len(x)


BUILTINS: dict[str, Callable] = {
    "ddlog_std::len": _len,
    "ddlog_std::string_len": _len,
    "ddlog_std::contains": lambda _i, _c, s, sub: sub in s,
    "ddlog_std::string_contains": lambda _i, _c, s, sub: sub in s,
    "ddlog_std::starts_with": lambda _i, _c, s, p: s.startswith(p),
    "ddlog_std::string_starts_with": lambda _i, _c, s, p: s.startswith(p),
    "ddlog_std::ends_with": lambda _i, _c, s, p: s.endswith(p),
    "ddlog_std::string_ends_with": lambda _i, _c, s, p: s.endswith(p),
    "ddlog_std::substr": substr,
    "ddlog_std::string_substr": substr,
    "ddlog_std::replace": lambda _i, _c, s, a, b: s.replace(a, b),
    "ddlog_std::string_replace": lambda _i, _c, s, a, b: s.replace(a, b),
    "ddlog_std::split": split,
    "ddlog_std::string_split": split,
    "ddlog_std::join": lambda _i, _c, v, sep: sep.join(v),
    "ddlog_std::string_join": lambda _i, _c, v, sep: sep.join(v),
    "ddlog_std::trim": trim,
    "ddlog_std::string_trim": trim,
    "ddlog_std::to_lowercase": lambda _i, _c, s: s.lower(),
    "ddlog_std::string_to_lowercase": lambda _i, _c, s: s.lower(),
    "ddlog_std::str_to_lower": lambda _i, _c, s: s.lower(),
    "ddlog_std::to_uppercase": lambda _i, _c, s: s.upper(),
    "ddlog_std::string_to_uppercase": lambda _i, _c, s: s.upper(),
    "ddlog_std::to_bytes": lambda _i, _c, s: tuple(_bytes(s)),
    "ddlog_std::string_to_bytes": lambda _i, _c, s: tuple(_bytes(s)),
    "ddlog_std::to_string": to_string,
    "ddlog_std::hex": hex_,
    "ddlog_std::parse_dec_u64": lambda _i, _c, s: _parse_dec(s, 0, 2**64 - 1),
    "ddlog_std::parse_dec_i64": lambda _i, _c, s: _parse_dec(s, -2**63, 2**63 - 1),
    "ddlog_std::min": _min,
    "ddlog_std::max": _max,
    "ddlog_std::pow32": pow32,
    "ddlog_std::range_vec": range_vec,
    "ddlog_std::is_some": _is("ddlog_std::Some"),
    "ddlog_std::is_none": _is("ddlog_std::None"),
    "ddlog_std::is_ok": _is("ddlog_std::Ok"),
    "ddlog_std::is_err": _is("ddlog_std::Err"),
    "ddlog_std::unwrap_or": unwrap_or,
    "ddlog_std::unwrap_or_default": unwrap_or_default,
    "ddlog_std::ok_or": ok_or,
    "ddlog_std::ref_new": lambda _i, _c, x: x,
    "ddlog_std::deref": lambda _i, _c, x: x,
    "ddlog_std::vec_empty": lambda _i, _c: (),
    "ddlog_std::vec_singleton": lambda _i, _c, x: (x,),
}


def _reverse(_i, _c, x):
    return x[::-1]


BUILTINS["ddlog_std::reverse"] = _reverse
BUILTINS["ddlog_std::string_reverse"] = _reverse
