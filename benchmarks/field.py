"""The standard Datalog benchmark programs (those of the FlowLog, RecStep and Soufflé
comparisons) on dl2sql and on the field, one engine per process.

    python -m benchmarks.field --engine duckdb|spark [--only tc,cc,...] [--runs 3]
                               [--quick] [--json FILE] [--master local[2]]

Programs (``benchmarks/field_programs/*.dl``, inputs from
:mod:`benchmarks.field_workloads`): tc, sg, reach, cc (connected components by least
label, recursion through ``group_by`` min), sssp (shortest paths, likewise), andersen,
cspa.

Variants, per engine (:mod:`benchmarks.field_variants`):

* ``--engine duckdb``: dl2sql on DuckDB through the Python API, DuckDB's own
  recursive query written by hand (:mod:`benchmarks.field_duckdb`), Nemo
  (:mod:`benchmarks.field_nemo`; skipped, saying why, where it is not installed).
* ``--engine spark``: dl2sql on Spark through the Python API (the session
  ``dl2sql.runner.spark_session.get_spark`` makes), hand-tuned PySpark loops for tc,
  cc and sssp, Spark's ``WITH RECURSIVE`` for sg (:mod:`benchmarks.field_spark`).

Each variant first runs once on the program's tiny ``quick`` input (warm-up, not
timed), then the variants of a program run round-robin (A B C A B C ...), so that
drift in the machine's speed affects all alike. A timed run includes loading the
inputs from Python rows (Nemo: importing CSV files written beforehand), the
evaluation, and counting each result relation in the engine (cc and sssp: fetching
the result rows too, which are compared as sets). Every sample is printed, then per
variant the median, min-max, ratio to dl2sql, rows and iterations. All variants
must find the same row counts (and, for cc and sssp, the same rows): if not, the
disagreement is printed and the exit status is 1. ``python -m benchmarks.field_report
FILE.json`` prints a saved run as Markdown tables.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import field_report  # noqa: E402
from benchmarks.field_variants import REFERENCE, duckdb_variants, spark_variants  # noqa: E402
from benchmarks.field_workloads import WORKLOADS  # noqa: E402


def main(argv=None) -> int:
    """Run the benchmark; 0 if every program's variants agree, else 1."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark"), required=True)
    ap.add_argument("--only", default=None,
                    help=f"comma-separated programs (default: {','.join(WORKLOADS)})")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="tiny inputs (a smoke test)")
    ap.add_argument("--json", default=None, help="write every sample to this file")
    ap.add_argument("--master", default="local[2]", help="Spark master (--engine spark)")
    ap.add_argument("--no-warmup", dest="warmup", action="store_false",
                    help="no untimed run on the tiny input first")
    args = ap.parse_args(argv)
    chosen = args.only.split(",") if args.only else list(WORKLOADS)
    unknown = [n for n in chosen if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown programs {unknown}; choose from {list(WORKLOADS)}")

    import dl2sql

    spark, extra = None, {"dl2sql": os.path.dirname(dl2sql.__file__)}
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark

        spark = get_spark(args.master)
        extra.update(master=args.master, spark=spark.version)
    else:
        import duckdb

        extra["duckdb"] = duckdb.__version__
    size = "quick" if args.quick else args.engine
    records = []
    for name in chosen:
        workload = WORKLOADS[name]
        program = dl2sql.compile(str(workload.file))
        records.append(bench_program(workload, size, program, spark, args))
        if args.json:  # after every program: a run stopped midway keeps what it measured
            field_report.write_json(args.json, args.engine, args, records, extra)
    field_report.print_table(records, args.engine)
    if args.json:
        print(f"\nsamples written to {args.json}")
    ok = all(r["agree"] for r in records)
    print("all variants agree" if ok else "VARIANTS DISAGREE (see DISAGREEMENT above)")
    return 0 if ok else 1


def make_variants(workload, inputs, program, spark):
    """The engine's variants of ``workload`` prepared for ``inputs``."""
    if spark is None:
        return duckdb_variants(workload, inputs, program)
    return spark_variants(workload, inputs, program, spark)


def bench_program(workload, size: str, program, spark, args) -> dict:
    """Warm up, time the variants round-robin, check that they agree; the program's
    JSON record."""
    inputs = workload.inputs(size)
    input_rows = {rel: len(rows) for rel, rows in inputs.items()}
    print(f"\n{workload.name}: {workload.describe(size)}; input rows {input_rows}",
          flush=True)
    if args.warmup:
        warm, _ = make_variants(workload, workload.inputs("quick"), program, spark)
        for variant in warm.values():
            variant.run()
            variant.after()
            variant.close()
    variants, skipped = make_variants(workload, inputs, program, spark)
    for label, why in skipped.items():
        print(f"  {label}: skipped: {why}", flush=True)
    results = {label: {"samples": [], "counts": None, "iterations": None, "rows": None,
                       "all_counts": []} for label in variants}
    try:
        for i in range(args.runs):
            for label, variant in variants.items():
                if spark is not None:
                    _settle(spark)
                started = time.perf_counter()
                outcome = variant.run()
                seconds = time.perf_counter() - started
                variant.after()
                r = results[label]
                r["samples"].append(seconds)
                r["all_counts"].append(outcome.counts)
                r["counts"], r["iterations"] = outcome.counts, outcome.iterations
                r["rows"] = outcome.rows
                its = "" if outcome.iterations is None else f"  {outcome.iterations} it"
                print(f"  {workload.name:<9} {label:<40} run {i + 1}: {seconds:8.3f} s"
                      f"{its}  {outcome.counts}", flush=True)
    finally:
        for variant in variants.values():
            variant.close()
    problems = disagreements(results, REFERENCE["spark" if spark else "duckdb"])
    for p in problems:
        print(f"  {workload.name}: DISAGREEMENT: {p}", flush=True)
    for r in results.values():
        del r["all_counts"], r["rows"]
    return field_report.program_record(workload, size, input_rows, results, skipped,
                                       REFERENCE["spark" if spark else "duckdb"], problems)


def disagreements(results: dict, reference: str) -> list[str]:
    """What the variants disagree on: row counts (across all runs), and result rows
    (each against the reference's, where rows are compared)."""
    problems = []
    seen = {}
    for label, r in results.items():
        for counts in r["all_counts"]:
            seen.setdefault(tuple(sorted(counts.items())), []).append(label)
    if len(seen) > 1:
        problems.append("row counts differ: " + "; ".join(
            f"{dict(k)} from {', '.join(sorted(set(v)))}" for k, v in seen.items()))
    ref_rows = results.get(reference, {}).get("rows")
    for label, r in results.items():
        if label == reference or r["rows"] is None or ref_rows is None:
            continue
        if r["rows"] != ref_rows:
            only_ref = sorted(ref_rows - r["rows"])
            only_it = sorted(r["rows"] - ref_rows)
            problems.append(
                f"result rows differ between {reference} and {label}: "
                f"{len(only_ref)} only in {reference} (e.g. {only_ref[:3]}), "
                f"{len(only_it)} only in {label} (e.g. {only_it[:3]})")
    return problems


def _settle(spark) -> None:
    """Untimed, before each Spark run: let the last run's garbage go, so that no
    variant pays for what another left behind (see benchmarks/scale.py)."""
    from benchmarks.scale import settle

    settle(spark, seconds=0.5)


if __name__ == "__main__":
    sys.exit(main())
