"""Every std function compiled to native SQL returns what dl2sql's interpreter (the
Python UDF path) returns for the same arguments, on both engines.

Each function is called twice per row: directly (inlined, native SQL) and inside a
function whose body loops, which the compiler cannot inline, so that it runs in the
interpreter as a UDF. The two columns must be equal on every row."""
from __future__ import annotations

from dl2sql.compiler import compile_source
from dl2sql.api.evaluate import Evaluator
from dl2sql.runtime.values import Record

CASES = {
    # name: (result type, expression over s: string, o: Option<u32>, a: u32, b: s64)
    "len": ("u64", "len(s)"),
    "starts": ("bool", "starts_with(s, \"ab\")"),
    "ends": ("bool", "ends_with(s, \"\")"),
    "is_some": ("bool", "is_some(o)"),
    "is_none": ("bool", "is_none(o)"),
    "unwrap": ("u32", "unwrap_or(o, 7)"),
    "min": ("u32", "min(a, 10)"),
    "max_s": ("s64", "max(b, -3)"),
    "min_str": ("string", "min(s, \"b\")"),
    "str_int": ("string", "to_string(b)"),
    "str_bool": ("string", "to_string(a > 3)"),
    "interp": ("string", "\"<${a}|${b}|${s}>\""),
    # bigint pairs (docs/sql-mapping.md, "Wide integers"): b cubed is huge for b = MIN
    "str_big": ("string", "to_string((b as bigint) * (b as bigint) * (b as bigint))"),
    "interp_big": ("string", "\"${-(b as bigint) * (b as bigint)}\""),
    "max_big": ("bigint", "max((b as bigint) * (b as bigint), (a as bigint))"),
    "min_big": ("bigint", "min(-(b as bigint) * (b as bigint) * (b as bigint), 5)"),
    # closures over collections: SQL higher-order functions
    "vmap": ("Vec<u32>", "[a, 1, a % 7].map(|x| x / 2 + 1)"),
    "vfilter": ("Vec<u32>", "[a, 1, a % 7].filter(|x| x > 2)"),
    "vany": ("bool", "[a, 1].any(|x| x == 3)"),
    "vall": ("bool", "vec_empty().all(|x: u32| x == 3) and [a].all(|x| x < 5)"),
    "vcount": ("u64", "[a, 1, 1].count(|x| x == 1)"),
    "to_set": ("Set<u32>", "[a, 1, a % 7, 1].to_set()"),
    "smap": ("Set<u32>", "[a, 2, 3].to_set().map(|x| x % 2)"),
    "sfilter": ("Set<s64>", "[b, 0, -1].to_set().filter(|x| x < 1)"),
}

ROWS = [("", Record("ddlog_std::None", ()), 0, -9223372036854775808),
        ("abc", Record("ddlog_std::Some", (5,)), 4294967295, 17),
        ("Δδ", Record("ddlog_std::Some", (0,)), 3, -3),
        ("ab", Record("ddlog_std::None", ()), 11, 0)]


def program() -> str:
    lines = ["import vec", "import set",
             "input relation In(s: string, o: Option<u32>, a: u32, b: s64)"]
    for name, (rtype, expr) in CASES.items():
        lines.append(f"function native_{name}(s: string, o: Option<u32>, a: u32, b: s64): "
                     f"{rtype} {{ {expr} }}")
        lines.append(f"function udf_{name}(s: string, o: Option<u32>, a: u32, b: s64): "
                     f"{rtype} {{ for (i in vec_empty(): Vec<u8>) {{ }}; {expr} }}")
        lines.append(f"output relation Out_{name}(s: string, a: u32, native: {rtype}, "
                     f"udf: {rtype})")
        lines.append(f"Out_{name}(s, a, native_{name}(s, o, a, b), udf_{name}(s, o, a, b)) "
                     f":- In(s, o, a, b).")
    return "\n".join(lines)


def test_native_builtins_agree_with_interpreter(engine) -> None:
    compiled = compile_source(program(), "<native_vs_udf>")
    sql = compiled.plan_for(engine.dialect)
    assert len(sql.functions) >= len(CASES)  # the udf_ variants really are UDFs
    result = Evaluator(compiled, engine).evaluate(
        {"In": {Record("In", r) for r in ROWS}})
    for name in CASES:
        rows = result[f"Out_{name}"]
        assert len(rows) == len(ROWS), name
        for r in rows:
            _, _, native, udf = r.fields
            assert native == udf, (name, r)
