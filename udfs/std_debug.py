"""``to_string_debug``: Rust's ``Debug`` format of DDlog values (language spec §7.5.3).

Unlike ``dump`` printing, records are positional without spaces (``ddlog_std::Some{5}``),
floats print as Rust's ``{:?}`` (``1.0``, ``1e21``), Sets and Maps as Rust's
``BTreeSet``/``BTreeMap`` (``{1, 2}``, ``{1: "a"}``).
"""
from __future__ import annotations

import math
from decimal import Decimal

from dl2sql.types.model import (HASHSET, MAP, REF, SET, SET64, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv)
from dl2sql.runtime.order import normalize
from dl2sql.runtime.printing import escape_string, format_double, format_float


def to_string_debug(t: Type, v, env: TypeEnv) -> str:
    """``v`` (of type ``t``) in Rust ``Debug`` form."""
    out: list[str] = []
    _fmt(t, v, env, out)
    return "".join(out)


def float_debug(x: float, single: bool) -> str:
    """Rust ``{:?}`` of an ``f32`` (``single``) or ``f64``: shortest digits, at least one
    fractional digit, exponent form below 1e-4 and from 1e16 on."""
    display = format_float(x) if single else format_double(x)
    if math.isnan(x) or math.isinf(x):
        return display
    if x == 0 or 1e-4 <= abs(x) < 1e16:
        return display if "." in display else display + ".0"
    d = Decimal(display).normalize()
    sign, digits, exponent = d.as_tuple()
    mantissa = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
    return ("-" if sign else "") + f"{mantissa}e{exponent + len(digits) - 1}"


def _fmt(t: Type, v, env: TypeEnv, out: list) -> None:
    if isinstance(t, TBool):
        out.append("true" if v else "false")
    elif isinstance(t, (TBit, TSigned, TBigInt)):
        out.append(str(int(v)))
    elif isinstance(t, TString):
        out.append(escape_string(v))
    elif isinstance(t, (TFloat, TDouble)):
        out.append(float_debug(v, isinstance(t, TFloat)))
    elif isinstance(t, TTuple):
        _seq("(", ")", list(zip(t.elems, v)), env, out)
    elif isinstance(t, TNamed) and t.name == VEC:
        _seq("[", "]", [(t.args[0], x) for x in v], env, out)
    elif isinstance(t, TNamed) and t.name in (SET, HASHSET):
        _seq("{", "}", [(t.args[0], x) for x in normalize(t, v, env)], env, out)
    elif isinstance(t, TNamed) and t.name == SET64:  # tinyset's own Debug: no spaces
        out.append("[")
        for i, x in enumerate(normalize(t, v, env)):
            out.append("," if i else "")
            _fmt(t.args[0], x, env, out)
        out.append("]")
    elif isinstance(t, TNamed) and t.name == MAP:
        out.append("{")
        for i, (k, x) in enumerate(normalize(t, v, env)):
            out.append(", " if i else "")
            _fmt(t.args[0], k, env, out)
            out.append(": ")
            _fmt(t.args[1], x, env, out)
        out.append("}")
    elif isinstance(t, TNamed) and t.name == REF:
        _fmt(t.args[0], v, env, out)
    elif isinstance(t, TNamed) and env.defs.get(t.name) is not None and env.defs[t.name].ctors:
        ctor = env.ctors(t)[env.ctor_index(t, v.ctor)]
        closures = env.defs[t.name].closures
        if closures:  # a stored closure (dl2sql.passes.function_values)
            out.append(f"<closure: {closures[env.ctor_index(t, v.ctor)]}, captured_args: ")
            types = [ft for _, ft in ctor.fields]
            if len(types) == 1:
                _fmt(types[0], v.fields[0], env, out)
            else:
                _fmt(TTuple(tuple(types)), v.fields, env, out)
            out.append(">")
            return
        out.append(v.ctor + "{")
        for i, ((_, ft), fv) in enumerate(zip(ctor.fields, v.fields)):
            out.append("," if i else "")
            _fmt(ft, fv, env, out)
        out.append("}")
    else:
        out.append(str(v))


def _seq(open_: str, close: str, items: list, env: TypeEnv, out: list) -> None:
    out.append(open_)
    for i, (et, x) in enumerate(items):
        out.append(", " if i else "")
        _fmt(et, x, env, out)
    out.append(close)
