"""Small Spark runs evaluated on the driver by DuckDB (dl2sql.plan.placement): where a
run goes and why, results equal to Spark's own evaluation and to DuckDB's, outputs as
Spark DataFrames, and the runs that stay on Spark. The rest of the suite turns the
driver off (conftest) so that its Spark runs are Spark's."""
from __future__ import annotations

import csv
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dl2sql
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.plan.placement import ENVIRONMENT, DriverPolicy
from engines import sorted_rows

PROGRAM = """
typedef Role = Admin | Member{team: string}
input relation Grant(user: string, team: string)
relation HasRole(user: string, role: Role)
HasRole(u, if (t == "") Admin else Member{t}) :- Grant(u, t).
input relation Manages(boss: string, report: string)
relation Above(boss: string, report: string)
Above(b, r) :- Manages(b, r).
Above(b, r) :- Above(b, m), Manages(m, r).
output relation Reports(boss: string, n: u64)
Reports(b, n) :- Above(b, r), var n = r.group_by(b).count_distinct().
output relation Line(user: string, text: string)
Line(u, "${u} administers") :- HasRole(u, Admin).
Line(u, "${u} works in ${t}") :- HasRole(u, Member{t}), not Above(u, _).
"""
GRANTS = [("ann", ""), ("bob", "data"), ("cy", "web")]
MANAGES = [("ann", "bob"), ("bob", "cy"), ("bob", "dee")]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _inputs():
    return {"Grant": list(GRANTS), "Manages": list(MANAGES)}


def _outputs(frames) -> dict:
    return {rel: sorted_rows(df) for rel, df in frames.items()}


def test_a_small_run_goes_to_the_driver_and_gives_sparks_rows(program, spark):
    on_spark = _outputs(program.run(spark=spark, inputs=_inputs(), on_driver_below=0))
    assert not program.last_placement.on_driver
    assert "turned off" in program.last_placement.reason
    frames = program.run(spark=spark, inputs=_inputs(), on_driver_below=1000)
    placement = program.last_placement
    assert placement.on_driver and placement.engine == "duckdb"
    assert "6 input rows given in Python" in placement.reason
    assert all(type(df).__module__.startswith("pyspark.sql") for df in frames.values())
    assert _outputs(frames) == on_spark
    on_duckdb = _outputs(program.run(engine="duckdb", inputs=_inputs()))
    assert on_duckdb == on_spark
    assert ("bob", 2) in on_spark["Reports"]


def test_outputs_on_the_driver_are_spark_tables_later_queries_read(program, spark):
    program.run(spark=spark, inputs=_inputs(), on_driver_below=1000)
    views = program.register_views(spark, prefix="drv_")
    count = spark.sql(f"SELECT count(*) FROM {views['Line']}").collect()[0][0]
    assert count == 2  # ann administers; cy works in web (bob is above others)


def test_many_output_rows_cross_as_one_stored_table(spark):
    pairs = dl2sql.compile("input relation N(n: u32)\n"
                           "output relation Pair(a: u32, b: u32)\n"
                           "Pair(a, b) :- N(a), N(b), a != b.\n")
    numbers = [(i,) for i in range(40)]
    out = pairs.run(spark=spark, inputs={"N": numbers}, on_driver_below=100)
    assert pairs.last_placement.on_driver
    expected = sorted((a, b) for a in range(40) for b in range(40) if a != b)
    assert sorted_rows(out["Pair"]) == expected  # 1,560 rows: more than a literal table
    assert out["Pair"].filter("a = 3").count() == 39


def test_runs_too_large_or_not_on_the_driver_stay_on_spark(program, spark, tmp_path):
    program.run(spark=spark, inputs=_inputs(), on_driver_below=5)
    assert not program.last_placement.on_driver
    assert "6 input rows, more than 5" in program.last_placement.reason
    lines = tmp_path / "manages.txt"
    lines.write_text("".join(f"{b} {r}\n" for b, r in MANAGES))
    read = spark.sparkContext.textFile(str(lines)).map(lambda line: tuple(line.split()))
    frame = spark.createDataFrame(read, "boss string, report string")  # an RDD of a file
    out = program.run(spark=spark, inputs={**_inputs(), "Manages": frame},
                      on_driver_below=1000)
    assert not program.last_placement.on_driver
    assert ("input `Manages` is not on the driver (a DataFrame whose size is not known "
            "without a job)") in program.last_placement.reason
    assert ("bob", 2) in sorted_rows(out["Reports"])


def test_frames_of_python_rows_are_counted_and_go_to_the_driver(program, spark):
    """A DataFrame of a Python list (an RDD: Spark has no estimate of its size) holds
    the driver's own rows: they are counted by one job, as rows given in Python. Its
    projections, filters and unions are counted too; a join, whose rows could outgrow
    the driver's, keeps the run on Spark."""
    expected = _outputs(program.run(engine="duckdb", inputs=_inputs()))
    manages = spark.createDataFrame(MANAGES, "boss string, report string")
    grants = spark.createDataFrame(GRANTS + [("zed", "x")], "user string, team string")
    inputs = {"Manages": manages, "Grant": grants.where("user <> 'zed'").select("user", "team")}
    out = program.run(spark=spark, inputs=inputs, on_driver_below=1000)
    placement = program.last_placement
    assert placement.on_driver, placement.reason
    assert ("6 input rows given in Python, 6 of them in DataFrames of the driver's rows "
            "(counted)") in placement.reason  # the rows the frames give: zed filtered
    assert _outputs(out) == expected
    program.run(spark=spark, inputs={**inputs, "Manages": manages.union(manages)},
                on_driver_below=8)
    assert not program.last_placement.on_driver
    assert ("9 input rows, 9 of them in DataFrames of the driver's rows (counted), "
            "more than 8") in program.last_placement.reason
    joined = manages.join(manages.selectExpr("report AS boss"), "boss")
    out = program.run(spark=spark, inputs={**inputs, "Manages": joined}, on_driver_below=1000)
    assert not program.last_placement.on_driver
    assert "input `Manages` is not on the driver" in program.last_placement.reason
    live = program.maintain(inputs=inputs, spark=spark, on_driver_below=1000)
    assert live.placement.on_driver, live.placement.reason
    changes = live.apply(delete={"Manages": spark.createDataFrame(
        [("bob", "dee")], "boss string, report string")})
    after = {"Grant": list(GRANTS), "Manages": [m for m in MANAGES if m != ("bob", "dee")]}
    now = _outputs(program.run(engine="duckdb", inputs=after))["Reports"]
    assert sorted_rows(live.contents("Reports")) == now
    assert [(b, int(n), w) for b, n, w in sorted_rows(changes["Reports"])] == [
        ("ann", 2, 1), ("ann", 3, -1), ("bob", 1, 1), ("bob", 2, -1)]


def test_frames_and_tables_that_spark_sizes_go_to_the_driver(program, spark, tmp_path):
    """A DataFrame read from a file and a catalog table (a view) count by Spark's own
    estimate of their bytes, without a job; the oracle collects them."""
    expected = _outputs(program.run(engine="duckdb", inputs=_inputs()))
    path = str(tmp_path / "manages.parquet")
    spark.createDataFrame(MANAGES, "boss string, report string").write.parquet(path)
    grants = str(tmp_path / "grants.parquet")
    spark.createDataFrame(GRANTS, "user string, team string").write.parquet(grants)
    spark.read.parquet(grants).createOrReplaceTempView("on_driver_grants")
    frame = spark.read.parquet(path)
    inputs = {"Manages": frame, "Grant": "on_driver_grants"}
    out = program.run(spark=spark, inputs=inputs, on_driver_below=1000)
    placement = program.last_placement
    assert placement.on_driver, placement.reason
    assert "bytes by the engine's estimate" in placement.reason
    assert _outputs(out) == expected
    live = program.maintain(inputs=inputs, spark=spark, on_driver_below=1000)
    assert live.placement.on_driver
    assert sorted_rows(live.contents("Reports")) == expected["Reports"]
    changes = live.apply(delete={"Grant": "on_driver_grants"})  # a table, by its name
    assert sorted_rows(changes["Line"]) == [(u, t, -1) for u, t in expected["Line"]]
    program.run(spark=spark, inputs=inputs, on_driver_below=DriverPolicy(
        max_rows=1000, bytes_per_row=0))  # no byte of files or tables allowed
    assert not program.last_placement.on_driver
    assert "bytes of input files and tables, more than 0" in program.last_placement.reason


TYPED = """
import fp
typedef Shape = Circle{r: s64} | Rect{w: s64, h: s64}
input relation Drawing(name: string, shapes: Vec<Shape>)
input relation Extra(k: u64)
input relation X(f: float, d: double)
output relation Area(name: string, n: usize)
Area(name, vec_len(shapes)) :- Drawing(name, shapes).
output relation Keys(k: u64)
Keys(k) :- Extra(k).
output relation Q(f: float, q: float, root: double, parsed: Result<double, string>)
Q(f, f / 7.0, sqrt_d(d), parse_d("NaN")) :- X(f, d).
"""


def test_frames_of_any_type_reach_the_driver_as_spark_gives_them(spark):
    """Cached frames (sized without a job) of a list of structs, an empty frame and a
    32-bit float reach the driver with their types (through Arrow), and the results
    equal Spark's own evaluation: a float's quotient rounded to 32 bits, NaN from a
    function NaN (DuckDB's Python functions give NULL for it), nested too."""
    program = dl2sql.compile(TYPED)
    frames = {
        "Drawing": spark.createDataFrame(
            [("d", [(0, 2, 0, 0), (1, 0, 3, 4)])],
            "name string, shapes array<struct<tag:bigint, Circle_r:bigint, Rect_w:bigint, "
            "Rect_h:bigint>>"),
        "Extra": spark.createDataFrame([], "k decimal(20,0)"),
        "X": spark.createDataFrame([(-2.0, -2.5)], "f float, d double")}
    for df in frames.values():
        df.cache().count()
    on_spark = _outputs(program.run(spark=spark, inputs=frames, on_driver_below=0))
    out = program.run(spark=spark, inputs=frames, on_driver_below=1000)
    assert program.last_placement.on_driver, program.last_placement.reason
    got = _outputs(out)
    assert got["Area"] == [("d", 2)] and got["Keys"] == []
    (_, q, root, parsed), = got["Q"]
    assert q == -0.2857142984867096, "the 32-bit quotient"
    assert math.isnan(root) and math.isnan(parsed[1]), got["Q"]
    assert _comparable(got) == _comparable(on_spark)
    assert out["Q"].schema["q"].dataType.simpleString() == "float"
    duck = program.run(engine="duckdb", inputs={"X": [(-2.0, -2.5)], "Drawing": [],
                                                "Extra": []})
    (_, dq, droot, _), = duck["Q"].fetchall()
    assert dq == q and math.isnan(droot), "DuckDB's own outputs: NaN, not NULL"


def _comparable(outputs: dict) -> dict:
    """Each relation's rows flattened, NaN written so that it equals itself."""
    def flat(row) -> tuple:
        return tuple(x for v in row for x in (flat(v) if isinstance(v, tuple) else (v,)))
    return {rel: [tuple("NaN" if isinstance(v, float) and math.isnan(v) else v
                        for v in flat(row)) for row in rows] for rel, rows in outputs.items()}


def test_outputs_too_large_to_hand_over_are_evaluated_again_on_spark(program, spark):
    expected = _outputs(program.run(engine="duckdb", inputs=_inputs()))
    policy = DriverPolicy(max_rows=1000, max_result_rows=3)
    out = program.run(spark=spark, inputs=_inputs(), on_driver_below=policy)
    assert not program.last_placement.on_driver
    assert "more than 3 rows" in program.last_placement.reason
    assert _outputs(out) == expected


def test_files_count_by_their_bytes(program, spark, tmp_path):
    path = tmp_path / "Manages.csv"
    path.write_text("boss,report\n" + "".join(f"{b},{r}\n" for b, r in MANAGES))
    size = path.stat().st_size
    inputs = {"Grant": _inputs()["Grant"], "Manages": str(path)}
    out = program.run(spark=spark, inputs=inputs, on_driver_below=DriverPolicy(
        max_rows=1000, bytes_per_row=size))  # a thousand times the file
    assert program.last_placement.on_driver
    assert f"{size} bytes of input files" in program.last_placement.reason
    assert ("bob", 2) in sorted_rows(out["Reports"])
    program.run(spark=spark, inputs=inputs, on_driver_below=DriverPolicy(
        max_rows=3, bytes_per_row=1))
    assert not program.last_placement.on_driver
    assert "bytes of input files, more than 3" in program.last_placement.reason


def test_wide_integers_outgrown_on_the_driver(spark):
    wide = dl2sql.compile("input relation N(n: bigint)\n"
                          "output relation P(p: bigint)\n"
                          "P(n * n * n * n) :- N(n).\n")
    rows = [(10 ** 12,), (7,)]
    on_driver = sorted_rows(wide.run(spark=spark, inputs={"N": rows}, on_driver_below=10)["P"])
    assert wide.last_placement.on_driver
    on_spark = sorted_rows(wide.run(spark=spark, inputs={"N": rows}, on_driver_below=0)["P"])
    assert on_driver == on_spark and len(on_driver) == 2


def test_a_failure_on_the_driver_names_its_cause(spark):
    failing = dl2sql.compile("input relation D(a: u32, b: u32)\n"
                             "output relation Q(q: u32)\n"
                             "Q(a / b) :- D(a, b).\n")
    with pytest.raises(RuntimeFailure, match="division by zero"):
        failing.run(spark=spark, inputs={"D": [(1, 0)]}, on_driver_below=10)
    assert failing.last_placement.on_driver


def test_duckdb_runs_have_no_driver_to_go_to(program):
    program.run(engine="duckdb", inputs=_inputs(), on_driver_below=1000)
    assert not program.last_placement.on_driver
    assert program.last_placement.reason == "the engine evaluates every run itself"


def test_policy_from_the_environment_and_its_errors(monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, "12")
    assert DriverPolicy().with_rows(None).max_rows == 12
    assert DriverPolicy().with_rows(3).max_rows == 3  # a caller's word wins
    monkeypatch.setenv(ENVIRONMENT, "many")
    with pytest.raises(ValueError, match="must be a number of rows, not 'many'"):
        DriverPolicy().with_rows(None)
    with pytest.raises(ValueError, match="at least 0"):
        DriverPolicy().with_rows(-1)


def _read_csv(path: Path) -> list:
    with open(path, newline="") as f:
        return sorted(map(tuple, csv.reader(f)))


@pytest.mark.usefixtures("java")
def test_cli_run_on_the_driver_by_default(tmp_path):
    """A user's `dl2sql run --engine spark` of an example, the environment without the
    suite's setting: evaluated and written on the driver, the files those of DuckDB's
    run."""
    example = ROOT / "examples" / "network"
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    outputs = {}
    for engine in ("spark", "duckdb"):
        done = subprocess.run(
            [sys.executable, "-m", "dl2sql", "run", str(example / "network.dl"),
             "--engine", engine, "--input", str(example / "input"),
             "--output", str(tmp_path / engine), "--format", "csv", "--explain", "--quiet"],
            env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs[engine] = {p.name: _read_csv(p) for p in (tmp_path / engine).iterdir()}
        if engine == "spark":
            assert "== placement\nevaluated on the driver (duckdb)" in done.stdout
            assert "; outputs written on the driver\n" in done.stdout
            assert "Path := Path: recursive query" in done.stdout  # the plan that ran
    assert outputs["spark"] == outputs["duckdb"] and len(outputs["spark"]) == 3


@pytest.mark.usefixtures("java")
def test_cli_state_on_the_driver_by_default(tmp_path):
    """`dl2sql run --engine spark --state`, the environment without the suite's
    setting: a small state created and updated on the driver (each run decides from
    the state's rows), the files those of DuckDB's runs. (The cluster tests open a
    state that Spark wrote on the driver; tests/test_state.py keeps states on Spark.)"""
    example = ROOT / "examples" / "network"
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    day1 = tmp_path / "day1"
    day1.mkdir()
    (day1 / "Link.delete.csv").write_text("src,dst\nweb,app\n")
    written = {}
    for engine in ("spark", "duckdb"):
        for i, day in enumerate((example / "input", day1)):
            out = tmp_path / f"{engine}-{i}"
            done = subprocess.run(
                [sys.executable, "-m", "dl2sql", "run", str(example / "network.dl"),
                 "--engine", engine, "--state", str(tmp_path / f"state-{engine}"),
                 "--input", str(day), "--output", str(out), "--format", "csv",
                 "--explain", "--quiet"], env=env, capture_output=True, text=True,
                timeout=600)
            assert done.returncode == 0, done.stderr
            if engine == "spark":
                assert "== placement\nevaluated on the driver (duckdb): " in done.stdout
                assert ("a saved state of " if i else "input files") in done.stdout
            written[engine, i] = {p.name: _read_csv(p) for p in out.iterdir()}
    for i in (0, 1):
        assert written["spark", i] == written["duckdb", i]
    assert any(len(rows) > 1 for rows in written["spark", 1].values())  # changes made


def test_cli_replay_on_the_driver_prints_ddlogs_output(tmp_path):
    """`dl2sql replay --engine spark` of a small command file: DuckDB on the driver, no
    Spark session started, DDlog's expected output."""
    example = ROOT / "examples" / "reachability"
    env = {k: v for k, v in os.environ.items() if k != ENVIRONMENT}
    done = subprocess.run(
        [sys.executable, "-m", "dl2sql", "replay", str(example / "reachability.dl"),
         "--engine", "spark", "--commands", str(example / "reachability.dat"), "--explain",
         "--quiet"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (example / "reachability.dump.expected").read_text()
    assert "evaluated on the driver (duckdb): " in done.stderr
    assert "bytes of commands (at most 6,400,000)" in done.stderr


def test_a_small_maintained_program_lives_on_the_driver(program, spark, tmp_path):
    live = program.maintain(inputs=_inputs(), spark=spark, on_driver_below=1000)
    oracle = program.maintain(inputs=_inputs(), engine="duckdb")
    assert live.placement.on_driver and live.runner.engine == "duckdb"
    steps = [dict(insert={"Manages": [("dee", "eve")]}, delete={"Manages": [("bob", "cy")]}),
             dict(insert={"Grant": [("eve", "ops")]}),
             dict(delete={"Manages": [("ann", "bob")]})]
    token = None
    for i, step in enumerate(steps):
        if i == 1:
            token, oracle_token = live.savepoint(), oracle.savepoint()
        frames = live.apply(**step)
        assert all(type(df).__module__.startswith("pyspark.sql") for df in frames.values())
        assert _outputs(frames) == _outputs(oracle.apply(**step)), step
    assert sorted_rows(live.contents("Reports")) == sorted_rows(oracle.contents("Reports"))
    back = live.rollback_to(token)
    assert _outputs(back) == _outputs(oracle.rollback_to(oracle_token))
    assert ("ann", 3) in sorted_rows(live.contents("Reports"))
    live.save(str(tmp_path / "state"))  # a state Spark opens
    reopened = program.maintain(state=str(tmp_path / "state"), spark=spark)
    assert not reopened.placement.on_driver
    assert sorted_rows(reopened.contents("Line")) == sorted_rows(live.contents("Line"))
    # a small state opens on the driver (decided by its rows, each time it is opened)
    small = program.maintain(state=str(tmp_path / "state"), spark=spark, on_driver_below=100)
    assert small.placement.on_driver and "a saved state of " in small.placement.reason
    step = dict(insert={"Manages": [("cy", "fay")]})
    assert _outputs(small.apply(**step)) == _outputs(reopened.apply(**step))
    large = program.maintain(state=str(tmp_path / "state"), spark=spark, on_driver_below=2)
    assert not large.placement.on_driver and "input rows, more than 2" in large.placement.reason


def test_a_maintained_program_on_the_driver_widens_its_integers(spark):
    wide = dl2sql.compile("input relation N(n: bigint)\n"
                          "output relation P(p: bigint)\n"
                          "P(n * n * n * n) :- N(n).\n")
    live = wide.maintain(inputs={"N": [(7,)]}, spark=spark, on_driver_below=10)
    assert live.placement.on_driver
    changes = live.apply(insert={"N": [(10 ** 12,)]})
    assert type(changes["P"]).__module__.startswith("pyspark.sql")
    assert len(sorted_rows(changes["P"])) == 1
    assert len(sorted_rows(live.contents("P"))) == 2


def test_reasons_name_the_bound_that_decided(tmp_path):
    from dl2sql.plan.placement import commands_reason, driver_reason, state_reason
    policy = DriverPolicy(max_rows=10, bytes_per_row=4)  # 40 bytes of files
    small = tmp_path / "E.csv"
    small.write_text("a,b\n1,2\n")
    assert driver_reason({"E": str(small), "N": [(1,), (2,)]}, policy) == (
        True, "2 input rows given in Python (at most 10) and 8 bytes of input files "
              "(at most 40)")
    assert driver_reason({"N": [(i,) for i in range(11)]}, policy) == (
        False, "11 input rows, more than 10")
    assert driver_reason({"E": "db.edges"}, policy) == (
        False, "input `E` is not on the driver (a table or directory whose size is not "
               "known without a job)")
    assert driver_reason({"E": "db.edges"}, policy, estimate=lambda source: 30) == (
        True, "0 input rows given in Python (at most 10) and 0 bytes of input files and "
              "tables (30 bytes by the engine's estimate) (at most 40)")
    assert driver_reason({}, None) == (False, "the engine evaluates every run itself")

    class Frames:  # frames of the driver's rows: those named "rows", 4 rows each
        counted: list = []

        def holds(self, source):
            return source == "rows"

        def count(self, sources):
            self.counted.append(len(sources))
            return 4 * len(sources)
    frames = Frames()
    assert driver_reason({"A": "rows", "B": "rows", "N": [(1,)]}, policy, None, frames) == (
        True, "9 input rows given in Python, 8 of them in DataFrames of the driver's rows "
              "(counted) (at most 10) and 0 bytes of input files (at most 40)")
    assert frames.counted == [2], "both frames counted by one call"
    assert driver_reason({"A": "rows", "N": [(1,)] * 11}, policy, None, frames) == (
        False, "11 input rows, more than 10")
    assert frames.counted == [2], "nothing counted where the other inputs do not fit"
    assert driver_reason({"A": "rows", "B": "rows", "C": "rows"}, policy, None, frames) == (
        False, "12 input rows, 12 of them in DataFrames of the driver's rows (counted), "
               "more than 10")
    assert driver_reason({"A": "rows", "E": "db.edges"}, policy, None, frames)[1] == (
        "input `E` is not on the driver (a table or directory whose size is not known "
        "without a job)")
    assert commands_reason(41, policy) == (False, "41 bytes of commands, more than 40")
    assert commands_reason(40, policy)[0]
    assert commands_reason(1, DriverPolicy(max_rows=0)) == (
        False, "the driver is turned off (on_driver_below=0)")
    states = DriverPolicy(max_rows=10, max_result_rows=50)
    assert state_reason(10, 50, states) == (
        True, "a saved state of 50 rows, 10 of them inputs (at most 50 and 10)")
    assert state_reason(11, 20, states) == (
        False, "a saved state of 11 input rows, more than 10")
    assert state_reason(5, 51, states) == (False, "a saved state of 51 rows, more than 50")
    assert state_reason(1, 1, states, remote=True) == (
        False, "a state at a Hadoop URL is read by the engine")


def test_the_driver_policys_own_jobs_are_quiet(program, spark, monkeypatch):
    """Counting the driver's frames and collecting the inputs the driver evaluates run
    in dl2sql's quiet context (dl2sql.runner.spark_quiet), as its evaluation does: on a
    user's session a slow one would otherwise draw its progress bar."""
    from dl2sql.io import duckdb_frames
    from dl2sql.io.spark_driver_rows import SparkDriverRows
    from dl2sql.runner.spark_quiet import HINT_LOGGER

    def level() -> str:  # ERROR while dl2sql's context is entered
        log4j = spark.sparkContext._jvm.org.apache.logging.log4j
        config = log4j.LogManager.getContext(False).getConfiguration()
        return str(config.getLoggerConfig(HINT_LOGGER).getLevel())

    seen = []

    def spied(function, what):
        def call(*args, **kwargs):
            seen.append((what, level()))
            return function(*args, **kwargs)
        return call
    monkeypatch.setattr(SparkDriverRows, "count", spied(SparkDriverRows.count, "count"))
    monkeypatch.setattr(duckdb_frames, "_collected", spied(duckdb_frames._collected, "collect"))
    outside = level()
    frame = spark.createDataFrame(MANAGES, "boss string, report string")
    program.run(spark=spark, inputs={"Grant": list(GRANTS), "Manages": frame},
                on_driver_below=1000)
    program.maintain(inputs={"Grant": list(GRANTS), "Manages": frame}, spark=spark,
                     on_driver_below=1000)
    assert seen == [("count", "ERROR"), ("collect", "ERROR")] * 2, (outside, seen)
    assert level() == outside
