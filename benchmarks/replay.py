"""Whole replays of many small transactions: ``dl2sql replay`` (incremental, the
default) against ``dl2sql replay --recompute``, in one process, round-robin.

    python -m benchmarks.replay [--engine duckdb|spark] [--nodes 500]
        [--transactions 40] [--workloads tc_neg_group,sg] [--repeats 2] [--quick]

A command file is made per workload (deterministic, from the transactions of
``benchmarks/incremental.py``): one transaction inserting the whole input graph, then
``--transactions`` transactions of one deleted and one inserted edge, each ending in
``commit dump_changes``. Each repeat replays it once each way (the order alternates
between repeats); both replays must print the same text, or the benchmark fails.
Timed: :func:`dl2sql.api.replaying.replay_program` from the command text to the
printed output, the engine session's start excluded (one runner per workload, shared).
Prints per workload the median and min-max of both and their ratio.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dl2sql  # noqa: E402
from benchmarks.incremental import WORKLOADS, transaction  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402
from dl2sql.api.replaying import replay_program  # noqa: E402
from dl2sql.engines import Settings  # noqa: E402
from dl2sql.engines import engine as get_engine  # noqa: E402


def commands(workload: str, nodes: int, transactions: int, seed: int = 7) -> str:
    """The ``.dat`` text of a replay: the graph inserted, then ``transactions``
    transactions of one deleted and one inserted edge, each printing its changes."""
    work = WORKLOADS[workload]
    n = work.nodes(nodes)
    edges = set(work.graph(nodes))
    rel = work.relation
    lines = ["start;"] + [f"insert {rel}({a},{b})," for a, b in sorted(edges)]
    lines[-1] = lines[-1][:-1] + ";"
    lines.append("commit dump_changes;")
    rng, previous = random.Random(seed), []
    for i in range(transactions):
        inserted, deleted = transaction(rng, work, n, edges, "1+1", i, previous)
        edges.difference_update(deleted)
        edges.update(inserted)
        previous = deleted
        changes = [f"delete {rel}({a},{b})" for a, b in deleted]
        changes += [f"insert {rel}({a},{b})" for a, b in inserted]
        lines += ["start;", ",\n".join(changes) + ";", "commit dump_changes;"]
    return "\n".join(lines) + "\n"


def bench(workload: str, engine: str, spark, nodes: int, transactions: int,
          repeats: int) -> dict:
    """Seconds of each incremental and recomputing replay of one workload."""
    program = dl2sql.compile(PROGRAMS / WORKLOADS[workload].file)
    text = commands(workload, nodes, transactions)
    runner = get_engine(engine).runner(Settings(spark=spark))
    times: dict[str, list[float]] = {"incremental": [], "recompute": []}
    printed: dict[str, str] = {}
    try:
        for r in range(repeats):
            order = ["incremental", "recompute"] if r % 2 == 0 else ["recompute", "incremental"]
            for mode in order:
                started = time.perf_counter()
                code, out, err = replay_program(program.compiled, runner, text,
                                                recompute=(mode == "recompute"))
                times[mode].append(time.perf_counter() - started)
                if code != 0:
                    raise SystemExit(f"{workload} {mode}: replay failed ({code}): {err}")
                if printed.setdefault(mode, out) != out:
                    raise SystemExit(f"{workload} {mode}: two replays printed different text")
        if printed["incremental"] != printed["recompute"]:
            raise SystemExit(f"{workload}: incremental and --recompute replays differ")
    finally:
        runner.close()
    return times


def _summary(xs: list[float]) -> str:
    return f"{statistics.median(xs):8.2f} s ({min(xs):.2f}-{max(xs):.2f})"


def main(argv=None) -> int:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb")
    ap.add_argument("--nodes", type=int, default=500)
    ap.add_argument("--transactions", type=int, default=40)
    ap.add_argument("--workloads", default="tc_neg_group,sg")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--master", default="local[2]", help="Spark master")
    ap.add_argument("--quick", action="store_true",
                    help="a tiny run that only checks the benchmark works")
    args = ap.parse_args(argv)
    if args.quick:
        args.nodes, args.transactions, args.repeats = 30, 3, 1
    spark = None
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow
        spark = get_spark(args.master)
    print(f"engine {args.engine}, N={args.nodes}, {args.transactions} transactions of "
          f"1+1 edges after the graph's, {args.repeats} repeats")
    print(f"{'workload':14} {'incremental':>24} {'--recompute':>24} {'ratio':>7}")
    for w in args.workloads.split(","):
        t = bench(w, args.engine, spark, args.nodes, args.transactions, args.repeats)
        ratio = statistics.median(t["recompute"]) / statistics.median(t["incremental"])
        print(f"{w:14} {_summary(t['incremental'])} {_summary(t['recompute'])} "
              f"{ratio:6.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
