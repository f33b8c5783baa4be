"""A closure's text as DDlog prints it (``<closure: TEXT, captured_args: ...>``).

DDlog's compiler stores, with each closure, its own pretty-printing of the closure's
expression after type inference and with type annotations removed: names qualified,
method calls written as calls, every call, binary operator, field access and closure
in parentheses, literals with their widths (``64'sd1``), parameters and result with
their types, blocks, ``if`` and ``match`` laid out on several lines. This module
prints dl2sql's typed closure the same way, with a small layout model of the
pretty-printing library DDlog uses (horizontal composition indents the lines that
follow by the column where it started; vertical composition stacks lines).

Types print as written (aliases kept, ``ddlog_std::s64``), except that the top of a
parameter or result type is expanded (``signed<64>``), as DDlog's type inference
leaves them. What dl2sql's checker adds on its own (looking through ``Ref`` with
``deref``) prints as the calls it is.
"""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from dl2sql.runtime.printing import format_double, format_float
from dl2sql.runtime.values import Record
from dl2sql.types import typed as T
from dl2sql.types.model import (TBigInt, TBit, TBool, TDouble, TFloat, TFunc, TNamed,
                                TSigned, TString, TTuple, TypeEnv)
from dl2sql.types.spelling import type_text

INDENT = 4  # DDlog's nesting step


@dataclasses.dataclass(frozen=True)
class Doc:
    """Laid-out text: lines of ``(indentation, text)``; no lines is the empty doc."""

    lines: tuple[tuple[int, str], ...] = ()

    def __add__(self, other: "Doc") -> "Doc":  # horizontal composition (``<>``)
        if not self.lines:
            return other
        if not other.lines:
            return self
        (ia, ta), (ib, tb) = self.lines[-1], other.lines[0]
        shift = ia + len(ta) - ib
        return Doc(self.lines[:-1] + ((ia, ta + tb),)
                   + tuple((i + shift, t) for i, t in other.lines[1:]))

    def space(self, other: "Doc") -> "Doc":  # ``<+>``
        if not self.lines or not other.lines:
            return self + other
        return self + text(" ") + other

    def above(self, other: "Doc") -> "Doc":  # ``$$``: the next line, or the same one
        if not self.lines:  # when this doc's last line ends before the other starts
            return other
        if not other.lines:
            return self
        (ia, ta), (ib, tb) = self.lines[-1], other.lines[0]
        if ib > ia + len(ta) and ta:
            return Doc(self.lines[:-1] + ((ia, ta + " " * (ib - ia - len(ta)) + tb),)
                       + other.lines[1:])
        return Doc(self.lines + other.lines)

    def nest(self, k: int) -> "Doc":
        return Doc(tuple((i + k, t) for i, t in self.lines))

    def render(self) -> str:
        return "\n".join(" " * i + t for i, t in self.lines)


def text(s: str) -> Doc:
    return Doc(((0, s),))


def parens(d: Doc) -> Doc:
    return text("(") + d + text(")")


def braces(d: Doc) -> Doc:
    return text("{") + d + text("}")


def comma_sep(docs) -> Doc:
    """Items separated by ``", "`` on one line."""
    out = Doc()
    for i, d in enumerate(docs):
        out = d if i == 0 else out + text(",").space(d)
    return out


def vcomma_sep(docs) -> Doc:
    """Items one under the other, each but the last followed by a comma."""
    docs = list(docs)
    out = Doc()
    for i, d in enumerate(docs):
        out = out.above(d + text(",") if i < len(docs) - 1 else d)
    return out


def closure_text(c: T.TClosure, env: TypeEnv) -> str:
    """The description DDlog's runtime shows for closure ``c``."""
    return ClosurePrinter(env).expr(c).render()


ASCII_NAMES = ("NUL SOH STX ETX EOT ENQ ACK a b t n v f r SO SI DLE DC1 DC2 DC3 DC4 NAK "
               "SYN ETB CAN EM SUB ESC FS GS RS US").split()


def haskell_string(s: str) -> str:
    """``s`` as Haskell's ``show`` writes a string literal (DDlog prints string
    literals with it): control characters by name, others beyond ASCII in decimal."""
    out = ['"']
    for i, ch in enumerate(s):
        o, nxt = ord(ch), s[i + 1:i + 2]
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= o < 127:
            out.append(ch)
        elif o < 32:
            out.append("\\" + ASCII_NAMES[o])
            if ASCII_NAMES[o] == "SO" and nxt == "H":
                out.append("\\&")  # `\SOH` would read as one character
        else:
            out.append("\\DEL" if o == 127 else f"\\{o}")
            if o > 127 and nxt.isdigit():
                out.append("\\&")  # a decimal escape must not run into a digit
    out.append('"')
    return "".join(out)


def haskell_float(shortest: str) -> str:
    """A floating-point number as Haskell's ``show`` writes it, from its shortest
    digits: ``1.5``, ``0.1``, ``100.0``, and ``1.0e-2`` / ``1.0e7`` outside [0.1, 10^7)."""
    if shortest in ("NaN", "inf", "-inf"):
        return {"NaN": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[shortest]
    d = Decimal(shortest)
    if d == 0:
        return "0.0"
    sign, digits, exponent = d.normalize().as_tuple()
    digits = "".join(map(str, digits))
    power = exponent + len(digits)  # the value is 0.DIGITS * 10^power
    if 0 <= power <= 7:
        whole, frac = digits[:power].ljust(power, "0") or "0", digits[power:] or "0"
        body = f"{whole}.{frac}"
    else:
        body = f"{digits[0]}.{digits[1:] or '0'}e{power - 1}"
    return ("-" if sign else "") + body


class ClosurePrinter:
    """DDlog's ``pp`` of expressions, over dl2sql's typed IR."""

    def __init__(self, env: TypeEnv):
        self.env = env

    def expr(self, e) -> Doc:
        method = getattr(self, "_" + type(e).__name__, None)
        if method is None:
            return text(type(e).__name__)  # nothing DDlog would show: named
        return method(e)

    def _TClosure(self, e: T.TClosure) -> Doc:
        named = _named_function(e)
        if named is not None:
            return text(named)
        params = comma_sep(text(f"{n}: ") + text(type_text(t, expand_alias=True))
                           for n, t in e.params)
        ret = type_text(e.type.ret, expand_alias=True) if isinstance(e.type, TFunc) else ""
        return parens(text("function") + parens(params) + text(":" + ret)
                      + braces(self.expr(e.body)))

    def _TVarRef(self, e: T.TVarRef) -> Doc:
        return text(e.name)

    def _TConst(self, e: T.TConst) -> Doc:
        return text(literal(e.type, e.value))

    def _TCall(self, e: T.TCall) -> Doc:
        return parens(text(function_name(e.func)) + parens(comma_sep(self.expr(a) for a in e.args)))

    def _TApply(self, e: T.TApply) -> Doc:
        return parens(self.expr(e.callee) + parens(comma_sep(self.expr(a) for a in e.args)))

    def _TBin(self, e: T.TBin) -> Doc:
        return parens(self.expr(e.left).space(text(e.op)).space(self.expr(e.right)))

    def _TUn(self, e: T.TUn) -> Doc:
        return parens(text(e.op).space(self.expr(e.expr)))

    def _TCast(self, e: T.TCast) -> Doc:
        return parens(self.expr(e.expr).space(text("as")).space(text(type_text(e.type))))

    def _TToString(self, e: T.TToString) -> Doc:  # DDlog's injected conversion
        return parens(text("ddlog_std::__builtin_2string")
                      + parens(self.expr(e.expr)))

    def _TStruct(self, e: T.TStruct) -> Doc:
        fields = self.env.ctors(e.type)[self.env.ctor_index(e.type, e.ctor)].fields \
            if isinstance(e.type, TNamed) and e.type.name in self.env.defs else ()
        names = [n for n, _ in fields] or [""] * len(e.args)
        return text(e.ctor) + braces(comma_sep(
            (text(f".{n}=") if n else Doc()) + self.expr(a) for n, a in zip(names, e.args)))

    def _TTupleE(self, e: T.TTupleE) -> Doc:
        if len(e.elems) == 1:
            return self.expr(e.elems[0])
        return parens(comma_sep(self.expr(a) for a in e.elems))

    def _TGetField(self, e) -> Doc:
        return parens(self.expr(e.expr) + text("." + e.field))

    _TCtorField = _TGetField

    def _TTupleGet(self, e: T.TTupleGet) -> Doc:
        return parens(self.expr(e.expr) + text(f".{e.index}"))

    def _TSlice(self, e: T.TSlice) -> Doc:
        return parens(self.expr(e.expr) + text(f"[{e.hi}:{e.lo}]"))

    def _TIf(self, e: T.TIf) -> Doc:
        head = text("if").space(self.expr(e.cond)).space(text("{"))
        tail = text("}").space(text("else").space(text("{")).above(
            self.expr(e.els).nest(INDENT)).above(text("}")))
        return head.above(self.expr(e.then).nest(INDENT)).above(tail)

    def _TMatch(self, e: T.TMatch) -> Doc:
        arms = vcomma_sep(self.pattern(p).space(text("->")).space(self.expr(b))
                          for p, b in e.arms)
        return (text("match").space(parens(self.expr(e.scrutinee))).space(text("{"))
                .above(arms.nest(INDENT)).above(text("}")))

    def _TSeq(self, e: T.TSeq) -> Doc:
        # DDlog's blocks nest to the right: `{a; {b; c}}`
        items = list(e.items)
        doc = self.expr(items[-1])
        for item in reversed(items[:-1]):
            doc = braces((self.expr(item) + text(";")).above(doc))
        return doc

    def _TLet(self, e: T.TLet) -> Doc:
        return parens(self.pattern(e.pattern, declare=True).space(text("="))
                      .space(self.expr(e.expr)))

    def _TAssign(self, e: T.TAssign) -> Doc:
        return parens(self.expr(e.target).space(text("=")).space(self.expr(e.expr)))

    def _TFor(self, e: T.TFor) -> Doc:
        head = text("for").space(parens(self.pattern(e.pattern, declare=False)
                                        .space(text("in")).space(self.expr(e.iterable))))
        return head.space(text("{")).above(self.expr(e.body).nest(INDENT)).above(text("}"))

    def _TReturn(self, e: T.TReturn) -> Doc:
        return parens(text("return").space(self.expr(e.expr)))

    def _TBreak(self, e) -> Doc:
        return text("break")

    def _TContinue(self, e) -> Doc:
        return text("continue")

    def _TVec(self, e: T.TVec) -> Doc:
        # DDlog's parser writes `[a, b]` as a block that fills a vector
        pushes = [text(f"(ddlog_std::push(__vec, ") + self.expr(a) + text("))")
                  for a in e.elems]
        doc = text("__vec")
        for p in reversed(pushes):
            doc = braces((p + text(";")).above(doc))
        start = text(f"(var __vec = (ddlog_std::vec_with_capacity(64'd{len(e.elems)})))")
        return braces((start + text(";")).above(doc))

    # ------------------------------------------------------------------ patterns
    def pattern(self, p, declare: bool = True) -> Doc:
        if isinstance(p, T.PVar):
            return text(f"var {p.name}" if declare else p.name)
        if isinstance(p, T.PWild):
            return text("_")
        if isinstance(p, T.PEq):
            return self.expr(p.expr)
        if isinstance(p, T.PTuple):
            return parens(comma_sep(self.pattern(x, declare) for x in p.elems))
        if isinstance(p, T.PBind):
            return parens(text(f"{p.name}@").space(self.pattern(p.pattern, declare)))
        return text(p.ctor) + braces(comma_sep(text(f".{n}=") + self.pattern(x, declare)
                                               for n, x in p.fields))


def _named_function(e: T.TClosure):
    """The function's name when ``e`` is how the checker wraps a function named as a
    value (``|__arg0| f(__arg0)``), else None."""
    body = e.body
    if not isinstance(body, T.TCall) or len(body.args) != len(e.params):
        return None
    names = [n for n, _ in e.params]
    if any(n != f"__arg{i}" for i, n in enumerate(names)):
        return None
    if all(isinstance(a, T.TVarRef) and a.name == n for a, n in zip(body.args, names)):
        return function_name(body.func)
    return None


def function_name(func: str) -> str:
    """A function's qualified name without dl2sql's overload number (``len#1``)."""
    return func.split("#", 1)[0]


def literal(t, v) -> str:
    """A constant as DDlog prints a literal of type ``t``."""
    if isinstance(t, TBool):
        return "true" if v else "false"
    if isinstance(t, (TSigned, TBigInt, TDouble, TFloat)) and v < 0:
        return f"(- {literal(t, -v)})"  # DDlog's `-1` is a minus applied to `1`
    if isinstance(t, TBit):
        return f"{t.width}'d{int(v)}"
    if isinstance(t, TSigned):
        return f"{t.width}'sd{int(v)}"
    if isinstance(t, TBigInt):
        return str(int(v))
    if isinstance(t, TString):
        return haskell_string(v)
    if isinstance(t, TDouble):
        return "64'f" + haskell_float(format_double(v))
    if isinstance(t, TFloat):
        return "32'f" + haskell_float(format_float(v))
    if isinstance(t, TTuple) and not t.elems:
        return "()"
    if isinstance(v, Record):
        return v.ctor
    return str(v)
