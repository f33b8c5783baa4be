"""istring_ord: the string literals a program interns are numbered in program order,
handed to every call by the compiler (dl2sql/passes/intern_order.py)."""
from __future__ import annotations

import pytest

from dl2sql.compiler import compile_source
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.types import typed as T
from dl2sql.udfs.std import STD

PROGRAM = """
import intern
function ord_of(s: IString): u32 { istring_ord(s) }
output relation Numbered(s: string, n: u32)
Numbered(istring_str(s), ord_of(s)) :- var s = string_intern("b").
Numbered(istring_str(s), istring_ord(s)) :- var s = string_intern("a").
Numbered("again", istring_ord(string_intern("b"))).
"""


def ord_orders(node, found: list) -> list:
    """The order arguments of the istring_ord calls inside ``node``."""
    if isinstance(node, T.TCall) and node.func == "intern::istring_ord":
        found.append(node.args[1].value)
    if isinstance(node, tuple):
        for x in node:
            ord_orders(x, found)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            if name != "type":
                ord_orders(getattr(node, name), found)
    return found


def test_every_call_gets_the_literals_in_program_order():
    program = compile_source(PROGRAM, "<test>")
    in_rules = ord_orders(tuple(program.rules), [])
    in_functions = ord_orders(tuple(f.body for f in program.functions.values()), [])
    assert in_rules and in_functions
    assert set(in_rules + in_functions) == {("b", "a")}


def test_numbers_and_the_error_for_other_strings():
    ord_ = STD["intern::istring_ord"]
    assert [ord_(s, ("b", "a")) for s in ("b", "a")] == [0, 1]
    with pytest.raises(RuntimeFailure, match="not one of the string literals"):
        ord_("c", ("b", "a"))


def test_programs_without_istring_ord_are_unchanged():
    program = compile_source('import intern\noutput relation R(s: string)\n'
                             'R(istring_str(string_intern("x"))).\n', "<test>")
    assert ord_orders(tuple(program.rules), []) == []
