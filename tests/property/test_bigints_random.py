"""Wide integers compute what Python's integers compute, on both engines: random
arithmetic on ``bigint``, ``bit<128>`` and ``signed<128>`` values, small and huge
(tests/property/random_bigints.py), against the same expressions evaluated on Python
ints with DDlog's semantics (truncating division, wrap-around of the 128-bit types).
Each example is one program whose rule computes the expressions per row of one input
relation; natively where the values allow it, in the interpreter beyond (see
dl2sql/sqlgen/wide_arith.py). A run starts with wide integers NARROW (DECIMAL(38,0))
and goes WIDE where a value needs it (dl2sql.api.speculation); the NARROW plan alone
gives Python's values or an overflow failure, never another value. Spark runs fewer
examples, each batching more expressions into one query.
"""
from __future__ import annotations

import dataclasses

import duckdb
import pytest
from hypothesis import Phase, given, settings

from dl2sql.api.evaluate import Evaluator
from dl2sql.compiler import compile_source
from dl2sql.diagnostics import OVERFLOWS
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.values import Record
from dl2sql.types.model import NARROW
from random_bigints import Case, case
from profiles import examples

# the recursion limit changes during examples (see test_incremental_random.py)
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

def check(example: Case, runner, narrow: bool = False) -> None:
    """Every output of ``example``, computed by ``runner``, equals its Python value on
    every row; a failure names the program, the row and the column. With ``narrow``,
    by the NARROW plan alone, which may instead fail on an overflow."""
    text = example.text()
    program = compile_source(text, "<random bigints>")
    if narrow:  # nothing to fall back to: its overflow is raised
        program = dataclasses.replace(program.represented(NARROW), integers=(NARROW,))
    try:
        got = Evaluator(program, runner).evaluate(
            {"In": {Record("In", row) for row in example.rows}})["Out"]
    except OVERFLOWS:  # DuckDB fails on a DECIMAL overflow itself (narrow plans rely on it)
        if narrow:
            return
        raise
    by_id = {r.fields[0]: r.fields[1:] for r in got}
    assert sorted(by_id) == [row[0] for row in example.rows], text
    for row in example.rows:
        for i, want in enumerate(example.expected(row)):
            assert by_id[row[0]][i] == want, (
                f"v{i} = {example.exprs[i][1].text}\n  on row {row}: SQL gave "
                f"{by_id[row[0]][i]!r}, Python {want!r}\n--- program:\n{text}")


@settings(max_examples=examples(80))
@given(example=case(expressions=6, depth=3, rows=4))
def test_wide_arithmetic_agrees_with_python_duckdb(example: Case) -> None:
    con = duckdb.connect(":memory:")
    try:
        check(example, DuckDBRunner(con))
    finally:
        con.close()


@settings(max_examples=examples(80))
@given(example=case(expressions=6, depth=3, rows=4, small=True))
def test_narrow_arithmetic_is_right_or_overflows_duckdb(example: Case) -> None:
    con = duckdb.connect(":memory:")
    try:
        check(example, DuckDBRunner(con), narrow=True)
    finally:
        con.close()


@settings(max_examples=examples(4), phases=(Phase.explicit, Phase.generate))
@given(example=case(expressions=12, depth=3, rows=4))
def test_wide_arithmetic_agrees_with_python_spark(spark, example: Case) -> None:
    from dl2sql.runner.spark_runner import SparkRunner

    check(example, SparkRunner(spark))
