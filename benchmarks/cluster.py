"""Seconds per loop iteration on a Spark standalone cluster on this machine (a master
and two one-core workers on 127.0.0.1, started from pyspark's ``bin/spark-class`` by
``tests/cluster.py``), against the same work on ``local[2]``.

    python -m benchmarks.cluster [--n 150] [--runs 3]

Workload: transitive closure of an ``n``-node chain evaluated linearly (one semi-naive
step per edge, no doubling): the worst case for per-iteration overhead. Variants, in
one driver process per master, round-robin:

* ``dl2sql``                 loop partitions from the session's parallelism, local
                             checkpoints (no checkpoint directory);
* ``dl2sql, reliable``       the same with a checkpoint directory: reliable checkpoints,
                             what survives a lost executor (cluster only);
* ``dl2sql, 200 partitions`` 200 loop partitions (Spark's default shuffle partitions,
                             which loops used before they chose their own; on a
                             30-node chain);
* ``hand-tuned``             the hand-tuned PySpark loop of ``benchmarks.handtuned_spark``.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = textwrap.dedent("""
    import dataclasses, json, sys, time
    sys.path.insert(0, ROOT)
    from pyspark.sql import SparkSession
    from benchmarks.bench_tc import build_plan, run_handtuned
    from benchmarks.generators import chain
    from dl2sql.plan.interpret import execute
    from dl2sql.runner.progress import RecordingProgress
    from dl2sql.engines import ENGINES
    from dl2sql.runner.spark_runner import SparkRunner

    conf, n, runs, checkpoint_dir, variants = json.loads(sys.argv[1])
    builder = SparkSession.builder.appName("dl2sql-bench-cluster")
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # no doubling: one step per edge, so that the per-iteration cost is measured
    plan = build_plan("spark", dataclasses.replace(ENGINES["spark"].loops,
                                                   closure_by_doubling=False))

    def dl2sql_run(**options):
        def run(edges):
            runner = SparkRunner(spark, **options)
            progress = RecordingProgress()
            with runner.running():
                execute(plan, runner, {"Edge": edges}, progress=progress)
            _, iterations, seconds = progress.loops[0]
            runner.close()
            return iterations, seconds
        return run

    def handtuned(edges):
        _, iterations, seconds = run_handtuned(spark, edges)
        return iterations, seconds

    chosen = {
        "dl2sql": dl2sql_run(),
        "dl2sql, reliable": dl2sql_run(checkpoint_dir=checkpoint_dir, checkpoints="reliable"),
        "dl2sql, 200 partitions": dl2sql_run(partitions=200),
        "hand-tuned": handtuned,
    }
    chosen = {k: v for k, v in chosen.items() if k in variants}
    for fn in chosen.values():
        fn(chain(8))  # warm-up
    samples = {k: [] for k in chosen}
    for _ in range(runs):
        for label, fn in chosen.items():
            edges = chain(30 if "200" in label else n)
            iterations, seconds = fn(edges)
            samples[label].append((seconds / iterations, iterations))
            print(f"  {label}: {seconds:.2f} s, {iterations} iterations", file=sys.stderr,
                  flush=True)
    print(json.dumps(samples))
    spark.stop()
""").replace("ROOT", repr(ROOT))


def _drive(conf: dict, n: int, runs: int, variants: list[str], env: dict) -> dict:
    with tempfile.TemporaryDirectory(prefix="dl2sql-bench-") as tmp:
        done = subprocess.run([sys.executable, "-c", DRIVER,
                               json.dumps([conf, n, runs, tmp, variants])],
                              capture_output=True, text=True, env=env, timeout=7200,
                              start_new_session=True)
    sys.stderr.write(done.stderr[-2000:] if done.returncode else "")
    if done.returncode:
        raise SystemExit(f"driver failed ({done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=150)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from cluster import StandaloneCluster

    from dl2sql.runner.spark_session import session_settings

    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
    results = {}
    # the session's shuffle partitions are the cores, as the hand-tuned loop wants
    # them; dl2sql's loops choose their own partitions whatever that setting says
    local = session_settings("local[2]")
    results["local[2]"] = _drive(local, args.n, args.runs,
                                 ["dl2sql", "dl2sql, 200 partitions", "hand-tuned"], env)
    with StandaloneCluster(workers=2) as cluster:
        conf = cluster.driver_conf(sys.executable)
        # the test fixture's JVMs start fast and compile little: not for timing
        conf.pop("spark.driver.extraJavaOptions")
        conf.pop("spark.executor.extraJavaOptions")
        conf["spark.executor.memory"] = "1g"
        results["standalone, 2 workers"] = _drive(
            conf, args.n, args.runs,
            ["dl2sql", "dl2sql, reliable", "dl2sql, 200 partitions", "hand-tuned"], env)
    print(f"\nchain of {args.n} nodes, linear (30 nodes for '200 partitions'), "
          f"median of {args.runs} (min-max) seconds per iteration")
    print(f"{'master':<22} {'variant':<24} {'s/iter':>7} {'spread':>13} {'vs hand-tuned':>13}")
    for master, samples in results.items():
        hand = statistics.median(s for s, _ in samples["hand-tuned"])
        for label, values in samples.items():
            per = sorted(s for s, _ in values)
            med = statistics.median(per)
            print(f"{master:<22} {label:<24} {med:>7.3f} {f'{per[0]:.3f}-{per[-1]:.3f}':>13} "
                  f"{med / hand:>12.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
