"""Wide integers on their small-value path: path weights summed over a layered graph
(``programs/weights_bigint.dl``, bigint node ids and weights: joins on bigint keys,
``+`` and a ``min`` group), with ``programs/weights_u64.dl`` (the same with bit<64>)
as the control. The bigint program runs in both representations of wide integers:
``narrow`` (plain DECIMAL(38,0), what its runs start with and keep while every value
fits) and ``wide`` (the (num, big) pairs, forced: what a run goes on with once a value
needs more than 38 digits).

    python -m benchmarks.wide_ints [--runs 5] [--layers 8] [--width 30] [--no-spark]

Each variant runs once to warm up, then round-robin in one process; prints every
sample, the median and the spread (min-max), the ratios of the medians to u64's on
the same engine, and the row counts, which must agree between the variants. On
DuckDB the CPU time of this process is measured too (all of DuckDB's threads: less
disturbed by other load than the wall time). To compare two versions of dl2sql, run
this script once with each on the path (``PYTHONPATH=<checkout>``), alternately.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.run import PROGRAMS  # noqa: E402
from dl2sql.api.evaluate import Evaluator  # noqa: E402
from dl2sql.compiler import compile_file  # noqa: E402
from dl2sql.plan.interpret import execute  # noqa: E402
from dl2sql.runtime.convert import to_sql  # noqa: E402
from dl2sql.types.model import NARROW, WIDE  # noqa: E402


def layered(layers: int, width: int, degree: int = 3, seed: int = 5) -> list[tuple]:
    """Edges (s, d, w) from each node of a layer to ``degree`` nodes of the next, with
    weights 1..3 (so that the sums, and Dist, stay bounded)."""
    rng = random.Random(seed)
    edges = set()
    for layer in range(layers - 1):
        for i in range(width):
            for j in rng.sample(range(width), degree):
                edges.add((layer * width + i, (layer + 1) * width + j, rng.randint(1, 3)))
    return sorted(edges)


def run_dl2sql(program, runner, inputs, output) -> tuple[int, float, float]:
    """(rows of ``output``, seconds, CPU seconds of this process) of one evaluation,
    its UDFs' registration included. The CPU time is DuckDB's work (all its threads),
    less disturbed by other load on the machine than the wall time; Spark works in
    its JVM, outside this process."""
    started, cpu = time.perf_counter(), time.process_time()
    plan = program.plan_for(runner.engine)
    Evaluator(program, runner).register_udfs(plan)
    execute(plan, runner, inputs)
    n = runner.count(plan.relations[output])
    return n, time.perf_counter() - started, time.process_time() - cpu


def _rows(program, relation: str, records: list[tuple]) -> list[tuple]:
    """``records`` as the table rows of ``relation`` (its columns' stored forms; the
    conversion is not timed)."""
    columns = program.layouts[relation].columns
    return [tuple(to_sql(t, v, program.type_env) for (_, t), v in zip(columns, r))
            for r in records]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--width", type=int, default=30)
    ap.add_argument("--no-spark", action="store_true")
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args(argv)

    import duckdb
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    edges = layered(args.layers, args.width)
    bigint = compile_file(str(PROGRAMS / "weights_bigint.dl"))
    assert bigint.representation == NARROW  # what its runs start with
    programs = {"u64": compile_file(str(PROGRAMS / "weights_u64.dl")),
                "bigint narrow": bigint, "bigint wide": bigint.represented(WIDE)}
    inputs = {kind: {"Edge": _rows(p, "Edge", edges)} for kind, p in programs.items()}
    variants = {}
    for kind, program in programs.items():
        variants[f"{kind} DuckDB"] = (lambda p=program, k=kind: run_dl2sql(
            p, DuckDBRunner(duckdb.connect()), inputs[k], "Dist"))
    if not args.no_spark:
        from dl2sql.runner.spark_runner import SparkRunner
        from dl2sql.runner.spark_session import get_spark

        spark = get_spark(args.master)
        for kind, program in programs.items():
            variants[f"{kind} Spark"] = (lambda p=program, k=kind: run_dl2sql(
                p, SparkRunner(spark), inputs[k], "Dist"))
    for fn in variants.values():
        fn()  # warm-up
    samples = {label: [] for label in variants}
    cpu = {label: [] for label in variants}
    rows = {}
    for _ in range(args.runs):
        for label, fn in variants.items():
            n, seconds, cpu_seconds = fn()
            samples[label].append(seconds)
            cpu[label].append(cpu_seconds)
            rows[label] = n
    print(f"{len(edges)} edges; Dist rows: {sorted(set(rows.values()))}")
    for label, xs in samples.items():
        line = (f"{label:<20} median {statistics.median(xs):6.3f} s  (min {min(xs):.3f}, "
                f"max {max(xs):.3f}; {', '.join(f'{x:.3f}' for x in xs)})")
        if "DuckDB" in label:
            ys = cpu[label]
            line += (f"  CPU median {statistics.median(ys):6.3f} s (min {min(ys):.3f}, "
                     f"max {max(ys):.3f})")
        print(line)
    for label in samples:
        control = label.replace(label.rsplit(" ", 1)[0], "u64")
        if label != control:
            print(f"{label:<20} / {control}: " + ", ".join(
                f"{what} {statistics.median(xs[label]) / statistics.median(xs[control]):.2f}x"
                for what, xs in (("wall", samples), ("CPU", cpu))
                if "DuckDB" in label or what == "wall"))
    return 0 if len(set(rows.values())) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
