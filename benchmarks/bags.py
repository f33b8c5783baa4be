"""Streams, multisets and delays maintained against recomputation: transactions of a
few sales and scans applied to a maintained program (``Program.maintain``), timed
against evaluating the program from scratch on the same inputs, in one process.

    python -m benchmarks.bags [--engine duckdb|spark] [--sales 200000]
        [--transactions 10] [--changes 10] [--quick]

The program (``programs/sales_stream.dl``) joins a multiset of sales (``--sales``
rows over 10,000 items, many of them equal: weights) with a set of 10,000 shelves
(1,000 aisles), joins a stream of scans with the shelves, and folds the stream into a
running count per aisle through ``Counted-1``. Each transaction deletes ``--changes``
sales (copies held), inserts as many and scans as many items. Timed: ``apply``
(loading the changes and returning the outputs' changes included) and ``Program.run``
on the inputs as they are now (the multiset's copies, this transaction's scans, and
the fold's last counts given as ``Counted-1``), round-robin. At the end every
relation is compared with that evaluation's. Prints medians and min-max, their ratio
and per stratum each method's median seconds. Deterministic (fixed seed).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dl2sql  # noqa: E402
from dl2sql.engines import Settings  # noqa: E402
from dl2sql.engines import engine as get_engine  # noqa: E402
from dl2sql.runner.progress import RecordingProgress  # noqa: E402

PROGRAM = Path(__file__).parent / "programs" / "sales_stream.dl"
ITEMS, AISLES = 10_000, 1_000


def _rows(frame) -> list[tuple]:
    return [tuple(r) for r in (frame.collect() if hasattr(frame, "collect")
                               else frame.fetchall())]


def bench(engine: str, spark, sales: int, transactions: int, changes: int) -> dict:
    """Seconds of each transaction and recomputation, the methods' seconds, and
    whether the maintained relations equal the last recomputation."""
    rng = random.Random(11)
    program = dl2sql.compile(str(PROGRAM))
    stock = Counter((rng.randrange(ITEMS), rng.randrange(5)) for _ in range(sales))
    shelf = [(i, i % AISLES) for i in range(ITEMS)]
    progress = RecordingProgress()
    options = {"spark": spark} if engine == "spark" else {"engine": "duckdb"}
    live = program.maintain({"Sale": sorted(stock.elements()), "Shelf": shelf},
                            progress=progress, **options)
    times = {"apply": [], "run": []}
    methods: dict[str, dict[str, list[float]]] = {}
    counted = {}
    for _ in range(transactions):
        deleted = rng.sample(sorted(stock.elements()), changes)
        inserted = [(rng.randrange(ITEMS), rng.randrange(5)) for _ in range(changes)]
        scans = [(rng.randrange(ITEMS),) for _ in range(changes)]
        stock = stock - Counter(deleted) + Counter(inserted)
        progress.strata.clear()
        started = time.perf_counter()
        live.apply(insert={"Sale": inserted, "Scan": scans}, delete={"Sale": deleted})
        times["apply"].append(time.perf_counter() - started)
        for stratum, method, seconds in progress.strata:
            methods.setdefault(stratum, {}).setdefault(method, []).append(seconds)
        previous = sorted(counted.items())
        started = time.perf_counter()
        outputs = program.run(inputs={"Sale": sorted(stock.elements()), "Shelf": shelf,
                                      "Scan": scans, "Counted__prev1": previous},
                              **options)
        times["run"].append(time.perf_counter() - started)
        counted = dict(_rows(outputs["Counted"]))
    same = all(sorted(_rows(live.contents(rel))) == sorted(_rows(outputs[rel]))
               for rel in ("SaleAisle", "Scanned", "Counted"))
    live.close()
    program.close()
    return {"times": times, "methods": methods, "same": same}


def _summary(xs: list[float]) -> str:
    return f"{statistics.median(xs):8.3f} s ({min(xs):.3f}-{max(xs):.3f})"


def main(argv=None) -> int:
    """Run the benchmark and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb")
    ap.add_argument("--sales", type=int, default=200_000)
    ap.add_argument("--transactions", type=int, default=10)
    ap.add_argument("--changes", type=int, default=10)
    ap.add_argument("--master", default="local[2]", help="Spark master")
    ap.add_argument("--quick", action="store_true",
                    help="a tiny run that only checks the benchmark works")
    args = ap.parse_args(argv)
    if args.quick:
        args.sales, args.transactions, args.changes = 2_000, 2, 3
    spark = None
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow
        spark = get_spark(args.master)
    r = bench(args.engine, spark, args.sales, args.transactions, args.changes)
    t = r["times"]
    print(f"engine {args.engine}, {args.sales} sales, {args.transactions} transactions of "
          f"{args.changes} deleted and inserted sales and {args.changes} scans")
    print(f"apply       {_summary(t['apply'])}")
    print(f"from scratch {_summary(t['run'])}")
    print(f"ratio {statistics.median(t['run']) / statistics.median(t['apply']):.1f}x")
    for stratum, by_method in r["methods"].items():
        shown = ", ".join(f"{m} {statistics.median(s):.3f} s" for m, s in by_method.items())
        print(f"  {stratum}: {shown}")
    print("maintained relations equal the evaluation from scratch" if r["same"]
          else "WRONG: maintained relations differ from the evaluation from scratch")
    return 0 if r["same"] else 1


if __name__ == "__main__":
    sys.exit(main())
