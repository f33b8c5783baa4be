"""Insertions whose new rows are many levels deep, maintained (issue 43): two chains
of ``n`` red edges and ``n`` random blue ones (``programs/chains.dl``, a linear recursion
that delete and rederive maintains); a transaction inserts the red edge that joins the
chains (``n * n`` new rows, found ``n`` levels deep), the next deletes it.

    python -m benchmarks.deep_insertion [--engine duckdb|spark] [--sizes 60,300] [--runs 4]

Per size, in one process and round-robin: the insertion, the deletion (each
``live.apply`` on one maintained program) and a recomputation of the program on the
inputs with the joining edge (``Program.run``; on Spark its output counted), whose
output the maintained program's must equal after each insertion (a difference fails
the run). Prints the median and the spread (min-max) of each, the methods, and the
insertion's ratio to the recomputation. To compare two versions of dl2sql, run it once with each on the path
(``PYTHONPATH=<checkout>``).
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
from benchmarks.incremental_suite import compare  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402

PROGRAM = PROGRAMS / "chains.dl"


def edges(n: int, seed: int = 5) -> list:
    """Two red chains of ``n`` edges (nodes 0..n and 10000..10000+n) and ``n`` random
    blue edges among the first chain's nodes."""
    rng = random.Random(seed)
    red = [(i, i + 1, "red") for i in range(n)] + [(10_000 + i, 10_001 + i, "red")
                                                  for i in range(n)]
    return red + [(rng.randrange(n), rng.randrange(n), "blue") for _ in range(n)]


def spread(xs: list) -> str:
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})"


def apply(live, rows: dict, engine: str, seconds: list, methods: set) -> None:
    """One transaction, timed into ``seconds`` (on Spark its changes counted)."""
    started = time.perf_counter()
    changes = live.apply(**rows)
    if engine == "spark":
        changes["Same"].count()
    seconds.append(time.perf_counter() - started)
    methods.add(live.last.methods["Same"])


def bench(n: int, engine: str, spark, runs: int) -> None:
    """One size: ``runs`` rounds of insertion, deletion and recomputation."""
    given, link = edges(n), (n, 10_000, "red")
    program = dl2sql.compile(PROGRAM)
    live = program.maintain(inputs={"Edge": given}, engine=engine, spark=spark)
    inserted, deleted, recomputed, methods = [], [], [], set()
    try:
        for _ in range(runs):
            apply(live, {"insert": {"Edge": [link]}}, engine, inserted, methods)
            baseline = dl2sql.compile(PROGRAM)
            started = time.perf_counter()
            out = baseline.run(inputs={"Edge": given + [link]}, engine=engine, spark=spark)
            if engine == "spark":
                out["Same"].count()
            recomputed.append(time.perf_counter() - started)
            compare(live, out)  # raises where the maintained rows differ
            baseline.close()
            apply(live, {"delete": {"Edge": [link]}}, engine, deleted, methods)
    finally:
        live.close()
    ratio = statistics.median(inserted) / statistics.median(recomputed)
    print(f"{engine} n={n}: insertion {spread(inserted)} s, deletion {spread(deleted)} s, "
          f"recomputation {spread(recomputed)} s; insertion / recomputation {ratio:.2f}; "
          f"methods {', '.join(sorted(methods))}", flush=True)


def main(argv=None) -> int:
    """Run the sizes given on the engine given; 0 when every output matched."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb")
    ap.add_argument("--sizes", default="60,300")
    ap.add_argument("--runs", type=int, default=4)
    args = ap.parse_args(argv)
    spark = None
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark
        spark = get_spark("local[2]")
    for n in (int(x) for x in args.sizes.split(",")):
        bench(n, args.engine, spark, args.runs)
    print("every maintained output matched the recomputation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
