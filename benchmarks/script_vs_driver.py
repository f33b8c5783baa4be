"""The Spark SQL script that ``dl2sql compile prog.dl`` prints, run by ``spark.sql``,
against dl2sql's own driver (``Program.run`` on Spark), on transitive closures, in one
process and one SparkSession.

    python -m benchmarks.script_vs_driver [--n 1000] [--chain 200] [--runs 3] [--quick]
                                          [--master local[2]] [--json PATH]

Why: the script is what a user runs without dl2sql (``spark-sql -f``, a JDBC client);
it leaves out what only a driver can do (see its header): each semi-naive step is a
few statements of a ``WHILE`` loop over Parquet tables, one step per termination
test, no doubling of transitive closures, no partitioning, no cached tables. This
measures what that costs, where the loop runs few iterations over many rows (a
random graph of ``--n`` nodes and 2N edges, :func:`benchmarks.generators.random_graph`
as :mod:`benchmarks.scale` uses it) and many iterations over few (a chain of
``--chain`` nodes: n-1 steps).

Both variants read the same input, a DataFrame of the edges that the script reads as
a temporary view; the script's tables go to a schema of its own in a temporary
folder. Timed: the script with a count of its output table, ``Program.run`` with a
count of its output DataFrame. Each variant runs once untimed on a tiny chain, then
the two take turns (script, driver, script, driver ...); before each timed run the
process settles (:func:`benchmarks.scale.settle`, ``--settle``). After each pair the
two outputs must hold the same rows (compared as sets in Spark, untimed), or the
benchmark fails. Prints per workload each variant's median and spread, the median of
the pairwise ratios script/driver, the driver's iterations (a doubling step counts as
one), and the script's steps (the graph's longest shortest path: the first step of
the loop finds paths of 2 edges, the last finds none) and statements executed.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks import generators  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402
from benchmarks.scale import settle  # noqa: E402

SCHEMA, VIEW = "dl2sql_script_bench", "dl2sql_script_bench_edge"


class OutputsDiffer(RuntimeError):
    """The script and the driver left different rows."""


def workloads(n: int, chain: int) -> dict:
    """name -> edges."""
    return {f"tc_random{n}": generators.random_graph(n), f"tc_chain{chain}":
            generators.chain(chain)}


def semi_naive_steps(edges) -> int:
    """Iterations of the script's loop on ``edges``: the longest shortest path (in
    edges) between two nodes, by a search from each node."""
    succ: dict = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    longest = 0
    for start in succ:
        dist, todo = {start: 0}, deque([start])
        while todo:
            a = todo.popleft()
            for b in succ.get(a, ()):
                if b not in dist:
                    dist[b] = dist[a] + 1
                    todo.append(b)
        longest = max(longest, *dist.values())
    return max(longest, 1)


def statements(script: str) -> tuple[int, int]:
    """(statements outside the ``WHILE`` loop, statements of its body) of a script of
    one loop; ``END ...;`` lines are not statements."""
    outside = body = 0
    inside = False
    for line in script.splitlines():
        text = line.strip()
        if text.startswith("WHILE "):
            inside = True
        elif text == "END WHILE;":
            inside = False
        elif text.endswith(";") and not text.startswith(("--", "END")):
            body, outside = (body + 1, outside) if inside else (body, outside + 1)
    return outside, body


def _same_rows(name, driver_df, script_df) -> int:
    """The rows both hold (as sets), or :class:`OutputsDiffer`."""
    cols = script_df.columns
    driver_df = driver_df.select(*cols)
    ours, theirs = driver_df.count(), script_df.count()
    only_driver = driver_df.subtract(script_df).count()
    only_script = script_df.subtract(driver_df).count()
    if ours != theirs or only_driver or only_script:
        raise OutputsDiffer(f"{name}: driver {ours} rows, script {theirs} rows; "
                            f"{only_driver} only the driver's, {only_script} only the "
                            f"script's")
    return ours


def compare(spark, work: dict, runs: int, do_settle: bool = True, log=print) -> list[dict]:
    """Time the script against ``Program.run`` on each workload of ``work`` (name ->
    edges of tc.dl), ``runs`` pairs each; one dict of figures per workload. The
    script's tables are made in the schema :data:`SCHEMA`, which must exist."""
    import dl2sql
    from dl2sql.compiler.spark_script import ScriptOptions, script_outputs, spark_script
    from dl2sql.runner.progress import RecordingProgress

    program = dl2sql.compile(PROGRAMS / "tc.dl")
    options = ScriptOptions(inputs={"Edge": VIEW}, schema=SCHEMA, prefix="bench_")
    script = spark_script(program.compiled, options)
    out_table = script_outputs(program.compiled, options)["Path"]
    outside, per_step = statements(script)
    results = []
    for name, edges in work.items():
        edge_df = spark.createDataFrame(edges, "x BIGINT, y BIGINT")
        edge_df.createOrReplaceTempView(VIEW)
        samples: dict = {"script": [], "driver": []}
        steps, iterations, rows = semi_naive_steps(edges), None, None
        for i in range(runs):
            if do_settle:
                settle(spark)
            started = time.perf_counter()
            spark.sql(script).collect()
            spark.table(out_table).count()
            samples["script"].append(time.perf_counter() - started)
            if do_settle:
                settle(spark)
            progress = RecordingProgress()
            started = time.perf_counter()
            frames = program.run(spark=spark, inputs={"Edge": edge_df}, progress=progress)
            frames["Path"].count()
            samples["driver"].append(time.perf_counter() - started)
            iterations = sum(it for _, it, _ in progress.loops)
            rows = _same_rows(name, frames["Path"], spark.table(out_table))
            program.close()
            log(f"  {name:<14} run {i + 1}: script {samples['script'][-1]:7.2f} s, "
                f"driver {samples['driver'][-1]:7.2f} s, {rows} paths (same rows)",
                flush=True)
        ratios = [s / d for s, d in zip(samples["script"], samples["driver"])]
        results.append({
            "workload": name, "edges": len(edges), "paths": rows, "runs": runs,
            "samples": samples, "same_rows": True,
            "median": {k: statistics.median(v) for k, v in samples.items()},
            "spread": {k: [min(v), max(v)] for k, v in samples.items()},
            "ratio_script_driver": statistics.median(ratios),
            "driver_iterations": iterations, "script_steps": steps,
            "script_statements": outside + steps * per_step,
            "script_statements_per_step": per_step})
    spark.catalog.dropTempView(VIEW)
    return results


def print_table(results: list[dict], master: str) -> None:
    runs = results[0]["runs"] if results else 0
    print(f"\ntransitive closure, script (spark.sql) vs driver (Program.run), master "
          f"{master}, median of {runs} (min-max)")
    print(f"{'workload':<14} {'paths':>9} {'variant':<7} {'median s':>9} {'spread':>15} "
          f"{'iterations':>10} {'statements':>10} {'script/driver':>13}")
    for r in results:
        for variant in ("script", "driver"):
            lo, hi = r["spread"][variant]
            its = r["script_steps"] if variant == "script" else r["driver_iterations"]
            stmts = r["script_statements"] if variant == "script" else "-"
            ratio = f"{r['ratio_script_driver']:.2f}x" if variant == "script" else ""
            print(f"{r['workload']:<14} {r['paths']:>9,} {variant:<7} "
                  f"{r['median'][variant]:>9.2f} {f'{lo:.2f}-{hi:.2f}':>15} {its:>10} "
                  f"{stmts:>10} {ratio:>13}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="nodes of the random graph")
    ap.add_argument("--chain", type=int, default=200, help="nodes of the chain")
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each variant")
    ap.add_argument("--quick", action="store_true", help="tiny inputs (a smoke run)")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the figures")
    ap.add_argument("--settle", action=argparse.BooleanOptionalAction, default=True,
                    help="collect garbage before each timed run (default: yes)")
    args = ap.parse_args(argv)
    if args.quick:
        args.n, args.chain = 60, 12

    from dl2sql.runner.spark_session import get_spark

    spark = get_spark(args.master)
    where = tempfile.mkdtemp(prefix="dl2sql_script_bench_")
    spark.sql(f"CREATE DATABASE IF NOT EXISTS {SCHEMA} LOCATION '{where}'")
    try:
        compare(spark, workloads(12, 6), 1, do_settle=False, log=lambda *a, **k: None)
        results = compare(spark, workloads(args.n, args.chain), args.runs, args.settle)
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {SCHEMA} CASCADE")
        shutil.rmtree(where, ignore_errors=True)
    print_table(results, args.master)
    print("script and driver give the same rows on every workload")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"master": args.master, "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
