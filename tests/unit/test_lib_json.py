"""The `json` library's Python implementations against serde_json's documented
behaviour: compact output, its string escapes and float printing (ryu), externally and
internally tagged enums, `Option` fields, and its error messages with positions."""
import functools

import pytest

from dl2sql.compiler import compile_source
from dl2sql.runtime.builtins import Ctx
from dl2sql.runtime.values import Record
from dl2sql.types.model import TDouble, TFloat, TNamed, TString
from dl2sql.udfs.json_text import JsonError, format_ryu, parse, quote
from dl2sql.udfs.lib_json import LIBRARY_JSON

SOURCE = r'''
import json
typedef Point = Point { x: s32, #[rust="serde(rename=\"why\")"] y: Option<u8> }
typedef Shape = Circle { r: double } | Empty
#[rust="serde(tag = \"kind\")"]
typedef Tagged = #[rust="serde(rename = \"a.b\")"] TA { n: u64 } | TB { s: string }
typedef Outer = Outer { name: string, #[rust="serde(flatten)"] p: Point }
typedef Digits = Digits { #[rust="serde(with=\"types__json::serde_string\")"] v: u16 }
typedef Keyed = Keyed { m: Map<u32, bool> }
'''


@functools.lru_cache(maxsize=None)
def env():
    return compile_source(SOURCE, "json_unit.dl", ()).type_env


def call(name, t, *args):
    return LIBRARY_JSON[f"json::{name}"](Ctx(env(), (t,)), *args)


def ok(x):
    return Record("ddlog_std::Ok", (x,))


def err(msg):
    return Record("ddlog_std::Err", (msg,))


POINT, SHAPE, TAGGED = TNamed("Point"), TNamed("Shape"), TNamed("Tagged")
SOME3 = Record("ddlog_std::Some", (3,))


def test_struct_fields_in_declaration_order_with_rename():
    assert call("to_json_string", POINT, Record("Point", (-1, SOME3))) == ok('{"x":-1,"why":3}')
    none = Record("ddlog_std::None", ())
    assert call("to_json_string", POINT, Record("Point", (5, none))) == ok('{"x":5,"why":null}')


def test_missing_option_field_is_none_and_unknown_keys_are_skipped():
    got = call("from_json_string", POINT, '{"zzz": [1], "x": 7}')
    assert got == ok(Record("Point", (7, Record("ddlog_std::None", ()))))


def test_missing_field_is_reported_where_the_object_ends():
    assert call("from_json_string", POINT, '{\n "why": 1 }') == \
        err("missing field `x` at line 2 column 11")


def test_out_of_range_and_wrong_type_scalars():
    assert call("from_json_string", POINT, '{"x": 1, "why": 300}') == \
        err("invalid value: integer `300`, expected u8 at line 1 column 19")
    assert call("from_json_string", POINT, '{"x": "1"}') == \
        err('invalid type: string "1", expected i32 at line 1 column 9')


def test_externally_tagged_enum():
    circle = Record("Circle", (1.0,))
    assert call("to_json_string", SHAPE, circle) == ok('{"Circle":{"r":1.0}}')
    assert call("to_json_string", SHAPE, Record("Empty", ())) == ok('"Empty"')
    assert call("from_json_string", SHAPE, '{"Circle": {"r": 1}}') == ok(circle)
    assert call("from_json_string", SHAPE, '"Square"') == \
        err("unknown variant `Square`, expected `Circle` or `Empty` at line 1 column 8")


def test_internally_tagged_enum_errors_carry_no_position():
    ta = Record("TA", (5,))
    assert call("to_json_string", TAGGED, ta) == ok('{"kind":"a.b","n":5}')
    assert call("from_json_string", TAGGED, '{"n": 5, "kind": "a.b"}') == ok(ta)
    assert call("from_json_string", TAGGED, '{"kind": "TB"}') == err("missing field `s`")


def test_flatten_and_serde_string():
    outer = Record("Outer", ("o", Record("Point", (1, SOME3))))
    assert call("to_json_string", TNamed("Outer"), outer) == ok('{"name":"o","x":1,"why":3}')
    assert call("from_json_string", TNamed("Outer"), '{"x":1,"name":"o","why":3}') == ok(outer)
    digits = TNamed("Digits")
    assert call("to_json_string", digits, Record("Digits", (42,))) == ok('{"v":"42"}')
    assert call("from_json_string", digits, '{"v": "70000"}') == \
        err("number too large to fit in target type at line 1 column 14")
    assert call("from_json_string", digits, '{"v": "x"}') == \
        err("invalid digit found in string at line 1 column 10")


def test_integer_map_keys_are_quoted():
    keyed = Record("Keyed", (((1, True), (20, False)),))
    assert call("to_json_string", TNamed("Keyed"), keyed) == ok('{"m":{"1":true,"20":false}}')
    assert call("from_json_string", TNamed("Keyed"), '{"m":{"20":false,"1":true}}') == ok(keyed)


@pytest.mark.parametrize("text, message", [
    ("", "EOF while parsing a value at line 1 column 0"),
    ("x", "expected value at line 1 column 1"),
    ("[1,]", "trailing comma at line 1 column 4"),
    ('{"a" 1}', "expected `:` at line 1 column 6"),
    ("1 2", "trailing characters at line 1 column 3"),
    ('"abc', "EOF while parsing a string at line 1 column 4"),
    ("{1:2}", "key must be a string at line 1 column 2"),
    ("[1\n,", "EOF while parsing a value at line 2 column 1"),
])
def test_syntax_errors(text, message):
    with pytest.raises(JsonError) as e:
        parse(text)
    assert e.value.render(text) == message


@pytest.mark.parametrize("x, text", [
    (1.0, "1.0"), (0.1, "0.1"), (-2.5, "-2.5"), (299792458.0, "299792458.0"),
    (1e15, "1000000000000000.0"), (1e16, "1e16"), (1.25e17, "1.25e17"),
    (0.0001, "0.0001"), (0.00001, "0.00001"), (0.000001, "1e-6"), (-0.0, "-0.0"),
])
def test_floats_print_like_ryu(x, text):
    assert format_ryu(x) == text


def test_single_precision_uses_f32_digits_and_non_finite_is_null():
    assert call("to_json_string", TFloat(), 0.1) == ok("0.1")
    assert call("to_json_string", TDouble(), float("nan")) == ok("null")


def test_string_escapes():
    assert quote('a"b\\c\n\t\x01\x7f\u00e9') == '"a\\"b\\\\c\\n\\t\\u0001\x7f\u00e9"'
    assert call("from_json_string", TString(), r'"\u00e9\ud83d\ude00\/"') == ok("\u00e9\U0001F600/")


def test_json_value_round_trip_and_pointers():
    jv = TNamed("json::JsonValue")
    parsed = call("from_json_string", jv, '{"b": [1, 2.5, null], "a": true}').fields[0]
    # an object's keys are interned strings, in DDlog's order of those: by their hash
    assert call("to_json_string", jv, parsed) == ok('{"b":[1,2.5,null],"a":true}')
    ptr = (Record("json::JKeyPtr", ("b",)), Record("json::JIdxPtr", (4,)))
    updated = LIBRARY_JSON["json::set_by_ptr"](Ctx(env(), ()), parsed, ptr,
                                               Record("json::JsonBool", (False,)))
    assert call("to_json_string", jv, updated.updates[0]) == \
        ok('{"b":[1,2.5,null,null,false],"a":true}')
    got = LIBRARY_JSON["json::get_by_ptr"](updated.updates[0], ptr[:1] + (
        Record("json::JIdxPtr", (1,)),))
    assert got == Record("ddlog_std::Some", (Record("json::JsonNumber", (
        Record("json::JsonFloat", (2.5,)),)),))


def test_from_json_value_errors_have_no_position():
    jv = call("from_json_string", TNamed("json::JsonValue"), '{"why": 1}').fields[0]
    assert call("from_json_value", POINT, jv) == err("missing field `x`")
