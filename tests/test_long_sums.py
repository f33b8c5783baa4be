"""Long chains of ``+`` and ``-``, products, differences and casts wrap around as
DDlog's do, on both engines, and a chain compiles to SQL that grows with the chain,
not with its square: it is summed exactly and wrapped once (40 terms of ``s64`` used
to exhaust Python's recursion in SQL generation)."""
from __future__ import annotations

import dl2sql
from engines import run_on, sorted_rows

S64, U64 = 40, 60
# (relation, type, number of terms, subtract every third term?)
CHAINS = [("A", "s64", S64, False), ("B", "u64", U64, False), ("C", "u8", 30, True),
          ("D", "s32", 25, True), ("E", "bit<62>", 12, False), ("F", "s64", 7, True)]


def _program() -> str:
    lines = []
    for rel, t, n, subtract in CHAINS:
        terms = "".join(("x" if i == 0 else (" - x" if subtract and i % 3 == 2 else " + x"))
                        for i in range(n))
        lines += [f"input relation {rel}In(x: {t})", f"output relation {rel}(x: {t})",
                  f"{rel}({terms}) :- {rel}In(x)."]
    return "\n".join(lines) + "\n"


def _width(t: str) -> tuple[int, bool]:
    if t.startswith("bit<"):
        return int(t[4:-1]), False
    return int(t[1:]), t[0] == "s"


def _expected(t: str, n: int, subtract: bool, x: int) -> int:
    width, signed = _width(t)
    total = sum(-x if subtract and i % 3 == 2 else x for i in range(n))
    total %= 2 ** width
    return total - 2 ** width if signed and total >= 2 ** (width - 1) else total


def _values(t: str) -> list[int]:
    width, signed = _width(t)
    low, high = (-(2 ** (width - 1)), 2 ** (width - 1) - 1) if signed else (0, 2 ** width - 1)
    return sorted({low, high, 0, 1, high // 3, low // 7 if signed else high // 7})


def test_long_sums_wrap_around_on_both_engines(engine):
    program = dl2sql.compile(_program())
    inputs = {f"{rel}In": [(v,) for v in _values(t)] for rel, t, _, _ in CHAINS}
    out = run_on(program, engine, inputs)
    for rel, t, n, subtract in CHAINS:
        want = sorted({(_expected(t, n, subtract, v),) for v in _values(t)})
        got = [tuple(int(c) for c in row) for row in sorted_rows(out[rel])]
        assert sorted(got) == want, rel


def test_the_sql_of_a_chain_grows_linearly():
    def size(n: int) -> int:
        text = (f"input relation R(x: u64)\noutput relation O(x: u64)\n"
                f"O({' + '.join(['x'] * n)}) :- R(x).\n")
        return sum(map(len, dl2sql.compile(text).sql(dialect="duckdb")))
    small, large = size(20), size(200)
    # 180 terms more take at most nine times the SQL of 20 more (a wrap per operator
    # took quadratically more: 20 terms of u64 were 7 KB)
    assert 0 < large - small <= 9 * (size(40) - small)


WRAPPED = """
input relation A(x: s64, y: s64)
input relation B(x: u64, y: u64)
input relation C(x: s32, y: s32)
output relation SA(s: s64, d: s64, p: s64, n: s64, c: s32, u: bit<32>)
SA(x + y, x - y, x * y, -x, x as s32, (x as u64) as bit<32>) :- A(x, y).
output relation SB(s: u64, d: u64, p: u64, c: s64, m: bit<16>)
SB(x + y, x - y, x * y, x as s64, x as bit<16>) :- B(x, y).
output relation SC(s: s32, d: s32, p: s32, w: s32)
SC(x + y, x - y, x * y, x + y + x + y) :- C(x, y).
"""


def _wrapped(v: int, t: str) -> int:
    width, signed = _width(t)
    v %= 2 ** width
    return v - 2 ** width if signed and v >= 2 ** (width - 1) else v


def test_products_differences_and_casts_wrap_around_on_both_engines(engine):
    # the operations an engine computes in a 128-bit type before wrapping (DuckDB's
    # HUGEINT by a mask, Spark's DECIMAL(38,0) by remainders), at the types' edges
    a = [(x, y) for x in _values("s64") for y in _values("s64") + [-1, 12345678901]]
    b = [(x, y) for x in _values("u64") for y in _values("u64") + [2 ** 63]]
    c = [(x, y) for x in _values("s32") for y in _values("s32") + [-70000]]
    out = run_on(dl2sql.compile(WRAPPED), engine, {"A": a, "B": b, "C": c})
    want = {
        "SA": {(_wrapped(x + y, "s64"), _wrapped(x - y, "s64"), _wrapped(x * y, "s64"),
                _wrapped(-x, "s64"), _wrapped(x, "s32"), _wrapped(x, "bit<32>"))
               for x, y in a},
        "SB": {(_wrapped(x + y, "u64"), _wrapped(x - y, "u64"), _wrapped(x * y, "u64"),
                _wrapped(x, "s64"), _wrapped(x, "bit<16>")) for x, y in b},
        "SC": {(_wrapped(x + y, "s32"), _wrapped(x - y, "s32"), _wrapped(x * y, "s32"),
                _wrapped(2 * (x + y), "s32")) for x, y in c},
    }
    for rel, rows in want.items():
        got = {tuple(int(v) for v in row) for row in sorted_rows(out[rel])}
        assert got == rows, rel
