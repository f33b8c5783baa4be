"""Transitive closure on a chain: dl2sql's runners against hand-written Spark loops.

Runs, in one process on ``local[2]``:

(a) the hand-tuned PySpark loop (:mod:`benchmarks.handtuned_spark`),
(b) a naive loop: ``spark.sql`` + ``cache`` + ``count`` per iteration, no checkpoints,
(c) :class:`SparkRunner` executing the semi-naive plan through ``plan/interpret.py``,
(d) :class:`DuckDBRunner` on the same plan,

checks that all agree on the number of paths (n(n-1)/2 for a chain of n nodes) and
prints medians of the runs, seconds per iteration and ratios to (a).

    python -m benchmarks.bench_tc [--n 200] [--runs 3] [--naive-runs 3] [--only a,c]

The plan of (c) and (d) is what dl2sql compiles for
``Path(x,z) :- Edge(x,z). Path(x,z) :- Path(x,y), Edge(y,z).`` (:func:`build_plan`).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


from benchmarks.generators import chain  # noqa: E402
from dl2sql.compiler import compile_source  # noqa: E402
from dl2sql.plan.interpret import execute, fetch_relation  # noqa: E402,F401
from dl2sql.plan.nodes import Plan  # noqa: E402
from dl2sql.runner.progress import RecordingProgress  # noqa: E402


TC_PROGRAM = """
input relation Edge(x: s64, y: s64)
output relation Path(x: s64, y: s64)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
"""


def build_plan(engine: str = "spark", loops=None) -> Plan:
    """The plan dl2sql compiles for transitive closure over ``Edge(x, y)`` (with the
    loop policy ``loops``, by default the engine's); the result is
    ``plan.relations["Path"]``."""
    return compile_source(TC_PROGRAM, "<bench_tc>").plan_for(engine, loops)


# Each runner returns (number of paths, iterations, seconds spent in the loop).

def run_handtuned(spark, edges):
    from benchmarks.handtuned_spark import transitive_closure

    full, iterations, seconds = transitive_closure(spark, edges)
    return full.count(), iterations, seconds


def run_naive(spark, edges):
    """What a first working attempt looks like: SQL over temp views, each iteration's
    result written out (Parquet in a temporary directory) so that plans do not grow,
    and a separate ``count()`` per iteration. (Keeping everything as cached DataFrames
    instead makes the plan a DAG whose tree grows exponentially: the driver runs out
    of memory within 40 iterations.)"""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="dl2sql-naive-") as tmp:
        def save(query: str, name: str):
            path = os.path.join(tmp, f"{name}-{time.perf_counter_ns()}")
            spark.sql(query).write.parquet(path)
            df = spark.read.parquet(path)
            df.createOrReplaceTempView(name)
            return df

        spark.createDataFrame(edges, "x BIGINT, y BIGINT").createOrReplaceTempView("NEdge")
        save("SELECT DISTINCT x, y FROM NEdge", "NPath_full")
        save("SELECT x, y FROM NPath_full", "NPath_delta")
        started = time.perf_counter()
        iterations = 0
        while True:
            iterations += 1
            new = save(
                "SELECT DISTINCT d.x, e.y FROM NPath_delta d JOIN NEdge e ON d.y = e.x "
                "EXCEPT SELECT x, y FROM NPath_full", "NPath_new")
            if new.count() == 0:
                break
            save("SELECT * FROM NPath_full UNION ALL SELECT * FROM NPath_new", "NPath_full")
            new.createOrReplaceTempView("NPath_delta")
        seconds = time.perf_counter() - started
        return spark.table("NPath_full").count(), iterations, seconds


def run_plan(runner, edges, plan=None):
    plan = plan or build_plan(runner.engine)
    rec = RecordingProgress()
    execute(plan, runner, {"Edge": edges}, progress=rec)
    n = len(fetch_relation(plan, runner, "Path")) if runner.dialect == "duckdb" else \
        runner.count(plan.relations["Path"])
    _, iterations, seconds = rec.loops[0]
    return n, iterations, seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="chain length (nodes)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--naive-runs", type=int, default=None, help="runs of (b), default --runs")
    ap.add_argument("--only", default="a,b,c,d", help="comma-separated subset of a,b,c,d")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--count-mode", default="auto", help="SparkRunner count_mode")
    args = ap.parse_args(argv)

    import duckdb

    from dl2sql.runner.duckdb_runner import DuckDBRunner
    from dl2sql.runner.spark_runner import SparkRunner
    from dl2sql.runner.spark_session import get_spark

    spark = get_spark(args.master)
    edges = chain(args.n)
    expected = args.n * (args.n - 1) // 2
    variants = {
        "a": ("hand-tuned PySpark", lambda: run_handtuned(spark, edges)),
        "b": ("naive PySpark", lambda: run_naive(spark, edges)),
        "c": ("SparkRunner plan", lambda: run_plan(SparkRunner(spark, args.count_mode), edges)),
        "d": ("DuckDBRunner plan", lambda: run_plan(DuckDBRunner(duckdb.connect()), edges)),
    }
    chosen = [k for k in args.only.split(",") if k]
    # One warm-up of Spark (JIT, first job) so that (a) does not pay for everyone.
    run_plan(SparkRunner(spark), chain(20))

    results = {}
    ok = True
    for key in chosen:
        label, fn = variants[key]
        runs = args.naive_runs if (key == "b" and args.naive_runs is not None) else args.runs
        samples = []
        for i in range(runs):
            n, iterations, seconds = fn()
            if n != expected:
                ok = False
                print(f"({key}) {label}: {n} paths, expected {expected}", file=sys.stderr)
            samples.append((seconds, iterations))
            print(f"  ({key}) run {i + 1}: {seconds:.2f} s, {iterations} iterations, {n} paths",
                  flush=True)
        med = statistics.median(s for s, _ in samples)
        its = samples[0][1]
        results[key] = (label, med, its, med / its)

    print(f"\ntransitive closure, chain of {args.n} nodes ({expected} paths), "
          f"master {args.master}, median of {args.runs} runs")
    print(f"{'variant':<24}{'loop s':>9}{'iters':>7}{'s/iter':>9}{'vs (a)':>8}")
    base = results.get("a", (None, None, None, None))[3]
    for key, (label, med, its, per) in results.items():
        ratio = f"{per / base:.2f}x" if base else "-"
        print(f"({key}) {label:<20}{med:>9.2f}{its:>7}{per:>9.3f}{ratio:>8}")
    print("all row counts agree" if ok else "ROW COUNTS DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
