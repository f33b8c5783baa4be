"""dl2sql.runtime.interp: DDlog's expression semantics on runtime values. Operators are checked
on hand-built typed IR, control flow on functions compiled from DDlog source; expected
values are worked out by hand from the language spec (§5.2-§5.4)."""
from __future__ import annotations

import math
import re

import pytest

from dl2sql.compiler import compile_source
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.udfs import interpreter
from dl2sql.types import typed as T
from dl2sql.types.model import (BIGINT, BOOL, DOUBLE, FLOAT, STRING, TBit, TNamed, TSigned,
                                TTuple, VEC)
from dl2sql.runtime.values import Record
from dl2sql.runtime.order import to_f32
from std_env import std_env

U8, U10, U12, U16, U32, U64 = (TBit(w) for w in (8, 10, 12, 16, 32, 64))
S8, S32, S64 = TSigned(8), TSigned(32), TSigned(64)


def ev(e):
    return interpreter(std_env(), {}).eval(e, {})


def c(t, v):
    return T.TConst(t, v)


def binop(op, t, a, b, rt=None):
    return ev(T.TBin(rt or t, op, c(t, a), c(t if op not in ("<<", ">>") else U32, b)))


@pytest.mark.parametrize("op, t, a, b, expected", [
    ("+", U8, 250, 10, 4),
    ("*", U12, 4095, 2, 4094),
    ("+", U12, 4095, 1, 0),
    ("-", U32, 0, 1, 2**32 - 1),
    ("*", U64, 2**63, 2, 0),
    ("+", S8, 127, 1, -128),
    ("-", S64, -2**63, 1, 2**63 - 1),
    ("+", BIGINT, 2**70, 2**70, 2**71),
    ("/", S32, -7, 2, -3),
    ("%", S32, -7, 2, -1),
    ("%", S32, 7, -2, 1),
    ("/", S8, -128, -1, -128),  # MIN / -1 wraps
    ("/", BIGINT, -7, 2, -3),
    ("%", BIGINT, -7, 2, -1),
    ("&", U8, 0b1100, 0b1010, 0b1000),
    ("^", U8, 0b1100, 0b1010, 0b0110),
])
def test_integer_arithmetic_wraps(op, t, a, b, expected) -> None:
    assert binop(op, t, a, b) == expected


@pytest.mark.parametrize("op", ["/", "%"])
def test_division_by_zero_fails(op) -> None:
    with pytest.raises(RuntimeFailure, match="division by zero"):
        binop(op, U32, 1, 0)


@pytest.mark.parametrize("amount, expected", [
    (9, 512), (10, 0), (15, 0), (16, 1), (17, 2)])
def test_shift_amount_masked_by_storage_width(amount, expected) -> None:
    # the bit_shift examples of §5.2: bit<10> lives in a 16-bit slot
    assert binop("<<", U10, 1, amount) == expected


def test_shifts() -> None:
    assert binop("<<", U10, 3, 9) == 512
    assert binop(">>", S32, -8, 1) == -4  # arithmetic
    assert binop(">>", U32, 8, 33) == 4  # 33 mod 32
    assert binop("<<", S8, 1, 7) == -128


def test_unary() -> None:
    assert ev(T.TUn(S8, "-", c(S8, -128))) == -128
    assert ev(T.TUn(U8, "~", c(U8, 0))) == 255
    assert ev(T.TUn(S8, "~", c(S8, 0))) == -1
    assert ev(T.TUn(BOOL, "not", c(BOOL, False))) is True


def test_slice_and_concat() -> None:
    assert ev(T.TSlice(U8, c(U32, 0xC0A80001), 31, 24)) == 192
    assert ev(T.TSlice(U8, c(S32, -1), 7, 0)) == 255
    assert ev(T.TBin(U16, "++", c(U8, 1), c(U8, 2))) == 258


@pytest.mark.parametrize("src, dst, v, expected", [
    (S8, U8, -1, 255),
    (U8, S8, 200, -56),
    (U32, U8, 0x1234, 0x34),
    (S8, S32, -5, -5),
    (U8, U32, 200, 200),
    (BIGINT, S8, 300, 44),
    (S64, BIGINT, -3, -3),
    (U64, DOUBLE, 2**53 + 1, 9007199254740992.0),
    (DOUBLE, FLOAT, 0.1, to_f32(0.1)),
    # one rounding to f32, not two (through f64 the tie would round down)
    (U64, FLOAT, (1 << 60) + (1 << 36) + 1, float((1 << 60) + (1 << 37))),
])
def test_casts(src, dst, v, expected) -> None:
    assert ev(T.TCast(dst, c(src, v))) == expected


def test_float_is_f32() -> None:
    third = ev(T.TBin(FLOAT, "/", c(FLOAT, 1.0), c(FLOAT, 3.0)))
    assert third == to_f32(1 / 3) and third != 1 / 3
    assert ev(T.TBin(DOUBLE, "/", c(DOUBLE, 1.0), c(DOUBLE, 3.0))) == 1 / 3
    assert ev(T.TBin(DOUBLE, "/", c(DOUBLE, -1.0), c(DOUBLE, 0.0))) == -math.inf
    assert math.isnan(ev(T.TBin(DOUBLE, "/", c(DOUBLE, 0.0), c(DOUBLE, 0.0))))
    nan = c(DOUBLE, math.nan)
    assert ev(T.TBin(BOOL, "==", nan, nan)) is True  # DDlog equality
    assert ev(T.TBin(BOOL, "<", c(DOUBLE, 1e300), nan)) is True  # NaN is the largest


def test_to_string_and_string_concat() -> None:
    assert ev(T.TToString(STRING, c(FLOAT, to_f32(0.1)))) == "0.1"
    assert ev(T.TToString(STRING, c(DOUBLE, 1e21))) == "1000000000000000000000"
    assert ev(T.TToString(STRING, c(DOUBLE, -0.0))) == "-0"
    assert ev(T.TToString(STRING, c(S32, -3))) == "-3"
    assert ev(T.TToString(STRING, c(BOOL, True))) == "true"
    s = T.TBin(STRING, "++", c(STRING, "Δ="), T.TToString(STRING, c(U8, 7)))
    assert ev(s) == "Δ=7"


def test_std_calls_through_the_interpreter() -> None:
    vec_s = TNamed(VEC, (STRING,))
    call = T.TCall(vec_s, "ddlog_std::split", (c(STRING, "a,,b"), c(STRING, ",")))
    assert ev(call) == ("a", "", "b")
    assert ev(T.TCall(U64, "ddlog_std::len", (c(STRING, "Δx"),))) == 3
    assert ev(T.TCall(STRING, "ddlog_std::substr", (c(STRING, "Δx"), c(U64, 2),
                                                    c(U64, 99)))) == "x"
    assert ev(T.TCall(STRING, "ddlog_std::substr", (c(STRING, ""), c(U64, 0),
                                                    c(U64, 1)))) == ""
    assert ev(T.TCall(U32, "ddlog_std::pow32", (c(U32, 2), c(U32, 32)), (U32,))) == 0
    assert ev(T.TCall(S8, "ddlog_std::min", (c(S8, 3), c(S8, -3)), (S8,))) == -3


def test_unknown_function_is_named() -> None:
    with pytest.raises(RuntimeFailure, match="nowhere::f"):
        ev(T.TCall(U8, "nowhere::f", ()))


def test_extern_before_builtin() -> None:
    interp = interpreter(std_env(), {}, {"ddlog_std::len": lambda s: 42, "m::f": str.upper})
    assert interp.call("ddlog_std::len", (), ["abc"]) == 42
    assert interp.call("m::f", (), ["abc"]) == "ABC"


# ------------------------------------------------------------------ compiled functions
def compiled(src: str, name: str):
    """An interpreter and the instance key of ``name`` in a program defining it (a rule
    calls it with the columns of an input relation, so that it is instantiated)."""
    params = re.search(rf"function {name}\((.*?)\):", src).group(1)
    types = [p.split(":", 1)[1].strip() for p in re.split(r", (?=\w+:)", params)]
    cols = ", ".join(f"a{i}: {t}" for i, t in enumerate(types))
    args = ", ".join(f"a{i}" for i in range(len(types)))
    prog = compile_source(src + f"\ninput relation In({cols})\noutput relation Out(x: bool)\n"
                                f"Out(true) :- In({args}), var r = {name}({args}).\n")
    key = next(k for k in prog.functions if k[0] == name)
    return interpreter(prog.type_env, prog.functions), key


def run(src: str, name: str, *args):
    interp, key = compiled(src, name)
    return interp.call(key[0], key[1], list(args))


def test_match_first_arm_and_nested_patterns() -> None:
    src = """
typedef Shape = Circle{r: u32} | Rect{w: u32, h: u32}
function f(x: Option<(Shape, string)>): string {
    match (x) {
        Some{(Rect{.w = 0}, _)} -> "flat",
        Some{(Rect{w, h}, s)} -> s ++ ":" ++ w ++ "x" ++ h,
        Some{(Circle{1}, "unit")} -> "unit circle",
        Some{(sh@Circle{}, _)} -> "circle",
        None -> "none"
    }
}"""
    interp, key = compiled(src, "f")
    some = lambda v: Record("ddlog_std::Some", (v,))  # noqa: E731
    assert interp.call(*key, [some((Record("Rect", (0, 5)), "a"))]) == "flat"
    assert interp.call(*key, [some((Record("Rect", (2, 3)), "r"))]) == "r:2x3"
    assert interp.call(*key, [some((Record("Circle", (1,)), "unit"))]) == "unit circle"
    assert interp.call(*key, [some((Record("Circle", (1,)), "x"))]) == "circle"
    assert interp.call(*key, [Record("ddlog_std::None", ())]) == "none"


def test_block_mutates_struct_field_and_tuple_element() -> None:
    src = """
typedef P = P{a: u32, b: (u32, string)}
function f(n: u32): P {
    var p = P{0, (1, "x")};
    p.a = n;
    p.b.0 = p.b.0 + n;
    { p.b.1 = "y" };
    p
}"""
    assert run(src, "f", 5) == Record("P", (5, (6, "y")))


def test_for_break_continue_keep_assignments() -> None:
    # assignments made just before `continue`/`break` must survive leaving the block
    src = """
function f(v: Vec<u32>): (u32, u32) {
    var total: u32 = 0;
    var seen: u32 = 0;
    for (x in v) {
        seen = seen + 1;
        if (x == 2) { continue };
        if (x > 5) { total = total + 100; break };
        total = total + x
    };
    (total, seen)
}"""
    assert run(src, "f", (1, 2, 3, 9, 4)) == (1 + 3 + 100, 4)


def test_for_over_map_yields_pairs() -> None:
    src = """
function f(m: Map<string, u32>): string {
    var out = "";
    for (kv in m) { out = out ++ kv.0 ++ "=" ++ kv.1 ++ ";" };
    out
}"""
    assert run(src, "f", (("a", 1), ("b", 2))) == "a=1;b=2;"


def test_early_return_from_a_loop() -> None:
    src = """
function first_big(v: Vec<u32>): Option<u32> {
    for (x in v) { if (x > 10) { return Some{x} } };
    None
}"""
    assert run(src, "first_big", (1, 20, 30)) == Record("ddlog_std::Some", (20,))
    assert run(src, "first_big", (1, 2)) == Record("ddlog_std::None", ())


def test_recursion() -> None:
    gcd = "function gcd(a: u64, b: u64): u64 { if (b == 0) { a } else { gcd(b, a % b) } }"
    assert run(gcd, "gcd", 1071, 462) == 21
    collatz = """
function collatz(n: u64): u64 {
    if (n == 1) { 0 } else if (n % 2 == 0) { 1 + collatz(n / 2) } else { 1 + collatz(3 * n + 1) }
}"""
    assert run(collatz, "collatz", 27) == 111
    assert run(collatz, "collatz", 837799) == 524


def test_mut_argument_is_written_back() -> None:
    src = """
function bump(x: mut u32) { x = x + 1 }
function f(n: u32): (u32, Vec<u32>) {
    var y = n;
    bump(y);
    var v: Vec<u32> = vec_empty();
    v.push(y);
    v.push(7);
    (y, v)
}"""
    assert run(src, "f", 4) == (5, (5, 7))


def test_udf_converts_sql_values() -> None:
    from dl2sql.runtime.udf import Udf

    src = "function f(x: Option<u32>, s: string): (u32, string) { (x.unwrap_or(9), s ++ \"!\") }"
    interp, key = compiled(src, "f")
    opt = TNamed("ddlog_std::Option", (U32,))
    udf = Udf(interp, key[0], key[1], [opt, STRING], TTuple((U32, STRING)), interp.env,
              "function `f`")
    assert udf((0, 0), "a") == (9, "a!")  # (tag, x): None
    assert udf((1, 3), "b") == (3, "b!")
