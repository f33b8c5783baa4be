"""Constants of the program (dl2sql.plan.constants): which relations are constants, and
the plan of an engine that folds them: each recursive stratum of constants a load of
the rows the oracle computes, once, with the failure it met; too large ones keep their
loop. Runs on DuckDB only (a DuckDB policy that folds stands in for Spark's, whose
plan is checked without running it; tests/programs/constants runs on both)."""
from __future__ import annotations

import dataclasses

import pytest

import dl2sql
from dl2sql.api.evaluate import Evaluator
from dl2sql.compiler import compile_source
from dl2sql.compiler.emit import emit
from dl2sql.compiler.pipeline import constants_program
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.engines import ENGINES
from dl2sql.plan.constants import constant_relations
from dl2sql.plan.interpret import fetch_relation
from dl2sql.plan.nodes import Fixpoint, Load, Loop, Materialize, RecursiveUnion
from dl2sql.runner.duckdb_runner import DuckDBRunner

PROGRAM = """
relation Count(n: u32)
Count(0).
Count(n + 1) :- Count(n), n < 99.

relation Word(w: string)
Word("a").
relation Grown(w: string)
Grown(w) :- Word(w).
Grown(w ++ "x") :- Grown(w), string_len(w) < 4.

input relation Item(n: u32)
output relation Counted(n: u32)
Counted(n) :- Item(n), Count(n).
output relation Chain(n: u32)
Chain(n) :- Item(n).
Chain(n + 1) :- Chain(n), Count(n + 1).
output relation Top(n: u32)
Top(n) :- Count(n), n > 97.
"""
# the DuckDB engine folding as Spark does
FOLDING = dataclasses.replace(ENGINES["duckdb"].loops, constant_rows=1_000_000)


def _constants(source: str, extern=None) -> set[str]:
    compiled = dl2sql.compile(source, extern=extern or {}).compiled
    return constant_relations(constants_program(compiled))


def _stage(source: str, engine: str, policy=None) -> list:
    return list(compile_source(source).engine_stage(engine, "loops", policy).statements)


def _loaded(stmts) -> dict:
    return {s.target.relation: s for s in stmts if isinstance(s, Load)}


def test_constants_depend_on_no_input():
    found = _constants(PROGRAM)
    assert {"Count", "Word", "Grown", "Top"} <= found
    assert not found & {"Item", "Counted", "Chain"}


def test_what_changes_between_transactions_or_runs_is_no_constant():
    source = """
    relation Seed(n: u32)
    Seed(1).
    extern function bump(n: u32): u32
    function via(n: u32): u32 { bump(n) }
    relation Ext(n: u32)
    Ext(1).
    Ext(bump(n)) :- Ext(n), n < 5.
    relation Indirect(n: u32)
    Indirect(1).
    Indirect(via(n)) :- Indirect(n), n < 5.
    relation Lib(n: u32)
    Lib(1).
    Lib(n + 1) :- Lib(n), n < (string_len("abc") as u32).
    stream Ticks(n: u32)
    Ticks(1).
    relation AfterTicks(n: u32)
    AfterTicks(n) :- Ticks'(n).
    AfterTicks(n + 1) :- AfterTicks(n), n < 3.
    relation Lagged(n: u32)
    Lagged(n) :- Seed-1(n).
    Lagged(n + 1) :- Lagged(n), n < 3.
    """
    found = _constants(source, {"bump": lambda n: n + 1})
    # a std function (ddlog_std) is the same in every run; the user's extern is not,
    # also when called through a DDlog function
    assert {"Seed", "Lib"} <= found
    assert not found & {"Ext", "Indirect", "Ticks", "AfterTicks", "Lagged"}


def test_a_transformers_output_is_no_constant():
    source = """
    relation Edge(src: u32, dst: u32)
    Edge(1, 2).
    output relation Fanout(node: u32, n: u64)
    extern transformer Count(Edges: relation[Edge]) -> (Counts: relation[Fanout])
    apply Count(Edge) -> (Fanout)
    relation Grow(n: u64)
    Grow(n) :- Fanout(_, n).
    Grow(n + 1) :- Grow(n), n < 3.
    """
    found = _constants(source, {"Count": lambda edges: edges})
    assert "Edge" in found and not found & {"Fanout", "Grow"}


def test_spark_loads_each_recursive_stratum_of_constants_and_duckdb_loops():
    spark = _stage(PROGRAM, "spark")
    assert set(_loaded(spark)) == {"Count", "Grown"}
    assert not any(isinstance(s, Fixpoint) for s in spark)
    # the stratum that reads an input still loops; non-recursive constants stay queries
    assert [s.stratum for s in spark if isinstance(s, Loop)] == ["Chain"]
    assert any(isinstance(s, Materialize) and s.target.relation == "Top" for s in spark)
    duckdb = _stage(PROGRAM, "duckdb")
    assert not _loaded(duckdb)
    assert {s.target.relation for s in duckdb if isinstance(s, Materialize)
            and isinstance(s.query, RecursiveUnion)} >= {"Count", "Grown"}


def test_the_loaded_rows_are_those_the_oracle_computes():
    program = compile_source(PROGRAM)
    loaded = _loaded(_stage(PROGRAM, "spark"))
    runner = DuckDBRunner()
    Evaluator(program, runner).run({"Item": []})
    plan = program.plan_for("duckdb")
    for rel in ("Count", "Grown"):
        assert sorted(loaded[rel].rows) == sorted(fetch_relation(plan, runner, rel))
    assert len(loaded["Count"].rows) == 100 and not loaded["Count"].failure


def _run(program, policy, items) -> dict:
    runner = DuckDBRunner()
    Evaluator(program, runner, loops=policy).run({"Item": [(n,) for n in items]})
    plan = program.plan_for("duckdb", policy)
    return {rel: sorted(fetch_relation(plan, runner, rel)) for rel in ("Counted", "Chain")}


def test_a_folded_plan_runs_and_gives_the_loops_results():
    program = compile_source(PROGRAM)
    assert _loaded(program.engine_stage("duckdb", "loops", FOLDING).statements)
    folded = _run(program, FOLDING, (5, 98, 200))
    assert folded == _run(program, None, (5, 98, 200))
    assert folded["Chain"] == [(n,) for n in range(5, 100)] + [(200,)]
    assert folded["Counted"] == [(5,), (98,)]


def test_a_stratum_of_more_rows_than_the_policy_allows_keeps_its_loop():
    # Grown has 4 rows, Count 100
    policy = dataclasses.replace(ENGINES["spark"].loops, constant_rows=50)
    stmts = _stage(PROGRAM, "spark", policy)
    assert set(_loaded(stmts)) == {"Grown"}
    assert sorted(s.stratum for s in stmts if isinstance(s, Loop)) == ["Chain", "Count"]


def test_a_failure_of_a_constant_is_raised_when_run_as_the_loop_raises_it():
    source = """
    function inverse(n: u32): u32 { if (n > 100) { 1 / (n - n) } else { inverse(n + 1) } }
    relation Bad(n: u32)
    Bad(0).
    Bad(inverse(n)) :- Bad(n), n < 3.
    input relation I(n: u32)
    output relation O(n: u32)
    O(n) :- I(n), Bad(n).
    """
    program = compile_source(source)
    (load,) = _loaded(program.engine_stage("duckdb", "loops", FOLDING).statements).values()
    assert load.failure.startswith("function `inverse` in the rule at <input>:5:")
    # planning did not fail: the plan shows the failure, running raises it
    assert "raises when run: function `inverse`" in emit(program, "plan", "spark")
    messages = []
    for policy in (FOLDING, None):
        with pytest.raises(RuntimeFailure) as info:
            Evaluator(program, DuckDBRunner(), loops=policy).evaluate({})
        messages.append(str(info.value))
    assert messages[0] == messages[1] == load.failure


def test_the_sql_and_the_plan_show_the_load():
    text = emit(compile_source(PROGRAM), "sql", "spark")
    assert "-- Count := Count: a constant of the program, 100 rows evaluated once when " \
           "planned (loaded)" in text
    assert "-- Count := Count: a constant" in "\n".join(dl2sql.compile(PROGRAM).sql("spark"))


def test_a_program_without_recursive_constants_is_planned_as_before():
    source = """
    relation Seed(n: u32)
    Seed(1).
    input relation Edge(x: u32, y: u32)
    output relation Path(x: u32, y: u32)
    Path(x, y) :- Edge(x, y), Seed(x).
    Path(x, z) :- Path(x, y), Edge(y, z).
    """
    program = compile_source(source)
    assert "Seed" in constant_relations(constants_program(program))
    assert program.engine_stage("spark", "constants") is program.plan
