"""Value printing exactly as DDlog's CLI prints records (§7.5)."""
import math
import struct
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from dl2sql.types.model import (BIGINT, BOOL, DOUBLE, FLOAT, MAP, OPTION, REF, SET, STRING,
                                VEC, CtorDef, TBit, TNamed, TSigned, TTuple, TVar, TypeDefn,
                                TypeEnv, UNIT)
from dl2sql.runtime.values import Record
from dl2sql.runtime.order import to_f32
from dl2sql.runtime.printing import escape_string, format_double, format_float, format_value
from profiles import examples


def make_env() -> TypeEnv:
    env = TypeEnv()
    for name in (VEC, SET, REF):
        env.add(TypeDefn(name, ("A",), extern=True))
    env.add(TypeDefn(MAP, ("K", "V"), extern=True))
    env.add(TypeDefn(OPTION, ("A",), (CtorDef("ddlog_std::None", ()),
                                      CtorDef("ddlog_std::Some", (("x", TVar("A")),)))))
    env.add(TypeDefn("Phrases", (), (CtorDef("Phrases", (("phrase", STRING),
                                                         ("n", TBit(32)))),)))
    env.add(TypeDefn("Cat", (), (CtorDef("CategoryOther", ()),
                                 CtorDef("CategoryStarWars", (("n", TSigned(8)),)))))
    env.add(TypeDefn("fp_test::F", (), (CtorDef("fp_test::F", (("d", DOUBLE), ("f", FLOAT))),)))
    return env


ENV = make_env()


def fmt(t, v):
    return format_value(t, v, ENV)


def test_scalars():
    assert fmt(BOOL, True) == "true" and fmt(BOOL, False) == "false"
    assert fmt(TSigned(64), -5) == "-5"
    assert fmt(TBit(128), 2**128 - 1) == "340282366920938463463374607431768211455"
    assert fmt(BIGINT, -10**40) == "-1" + "0" * 40
    assert fmt(UNIT, ()) == "()"


def test_records_tuples_collections():
    assert fmt(TNamed("Phrases"), Record("Phrases", ("hi", 3))) == \
        'Phrases{.phrase = "hi", .n = 3}'
    assert fmt(TNamed("Cat"), Record("CategoryOther", ())) == "CategoryOther{}"
    opt = TNamed(OPTION, (TBit(8),))
    assert fmt(opt, Record("ddlog_std::None", ())) == "ddlog_std::None{}"
    assert fmt(opt, Record("ddlog_std::Some", (5,))) == "ddlog_std::Some{.x = 5}"
    assert fmt(TNamed("fp_test::F"), Record("fp_test::F", (1.0, to_f32(0.1)))) == \
        "fp_test::F{.d = 1, .f = 0.1}"
    assert fmt(TTuple((STRING, TBit(8))), ("a", 1)) == '("a", 1)'
    assert fmt(TNamed(VEC, (TBit(8),)), (3, 1, 2)) == "[3, 1, 2]"
    assert fmt(TNamed(VEC, (TBit(8),)), ()) == "[]"
    # sets and maps print ascending even if handed over unsorted
    assert fmt(TNamed(SET, (STRING,)), ("b", "a", "b")) == '["a", "b"]'
    assert fmt(TNamed(MAP, (TBit(8), STRING)), ((2, "x"), (1, "y"))) == '[(1, "y"), (2, "x")]'
    assert fmt(TNamed(REF, (STRING,)), "r") == '"r"'


def test_string_escaping():
    assert escape_string("alpha\\4") == '"alpha\\\\4"'
    assert escape_string('say "hi"\n\t\r') == '"say \\"hi\\"\\n\\t\\r"'
    assert escape_string("isn't") == '"isn\'t"'  # single quote not escaped
    assert escape_string("\0\x07\x1b\x7f") == '"\\0\\u{7}\\u{1b}\\u{7f}"'
    assert escape_string("Δ中文 ok") == '"Δ中文 ok"'
    assert escape_string("\u00a0\u200b\u2028") == '"\\u{a0}\\u{200b}\\u{2028}"'
    assert escape_string("e\u0301") == '"e\\u{301}"'  # grapheme extender


def test_double_display():
    cases = [(1.0, "1"), (0.5, "0.5"), (-0.30103, "-0.30103"), (100.0, "100"),
             (1e21, "1" + "0" * 21), (1e-7, "0.0000001"), (0.1 + 0.2, "0.30000000000000004"),
             (-0.0, "-0"), (0.0, "0"), (math.inf, "inf"), (-math.inf, "-inf"),
             (math.nan, "NaN"), (123456789012345680.0, "123456789012345680"),
             (5e-324, "0." + "0" * 323 + "5")]
    for x, s in cases:
        assert format_double(x) == s, x


def test_float_display_uses_f32_digits():
    f = to_f32
    assert format_float(f(0.1)) == "0.1"  # not 0.10000000149011612
    assert format_float(f(1.0)) == "1"
    assert format_float(f(3.4028234663852886e38)) == "340282350000000000000000000000000000000"
    assert format_float(f(16777217.0)) == "16777216"
    assert format_float(f(1e-45)) == "0.000000000000000000000000000000000000000000001"
    assert format_float(f(-2.5)) == "-2.5"
    assert format_float(-0.0) == "-0"
    assert format_float(math.nan) == "NaN" and format_float(-math.inf) == "-inf"
    assert fmt(FLOAT, f(0.3)) == "0.3" and fmt(DOUBLE, f(0.3)) == "0.30000001192092896"


@settings(max_examples=examples(1000))
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_double_round_trips_without_exponent(x):
    s = format_double(x)
    assert "e" not in s and "E" not in s
    assert float(s) == x
    assert math.copysign(1, float(s)) == math.copysign(1, x)
    if "." in s:
        assert not s.endswith("0") and not s.endswith(".")


def _f32_parse(s: str) -> float:
    """Parse a decimal to binary32 exactly (no double rounding through f64)."""
    d = Decimal(s)
    lo = to_f32(float(s))
    bits = struct.unpack("<I", struct.pack("<f", abs(lo)))[0]
    cands = [struct.unpack("<f", struct.pack("<I", b))[0] for b in (bits - 1, bits, bits + 1)
             if 0 <= b < 0x7F800000]
    # nearest binary32 value; an exact tie goes to the even mantissa, as IEEE parsing does
    best = min(cands, key=lambda c: (abs(Decimal(c) - abs(d)),
                                     struct.unpack("<I", struct.pack("<f", c))[0] % 2))
    return math.copysign(best, lo)


@settings(max_examples=examples(1000))
@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_float32_round_trips_and_is_shortest(x):
    s = format_float(x)
    assert "e" not in s
    assert _f32_parse(s) == x
    digits = len(Decimal(s).normalize().as_tuple().digits)
    if x != 0 and digits > 1:
        shorter = f"{x:.{digits - 2}e}"
        assert _f32_parse(shorter) != x or Decimal(shorter) == Decimal(s)
