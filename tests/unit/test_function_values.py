"""Function values stored in relations (dl2sql.passes.function_values): the unions
they become, how they print, a closure type that captures itself, free variables."""
from __future__ import annotations

import duckdb

from dl2sql.api.replaying import replay_program
from dl2sql.compiler import compile_source
from dl2sql.passes.function_values import free_vars
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.printing import format_value
from dl2sql.runtime.values import Record
from dl2sql.types import typed as T
from dl2sql.types.model import TBit, TNamed, TTuple

PROGRAM = """
input relation K(k: u32)
output relation Fn(f: |u32|: u32)
Fn(|x| x + k) :- K(k).
Fn(|x| x * 2).
output relation At(y: u32)
At(f(10)) :- Fn(f).
"""


def _replay(text: str, commands: str) -> str:
    program = compile_source(text, "closures.dl")
    code, out, err = replay_program(program, DuckDBRunner(duckdb.connect()), commands)
    assert (code, err) == (0, ""), err
    return out


def test_a_stored_function_type_becomes_a_union_of_its_literals() -> None:
    program = compile_source(PROGRAM, "closures.dl")
    column = dict(program.layouts["Fn"].columns)["f"]
    assert isinstance(column, TNamed)
    ctors = program.type_env.ctors(column)
    # one constructor per literal, in program order, fields the captured variables
    assert [c.short_name for c in ctors] == ["lambda0", "lambda1"]
    assert [c.fields for c in ctors] == [(("k", TBit(32)),), ()]


def test_closures_print_as_ddlog_prints_them_with_their_captures() -> None:
    out = _replay(PROGRAM, "start;\ninsert K(3);\ncommit;\ndump Fn;\ndump At;\n")
    # DDlog shows `<closure: TEXT, captured_args: CAPTURED>`, TEXT as its compiler prints
    # the typed closure: the literal `2` has become a `bit<32>` literal, `32'd2`
    assert out.splitlines()[-4:] == [
        "Fn{.f = <closure: (function(x: bit<32>):bit<32>{(x + k)}), captured_args: 3>}",
        "Fn{.f = <closure: (function(x: bit<32>):bit<32>{(x * 32'd2)}), captured_args: ()>}",
        "At{.y = 13}",
        "At{.y = 20}",
    ]


def test_a_closure_capturing_a_closure_of_its_own_type() -> None:
    # the union contains itself: stored as text, applied by the interpreter
    text = PROGRAM + """
output relation Twice(f: |u32|: u32)
Twice(|x| f(f(x))) :- Fn(f).
output relation TwiceAt(y: u32)
TwiceAt(f(1)) :- Twice(f).
"""
    out = _replay(text, "start;\ninsert K(5);\ncommit;\ndump TwiceAt;\n")
    assert out.splitlines()[-2:] == ["TwiceAt{.y = 4}", "TwiceAt{.y = 11}"]


def test_free_variables_leave_out_what_the_expression_binds() -> None:
    u32 = TBit(32)
    body = T.TSeq(u32, (
        T.TLet(TTuple(()), T.PVar(u32, "y"), T.TVarRef(u32, "k")),
        T.TBin(u32, "+", T.TVarRef(u32, "y"),
               T.TBin(u32, "+", T.TVarRef(u32, "x"), T.TVarRef(u32, "n")))))
    assert free_vars(body, frozenset({"x"})) == {"k": u32, "n": u32}


def test_printing_a_closure_with_several_captures_shows_a_tuple() -> None:
    program = compile_source(PROGRAM.replace("x + k", "x + k + j").replace(
        "K(k: u32)", "K(k: u32, j: string)").replace("K(k)", "K(k, s), var j = s.len() as u32"),
        "closures.dl")
    column = dict(program.layouts["Fn"].columns)["f"]
    value = Record(program.type_env.ctors(column)[0].name, (1, 2))
    assert format_value(column, value, program.type_env).endswith(", captured_args: (1, 2)>")
