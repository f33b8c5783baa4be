"""Random well-typed DDlog expressions over the columns of one input relation, for
tests/property/test_exprs_random.py.

Every expression is printed fully parenthesized, so that what is tested is how the
compiler turns the tree into SQL (not how the parser reads unparenthesized text). The
operators: arithmetic at several widths (``+ - * / %``, unary ``-``), bit operations
(``& | ^ ~ << >>``), casts between integer types, comparisons (also of booleans, so
comparisons nest in comparisons), ``and``/``or``/``not``/``=>``, ``if``, ``match`` (on
integers, booleans and tuples) and string operations (``++``, interpolation,
``starts_with``, ``ends_with``, ``string_len``).

Nothing generated can fail at run time: a divisor is ``(d | 1)``, never zero.
"""
from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st


@dataclass(frozen=True)
class Int:
    """``bit<width>`` or ``signed<width>``."""

    signed: bool
    width: int

    def __str__(self) -> str:
        return f"{'signed' if self.signed else 'bit'}<{self.width}>"

    @property
    def low(self) -> int:
        return -2 ** (self.width - 1) if self.signed else 0

    @property
    def high(self) -> int:
        return 2 ** (self.width - 1) - 1 if self.signed else 2 ** self.width - 1


BOOL, STRING = "bool", "string"
INTS = (Int(False, 8), Int(False, 12), Int(False, 32), Int(False, 64),
        Int(True, 8), Int(True, 16), Int(True, 32), Int(True, 64))
TYPES = (BOOL, STRING) + INTS
# the input relation's columns: one per type
COLUMNS = {BOOL: "b", STRING: "s", **{t: ("i" if t.signed else "u") + str(t.width)
                                      for t in INTS}}
SHIFT = Int(False, 32)  # the type of a shift amount
WORDS = ("", "a", "ab", "b", "Δ", "aΔ", "z z", "0")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def value(t) -> st.SearchStrategy:
    """Values of type ``t`` (Python), the edges of its range often."""
    if t == BOOL:
        return st.booleans()
    if t == STRING:
        return st.sampled_from(WORDS)
    edges = [t.low, t.high, 0, 1] + ([-1] if t.signed else [])
    return st.sampled_from(edges) | st.integers(t.low, t.high)


@st.composite
def literal(draw, t) -> str:
    """A literal of type ``t`` (ascribed, as a literal alone has no width)."""
    if t == BOOL:
        return "true" if draw(st.booleans()) else "false"
    if t == STRING:
        return _quoted(draw(st.sampled_from(WORDS)))
    # a negative literal is `-` applied to a positive one, which must fit the type
    magnitude = draw(st.integers(0, min(t.high, 300)) | st.just(t.high))
    if t.signed and draw(st.booleans()):
        return f"(-({magnitude}: {t}))"
    return f"({magnitude}: {t})"


def _cast_sources(t: Int) -> list[Int]:
    """The integer types DDlog casts to ``t`` directly: the same signedness at any
    width, or the other signedness at the same width."""
    return [s for s in INTS if s.signed == t.signed or s.width == t.width]


@st.composite
def expr(draw, t, depth: int) -> str:
    """An expression of type ``t`` nesting at most ``depth`` operators."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        return COLUMNS[t] if draw(st.booleans()) else draw(literal(t))
    sub = depth - 1
    kinds = ["if", "match"] + {BOOL: ["compare", "logic", "not", "prefix"],
                               STRING: ["concat", "interpolate"]}.get(t, [])
    if isinstance(t, Int):
        kinds += ["arith", "divide", "bits", "complement", "shift", "cast"]
        kinds += ["negate"] if t.signed else []
        kinds += ["length"] if t == Int(False, 64) else []
    kind = draw(st.sampled_from(kinds))
    if kind == "if":
        c, a, b = draw(expr(BOOL, sub)), draw(expr(t, sub)), draw(expr(t, sub))
        return f"(if ({c}) {{ {a} }} else {{ {b} }})"
    if kind == "match":
        return draw(match(t, sub))
    if kind == "compare":
        u = draw(st.sampled_from(TYPES))
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"({draw(expr(u, sub))} {op} {draw(expr(u, sub))})"
    if kind == "logic":
        op = draw(st.sampled_from(["and", "or", "=>"]))
        return f"({draw(expr(BOOL, sub))} {op} {draw(expr(BOOL, sub))})"
    if kind == "not":
        return f"(not {draw(expr(BOOL, sub))})"
    if kind == "prefix":
        fn = draw(st.sampled_from(["starts_with", "ends_with"]))
        return f"{fn}({draw(expr(STRING, sub))}, {draw(expr(STRING, sub))})"
    if kind == "concat":
        return f"({draw(expr(STRING, sub))} ++ {draw(expr(STRING, sub))})"
    if kind == "interpolate":
        u = draw(st.sampled_from(TYPES))
        # DDlog reads the string (its escapes) first, then the expression inside
        inner = draw(expr(u, sub)).replace("\\", "\\\\").replace('"', '\\"')
        return f'"<${{{inner}}}>"'
    if kind == "arith":
        op = draw(st.sampled_from(["+", "-", "*"]))
        return f"({draw(expr(t, sub))} {op} {draw(expr(t, sub))})"
    if kind == "divide":
        op = draw(st.sampled_from(["/", "%"]))
        return f"({draw(expr(t, sub))} {op} ({draw(expr(t, sub))} | ({1}: {t})))"
    if kind == "bits":
        op = draw(st.sampled_from(["&", "|", "^"]))
        return f"({draw(expr(t, sub))} {op} {draw(expr(t, sub))})"
    if kind == "complement":
        return f"(~{draw(expr(t, sub))})"
    if kind == "negate":
        return f"(-{draw(expr(t, sub))})"
    if kind == "shift":
        op = draw(st.sampled_from(["<<", ">>"]))
        return f"({draw(expr(t, sub))} {op} {draw(expr(SHIFT, sub))})"
    if kind == "cast":
        source = draw(st.sampled_from(_cast_sources(t)))
        return f"({draw(expr(source, sub))} as {t})"
    assert kind == "length"
    return f"string_len({draw(expr(STRING, sub))})"


@st.composite
def match(draw, t, depth: int) -> str:
    """``match`` on an integer (literal arms), a boolean or a pair of both."""
    on = draw(st.sampled_from(["int", "bool", "pair"]))
    arm = lambda: draw(expr(t, depth))  # noqa: E731
    if on == "bool":
        c = draw(expr(BOOL, depth))
        return f"(match ({c}) {{ true -> {arm()}, false -> {arm()} }})"
    u = draw(st.sampled_from([i for i in INTS if i.width <= 32]))
    pick = st.integers(0, 3) | st.integers(0, u.high)
    x = draw(expr(u, depth))
    if on == "int":
        first, second = draw(pick), draw(pick)
        arms = [f"{first} -> {arm()}"] + ([f"{second} -> {arm()}"] if second != first else [])
        return f"(match ({x}) {{ {', '.join(arms + [f'_ -> {arm()}'])} }})"
    c = draw(expr(BOOL, depth))
    return (f"(match (({c}, {x})) {{ (true, {draw(pick)}) -> {arm()}, "
            f"(false, _) -> {arm()}, _ -> {arm()} }})")


@dataclass(frozen=True)
class Case:
    """A program computing ``exprs`` natively per input row, and the same expressions
    as functions the test runs in dl2sql's interpreter."""

    exprs: tuple[tuple[object, str], ...]  # (type, text)
    rows: tuple[tuple, ...]  # input rows: (id, one value per column)

    def text(self) -> str:
        """The program the engine runs: ``In`` (the rows) and ``Out`` (one column per
        expression)."""
        return self._program("Out", [e for _, e in self.exprs])

    def functions_text(self) -> str:
        """A program whose functions ``f<i>`` compute expression ``i`` from the
        columns (the interpreter runs them; a rule calls them, as only called
        functions are compiled)."""
        params = ", ".join(f"{COLUMNS[t]}: {t}" for t in TYPES)
        columns = ", ".join(COLUMNS[t] for t in TYPES)
        calls = [f"f{i}({columns})" for i in range(len(self.exprs))]
        functions = [f"function f{i}({params}): {t} {{ {e} }}"
                     for i, (t, e) in enumerate(self.exprs)]
        return self._program("Calls", calls) + "\n".join(functions) + "\n"

    def _program(self, relation: str, heads: list[str]) -> str:
        params = ", ".join(f"{COLUMNS[t]}: {t}" for t in TYPES)
        outs = ", ".join(f"v{i}: {t}" for i, (t, _) in enumerate(self.exprs))
        columns = ", ".join(COLUMNS[t] for t in TYPES)
        return (f"input relation In(id: u32, {params})\n"
                f"output relation {relation}(id: u32, {outs})\n"
                f"{relation}(id, {', '.join(heads)}) :- In(id, {columns}).\n")


@st.composite
def case(draw, expressions: int, depth: int, rows: int) -> Case:
    """A :class:`Case` of ``expressions`` random expressions and 1..``rows`` rows."""
    exprs = []
    for _ in range(expressions):
        t = draw(st.sampled_from(TYPES))
        exprs.append((t, draw(expr(t, depth))))
    count = draw(st.integers(1, rows))
    data = tuple((i,) + tuple(draw(value(t)) for t in TYPES) for i in range(count))
    return Case(tuple(exprs), data)
