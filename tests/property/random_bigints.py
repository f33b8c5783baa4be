"""Random arithmetic on wide integers (``bigint``, ``bit<128>``, ``signed<128>``) for
tests/property/test_bigints_random.py, with its meaning computed here on Python ints
(DDlog's semantics written out, independently of dl2sql's interpreter).

Values are drawn small, around the storage's 38-digit boundary, around 2^127 and
2^128, and far beyond (up to 90 digits), so that expressions cross between the native
and the interpreted path in both directions. Operators: ``+ - * / %``, negation,
comparisons, ``if``, casts between the three types (and through ``signed<64>``),
string conversion. A divisor is ``(d * d + 1)``, never zero.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

BIGINT, U128, S128 = "bigint", "bit<128>", "signed<128>"
TYPES = (BIGINT, U128, S128)
COLUMNS = {BIGINT: ("a", "b"), U128: ("u",), S128: ("s",)}
CAP = 10 ** 38 - 1


def wrap(t: str, v: int) -> int:
    """``v`` in the range of ``t``, as DDlog wraps it."""
    if t == U128:
        return v % 2 ** 128
    if t == S128:
        v %= 2 ** 128
        return v - 2 ** 128 if v >= 2 ** 127 else v
    return v


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


@dataclass(frozen=True)
class E:
    """An expression: its DDlog text and its value from a row's columns."""

    text: str
    fn: object  # (dict column -> int) -> value

    def __call__(self, row: dict):
        return self.fn(row)


def value(t: str, small: bool = False) -> st.SearchStrategy:
    """Values of type ``t``, its edges and the storage's often; with ``small``, values
    of at most 20 digits (whose sums and products stay within 38 digits or just
    cross them), never negative for ``bit<128>`` (which would wrap to 39 digits)."""
    if small:
        low = 0 if t == U128 else -10 ** 20
        return st.sampled_from([0, 1, 10 ** 19]) | st.integers(low, 10 ** 20)
    edges = [0, 1, CAP - 1, CAP, CAP + 1, 2 ** 127 - 1, 2 ** 127, 2 ** 128 - 1, 2 ** 128]
    pool = st.sampled_from(edges + [-v for v in edges]) | st.integers(-10 ** 18, 10 ** 18) \
        | st.integers(-10 ** 40, 10 ** 40) | st.integers(-10 ** 90, 10 ** 90)
    return pool.map(lambda v: wrap(t, v))


@st.composite
def literal(draw, t: str, small: bool = False) -> E:
    v = draw(value(t, small))
    if t == S128 and v == -2 ** 127:  # its magnitude is no signed<128> literal
        return E(f"((-({2 ** 127 - 1}: {t})) - (1: {t}))", lambda row, v=v: v)
    if v < 0:  # a negative literal is `-` applied to a positive one
        return E(f"(-({-v}: {t}))", lambda row, v=v: v)
    return E(f"({v}: {t})", lambda row, v=v: v)


@st.composite
def expr(draw, t: str, depth: int, small: bool = False) -> E:
    """An expression of type ``t`` nesting at most ``depth`` operators (``small``: its
    constants, see :func:`value`)."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        if draw(st.booleans()):
            c = draw(st.sampled_from(COLUMNS[t]))
            return E(c, lambda row, c=c: row[c])
        return draw(literal(t, small))
    sub = depth - 1
    kind = draw(st.sampled_from(["arith", "arith", "divide", "negate", "if", "cast"]))
    if kind == "arith":
        op = draw(st.sampled_from(["+", "-", "*"]))
        a, b = draw(expr(t, sub, small)), draw(expr(t, sub, small))
        f = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
        return E(f"({a.text} {op} {b.text})", lambda row: wrap(t, f(a(row), b(row))))
    if kind == "divide":
        op = draw(st.sampled_from(["/", "%"]))
        a, d = draw(expr(t, sub, small)), draw(expr(t, sub, small))
        divisor = E(f"(({d.text} * {d.text}) + ({1}: {t}))",
                    lambda row: wrap(t, d(row) * d(row) + 1))

        def divide(row):
            x, y = a(row), divisor(row)
            q = _trunc_div(x, y)
            return wrap(t, q) if op == "/" else x - y * q
        return E(f"({a.text} {op} {divisor.text})", divide)
    if kind == "negate":
        if t == U128:  # DDlog negates signed values only
            return draw(expr(t, sub, small))
        a = draw(expr(t, sub, small))
        return E(f"(-{a.text})", lambda row: wrap(t, -a(row)))
    if kind == "if":
        c, a, b = draw(compare(sub, small)), draw(expr(t, sub, small)), \
            draw(expr(t, sub, small))
        return E(f"(if ({c.text}) {{ {a.text} }} else {{ {b.text} }})",
                 lambda row: a(row) if c(row) else b(row))
    # casts DDlog allows: to bigint and signed<> from any integer, to bit<> from the
    # signed type of its width (not from bigint)
    sources = {BIGINT: [S128, U128, "signed<64>"], S128: [BIGINT, U128, "signed<64>"],
               U128: [S128]}[t]
    source = draw(st.sampled_from(sources))
    if source == "signed<64>":  # through a narrower type: wraps twice
        a = draw(expr(BIGINT, sub, small))
        return E(f"(({a.text} as signed<64>) as {t})",
                 lambda row: wrap(t, wrap_s64(a(row))))
    a = draw(expr(source, sub, small))
    return E(f"({a.text} as {t})", lambda row: wrap(t, a(row)))


def wrap_s64(v: int) -> int:
    v %= 2 ** 64
    return v - 2 ** 64 if v >= 2 ** 63 else v


@st.composite
def compare(draw, depth: int, small: bool = False) -> E:
    t = draw(st.sampled_from(TYPES))
    op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
    a, b = draw(expr(t, depth, small)), draw(expr(t, depth, small))
    f = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
         "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}[op]
    return E(f"({a.text} {op} {b.text})", lambda row: f(a(row), b(row)))


@st.composite
def output(draw, depth: int, small: bool = False) -> tuple[str, E]:
    """An output column: a wide integer, a comparison or a string conversion."""
    kind = draw(st.sampled_from(["int", "int", "int", "bool", "string"]))
    if kind == "bool":
        return "bool", draw(compare(depth, small))
    t = draw(st.sampled_from(TYPES))
    e = draw(expr(t, depth, small))
    if kind == "string":
        return "string", E(f'"<${{{e.text}}}>"', lambda row: f"<{e(row)}>")
    return t, e


@dataclass(frozen=True)
class Case:
    """A program computing ``exprs`` per input row, and the rows."""

    exprs: tuple  # (type, E)
    rows: tuple  # (id, a, b, u, s)

    def text(self) -> str:
        outs = ", ".join(f"v{i}: {t}" for i, (t, _) in enumerate(self.exprs))
        heads = ", ".join(e.text for _, e in self.exprs)
        return ("input relation In(id: u32, a: bigint, b: bigint, u: bit<128>, "
                "s: signed<128>)\n"
                f"output relation Out(id: u32, {outs})\n"
                f"Out(id, {heads}) :- In(id, a, b, u, s).\n")

    def expected(self, row: tuple) -> tuple:
        columns = dict(zip(("a", "b", "u", "s"), row[1:]))
        return tuple(e(columns) for _, e in self.exprs)


@st.composite
def case(draw, expressions: int, depth: int, rows: int, small: bool = False) -> Case:
    """A :class:`Case` of ``expressions`` random outputs and 1..``rows`` rows
    (``small``: its values, see :func:`value`)."""
    exprs = tuple(draw(output(depth, small)) for _ in range(expressions))
    count = draw(st.integers(1, rows))
    data = tuple((i, draw(value(BIGINT, small)), draw(value(BIGINT, small)),
                  draw(value(U128, small)), draw(value(S128, small))) for i in range(count))
    return Case(exprs, data)
