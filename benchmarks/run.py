"""Every benchmark workload on dl2sql (Spark, DuckDB) and on the baselines, in one
process; checks that all row counts agree and prints medians and ratios.

    python -m benchmarks.run [--runs 3] [--only tc_random,tc_chain200,...] [--quick]

Workloads (deterministic generators in :mod:`benchmarks.generators`):

* ``tc_random``   transitive closure, random graph of 1000 nodes, out-degree 2;
* ``tc_chain200`` transitive closure of a 200-node chain, also with the doubling
                  rewrite off to show dl2sql's per-iteration overhead;
* ``tc_chain1000`` transitive closure of a 1000-node chain;
* ``sg``          same generation on a binary tree of depth 7;
* ``andersen``    Andersen points-to analysis on 300 variables (non-linear).

Baselines: the hand-tuned PySpark semi-naive loop (:mod:`benchmarks.handtuned_spark`),
DuckDB's ``WITH RECURSIVE ... UNION`` for the linear programs, Spark's
``WITH RECURSIVE`` where it can express the program (it only has ``UNION ALL``, so
only on acyclic inputs, where no path is derived twice). Times exclude session start
and include loading the inputs; each variant gets one warm-up run first.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import baselines, generators  # noqa: E402
from dl2sql.compiler import compile_file  # noqa: E402
from dl2sql.engines import ENGINES  # noqa: E402
from dl2sql.plan.interpret import execute  # noqa: E402
from dl2sql.runner.progress import RecordingProgress  # noqa: E402

PROGRAMS = Path(__file__).resolve().parent / "programs"


def workloads(quick: bool) -> dict:
    """name -> (program, inputs, output relation, linear?, acyclic?)."""
    # quick: the smoke test's sizes (tests/test_benchmarks_smoke.py), where every
    # variant runs its loop to the end on Spark; a step costs tenths of a second there
    n_rand, n_chain, n_long, depth, n_vars = (60, 12, 60, 3, 40) if quick else \
        (1000, 200, 1000, 7, 300)
    return {
        "tc_random": ("tc.dl", {"Edge": generators.random_graph(n_rand)}, "Path", True,
                      False),
        "tc_chain200": ("tc.dl", {"Edge": generators.chain(n_chain)}, "Path", True, True),
        "tc_chain1000": ("tc.dl", {"Edge": generators.chain(n_long)}, "Path", True, True),
        "sg": ("sg.dl", {"Parent": generators.tree(depth)}, "SG", True, True),
        "andersen": ("andersen.dl", generators.andersen(n_vars), "PointsTo", False, False),
    }


def run_dl2sql(program, runner, inputs, output, loops=None):
    """(rows of ``output``, iterations, seconds) of one evaluation (with the loop
    policy ``loops``, by default the engine's)."""
    plan = program.plan_for(runner.engine, loops)
    rec = RecordingProgress()
    started = time.perf_counter()
    execute(plan, runner, inputs, progress=rec)
    n = runner.count(plan.relations[output])
    seconds = time.perf_counter() - started
    return n, sum(i for _, i, _ in rec.loops), seconds


def variants(name, spec, spark, duckdb_con, closure_options):
    """The variants to time for workload ``name``: label -> () -> (rows, iters, s)."""
    from dl2sql.runner.duckdb_runner import DuckDBRunner
    from dl2sql.runner.spark_runner import SparkRunner

    file, inputs, output, linear, acyclic = spec
    program = compile_file(str(PROGRAMS / file))
    out = {}
    if spark is not None:
        out["dl2sql/Spark"] = lambda: run_dl2sql(program, SparkRunner(spark), inputs, output)
        if closure_options and name.startswith("tc_chain"):
            linear = dataclasses.replace(ENGINES["spark"].loops, closure_by_doubling=False)
            single = dataclasses.replace(linear, steps_per_check=1)
            fused = dataclasses.replace(linear, fuse_partitioned=True)
            out["dl2sql/Spark linear, 1 step/job"] = \
                lambda: run_dl2sql(program, SparkRunner(spark), inputs, output, single)
            out["dl2sql/Spark linear, 4 steps/job"] = \
                lambda: run_dl2sql(program, SparkRunner(spark), inputs, output, fused)
        if file == "tc.dl":
            out["hand-tuned PySpark"] = lambda: baselines.handtuned_tc(spark, inputs["Edge"])
        if linear and acyclic:
            out["Spark WITH RECURSIVE"] = lambda: baselines.spark_recursive(
                spark, file, inputs)
    out["dl2sql/DuckDB"] = lambda: run_dl2sql(program, DuckDBRunner(duckdb_con()), inputs,
                                              output)
    if linear:
        out["DuckDB WITH RECURSIVE"] = lambda: baselines.duckdb_recursive(
            duckdb_con(), file, inputs)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--slow-runs", type=int, default=1,
                    help="runs of the hand-tuned, linear and Spark WITH RECURSIVE "
                         "variants on tc_chain1000 (minutes each, no warm-up)")
    ap.add_argument("--only", default=None, help="comma-separated workloads")
    ap.add_argument("--no-spark", action="store_true", help="DuckDB variants only")
    ap.add_argument("--variants", default=None,
                    help="semicolon-separated variant labels to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="tiny inputs (a smoke test)")
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args(argv)

    import duckdb

    spark = None
    if not args.no_spark:
        from dl2sql.runner.spark_session import get_spark

        spark = get_spark(args.master)
    all_work = workloads(args.quick)
    chosen = args.only.split(",") if args.only else list(all_work)
    table, ok = [], True
    for name in chosen:
        spec = all_work[name]
        counts = set()
        chosen_variants = {
            label: fn for label, fn in variants(name, spec, spark, duckdb.connect, True).items()
            if not args.variants or label in args.variants.split(";")}
        if not chosen_variants:
            continue
        results = _time_interleaved(name, chosen_variants, args, counts)
        if len(counts) != 1:
            ok = False
            print(f"  {name}: ROW COUNTS DISAGREE: {sorted(counts)}", flush=True)
        table.append((name, results))
    print_table(table)
    print("all row counts agree" if ok else "ROW COUNTS DISAGREE")
    return 0 if ok else 1


def _is_slow(name: str, label: str) -> bool:
    return name == "tc_chain1000" and ("hand-tuned" in label or "linear" in label
                                       or "WITH RECURSIVE" in label and "Spark" in label)


def _time_interleaved(name, chosen, args, counts) -> dict:
    """label -> (median s, iterations, rows, runs). Runs go round-robin over the
    variants (A B C A B C ...), so that drift in the machine's speed during the
    benchmark (other load, JIT, GC) affects every variant alike."""
    runs = {label: min(args.runs, args.slow_runs) if _is_slow(name, label) else args.runs
            for label in chosen}
    chosen = {label: fn for label, fn in chosen.items() if runs[label] > 0}  # --slow-runs 0
    for label, fn in chosen.items():
        if not _is_slow(name, label):
            fn()  # warm-up
    samples: dict = {label: [] for label in chosen}
    last: dict = {}
    for i in range(max(runs.values(), default=0)):
        for label, fn in chosen.items():
            if i < runs[label]:
                rows, iters, seconds = fn()
                counts.add(rows)
                samples[label].append(seconds)
                last[label] = (iters, rows)
    results = {}
    for label in chosen:
        med = statistics.median(samples[label])
        iters, rows = last[label]
        results[label] = (med, iters, rows, runs[label])
        print(f"  {name:<13} {label:<34} {med:8.2f} s {iters:>5} it  {rows} rows  "
              f"(median of {runs[label]}: {', '.join(f'{x:.2f}' for x in samples[label])})",
              flush=True)
    return results


def print_table(table) -> None:
    """Medians and ratios (to the hand-tuned loop, or DuckDB's native query)."""
    print(f"\n{'workload':<13} {'variant':<34} {'median s':>9} {'iters':>6} {'s/iter':>7} "
          f"{'vs hand-tuned':>13} {'vs DuckDB native':>16}")
    for name, results in table:
        hand = results.get("hand-tuned PySpark", (None,))[0]
        native = results.get("DuckDB WITH RECURSIVE", (None,))[0]
        for label, (sec, iters, rows, runs) in results.items():
            per = f"{sec / iters:.3f}" if iters else "-"
            vs_h = f"{sec / hand:.2f}x" if hand and "Spark" in label else ""
            vs_d = f"{sec / native:.2f}x" if native and "DuckDB" in label else ""
            print(f"{name:<13} {label:<34} {sec:>9.2f} {iters:>6} {per:>7} {vs_h:>13} "
                  f"{vs_d:>16}")


if __name__ == "__main__":
    sys.exit(main())
