"""Expressions compiled to SQL compute what dl2sql's interpreter computes, on random
well-typed expression trees over every operator (tests/property/random_exprs.py).

Each example is one program: its rule computes several random expressions per row of
one input relation, compiled natively (the SQL that precedence, wrapping and casts
must get right; what SQL cannot express falls back to a UDF inside the tree). The same
expressions are functions that the interpreter (dl2sql/runtime/interp.py, the Python
UDFs' evaluator) runs on the same rows in the test's process. Every value must agree.
Spark runs fewer examples, each batching its expressions into one query.
"""
from __future__ import annotations

import duckdb
import pytest
from hypothesis import Phase, given, settings

from dl2sql.api.evaluate import Evaluator
from dl2sql.compiler import compile_source
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.ops import ddlog_equal
from dl2sql.runtime.values import Record
from dl2sql.udfs import interpreter
from random_exprs import TYPES, Case, case
from profiles import examples

# the recursion limit changes during examples (see test_incremental_random.py)
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

def check(example: Case, runner) -> None:
    """Every expression of ``example``, computed by ``runner``, equals the
    interpreter's value on every row; a failure names the program, row and column."""
    text = example.text()
    compiled = compile_source(text, "<random expressions>")
    got = Evaluator(compiled, runner).evaluate(
        {"In": {Record("In", row) for row in example.rows}})["Out"]
    by_id = {r.fields[0]: r.fields[1:] for r in got}
    assert sorted(by_id) == [row[0] for row in example.rows], text
    functions = compile_source(example.functions_text(), "<the expressions as functions>")
    interp = interpreter(functions.type_env, functions.functions)
    for row in example.rows:
        for i, (t, e) in enumerate(example.exprs):
            want = interp.call(f"f{i}", (), list(row[1:]))
            assert ddlog_equal(by_id[row[0]][i], want), (
                f"v{i}: {t} = {e}\n  on row {row}: SQL gave {by_id[row[0]][i]!r}, the "
                f"interpreter {want!r}\n--- program:\n{text}")


@settings(max_examples=examples(5))
@given(example=case(expressions=12, depth=3, rows=2))
def test_generator_makes_programs_that_compile(example: Case) -> None:
    """The generator's vocabulary: every type has a column, and drawn programs
    compile (a generator bug would otherwise hide behind compile errors)."""
    compile_source(example.text(), "<random expressions>")
    compile_source(example.functions_text(), "<the expressions as functions>")
    assert len(set(TYPES)) == len(TYPES) == 10


@settings(max_examples=examples(100))
@given(example=case(expressions=6, depth=3, rows=4))
def test_native_sql_agrees_with_interpreter_duckdb(example: Case) -> None:
    con = duckdb.connect(":memory:")
    try:
        check(example, DuckDBRunner(con))
    finally:
        con.close()


@settings(max_examples=examples(5), phases=(Phase.explicit, Phase.generate))
@given(example=case(expressions=10, depth=3, rows=4))
def test_native_sql_agrees_with_interpreter_spark(spark, example: Case) -> None:
    from dl2sql.runner.spark_runner import SparkRunner

    check(example, SparkRunner(spark))
