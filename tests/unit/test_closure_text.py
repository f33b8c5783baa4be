"""A closure's text as DDlog's compiler prints it (dl2sql.passes.closure_text): the
layout model of its pretty-printer, literals, names and types."""
from __future__ import annotations

from dl2sql.compiler import compile_source
from dl2sql.passes.closure_text import (ClosurePrinter, haskell_float, haskell_string,
                                        literal, text)
from dl2sql.types import typed as T
from dl2sql.types.model import (BOOL, DOUBLE, STRING, TBit, TFunc, TNamed, TSigned,
                                TTuple, TypeEnv)
from dl2sql.types.spelling import type_text


def test_horizontal_composition_indents_the_next_lines_by_its_column() -> None:
    block = text("a;").above(text("b"))
    assert (text("{") + block + text("}")).render() == "{a;\n b}"
    # nesting counts from the column where the nested doc starts
    assert (text("xx") + text("if {").above(text("y").nest(4))).render() == \
        "xxif {\n      y"


def test_vertical_composition_puts_a_short_line_and_a_nested_one_together() -> None:
    # as Haskell's pretty-printer does: `text "hi" $$ nest 5 (text "there")`
    assert text("hi").above(text("there").nest(5)).render() == "hi   there"


def test_string_literals_are_written_as_haskell_shows_them() -> None:
    assert haskell_string('say "hi"\n') == '"say \\"hi\\"\\n"'
    assert haskell_string("\x0eH\x01") == '"\\SO\\&H\\SOH"'
    assert haskell_string("é1") == '"\\233\\&1"'


def test_floating_point_literals_are_written_as_haskell_shows_them() -> None:
    assert [haskell_float(s) for s in ("1.5", "0.1", "0.01", "10000000", "9999999")] == \
        ["1.5", "0.1", "1.0e-2", "1.0e7", "9999999.0"]
    assert literal(DOUBLE, 2.0) == "64'f2.0"


def test_integer_literals_carry_their_type_and_negative_ones_a_minus() -> None:
    assert literal(TBit(32), 2) == "32'd2"
    assert literal(TSigned(64), -1) == "(- 64'sd1)"
    assert literal(BOOL, True) == "true"


def test_types_keep_their_aliases_inside_and_expand_the_top() -> None:
    s64 = TSigned(64, spelled="ddlog_std::s64")
    vec = TNamed("ddlog_std::Vec", (s64,))
    assert type_text(vec) == "ddlog_std::Vec<ddlog_std::s64>"
    assert type_text(s64) == "ddlog_std::s64"
    assert type_text(s64, expand_alias=True) == "signed<64>"
    assert type_text(TNamed("ddlog_std::Map", (STRING, s64))) == \
        "ddlog_std::Map<string,ddlog_std::s64>"
    assert type_text(TTuple((STRING, BOOL))) == "(string, bool)"


def test_a_function_named_as_a_value_prints_as_its_name() -> None:
    u8 = TBit(8)
    wrapped = T.TClosure(TFunc((u8,), STRING), (("__arg0", u8),),
                         T.TCall(STRING, "ddlog_std::to_string#2", (T.TVarRef(u8, "__arg0"),)))
    assert ClosurePrinter(TypeEnv()).expr(wrapped).render() == "ddlog_std::to_string"


def test_a_closure_declared_with_an_alias_prints_with_it() -> None:
    program = compile_source("""
typedef count = u32
typedef counts = |Vec<count>, count|: bool
relation R(f: counts)
R(|v, n| v.len() as count > n or n == 0).
output relation Text(t: string)
Text("${f}") :- R(f).
""", "alias.dl")
    union = dict(program.layouts["R"].columns)["f"]
    (description,) = program.type_env.defs[union.name].closures
    assert description == (
        "(function(v: ddlog_std::Vec<count>, n: bit<32>):bool{"
        "((((ddlog_std::len(v)) as count) > n) or (n == 32'd0))})")
