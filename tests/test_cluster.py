"""dl2sql on a real Spark standalone cluster (the ``cluster`` fixture: a master and two
one-core workers on 127.0.0.1) whose executors run a Python without dl2sql: the
runtime dl2sql ships to them is what lets a program's Python UDFs run there.

Through the Python API and through ``dl2sql run --master spark://...`` with files in
and out, a recursive program with Python UDFs in and after its loop gives DuckDB's
results, also when executors are killed in the middle of the loop (reliable
checkpoints in a checkpoint directory); without a directory the user is warned, and
a run that loses its executors fails saying what to do.

Every driver is a child process (one process holds one SparkContext, and the test
run's is a local one)."""
from __future__ import annotations

import json
import os
import sys
import textwrap


import dl2sql
from children import run_child, without_progress
from dl2sql.plan.placement import ENVIRONMENT

TESTS = os.path.dirname(os.path.abspath(__file__))

PROGRAM = """
input relation Edge(x: u64, y: u64)
function gcd(a: u64, b: u64): u64 { if (b == 0) { a } else { gcd(b, a % b) } }
extern function note(x: u64): u64
output relation Path(x: u64, y: u64)
Path(x, y) :- Edge(x, y).
// Python UDFs in the loop: a recursive DDlog function and an extern function
Path(x, z) :- Path(x, y), Edge(y, z), gcd(z + 1, 1) == 1, note(z) == z.
output relation G(x: u64, g: u64)
G(x, gcd(x, y)) :- Path(x, y), x > 0.
"""
# a 6-node cycle with a tail: a loop of 7 steps, long enough to lose every executor in
# its middle (a step on this cluster costs a second or two, each with a reliable
# checkpoint written)
EDGES = [(i, (i + 1) % 6) for i in range(6)] + [(30, 31), (31, 0)]


def _expected() -> dict:
    program = dl2sql.compile(PROGRAM, extern={"note": lambda x: x})
    out = program.run(engine="duckdb", inputs={"Edge": EDGES})
    return {rel: sorted(list(map(int, r)) for r in rel_.fetchall()) for rel, rel_ in out.items()}


def _driver_env(bare: str) -> dict:
    # the executors run `bare`, which has no dl2sql: PySpark takes the workers' Python
    # from the driver's PYSPARK_PYTHON
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYSPARK_PYTHON=bare, SPARK_LOCAL_IP="127.0.0.1")
    return env


# The start of every API child: a session on the cluster from the settings it reads
# on stdin (with the program, its edges, a checkpoint directory and this folder), the
# extern, and a way to kill this application's executors.
CHILD_START = """
    import json, os, sys, warnings
    from pyspark.sql import SparkSession
    conf, program_text, edges, checkpoint_dir, tests = json.loads(sys.stdin.read())
    edges = [tuple(e) for e in edges]
    builder = SparkSession.builder.appName("dl2sql-cluster")
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    app = spark.sparkContext.applicationId
    sys.path.insert(0, tests)
    from cluster import EXECUTOR_CLASS, processes
    import dl2sql

    def note(x):  # an extern: defined here, pickled by value for the executors
        return x

    def kill_executors():
        killed = []
        for pid, (cmdline, _) in processes().items():
            if EXECUTOR_CLASS in cmdline and f"--app-id {app} " in cmdline + " ":
                os.kill(pid, 9)
                killed.append(pid)
        return killed
"""

API_CHILD = textwrap.dedent(CHILD_START + """
    class KillAll:  # the user's progress callback, here killing every executor
        def __init__(self, at):
            self.at, self.killed = at, []
        def on_iteration(self, stratum, iteration, counts, seconds):
            if iteration >= self.at and not self.killed:
                self.killed = kill_executors()
        def on_loop_end(self, stratum, iterations, seconds):
            pass

    program = dl2sql.compile(program_text, extern={"note": note})
    report = {}
    for name, directory in (("killed", checkpoint_dir), ("no-directory", None)):
        progress = KillAll(4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = program.run(spark=spark, inputs={"Edge": edges}, progress=progress,
                                  checkpoint_dir=directory)
                result = {rel: sorted([int(v) for v in r] for r in df.collect())
                          for rel, df in out.items()}
                error = None
            except dl2sql.RuntimeFailure as e:
                result, error = None, str(e)
        runner = program.last_runner
        files = sum(len(f) for _, _, f in os.walk(checkpoint_dir))
        program.close()
        report[name] = {
            "result": result, "error": error, "killed": progress.killed,
            "reliable": runner.store.reliable if runner else None,
            "files_before_close": files,
            "files_after_close": sum(len(f) for _, _, f in os.walk(checkpoint_dir)),
            "warnings": [str(w.message) for w in caught
                         if w.category.__name__ == "Dl2sqlWarning"]}
    print(json.dumps(report), flush=True)
    spark.stop()
""")


def test_api_on_cluster_with_bare_workers_and_killed_executors(cluster, bare, tmp_path):
    conf = cluster.driver_conf(bare)
    conf.pop("spark.sql.execution.pythonUDF.arrow.enabled")  # PySpark's default stays
    conf.pop("spark.sql.shuffle.partitions")  # 200: dl2sql picks the loops' own
    checkpoints = tmp_path / "checkpoints"
    checkpoints.mkdir()
    code, out, err = run_child(API_CHILD, json.dumps(
        [conf, PROGRAM, EDGES, str(checkpoints), TESTS]), timeout=600,
        env=_driver_env(bare))
    assert code == 0, f"{err[-4000:]}\n{cluster.logs()}"
    report = json.loads(out.strip().splitlines()[-1])
    expected = _expected()
    killed, lost = report["killed"], report["no-directory"]
    # every executor killed in the middle of the loop: the run still agrees with DuckDB,
    # from reliable checkpoints, without a warning, and leaves no file once closed
    assert len(killed["killed"]) == 2, killed
    assert killed["result"] == expected and killed["error"] is None
    assert killed["reliable"] and killed["warnings"] == []
    assert killed["files_before_close"] > 0 and killed["files_after_close"] == 0
    # no checkpoint directory: a warning, and the loss fails the run saying what to do
    assert lost["reliable"] is False and len(lost["killed"]) == 2
    assert any("a lost executor will fail the run" in w for w in lost["warnings"])
    assert lost["result"] is None, lost
    assert "an executor was lost" in lost["error"] and "--checkpoint-dir" in lost["error"]


# The extern kills the executor that runs it, once (a file marks that it did), in the
# middle of a task of the loop: the task's retry on another executor finds the mark.
KILLER = """
import os, signal

MARK = {mark!r}


def note(x):
    if x == 4 and not os.path.exists(MARK):
        # this Python worker was forked by PySpark's daemon, a child of the executor JVM
        with open(f"/proc/{{os.getppid()}}/stat") as f:
            executor = int(f.read().rsplit(")", 1)[1].split()[1])
        with open(MARK, "w") as f:
            f.write(str(executor))
        os.kill(executor, signal.SIGKILL)
    return x
"""


MAINTAIN_CHILD = textwrap.dedent(CHILD_START + """
    class KillInLoop:  # kills every executor in the first loop of a transaction
        def __init__(self):
            self.armed, self.killed = False, []
        def on_iteration(self, stratum, iteration, counts, seconds):
            if self.armed and not self.killed:
                self.killed = kill_executors()
        def on_loop_end(self, stratum, iterations, seconds):
            pass
        def on_stratum(self, name, method, seconds):
            pass

    program = dl2sql.compile(program_text, extern={"note": note})
    progress = KillInLoop()
    live = program.maintain(spark=spark, inputs={"Edge": edges}, progress=progress,
                            checkpoint_dir=checkpoint_dir)
    steps = []
    # between transactions, every executor dies: the stored relations are files
    between = kill_executors()
    live.apply(insert={"Edge": [(5, 30)]}, delete={"Edge": [(3, 4)]})
    steps.append(live.last.methods)
    progress.armed = True  # and now in the middle of one
    live.apply(insert={"Edge": [(3, 4), (40, 41)]}, delete={"Edge": [(31, 0)]})
    steps.append(live.last.methods)
    contents = {rel: sorted([int(v) for v in r] for r in live.contents(rel).collect())
                for rel in ("Path", "G")}
    live.close()
    # no checkpoint directory: the relations are lost with the executors
    bare_live = program.maintain(spark=spark, inputs={"Edge": edges})
    lost = kill_executors()
    try:
        bare_live.apply(insert={"Edge": [(5, 30)]}, delete={"Edge": [(3, 4)]})
        error = None
    except dl2sql.RuntimeFailure as e:
        error = str(e)
    print(json.dumps({"contents": contents, "between": between,
                      "during": progress.killed, "methods": steps, "lost": lost,
                      "error": error}), flush=True)
    spark.stop()
""")


def test_maintained_program_on_cluster_survives_executors_dying(cluster, bare, tmp_path):
    conf = cluster.driver_conf(bare)
    checkpoints = tmp_path / "checkpoints"
    checkpoints.mkdir()
    code, out, err = run_child(MAINTAIN_CHILD, json.dumps(
        [conf, PROGRAM, EDGES, str(checkpoints), TESTS]), timeout=900,
        env=_driver_env(bare))
    assert code == 0, f"{err[-4000:]}\n{cluster.logs()}"
    report = json.loads(out.strip().splitlines()[-1])
    assert len(report["between"]) == 2 and len(report["during"]) == 2, report
    edges = (set(EDGES) - {(31, 0)}) | {(5, 30), (40, 41)}
    program = dl2sql.compile(PROGRAM, extern={"note": lambda x: x})
    want = program.run(engine="duckdb", inputs={"Edge": sorted(edges)})
    expected = {rel: sorted(list(map(int, r)) for r in frame.fetchall())
                for rel, frame in want.items()}
    assert report["contents"] == expected
    assert all(m["Path"] for m in report["methods"]), report["methods"]
    assert len(report["lost"]) == 2
    assert report["error"] and "executor" in report["error"], report["error"]


def test_cli_state_on_cluster_with_files_and_an_executor_dying_mid_task(cluster, bare,
                                                                         tmp_path):
    """``dl2sql run --state`` on the cluster, a day of inputs and a day of changes: the
    first evaluates the program on the cluster (its extern kills the executor that
    runs it in the middle of a task of the loop, whose retry finishes the run), the
    second, as a user's run does by default, opens that small state on the driver and
    applies the changes there (on the cluster, a transaction of this program took 150
    s: test_maintained_program_on_cluster_survives_executors_dying applies them
    there); each writes what DuckDB computes and leaves no checkpoint file."""
    (tmp_path / "prog.dl").write_text(PROGRAM)
    day0, day1 = tmp_path / "day0", tmp_path / "day1"
    day0.mkdir()
    day1.mkdir()
    # columns in another order than declared: matched by the header's names
    (day0 / "Edge.csv").write_text("y,x\n" + "".join(f"{y},{x}\n" for x, y in EDGES))
    (day1 / "Edge.delete.csv").write_text("x,y\n31,0\n")
    (day1 / "Edge.insert.csv").write_text("x,y\n5,30\n")
    mark = tmp_path / "killed"
    (tmp_path / "externs.py").write_text(KILLER.format(mark=str(mark)))
    state, checkpoints = tmp_path / "state", tmp_path / "checkpoints"
    for day in (day0, day1):
        command = [sys.executable, "-m", "dl2sql", "run", str(tmp_path / "prog.dl"),
                   "--state", str(state), "--input", str(day), "--output",
                   str(tmp_path / f"out-{day.name}"), "--format", "csv",
                   "--externs", str(tmp_path / "externs.py"), "--master",
                   cluster.master_url, "--checkpoint-dir", str(checkpoints)]
        env = _driver_env(bare)
        if day == day1:  # the driver policy's default (the suite turns it off)
            env.pop(ENVIRONMENT, None)
            command.append("--explain")
        code, stdout, err = run_child("", args=command, timeout=600, env=env)
        assert code == 0, f"{err[-4000:]}\n{cluster.logs()}"
        if day == day1:
            assert "evaluated on the driver (duckdb): a saved state of " in stdout, stdout
        assert "wrote the changes of 2 output relation(s)" in err, err
        # one line of its own (and progress lines where the run is slow), nothing of Spark's
        assert without_progress(err).count("\n") == 1, err
        assert os.listdir(checkpoints) == []  # the run's checkpoint files are gone
        if day == day0:
            executor = int(mark.read_text())  # the extern did kill its executor
            assert not os.path.exists(f"/proc/{executor}")
    program = dl2sql.compile(PROGRAM, extern={"note": lambda x: x})
    before = program.run(engine="duckdb", inputs={"Edge": EDGES})
    old = {rel: {tuple(map(int, r)) for r in f.fetchall()} for rel, f in before.items()}
    after = program.run(engine="duckdb", inputs={
        "Edge": sorted((set(EDGES) - {(31, 0)}) | {(5, 30)})})
    new = {rel: {tuple(map(int, r)) for r in f.fetchall()} for rel, f in after.items()}
    for rel, header in (("Path", "x,y,weight"), ("G", "x,g,weight")):
        # each day's output: the changes, each row with its weight (the first day: every
        # row, weight 1)
        for day, want in (("day0", [r + (1,) for r in old[rel]]),
                          ("day1", [r + (1,) for r in new[rel] - old[rel]]
                           + [r + (-1,) for r in old[rel] - new[rel]])):
            lines = (tmp_path / f"out-{day}" / f"{rel}.csv").read_text().splitlines()
            assert lines[0] == header, (day, lines[0])
            got = sorted(tuple(map(int, line.split(","))) for line in lines[1:])
            assert got == sorted(want) and got, (day, rel)
