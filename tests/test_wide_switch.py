"""Wide integers (bigint, bit<N> and signed<N> for N > 64) stored NARROW, as plain
DECIMAL(38,0), while every value fits, and WIDE, as (num, big) pairs, from the moment
one needs more than 38 digits (dl2sql.api.speculation): through the API's runs, the
maintained programs' transactions, replay (maintained and recomputed) and saved
states, on both engines. Expected values are Python's integers."""
from __future__ import annotations

import dataclasses
import json
import math

import pytest

import dl2sql
from dl2sql.api.evaluate import Evaluator
from dl2sql.api.replaying import replay_program
from dl2sql.compiler import compile_source
from dl2sql.diagnostics import IntegerOverflow
from dl2sql.runner.progress import RecordingProgress
from dl2sql.runtime.values import Record
from dl2sql.types.model import NARROW, WIDE
from engines import maintain_on, sorted_rows

GROWTH = """
input relation Seed(x: bigint)
input relation Limit(n: u32)
output relation Twice(i: u32, x: bigint)
Twice(0, x) :- Seed(x).
Twice(i + 1, x * 1000) :- Twice(i, x), Limit(n), i < n.
output relation Digits(i: u32, s: string)
Digits(i, "${x}") :- Twice(i, x).
"""


def _values(frame) -> list[tuple]:
    """The rows of an output frame, sorted, wide integers as ints (the output form
    holds them as decimal text)."""
    def value(v):
        digits = isinstance(v, str) and v.lstrip("-").isdigit()
        return int(v) if digits and str(int(v)) == v else v
    return sorted(tuple(value(v) for v in row) for row in sorted_rows(frame))


def _run(program, engine, inputs: dict, progress=None) -> dict:
    """The outputs of ``program.run`` (:func:`_values`)."""
    if engine.dialect == "spark":
        frames = program.run(spark=engine.spark, inputs=inputs, progress=progress)
    else:
        frames = program.run(engine="duckdb", con=engine.con, inputs=inputs,
                             progress=progress)
    return {rel: _values(frame) for rel, frame in frames.items()}


def _grown(seed: int, limit: int) -> tuple[list, list]:
    twice = [(i, seed * 1000 ** i) for i in range(limit + 1)]
    return twice, [(i, str(x)) for i, x in twice]


@pytest.mark.parametrize("limit", [12, 16])
def test_a_run_switches_to_wide_where_a_value_outgrows_38_digits(engine, limit):
    # 3 * 1000^12 has 37 digits: the run stays NARROW; 3 * 1000^13 has 40
    program = dl2sql.compile(GROWTH)
    assert program.compiled.representation == NARROW
    progress = RecordingProgress()
    out = _run(program, engine, {"Seed": [(3,)], "Limit": [(limit,)]}, progress)
    twice, digits = _grown(3, limit)
    assert out["Twice"] == twice
    assert out["Digits"] == sorted((i, int(x)) for i, x in digits)
    if limit == 12:
        assert progress.widened == [] and program.last_compiled.representation == NARROW
    else:
        assert program.last_compiled.representation == WIDE
        [reason] = progress.widened  # Spark's guard fails; DuckDB checks DECIMALs itself
        assert "needs more than the 38 digits of DECIMAL(38,0)" in reason
        assert ("in the rule at <source>:6:1" if engine.dialect == "spark" else
                "Overflow in multiplication of DECIMAL(38)") in reason


@pytest.mark.parametrize("source", ["rows", "csv", "frame"])
def test_input_values_beyond_38_digits_make_the_run_wide(engine, tmp_path, source):
    seeds = [(10 ** 40 + 7,), (-(10 ** 38),), (5,)]
    if source == "csv":
        path = tmp_path / "Seed.csv"
        path.write_text("x\n" + "".join(f"{x}\n" for x, in seeds))
        given = str(path)
    elif source == "frame" and engine.dialect == "spark":
        given = engine.spark.createDataFrame([(str(x),) for x, in seeds], "x string")
    elif source == "frame":
        import pandas

        given = pandas.DataFrame({"x": [str(x) for x, in seeds]})
    else:
        given = seeds
    program = dl2sql.compile(GROWTH)
    progress = RecordingProgress()
    out = _run(program, engine, {"Seed": given, "Limit": [(2,)]}, progress)
    assert out["Twice"] == sorted(
        (i, x * 1000 ** i) for x, in seeds for i in range(3))
    [reason] = progress.widened  # an input value: found as the inputs are loaded
    assert reason.endswith("(an input value)" if source != "rows" else "(41 digits)")


def test_a_constant_beyond_38_digits_starts_wide(engine):
    program = dl2sql.compile(GROWTH.replace("Twice(0, x) :- Seed(x).",
                                              "Twice(0, x) :- Seed(x).\nTwice(0, 10 * "
                                              "1000000000000000000000000000000000000000)."))
    assert program.compiled.integers == (WIDE,)
    progress = RecordingProgress()
    out = _run(program, engine, {"Seed": [(1,)], "Limit": [(1,)]}, progress)
    assert out["Twice"] == [(0, 1), (0, 10 ** 40), (1, 1000), (1, 10 ** 43)]
    assert progress.widened == []


CONSTANT = """
relation Pow(i: u32, x: bigint)
Pow(0, 7).
Pow(i + 1, x * 1000) :- Pow(i, x), i < 15.
input relation Ask(i: u32)
output relation Answer(i: u32, x: bigint)
Answer(i, x) :- Ask(i), Pow(i, x).
"""


def test_a_constant_stratum_crossing_38_digits(engine):
    # Pow reads no input: on Spark it is evaluated when the plan is made, on the oracle,
    # and loaded (dl2sql.plan.constants); its NARROW evaluation fails there, and the
    # load raises the overflow when the run reaches it
    program = dl2sql.compile(CONSTANT)
    progress = RecordingProgress()
    out = _run(program, engine, {"Ask": [(3,), (15,)]}, progress)
    assert out["Answer"] == [(3, 7 * 1000 ** 3), (15, 7 * 1000 ** 15)]
    assert len(progress.widened) == 1 and program.last_compiled.representation == WIDE


SQUARES = """
import vec
input relation V(k: u32, v: Vec<bigint>)
output relation W(k: u32, w: Vec<bigint>)
W(k, v.map(|x| x * x + 1)) :- V(k, v).
"""


@pytest.mark.parametrize("big", [10 ** 10, 10 ** 20])
def test_arithmetic_inside_a_sql_lambda(engine, big):
    # the NARROW plan computes inside the array function's lambda, its guard there too
    program = dl2sql.compile(SQUARES)
    progress = RecordingProgress()
    out = _run(program, engine, {"V": [(1, (3, big, -big))]}, progress)
    assert [(k, [int(x) for x in w]) for k, w in out["W"]] == [
        (1, [10, big * big + 1, big * big + 1])]
    assert program.last_compiled.representation == (NARROW if big < 10 ** 19 else WIDE)


NEGATED = """
input relation A(x: bigint)
input relation B(x: bigint)
output relation Lone(x: bigint)
Lone(x) :- A(x), not B(x * 10).
"""


def test_arithmetic_in_a_negated_atom(engine):
    # a negation's condition is compiled apart from the rule's SELECT: NARROW, it too is
    # native SQL whose guard fails the query (no interpreter)
    program = dl2sql.compile(NEGATED)
    assert "udf" not in " ".join(program.sql(engine.dialect)).lower()
    big = 2 * 10 ** 37  # fits; ten times it does not
    progress = RecordingProgress()
    out = _run(program, engine, {"A": [(1,), (2,), (big,)], "B": [(10,)]}, progress)
    assert out["Lone"] == [(2,), (big,)] and program.last_compiled.representation == WIDE
    assert len(progress.widened) == 1
    out = _run(program, engine, {"A": [(1,), (2,)], "B": [(10,)]})
    assert out["Lone"] == [(2,)] and program.last_compiled.representation == NARROW


POWERS = """
input relation Seed(k: string, x: bigint)
input relation Steps(n: u32)
output relation Pow(k: string, i: u32, x: bigint)
Pow(k, 0, x) :- Seed(k, x).
Pow(k, i + 1, x * x) :- Pow(k, i, x), Steps(n), i < n.
output relation Top(t: bigint)
Top(t) :- Pow(_, _, x), var t = x.group_by(()).max().
"""


def test_a_maintained_program_switches_in_a_transaction(engine):
    program = dl2sql.compile(POWERS)
    progress = RecordingProgress()
    live = maintain_on(program, engine, {"Seed": [("a", 3)], "Steps": [(2,)]},
                       progress=progress)
    assert live.compiled.representation == NARROW
    changes = live.apply(insert={"Steps": [(5,)]})  # 3^32: 16 digits
    assert _values(changes["Top"]) == [(3 ** 4, -1), (3 ** 32, 1)]
    assert live.compiled.representation == NARROW and progress.widened == []
    # 3^128 has 62 digits: the transaction fails NARROW, leaves the relations as they
    # were, which go WIDE, and runs again
    changes = live.apply(insert={"Steps": [(7,)], "Seed": [("b", -2)]})
    assert live.compiled.representation == WIDE and len(progress.widened) == 1
    assert _values(changes["Top"]) == [(3 ** 32, -1), (3 ** 128, 1)]
    assert _values(changes["Pow"]) == sorted(
        [("a", i, 3 ** 2 ** i, 1) for i in (6, 7)]
        + [("b", 0, -2, 1), ("b", 1, 4, 1)] + [("b", i, 2 ** 2 ** i, 1) for i in range(2, 8)])
    # then incrementally, WIDE: a deletion brings a value below 38 digits back
    changes = live.apply(delete={"Steps": [(7,)]})
    assert _values(changes["Top"]) == [(3 ** 32, 1), (3 ** 128, -1)]
    assert sorted((k, i, x) for k, i, x in (r.fields for r in live.records("Pow"))) == sorted(
        [("a", i, 3 ** 2 ** i) for i in range(6)] + [("b", 0, -2)]
        + [("b", i, 2 ** 2 ** i) for i in range(1, 6)])
    live.close()


FACTORIAL = """
input relation Upto(n: u32)
output relation Fact(n: u32, f: bigint)
Fact(0, 1).
Fact(n + 1, f * ((n + 1) as bigint)) :- Fact(n, f), Upto(m), n < m.
"""


def _facts(ns, sign: str) -> str:
    return "".join(f"Fact{{.n = {n}, .f = {math.factorial(n)}}}: {sign}\n" for n in ns)


def test_replay_switches_in_the_middle_of_a_session(engine):
    _replay_switches(engine, recompute=False)


def test_recomputing_replay_switches_in_the_middle_of_a_session():
    """On DuckDB (on Spark, a run's switch while it evaluates the program is
    test_a_run_switches_to_wide_where_a_value_outgrows_38_digits)."""
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    _replay_switches(DuckDBRunner(), recompute=True)


def _replay_switches(engine, recompute: bool) -> None:
    # 33! has 37 digits, 34! 39: the third commit goes WIDE, the rest stays so
    commands = ("start; insert Upto(20); commit dump_changes;\n"
                "start; insert Upto(33); commit dump_changes;\n"
                "start; insert Upto(40); commit dump_changes;\n"
                "start; delete Upto(40); delete Upto(33); commit dump_changes;\n"
                "dump Fact;\n")
    program = compile_source(FACTORIAL)
    code, out, err = replay_program(program, engine, commands, recompute=recompute)
    assert (code, err) == (0, "")
    assert out == ("Fact:\n" + _facts([0], "+1") + "Fact:\n" + _facts(range(1, 21), "+1")
                   + "Fact:\n" + _facts(range(21, 34), "+1")
                   + "Fact:\n" + _facts(range(34, 41), "+1")
                   + "Fact:\n" + _facts(range(21, 41), "-1")
                   + "".join(_facts(range(21), "+1").replace(": +1", "").splitlines(True)))


def _manifest(directory) -> dict:
    version = (directory / "CURRENT").read_text().strip()
    return json.loads((directory / version / "manifest.json").read_text())


def _open(program, engine, directory):
    if engine.dialect == "spark":
        return program.maintain(spark=engine.spark, state=str(directory))
    return program.maintain(engine="duckdb", con=engine.con, state=str(directory))


def test_a_saved_state_goes_on_in_its_representation(engine, tmp_path):
    program = dl2sql.compile(POWERS)
    state = tmp_path / "state"
    live = maintain_on(program, engine, {"Seed": [("a", 3)], "Steps": [(5,)]})
    live.save(str(state))
    live.close()
    assert _manifest(state)["integers"] == NARROW
    again = _open(program, engine, state)
    assert again.compiled.representation == NARROW
    again.apply(insert={"Steps": [(7,)]})  # 3^128: WIDE from here
    assert again.compiled.representation == WIDE
    again.save(str(state))
    again.close()
    assert _manifest(state)["integers"] == WIDE
    third = _open(program, engine, state)
    assert third.compiled.representation == WIDE
    assert [r.fields for r in third.records("Top")] == [(3 ** 128,)]
    changes = third.apply(delete={"Steps": [(7,)]})
    assert _values(changes["Top"]) == [(3 ** 32, 1), (3 ** 128, -1)]
    third.close()
    # a state saved before the choice existed holds its wide integers WIDE
    manifest = _manifest(state)
    del manifest["integers"]
    version = (state / "CURRENT").read_text().strip()
    (state / version / "manifest.json").write_text(json.dumps(manifest))
    older = _open(program, engine, state)
    assert older.compiled.representation == WIDE
    assert [r.fields for r in older.records("Top")] == [(3 ** 128,)]
    older.close()


def _narrow_only(program):
    """``program`` NARROW with nothing to fall back to: its overflow is raised."""
    return dataclasses.replace(program.represented(NARROW), integers=(NARROW,))


@pytest.mark.parametrize("ansi", ["true", "false"])
def test_spark_without_ansi_mode_still_detects_overflow(spark, ansi):
    # without ANSI mode, Spark's DECIMAL arithmetic gives NULL where it overflows: the
    # NARROW plan's guards fail the query instead, and never give a wrong value
    from dl2sql.runner.spark_runner import SparkRunner

    before = spark.conf.get("spark.sql.ansi.enabled")
    spark.conf.set("spark.sql.ansi.enabled", ansi)
    try:
        program = _narrow_only(compile_source(GROWTH))
        records = {"Seed": {Record("Seed", (3,))}, "Limit": {Record("Limit", (16,))}}
        with pytest.raises(IntegerOverflow, match="in the rule at <input>:6:1"):
            Evaluator(program, SparkRunner(spark)).evaluate(records)
        frame = spark.createDataFrame([(str(10 ** 39),)], "x string")
        with pytest.raises(IntegerOverflow, match="an input value"):
            dl2sql.Program(program, {}).run(spark=spark, inputs={"Seed": frame})
        small = {"Seed": {Record("Seed", (3,))}, "Limit": {Record("Limit", (12,))}}
        out = Evaluator(program, SparkRunner(spark)).evaluate(small)
        assert sorted(r.fields for r in out["Twice"]) == _grown(3, 12)[0]
    finally:
        spark.conf.set("spark.sql.ansi.enabled", before)


def _files(tmp_path, program: str, commands: str):
    (tmp_path / "p.dl").write_text(program)
    (tmp_path / "p.dat").write_text(commands)
    return str(tmp_path / "p.dl"), str(tmp_path / "p.dat")


def test_the_command_line_shows_the_representation(tmp_path, capsys):
    from dl2sql.cli.main import main

    program, commands = _files(tmp_path, GROWTH, "start; insert Seed(3), insert Limit(16); "
                                                 "commit dump_changes;\n")
    assert main(["compile", program, "--dialect", "spark", "--emit", "sql"]) == 0
    narrow = capsys.readouterr().out  # the guard fails the query beyond 38 digits
    assert main(["compile", program, "--dialect", "spark", "--emit", "sql", "--integers", "wide"]) == 0
    wide = capsys.readouterr().out  # the interpreter computes beyond them
    assert "dl2sql-integer-overflow" in narrow and "num$" not in narrow
    assert "num$" in wide and "dl2sql-integer-overflow" not in wide
    assert main(["compile", program, "--dialect", "duckdb"]) == 0
    narrow = capsys.readouterr().out  # DuckDB fails on a DECIMAL overflow itself
    assert 'CAST("t1"."x" * CAST(1000 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "x"' in narrow
    assert main(["replay", program, "--commands", commands, "--explain"]) == 0
    replayed = capsys.readouterr()
    assert f"Twice{{.i = 16, .x = {3 * 1000 ** 16}}}: +1" in replayed.out
    assert "wide integers stored:\nwide: stored as (num, big) pairs from now on" \
        in replayed.err
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    (inputs / "Seed.csv").write_text("x\n3\n")
    (inputs / "Limit.csv").write_text("n\n12\n")
    run = ["run", program, "--engine", "duckdb", "--input", str(inputs), "--output",
           str(out), "--format", "csv", "--quiet", "--explain"]
    assert main(run) == 0
    assert "== integers\nnarrow: DECIMAL(38,0)" in capsys.readouterr().out
    (inputs / "Limit.csv").write_text("n\n16\n")
    assert main(run) == 0
    assert "== integers\nwide: stored as (num, big) pairs" in capsys.readouterr().out
    assert f"16,{3 * 1000 ** 16}" in (out / "Twice.csv").read_text().splitlines()


def test_check_agrees_across_the_switch(spark, tmp_path, capsys):
    from dl2sql.cli.main import main

    program, commands = _files(tmp_path, FACTORIAL, "start; insert Upto(30); commit;\n"
                                                    "start; insert Upto(36); commit;\ndump;\n")
    assert main(["check", program, "--commands", commands]) == 0
    assert "spark and duckdb agree" in capsys.readouterr().out


def test_run_with_state_switches_and_goes_on_wide(tmp_path, capsys):
    from dl2sql.cli.main import main

    program = tmp_path / "p.dl"
    program.write_text(POWERS)
    days = [tmp_path / f"day{i}" for i in range(3)]
    for day in days:
        day.mkdir()
    (days[0] / "Seed.csv").write_text("k,x\na,3\n")
    (days[0] / "Steps.csv").write_text("n\n2\n")
    (days[1] / "Steps.insert.csv").write_text("n\n7\n")
    (days[2] / "Steps.delete.csv").write_text("n\n7\n")
    out, state = tmp_path / "out", tmp_path / "state"
    shown = []
    for day in days:
        assert main(["run", str(program), "--engine", "duckdb", "--state", str(state),
                     "--input", str(day), "--output", str(out), "--format", "csv",
                     "--quiet", "--explain"]) == 0
        shown.append(capsys.readouterr().out)
        shown.append(sorted((out / "Top.csv").read_text().splitlines()[1:]))
    assert "== integers\nnarrow: DECIMAL(38,0)" in shown[0] and shown[1] == [f"{3 ** 4},1"]
    assert "== integers\nwide: stored as (num, big) pairs from now on" in shown[2]
    assert shown[3] == [f"{3 ** 128},1", f"{3 ** 4},-1"]
    assert "== integers\nwide: (num, big) pairs (as the state was stored already)" in shown[4]
    assert shown[5] == [f"{3 ** 128},-1", f"{3 ** 4},1"]
