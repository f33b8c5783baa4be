"""Transitive closure at scale: dl2sql on Spark against the hand-tuned PySpark loop, on
random graphs of N nodes and 2N edges, in one process.

    python -m benchmarks.scale [--n 1000,2000,5000] [--runs 3] [--master local[2]]
                               [--variants dl2sql,hand-tuned] [--partitions P]
                               [--session dl2sql|plain] [--conf KEY=VALUE ...]
                               [--on-driver-below ROWS]

For each N the variants run round-robin (A B A B ...), after one warm-up of each at
N = 300; dl2sql runs through the Python API with its default settings (the session
as ``dl2sql.runner.spark_session.get_spark`` starts it, the loop's partitions its
own choice) unless ``--partitions`` is given. ``--session plain`` runs both on a
session as a user would pass it instead (issue 45): ``SparkSession.builder`` on the
master with as many shuffle partitions as local cores and an 8 GB driver, every other
setting at Spark's default; ``--conf`` adds settings to either session (repeated).
dl2sql's run stays on Spark (``on_driver_below=0``): its inputs, 2N edges given as
Python rows, would otherwise be evaluated on the driver (docs/user-guide.md, "Speed");
``--on-driver-below`` gives another bound.
Prints, per N: the number of paths, each variant's median time and spread, the ratio
to the hand-tuned loop and seconds per million paths; both must count the same paths.

Before each timed run the process settles (``--settle``, the default): Python and the
JVM collect garbage and Spark's cleaner gets two seconds, so that neither variant
pays for the blocks the other left behind (the hand-tuned loop leaves its old
checkpoints to Spark's cleaner, dl2sql releases its own as it goes). Not timed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import baselines, generators  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402

def settle(spark, seconds: float = 2.0) -> None:
    """Let garbage from earlier runs go: unreferenced DataFrames in Python, then the
    JVM objects they held, then the cached blocks Spark's ContextCleaner frees."""
    import gc

    gc.collect()
    spark.sparkContext._jvm.System.gc()
    time.sleep(seconds)


def session(kind: str, master: str, settings: dict):
    """The session both variants run on: dl2sql's own (``get_spark``) or a plain one,
    as a user's pipeline would build it and pass it to dl2sql."""
    if kind == "dl2sql":
        from dl2sql.runner.spark_session import get_spark

        return get_spark(master, settings=settings)
    from pyspark.sql import SparkSession

    from dl2sql.runner.spark_session import local_cores

    builder = SparkSession.builder.master(master).config("spark.driver.memory", "8g")
    cores = local_cores(master)
    if cores:
        builder = builder.config("spark.sql.shuffle.partitions", str(cores))
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def run_dl2sql(spark, program, edges, partitions=None, on_driver_below=0):
    """(paths, iterations, seconds) of one run through the Python API."""
    from dl2sql.runner.progress import RecordingProgress

    progress = RecordingProgress()
    started = time.perf_counter()
    out = program.run(spark=spark, inputs={"Edge": edges}, progress=progress,
                      partitions=partitions, on_driver_below=on_driver_below)
    n = out["Path"].count()
    seconds = time.perf_counter() - started
    program.close()
    return n, sum(i for _, i, _ in progress.loops), seconds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="1000,2000,5000", help="comma-separated node counts")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--variants", default="dl2sql,hand-tuned")
    ap.add_argument("--partitions", type=int, default=None,
                    help="dl2sql's loop partitions (default: its own choice)")
    ap.add_argument("--settle", action=argparse.BooleanOptionalAction, default=True,
                    help="collect garbage before each timed run (default: yes)")
    ap.add_argument("--session", choices=("dl2sql", "plain"), default="dl2sql",
                    help="dl2sql's own session (default) or a plain one a user passes")
    ap.add_argument("--on-driver-below", type=int, default=0, metavar="ROWS",
                    help="dl2sql's bound for a run on the driver (default 0: on Spark)")
    ap.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                    help="a Spark setting of the session (repeatable)")
    args = ap.parse_args(argv)

    import dl2sql

    settings = dict(c.split("=", 1) for c in args.conf)
    spark = session(args.session, args.master, settings)
    print(f"session: {args.session}; settings given: {settings or 'none'}", flush=True)
    program = dl2sql.compile(PROGRAMS / "tc.dl")
    chosen = args.variants.split(",")
    variants = {
        "dl2sql": lambda edges: run_dl2sql(spark, program, edges, args.partitions,
                                           args.on_driver_below),
        "hand-tuned": lambda edges: baselines.handtuned_tc(spark, edges),
    }
    warm = generators.random_graph(300)
    for label in chosen:
        variants[label](warm)
    rows, ok = [], True
    for n in [int(x) for x in args.n.split(",")]:
        edges = generators.random_graph(n)
        samples: dict = {label: [] for label in chosen}
        paths: dict = {}
        for i in range(args.runs):
            for label in chosen:
                if args.settle:
                    settle(spark)
                count, iterations, seconds = variants[label](edges)
                samples[label].append(seconds)
                paths.setdefault(label, set()).add(count)
                print(f"  N={n:<5} {label:<11} run {i + 1}: {seconds:8.2f} s, "
                      f"{iterations} iterations, {count} paths", flush=True)
        counts = set().union(*paths.values())
        ok = ok and len(counts) == 1
        rows.append((n, counts, {k: sorted(v) for k, v in samples.items()}))
    print(f"\ntransitive closure, random graphs (2N edges), master {args.master}, "
          f"median of {args.runs} (min-max)")
    print(f"{'N':>6} {'paths':>11} {'variant':<11} {'median s':>9} {'spread':>17} "
          f"{'vs hand-tuned':>13} {'s / M paths':>11}")
    for n, counts, samples in rows:
        paths = max(counts)
        hand = statistics.median(samples["hand-tuned"]) if "hand-tuned" in samples else None
        for label, values in samples.items():
            med = statistics.median(values)
            ratio = f"{med / hand:.2f}x" if hand else "-"
            print(f"{n:>6} {paths:>11,} {label:<11} {med:>9.2f} "
                  f"{f'{values[0]:.2f}-{values[-1]:.2f}':>17} {ratio:>13} "
                  f"{med / (paths / 1e6):>11.2f}")
    print("all path counts agree" if ok else "PATH COUNTS DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
