"""The Spark SQL script of a program (:mod:`dl2sql.compiler.spark_script`), run by
``spark.sql`` on the shared session as a user runs it, gives the rows ``dl2sql run``
gives for the same inputs: each ``tests/programs/`` case whose functions SQL can
express, on the inputs its ``.dat`` commands leave. The run the script is checked
against is evaluated on the driver (the Spark runner agrees with it in
``tests/test_programs.py``), so that each case runs on Spark once, as the script."""
from __future__ import annotations

import io
import re
import math
from pathlib import Path

import pytest

import dl2sql
from dl2sql.api.evaluate import Evaluator, rows_of
from dl2sql.cli import load_externs
from dl2sql.compiler.spark_script import (ScriptOptions, pyspark_program, script_outputs,
                                          script_program, spark_script)
from dl2sql.sqlgen.dialects import SPARK
from dl2sql.sqlgen.output_form import output_projection
from dl2sql.diagnostics import CompileError, InputError
from dl2sql.replay.session import replay
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runner.spark_types import schema_ddl, spark_rows
from tests.replays import CASES, PROGRAMS, compile_case

SCHEMA = "dl2sql_script_tests"


class _Recording:
    """A replay's evaluation that keeps the inputs of its last evaluation."""

    def __init__(self, inner):
        self.inner, self.inputs = inner, {}

    def evaluate(self, inputs, *args, **kwargs):
        self.inputs = inputs
        return self.inner.evaluate(inputs, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.__dict__["inner"], name)


def _final_inputs(folder, compiled, externs) -> dict:
    dat = folder / f"{folder.name}.dat"
    recording = _Recording(Evaluator(compiled, DuckDBRunner(), externs=externs))
    replay(recording, dat.read_text() if dat.exists() else "", io.StringIO(), io.StringIO())
    return recording.inputs


def _rows(df) -> list:
    """The rows, sorted, NaN written so that it equals itself."""
    def same(v):
        if isinstance(v, float) and math.isnan(v):
            return "NaN"
        if isinstance(v, (tuple, list)):
            return tuple(same(x) for x in v)
        if isinstance(v, dict):
            return tuple(sorted((repr(k), same(x)) for k, x in v.items()))
        return v
    return sorted((same(tuple(r)) for r in df.collect()), key=repr)


@pytest.fixture(scope="module")
def schema(spark, tmp_path_factory):
    """A schema of its own for the scripts' tables, in a fresh folder: a managed table's
    folder left by an earlier run would stop a CREATE TABLE."""
    where = tmp_path_factory.mktemp("script_tables")
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {SCHEMA} LOCATION '{where.as_posix()}'")
    yield SCHEMA
    spark.sql(f"DROP DATABASE IF EXISTS {SCHEMA} CASCADE")


def _scripting(spark) -> bool:
    """Whether the session runs SQL scripts (Spark 4); Spark 3.5 runs the PySpark form."""
    return int(spark.version.split(".")[0]) >= 4


def _run_pyspark_program(text: str, spark, where, as_main: bool = False) -> None:
    """As a pipeline runs it: the printed file imported as a module, ``run(spark)``; or
    ``as_main``, as ``python prog.py`` runs it (in this process, where the active
    session it takes is the shared one)."""
    import importlib.util
    import runpy

    path = where / "program_script.py"
    path.write_text(text)
    if as_main:
        runpy.run_path(str(path), run_name="__main__")
        return
    spec = importlib.util.spec_from_file_location("program_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.run(spark)


def _check_case(case, spark, schema, form, tmp_path, folder=None, as_main=False) -> None:
    """The case's script in ``form`` (``sql`` or ``pyspark``), run on its final inputs,
    leaves in its output tables the rows ``dl2sql run`` gives, and no helper table."""
    folder = folder or PROGRAMS / case
    compiled = compile_case(folder)
    plan = compiled.engine_stage("spark", "sql")
    options = ScriptOptions(inputs={t.relation: f"script_in_{case}_{t.name}"
                                    for t in plan.inputs}, schema=schema, prefix=f"{case}_")
    make = spark_script if form == "sql" else pyspark_program
    try:
        script = make(compiled, options)
    except CompileError as e:  # a user transformer: Python on DataFrames
        assert "a Spark SQL script cannot run" in str(e)
        pytest.skip(f"the program applies a transformer: {str(e).splitlines()[0]}")
    except InputError as e:  # as `dl2sql run` refuses such tables
        assert "cannot read from a DataFrame" in str(e) or "cannot hold yet" in str(e)
        pytest.skip(f"an input of a type that tables cannot hold: {e}")
    externs = load_externs(str(folder / "externs.py")) if (folder / "externs.py").exists() \
        else {}
    program = dl2sql.Program(compiled, externs)
    names = dl2sql.register_functions(spark, program)
    assert ("Needs nothing but Spark" in script) == (not names)
    inputs = _final_inputs(folder, compiled, externs)
    views = {}
    wide = script_program(compiled)  # holds every value the inputs hold
    for table in wide.engine_stage("spark", "sql").inputs:
        rows = spark_rows(table, rows_of(wide, table.relation, inputs.get(table.relation, ())))
        df = spark.createDataFrame(rows, schema=schema_ddl(table))
        projection = output_projection(table.columns, SPARK)  # the form a run reads
        if projection is not None:
            df = df.selectExpr(*[e.sql(dialect="spark") for e in projection])
        views[table.relation] = df = df.cache()
        df.count()  # its size known without a job, so that the run below is on the driver
        df.createOrReplaceTempView(f"script_in_{case}_{table.name}")
    # the rows a run gives, evaluated on the driver (DuckDB) and handed to Spark as a
    # run of a small program is: the script itself is what this test runs on Spark
    expected = program.run(spark=spark, inputs=views, on_driver_below=10 ** 9)
    assert program.last_placement.on_driver, program.last_placement.reason
    if form == "sql":
        spark.sql(script).collect()
    else:
        _run_pyspark_program(script, spark, tmp_path, as_main)
    for rel, table in script_outputs(compiled, options).items():
        assert _rows(spark.table(table)) == _rows(expected[rel]), rel
    # the helper tables are gone, the outputs stay
    left = {r.tableName.lower() for r in spark.sql(f"SHOW TABLES IN {schema}").collect()
            if r.tableName.lower().startswith(f"{case}_".lower())}
    assert left == {t.split("`.`")[-1].strip("`").lower()
                    for t in script_outputs(compiled, options).values()}


@pytest.mark.parametrize("case", CASES)
def test_the_script_gives_the_rows_of_a_run(case, spark, schema, tmp_path):
    """Every case as a Spark SQL script; on Spark 3.5, which has no SQL scripting, as the
    PySpark program instead (docs/testing.md: the suite under pyspark 3.5)."""
    _check_case(case, spark, schema, "sql" if _scripting(spark) else "pyspark", tmp_path)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLE_CASES = sorted(p.name for p in EXAMPLES.iterdir() if (p / f"{p.name}.dl").is_file())


@pytest.mark.parametrize("example", EXAMPLE_CASES)
def test_an_examples_script_gives_the_rows_of_a_run(example, spark, schema, tmp_path):
    """The examples/ programs, on the inputs their .dat commands leave."""
    _check_case(f"example_{example}", spark, schema,
                "sql" if _scripting(spark) else "pyspark", tmp_path, EXAMPLES / example)


# a loop (run as `python prog.py` would), Python functions
PYSPARK_CASES = ("closures", "udf_fallbacks")


@pytest.mark.parametrize("case", [c for c in PYSPARK_CASES if c in CASES])
def test_the_pyspark_program_gives_the_rows_of_a_run(case, spark, schema, tmp_path):
    if not _scripting(spark):
        pytest.skip("on Spark 3.5 every case runs as a PySpark program above")
    _check_case(case, spark, schema, "pyspark", tmp_path, as_main=case == "closures")


REACH = """input relation Edge(src: string, dst: string)
output relation Reach(src: string, dst: string)
Reach(a, b) :- Edge(a, b).
Reach(a, c) :- Reach(a, b), Edge(b, c).
"""


def _compile_cli(tmp_path, capsys, source, *args) -> tuple[int, str, str]:
    from dl2sql.cli import main
    prog = tmp_path / "p.dl"
    prog.write_text(source)
    code = main(["compile", str(prog), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_compile_prints_a_script_that_says_what_it_reads_and_writes(tmp_path, capsys):
    code, out, err = _compile_cli(tmp_path, capsys, REACH, "--input", "Edge=db.edges",
                                  "--schema", "work", "--prefix", "r_")
    assert code == 0 and err == ""
    assert "-- Reads: Edge from db.edges." in out
    assert "-- Writes: Reach as `work`.`r_Reach`" in out
    assert "\nBEGIN\n" in out and out.endswith("END;\n") and "WHILE dl2sql_rows_1 > 0 DO" in out
    # every table it creates or drops is in the schema, with the prefix
    made = re.findall(r"(?:CREATE TABLE|DROP TABLE IF EXISTS|INSERT INTO|RENAME TO) (\S+)", out)
    assert made and all(m.startswith("`work`.`r_") for m in made), made


def test_a_script_never_writes_where_it_reads(tmp_path, capsys):
    code, _, err = _compile_cli(tmp_path, capsys, REACH, "--input", "Edge=Reach")
    assert code == 1 and "would write the table Reach that it reads input Edge from" in err


def test_a_script_says_what_it_needs_and_refuses_what_it_cannot(tmp_path, capsys):
    source = REACH + ("output relation Big(s: string)\n"
                      "extern function shout(s: string): string\n"
                      "Big(shout(a)) :- Edge(a, _).\n")
    code, out, _ = _compile_cli(tmp_path, capsys, source)
    assert code == 0 and "-- Calls Python functions (shout): register them" in out
    assert "dl2sql.register_functions(spark, " in out
    assert re.search(r"DL2SQL_[0-9A-F]{8}_UDF_1\(", out), "called by its tagged name"
    code, _, err = _compile_cli(tmp_path, capsys, REACH, "--input", "Nope=t")
    assert code == 1 and "`Nope` is not an input relation (inputs: Edge)" in err
    code, _, err = _compile_cli(tmp_path, capsys, REACH, "--dialect", "duckdb", "--emit",
                                "script")
    assert code == 1 and "a script is for Spark" in err


def test_two_programs_scripts_call_functions_of_their_own():
    """Registered in one session, two programs' functions keep apart: each script calls
    its own by a name tagged with its program."""
    from dl2sql.compiler import compile_source
    from dl2sql.compiler.spark_script import SCRIPT_LOOPS

    def names(body):
        source = REACH + f"output relation F(s: string)\nF({body}) :- Edge(a, _).\n"
        program = script_program(compile_source(source, "f.dl"))
        plan = program.engine_stage("spark", "sql", SCRIPT_LOOPS)
        return [f.name for f in plan.functions]

    upper, lower = names("string_reverse(a)"), names("string_reverse(a ++ \"x\")")
    assert len(upper) == len(lower) == 1 and upper != lower
    assert all(re.fullmatch(r"dl2sql_[0-9a-f]{8}_udf_1", n) for n in upper + lower)
    assert names("string_reverse(a)") == upper, "the same program, the same names"


def test_duckdb_statements_say_that_their_loops_need_the_driver(tmp_path, capsys):
    code, out, _ = _compile_cli(tmp_path, capsys, REACH.replace("Edge(b, c)", "Reach(b, c)"),
                                "--dialect", "duckdb")
    assert code == 0 and out.startswith("-- These statements are dl2sql's plan")
    code, out, _ = _compile_cli(tmp_path, capsys, REACH, "--dialect", "duckdb")
    assert code == 0 and "WITH RECURSIVE" in out and "dl2sql's plan" not in out


def test_the_script_runs_from_pysparks_own_spark_sql(tmp_path):
    """As a user pastes it into ``spark-sql -f``: nothing of dl2sql in that process."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import pyspark
    from dl2sql.compiler import compile_source

    home = Path(pyspark.__file__).parent
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]
    values = ", ".join(f"('{s}', '{d}')" for s, d in edges)
    script = spark_script(compile_source(REACH, "reach.dl"), ScriptOptions(prefix="cli_"))
    (tmp_path / "run.sql").write_text(
        f"CREATE OR REPLACE TEMPORARY VIEW Edge AS SELECT * FROM VALUES {values} "
        f"AS t(src, dst);\n{script}SELECT src, dst FROM cli_Reach ORDER BY src, dst;\n")
    env = dict(os.environ, SPARK_HOME=str(home), PYSPARK_PYTHON=sys.executable)
    done = subprocess.run([str(home / "bin" / "spark-sql"), "-f", "run.sql"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    reach = set(edges)
    while True:
        more = {(a, d) for a, b in reach for c, d in edges if b == c} - reach
        if not more:
            break
        reach |= more
    got = [tuple(line.split("\t")) for line in done.stdout.splitlines() if "\t" in line]
    assert got == sorted(reach)


@pytest.mark.parametrize("form", ["sql", "pyspark"])
def test_a_script_refuses_rows_that_share_a_primary_key(form, spark, schema, tmp_path):
    from pyspark.errors import PySparkException

    from dl2sql.compiler import compile_source
    if form == "sql" and not _scripting(spark):
        pytest.skip("Spark 3.5 has no SQL scripting")
    program = compile_source("input relation K(k: u32, v: string) primary key (x) x.k\n"
                             "output relation O(k: u32, v: string)\nO(k, v) :- K(k, v).\n",
                             "keys.dl")
    spark.createDataFrame([(1, "a"), (1, "b"), (2, "c")], "k bigint, v string") \
        .createOrReplaceTempView("script_keys_in")
    options = ScriptOptions(inputs={"K": "script_keys_in"}, schema=schema,
                            prefix=f"keys_{form}_")
    message = "relation `K`: two rows have the same primary key"
    if form == "sql":
        with pytest.raises(PySparkException, match=message):
            spark.sql(spark_script(program, options)).collect()
    else:
        with pytest.raises(RuntimeError, match=message):
            _run_pyspark_program(pyspark_program(program, options), spark, tmp_path)
    left = [r.tableName for r in spark.sql(f"SHOW TABLES IN {schema}").collect()
            if r.tableName.startswith(f"keys_{form}_o")]
    assert left == [], "no output is written before the check"


def test_compile_prints_a_pyspark_program(tmp_path, capsys):
    """``--emit pyspark``: the same statements, its loops in Python, importable."""
    import ast
    code, out, err = _compile_cli(tmp_path, capsys, REACH, "--emit", "pyspark",
                                  "--prefix", "r_")
    assert code == 0 and err == ""
    tree = ast.parse(out)  # a Python program
    assert [f.name for f in tree.body if isinstance(f, ast.FunctionDef)] == ["run"]
    assert "Needs PySpark 3.5 or later" in out and "while dl2sql_rows_1:" in out
    assert "BEGIN" not in out and "register_functions" not in out
    code, out, _ = _compile_cli(tmp_path, capsys, REACH + "output relation B(s: string)\n"
                                "B(string_reverse(a)) :- Edge(a, _).\n", "--emit", "pyspark")
    assert code == 0 and "dl2sql.register_functions(session, " in out


def test_a_transformer_is_refused_where_it_is_applied(capsys):
    from dl2sql.cli import main
    case = PROGRAMS / "user_transformer" / "user_transformer.dl"
    assert main(["compile", str(case)]) == 1
    err = capsys.readouterr().err
    assert f"{case}:13:1: error: transformer `Degrees` is Python code" in err
    assert "^~~~" in err
