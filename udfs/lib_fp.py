"""Python implementations of DDlog's ``fp`` library (floating point functions), with
Rust's semantics: ``_f`` functions compute on ``f32`` (the result is rounded to single
precision), ``_d`` ones on ``f64``; ``round`` rounds half away from zero; ``signum``
of a zero is +/-1 by its sign; NaN propagates instead of raising.
"""
from __future__ import annotations

import math
from typing import Callable

from dl2sql.runtime.values import Record
from dl2sql.runtime.order import to_f32


def _guard(fn: Callable[..., float]) -> Callable[..., float]:
    """``fn`` returning NaN where Python's math raises for a domain error, and the
    signed infinity where it overflows."""
    def safe(*args):
        try:
            return fn(*args)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    safe.__doc__ = fn.__doc__
    return safe


def _round(x: float) -> float:
    """Round half away from zero."""
    if math.isnan(x) or math.isinf(x):
        return x
    return math.copysign(math.floor(abs(x) + 0.5), x)


def _trunc(x: float) -> float:
    """Toward zero, keeping NaN and infinities."""
    return x if math.isnan(x) or math.isinf(x) else math.copysign(float(math.trunc(x)), x)


def _signum(x: float) -> float:
    """1.0 or -1.0 by the sign bit (zeros included); NaN stays NaN."""
    return x if math.isnan(x) else math.copysign(1.0, x)


def _cbrt(x: float) -> float:
    """Real cube root."""
    return math.copysign(abs(x) ** (1.0 / 3.0), x) if not hasattr(math, "cbrt") \
        else math.cbrt(x)


def _ln(x: float) -> float:
    """Natural logarithm: -inf at 0, NaN below."""
    if x == 0:
        return -math.inf
    return math.log(x) if x > 0 or math.isnan(x) else math.nan


def _log_base(b: Callable[[float], float]) -> Callable[[float], float]:
    def log(x: float) -> float:
        if x == 0:
            return -math.inf
        return b(x) if x > 0 or math.isnan(x) else math.nan
    log.__doc__ = "Logarithm with -inf at 0 and NaN below."
    return log


def _log(x: float, base: float) -> float:
    """``ln(x) / ln(base)``."""
    return _ln(x) / _ln(base) if _ln(base) != 0 else math.nan


def _powi(x: float, n: int) -> float:
    """``x`` to an integer power."""
    try:
        return x ** n
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf


def _powf(x: float, y: float) -> float:
    """``x`` to a float power (NaN for a negative base and a fractional power)."""
    try:
        r = x ** y
    except ZeroDivisionError:
        return math.inf
    except OverflowError:
        return math.inf
    return math.nan if isinstance(r, complex) else r


def _int_from(x: float) -> Record:
    """The integer part as a bigint, None for NaN and infinities."""
    if math.isnan(x) or math.isinf(x):
        return Record("ddlog_std::None", ())
    return Record("ddlog_std::Some", (math.trunc(x),))


def _parse(single: bool) -> Callable[[str], Record]:
    def parse(s: str) -> Record:
        text = s.strip() if False else s
        try:
            if text.lower() in ("nan", "+nan", "-nan"):
                v = math.nan
            elif text.lower().lstrip("+-") in ("inf", "infinity"):
                v = -math.inf if text.startswith("-") else math.inf
            elif any(c in text for c in " _") or not text:
                raise ValueError
            else:
                v = float(text)
        except ValueError:
            return Record("ddlog_std::Err", ("invalid float literal",))
        return Record("ddlog_std::Ok", (to_f32(v) if single else v,))
    parse.__doc__ = "Parse a float as Rust's `str::parse` does."
    return parse


def _rust_hyperbolic(single: bool) -> dict[str, Callable[[float], float]]:
    """asinh/acosh/atanh as Rust's std computes them, rounding every step to the
    working precision (f32 results differ in the last place from correctly rounded
    ones)."""
    r = to_f32 if single else float

    def ln_1p(x: float) -> float:
        return r(math.log1p(x)) if x > -1 else (-math.inf if x == -1 else math.nan)

    def asinh(x: float) -> float:
        if math.isnan(x) or math.isinf(x):
            return x
        ax = abs(x)
        if ax == 0:
            return x
        ix = r(1.0 / ax)
        return math.copysign(ln_1p(r(ax + r(ax / r(r(math.hypot(1.0, ix)) + ix)))), x)

    def acosh(x: float) -> float:
        if x < 1.0 or math.isnan(x):
            return math.nan
        return r(math.log(r(x + r(r(math.sqrt(r(x - 1.0))) * r(math.sqrt(r(x + 1.0)))))))

    def atanh(x: float) -> float:
        return r(0.5 * ln_1p(r(r(2.0 * x) / r(1.0 - x)))) if x != 1.0 else math.inf
    return {"asinh": asinh, "acosh": acosh, "atanh": atanh}


_UNARY: dict[str, Callable[[float], float]] = {
    "floor": math.floor, "ceil": math.ceil, "round": _round, "trunc": _trunc,
    "fract": lambda x: x - _trunc(x), "abs": abs, "signum": _signum,
    "sqrt": lambda x: math.sqrt(x) if x >= 0 or math.isnan(x) else math.nan,
    "exp": math.exp, "exp2": lambda x: 2.0 ** x, "ln": _ln,
    "log2": _log_base(math.log2), "log10": _log_base(math.log10), "cbrt": _cbrt,
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
    "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
    "recip": lambda x: 1.0 / x if x != 0 else math.copysign(math.inf, x),
    "to_degrees": math.degrees, "to_radians": math.radians,
}
_OTHER: dict[str, Callable] = {
    "atan2": math.atan2, "mul_add": lambda a, b, c: a * b + c, "powi": _powi,
    "powf": _powf, "log": _log,
}
_TESTS: dict[str, Callable[[float], bool]] = {
    "is_nan": math.isnan, "is_infinite": math.isinf, "is_finite": math.isfinite,
}


def _float_fn(fn: Callable, single: bool, name: str) -> Callable:
    fn = _guard(fn)

    def run(*args):
        r = float(fn(*args))
        return to_f32(r) if single else r
    run.__doc__ = f"Rust's `{name}` on {'f32' if single else 'f64'}."
    return run


def _nan() -> float:
    """A quiet NaN."""
    return math.nan


def _library() -> dict[str, Callable]:
    out: dict[str, Callable] = {}
    for suffix, single in (("_f", True), ("_d", False)):
        for name, fn in {**_UNARY, **_OTHER, **_rust_hyperbolic(single)}.items():
            out[f"fp::{name}{suffix}"] = _float_fn(fn, single, name)
        for name, fn in _TESTS.items():
            out[f"fp::{name}{suffix}"] = fn
        out[f"fp::nan{suffix}"] = _nan
        out[f"fp::int_from{suffix}"] = _int_from
        out[f"fp::parse{suffix}"] = _parse(single)
    return out


FP: dict[str, Callable] = _library()
