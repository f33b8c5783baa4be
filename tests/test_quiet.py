"""Spark runs print nothing of dl2sql's own making: no JVM incubator notice, no pandas
warning, no join-hint warnings, no stage progress bars; on a user's session, what the
user set (progress bars, log levels) is back once dl2sql is done.

Each test is a child process with a session of its own (a test run shares one local
session, and its settings are not a user's)."""
from __future__ import annotations

import sys
import textwrap

from children import run_child

PROGRAM = """
input relation Edge(x: u32, y: u32)
output relation Path(x: u32, y: u32)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
output relation Far(x: u32)
Far(x) :- Path(x, y), y > x + 5, not Edge(x, _).
"""
NOISE = ("incubator", "FutureWarning", "HintErrorLogger", "[Stage", "WARN ")


def test_cli_on_spark_prints_only_its_own_line(tmp_path, java):
    (tmp_path / "p.dl").write_text(PROGRAM)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "Edge.csv").write_text(
        "x,y\n" + "".join(f"{i},{i + 1}\n" for i in range(8)))
    code, out, err = run_child("", args=[
        sys.executable, "-m", "dl2sql", "run", str(tmp_path / "p.dl"), "--input",
        str(tmp_path / "in"), "--output", str(tmp_path / "out"), "--format", "csv"])
    assert code == 0, err
    assert out == ""
    # a run that takes over 10 s (a loaded machine) reports its progress, nothing else
    err = "".join(line for line in err.splitlines(True)
                  if not line.startswith("dl2sql: running for "))
    assert err.startswith("wrote 2 output relation(s) to ") and err.count("\n") == 1, err


USER_SESSION = textwrap.dedent("""
    import sys
    from pyspark.sql import SparkSession
    # a user's session as PySpark makes it: Spark's default log4j (warnings shown),
    # console progress bars, 200 shuffle partitions
    spark = (SparkSession.builder.master("local[2]")
             .config("spark.ui.showConsoleProgress", "true").getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    import dl2sql
    program = dl2sql.compile(sys.argv[1])
    edges = spark.createDataFrame([(i, i + 1) for i in range(10)], "x long, y long")
    edges.count()
    sys.stderr.write("BEFORE dl2sql\\n"); sys.stderr.flush()
    out = program.run(spark=spark, inputs={"Edge": edges})
    sys.stderr.write("AFTER dl2sql\\n"); sys.stderr.flush()
    print("paths", out["Path"].count(), "far", out["Far"].count(), flush=True)
    # the user's own slow job (a stage of 1.5 s): its progress bar is drawn again
    spark.range(0, 2, 1, 2).selectExpr(
        "reflect('java.lang.Thread', 'sleep', CAST(1500 AS BIGINT))").collect()
    spark.stop()
""")


def test_user_session_is_quiet_while_dl2sql_works_and_restored_after(tmp_path, java):
    (tmp_path / "p.dl").write_text(PROGRAM)
    code, out, err = run_child("", args=[sys.executable, "-c", USER_SESSION,
                                         str(tmp_path / "p.dl")])
    assert code == 0, err[-3000:]
    assert "paths 55 far" in out  # a chain of 10 edges
    during, _, after = err.partition("AFTER dl2sql\n")
    assert after, err[-3000:]
    during = during.split("BEFORE dl2sql\n")[1]  # what the user's own start-up printed: not ours
    for noise in NOISE:
        assert noise not in during, (noise, during)
    assert "[Stage" in after  # the user's progress bar works again
