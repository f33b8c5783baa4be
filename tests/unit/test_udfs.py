"""dl2sql.udfs.std: the ddlog_std builtins against DDlog's (Rust's) semantics, §5.3 and §6."""
from __future__ import annotations

import math

import pytest

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.types.model import (BIGINT, BOOL, DOUBLE, FLOAT, STRING, CtorDef, TBit, TNamed,
                                TSigned, TTuple, TypeDefn, OPTION)
from dl2sql.runtime.values import Record
from dl2sql.runtime.xxhash64 import xxh32
from std_env import std_env
from dl2sql.udfs.std import STD
from dl2sql.udfs.std_base import Ctx, Mut

U8, U32, U64, S8, S64 = TBit(8), TBit(32), TBit(64), TSigned(8), TSigned(64)
NONE = Record("ddlog_std::None", ())


def some(x):
    return Record("ddlog_std::Some", (x,))


def std(name: str, *args, targs=()):
    """Call a builtin with the calling convention of dl2sql.udfs.std."""
    fn = STD["ddlog_std::" + name]
    if getattr(fn, "typed", False):
        return fn(Ctx(std_env(), tuple(targs)), *args)
    return fn(*args)


def test_every_declared_std_function_is_known_or_documented_missing() -> None:
    import re
    from pathlib import Path

    import dl2sql.stdlib

    decl = Path(dl2sql.stdlib.__file__).with_name("ddlog_std.dl").read_text()
    names = set(re.findall(r"extern function (\w+)", decl))
    missing = {n for n in names if "ddlog_std::" + n not in STD}
    # closures are rejected by the checker, Group values never reach Python
    assert missing <= {"map", "and_then", "ok_or_else", "map_err", "to_any", "from_any",
                       "key", "group_key", "count_distinct", "first", "to_setmap",
                       "group_unzip"}
    assert all((f.__doc__ or "").strip() for f in STD.values())


@pytest.mark.parametrize("s, n", [("", 0), ("abc", 3), ("Δ", 2), ("日本", 6), ("😀", 4)])
def test_len_counts_utf8_bytes(s, n) -> None:
    assert std("len", s) == n == std("string_len", s)


@pytest.mark.parametrize("s, a, b, out", [
    ("hello", 1, 3, "el"), ("hello", 3, 99, "lo"), ("hello", 4, 2, ""),
    ("hello", 99, 100, ""), ("", 0, 0, ""), ("aΔb", 1, 3, "Δ"), ("aΔb", 3, 4, "b")])
def test_substr_byte_offsets_clamped(s, a, b, out) -> None:
    assert std("substr", s, a, b) == out


def test_substr_inside_a_character_fails() -> None:
    with pytest.raises(RuntimeFailure):
        std("substr", "aΔb", 2, 4)


@pytest.mark.parametrize("s, sep, out", [
    ("a,,b", ",", ("a", "", "b")), ("", ",", ("",)), (",", ",", ("", "")),
    ("abc", "", ("", "a", "b", "c", "")), ("", "", ("", "")), ("a--b", "--", ("a", "b"))])
def test_split_rust_semantics(s, sep, out) -> None:
    assert std("split", s, sep) == out


def test_string_functions() -> None:
    assert std("join", ("a", "", "b"), "-") == "a--b"
    assert std("join", (), ",") == ""
    assert std("trim", "\u3000\t x y \n\xa0") == "x y"
    assert std("trim", "\x1fa") == "\x1fa"  # not Unicode White_Space
    assert std("to_lowercase", "ÀB") == "àb" and std("str_to_lower", "Q") == "q"
    assert std("to_uppercase", "straße") == "STRASSE"
    assert std("reverse", "aΔ😀") == "😀Δa"
    assert std("contains", "abc", "") and not std("contains", "abc", "d")
    assert std("starts_with", "abc", "ab") and std("ends_with", "abc", "bc")
    assert std("replace", "aXbX", "X", "--") == "a--b--"
    assert std("string_replace", "ab", "", "-") == "-a-b-"
    assert std("to_bytes", "Δ") == (0xCE, 0x94)
    assert std("from_utf8", (0xCE, 0x94)) == Record("ddlog_std::Ok", ("Δ",))
    assert std("from_utf8", (0x61, 0xCE)).ctor == "ddlog_std::Err"
    assert std("encode_utf16", "a😀") == (0x61, 0xD83D, 0xDE00)
    assert std("from_utf16", (0x61, 0xD83D, 0xDE00)) == Record("ddlog_std::Ok", ("a😀",))
    assert std("from_utf16", (0xD83D,)).ctor == "ddlog_std::Err"


@pytest.mark.parametrize("t, v, out", [
    (U8, 255, "255"), (S64, -3, "-3"), (BIGINT, 10**30, str(10**30)),
    (STRING, "x\"y", "x\"y"), (FLOAT, 0.5, "0.5"), (DOUBLE, 1.0, "1"),
    (DOUBLE, 1e-7, "0.0000001"), (DOUBLE, math.nan, "NaN"), (DOUBLE, -math.inf, "-inf")])
def test_to_string(t, v, out) -> None:
    assert std("to_string", v, targs=(t,)) == out


def test_to_string_debug() -> None:
    opt = TNamed(OPTION, (U32,))
    assert std("to_string_debug", some(5), targs=(opt,)) == "ddlog_std::Some{5}"
    assert std("to_string_debug", "a\"b", targs=(STRING,)) == '"a\\"b"'
    assert std("to_string_debug", 1.0, targs=(DOUBLE,)) == "1.0"
    assert std("to_string_debug", 1e21, targs=(DOUBLE,)) == "1e21"
    assert std("to_string_debug", (1, "x"), targs=(TTuple((U8, STRING)),)) == '(1, "x")'
    vec = TNamed("ddlog_std::Vec", (U8,))
    assert std("to_string_debug", (1, 2, 3), targs=(vec,)) == "[1, 2, 3]"


def test_hex_and_parse() -> None:
    assert std("hex", 10, targs=(U32,)) == "a"
    assert std("hex", 0, targs=(U32,)) == "0"
    assert std("hex", -1, targs=(S8,)) == "ff"  # Rust {:x} of i8
    assert std("hex", -255, targs=(BIGINT,)) == "-ff"
    assert std("parse_dec_u64", "+42") == some(42)
    assert std("parse_dec_u64", "-0") == NONE  # unsigned parse refuses a minus sign
    assert std("parse_dec_u64", str(2**64)) == NONE
    assert std("parse_dec_u64", "") == NONE and std("parse_dec_u64", " 1") == NONE
    assert std("parse_dec_i64", "-9223372036854775808") == some(-2**63)
    assert std("parse_dec_i64", "1_000") == NONE and std("parse_dec_i64", "-") == NONE
    assert std("parse_dec_i64", "١") == NONE  # non-ASCII digit


def test_numbers() -> None:
    assert std("pow32", 2, 32, targs=(U32,)) == 0
    assert std("pow32", 3, 3, targs=(U32,)) == 27
    assert std("pow32", -2, 7, targs=(S8,)) == -128
    assert std("pow32", 10, 50, targs=(BIGINT,)) == 10**50
    assert std("min", "b", "a", targs=(STRING,)) == "a"
    assert std("max", math.nan, 1.0, targs=(DOUBLE,)) is math.nan or \
        math.isnan(std("max", math.nan, 1.0, targs=(DOUBLE,)))
    assert std("min", NONE, some(0), targs=(TNamed(OPTION, (U8,)),)) == NONE
    assert std("range_vec", 10, 15, 2, targs=(U32,)) == (10, 12, 14)
    assert std("range_vec", 15, 10, -1, targs=(U32,)) == (15, 14, 13, 12, 11)
    assert std("range_vec", 1, 5, 0, targs=(U32,)) == ()
    # any ordered number type, as DDlog's: x + step while short of the end
    assert std("range_vec", 1.25, 3.25, 1.0, targs=(DOUBLE,)) == (1.25, 2.25)
    # 0.2 + 0.1 is 0.30000000000000004, past the end
    assert std("range_vec", 0.0, 0.3, 0.1, targs=(DOUBLE,)) == (0.0, 0.1, 0.2)
    assert std("range_vec", 1.0, -1.0, -0.5, targs=(DOUBLE,)) == (1.0, 0.5, 0.0, -0.5)
    assert std("range_vec", 0.0, 0.35, 0.1, targs=(FLOAT,)) == (
        0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896)  # in f32
    assert std("range_vec", 1.0, 2.0, 0.0, targs=(DOUBLE,)) == ()
    assert std("range_vec", 1.0, 2.0, math.nan, targs=(DOUBLE,)) == ()
    with pytest.raises(RuntimeFailure, match="does not move"):
        std("range_vec", 1e17, 2e17, 1.0, targs=(DOUBLE,))
    assert std("ntohl", 0x01020304) == 0x04030201 and std("htons", 0x0102) == 0x0201
    assert std("default", targs=(TNamed(OPTION, (U8,)),)) == NONE



def test_hashes_are_xxhash_of_what_rust_hashes() -> None:
    # upstream's simple.dl: Table12 holds hash128((id, name, f2, f3)) of these rows
    env = std_env()
    env.add(TypeDefn("S", (), (CtorDef("S", (("f1", TTuple((BOOL, BOOL))),
                                             ("f2", U32))),)))
    row_type = TTuple((U64, STRING, BIGINT, TNamed("S", ())))
    row = (125, "buzzzzzzzz", 1234567890, Record("S", ((True, True), 5)))
    fn = STD["ddlog_std::hash128"]
    assert fn(Ctx(env, (row_type,)), row) == 145200715403491832341915822591998648048
    other = (0, "foo", 100000000000000, Record("S", ((False, True), 10000)))
    assert fn(Ctx(env, (row_type,)), other) in (
        3280989158102350508363827193707975381, 163553563808451251702619476897759050220,
        319900223054536652811205922354379277241)
    # hash64 is the first half of hash128; hash32 the 32-bit xxHash of the same bytes
    assert std("hash64", 7, targs=(U64,)) == std("hash128", 7, targs=(U64,)) >> 64
    assert std("hash32", 7, targs=(U64,)) == xxh32((7).to_bytes(8, "little"),
                                                    0x23B691A751D0E108)


def test_xxh32_matches_the_reference_implementation() -> None:
    # values from the xxHash library's own Python binding (xxhash 4.1.0)
    assert xxh32(b"") == 0x02CC5D05 and xxh32(b"abc") == 0x32D153FF
    assert xxh32(b"Nobody inspects the spammish repetition", 1372643592) == 0x4A724ADC
    assert xxh32(bytes(range(40)), 7) == 0x443E264C  # two 16-byte stripes and a tail


def test_option_result() -> None:
    ok, err = Record("ddlog_std::Ok", (1,)), Record("ddlog_std::Err", ("e",))
    assert std("is_some", some(1)) and std("is_none", NONE)
    assert std("is_ok", ok) and std("is_err", err)
    assert std("unwrap_or", NONE, 7) == 7 and std("unwrap_or", ok, 7) == 1
    assert std("unwrap_or", err, 7) == 7
    assert std("unwrap_or_default", NONE, targs=(STRING,)) == ""
    assert std("unwrap_or_default", err, targs=(U8, STRING)) == 0
    assert std("ok_or", some(1), "e") == ok and std("ok_or", NONE, "e") == err
    assert std("to_vec", some(1)) == (1,) and std("to_vec", NONE) == ()


def test_vec_set_map() -> None:
    assert std("vec_empty") == () and std("vec_singleton", 1) == (1,)
    assert std("len", (1, 2)) == 2 and std("contains", (1.0, math.nan), math.nan)
    assert std("nth", (5, 6), 1) == some(6) and std("nth", (5,), 1) == NONE
    assert std("push_imm", (1,), 2) == (1, 2)
    assert std("push", (1,), 2) == Mut((), {0: (1, 2)})
    assert std("pop", (1, 2)) == Mut(some(2), {0: (1,)})
    assert std("reverse", (1, 2)) == Mut((), {0: (2, 1)})
    assert std("sort_imm", ("b", "B", "a"), targs=(STRING,)) == ("B", "a", "b")
    assert std("to_set", (3, 1, 3), targs=(U8,)) == (1, 3)
    assert std("insert_imm", (1, 3), 2, targs=(U8,)) == (1, 2, 3)
    assert std("union", (1, 3), (2, 3), targs=(U8,)) == (1, 2, 3)
    assert std("union", ((1,), (0, 1)), targs=(U8,)) == (0, 1)
    assert std("intersection", (1, 2, 3), (2, 3, 4)) == (2, 3)
    assert std("difference", (1, 2, 3), (2,)) == (1, 3)
    m = (("a", 1), ("c", 3))
    assert std("get", m, "c") == some(3) and std("get", m, "b") == NONE
    assert std("insert_imm", m, "b", 2, targs=(STRING, U8)) == (("a", 1), ("b", 2), ("c", 3))
    assert std("insert_imm", m, "a", 9, targs=(STRING, U8))[0] == ("a", 9)
    assert std("union", m, (("a", 0),), targs=(STRING, U8)) == (("a", 0), ("c", 3))
    assert std("remove", m, "a") == Mut(some(1), {0: (("c", 3),)})
    assert std("keys", m) == ("a", "c") and std("values", m) == (1, 3)
    assert std("to_map", (("b", 1), ("a", 2), ("b", 3)), targs=(STRING, U8)) == \
        (("a", 2), ("b", 3))
