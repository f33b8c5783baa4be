"""The interpreter of the typed IR (the Python side of UDF fallbacks): DDlog's operator
semantics on runtime values, checked against values worked out by hand."""
from __future__ import annotations

import pytest

from dl2sql.compiler import compile_source
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.udfs import interpreter



def run(fn_source: str, name: str, *args):
    """Compile a program that calls ``name`` and run that function in the interpreter."""
    params = ", ".join(f"a{i}" for i in range(len(args)))
    prog = compile_source(fn_source + f"\noutput relation Dummy(x: bool)\n"
                          f"Dummy(true) :- var r = {name}({params_values(args)}).\n")
    key = next(k for k in prog.functions if k[0] == name)
    return interpreter(prog.type_env, prog.functions).call(key[0], key[1], list(args))


def params_values(args) -> str:
    return ", ".join(repr(a) if not isinstance(a, str) else f'"{a}"' for a in args)


@pytest.mark.parametrize("src, name, args, expected", [
    ("function f(x: u8): u8 { x + 250 }", "f", (10,), 4),
    ("function f(x: bit<12>): bit<12> { x * 2 }", "f", (4095,), 4094),
    ("function f(x: u32): u32 { x - 1 }", "f", (0,), 4294967295),
    ("function f(x: s64): s64 { x + 1 }", "f", (2**63 - 1,), -2**63),
    ("function f(x: s32): s32 { x / 2 }", "f", (-7,), -3),
    ("function f(x: s32): s32 { x % 2 }", "f", (-7,), -1),
    ("function f(x: bit<10>): bit<10> { x << 9 }", "f", (3,), 512),
    ("function f(x: bit<10>): bit<10> { x << 16 }", "f", (1,), 1),
    ("function f(x: bit<32>): bit<8> { x[31:24] }", "f", (0xC0A80001,), 192),
    ("function f(x: bit<8>): bit<16> { x ++ 8'd2 }", "f", (1,), 258),
    ("function f(x: s8): u8 { x as u8 }", "f", (-1,), 255),
    ("function f(s: string): u64 { len(s) }", "f", ("Δx",), 3),
    ("function f(x: u64): u64 { if (x < 2) { x } else { f(x - 1) + f(x - 2) } }",
     "f", (10,), 55),
])
def test_operator_semantics(src, name, args, expected) -> None:
    assert run(src, name, *args) == expected


def test_loops_break_continue_and_mutation() -> None:
    src = """
typedef P = P{a: u32, b: u32}
function f(n: u32): P {
    var p = P{0, 0};
    for (i in range_vec(0: u32, n, 1)) {
        if (i == 2) { continue };
        if (i > 5) { break };
        p.a = p.a + i;
        p.b = p.b + 1
    };
    p
}"""
    result = run(src, "f", 100)
    assert result.fields == (0 + 1 + 3 + 4 + 5, 5)


def test_division_by_zero_is_a_runtime_failure() -> None:
    with pytest.raises(RuntimeFailure, match="division by zero"):
        run("function f(x: u32): u32 { 10 / x }", "f", 0)


def test_match_takes_the_first_matching_arm() -> None:
    src = """
function f(x: Option<u32>): string {
    match (x) { Some{0} -> "zero", Some{_} -> "some", None -> "none" }
}"""
    env_prog = compile_source(src + "\noutput relation D(x: bool)\nD(true) :- var s = f(None).")
    key = next(k for k in env_prog.functions if k[0] == "f")
    interp = interpreter(env_prog.type_env, env_prog.functions)
    from dl2sql.runtime.values import Record
    assert interp.call(*key, [Record("ddlog_std::Some", (0,))]) == "zero"
    assert interp.call(*key, [Record("ddlog_std::Some", (3,))]) == "some"
    assert interp.call(*key, [Record("ddlog_std::None", ())]) == "none"

