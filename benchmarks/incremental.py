"""Incremental maintenance against recomputation: transactions of k changed edges
applied to a maintained program (``Program.maintain``), timed against evaluating the
program from scratch on the same inputs, in one process.

    python -m benchmarks.incremental [--engine duckdb|spark] [--nodes 500,1000]
        [--sizes 1,1+1,10,100,1000] [--transactions 20] [--workloads tc_neg_group,sg]
        [--quick]

Workloads (deterministic: every graph and transaction comes from a fixed seed):

* ``tc_neg_group`` transitive closure, a negation and a group_by over it
  (``programs/tc_neg_group.dl``) on a random directed graph of N nodes, 2N edges;
* ``sg``           same generation (``programs/sg.dl``) on a random tree of 4N nodes
  (each node's parent drawn among the earlier nodes); inserted edges also go from an
  earlier to a later node, so the input stays acyclic.

A transaction of size k inserts k/2 new random edges and deletes k/2 existing ones;
size ``1`` alternates one insertion and one deletion, ``1+1`` is one of each in one
transaction. Each transaction is followed by a recomputation of the program on the
inputs as they are now (round-robin, so that drift in the machine's speed hits both).
Incremental times are those of ``apply`` (loading the changes included); recompute
times those of ``Program.run`` (loading the inputs included; on Spark the outputs
counted). After each size's transactions every output is compared with a fresh
evaluation on DuckDB. Prints per workload, N and size: medians and min-max of both,
their ratio, the method each stratum used, and the crossover (the smallest size at
which recomputing was faster).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dl2sql  # noqa: E402
from benchmarks import generators  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402
from dl2sql.api.evaluate import Evaluator  # noqa: E402
from dl2sql.runner.duckdb_runner import DuckDBRunner  # noqa: E402
from dl2sql.runtime.values import Record  # noqa: E402


def random_tree(n: int, seed: int = 11) -> list[tuple[int, int]]:
    """``(parent, child)`` edges of a random recursive tree on ``n`` nodes (root 0):
    node i's parent is uniform among 0..i-1, so depths are about ln n and the same
    generation holds about a tenth of all pairs."""
    rng = random.Random(seed)
    return [(rng.randrange(i), i) for i in range(1, n)]


@dataclass(frozen=True)
class Workload:
    """A program, its input relation and main output, the input graph for N and how
    to draw one new edge (``new_edge(rng, nodes)``)."""

    file: str
    relation: str
    output: str
    nodes: Callable[[int], int]
    graph: Callable[[int], list]
    new_edge: Callable[[random.Random, int], tuple[int, int]]


def _any_edge(rng: random.Random, nodes: int) -> tuple[int, int]:
    a, b = rng.randrange(nodes), rng.randrange(nodes - 1)
    return a, b + (b >= a)  # no self-loops, like generators.random_graph


def _forward_edge(rng: random.Random, nodes: int) -> tuple[int, int]:
    child = rng.randrange(1, nodes)
    return rng.randrange(child), child  # parent before child: no cycle


WORKLOADS = {
    "tc_neg_group": Workload("tc_neg_group.dl", "Edge", "Path", lambda n: n,
                             generators.random_graph, _any_edge),
    "sg": Workload("sg.dl", "Parent", "SG", lambda n: 4 * n,
                   lambda n: random_tree(4 * n), _forward_edge),
}


def changed_edges(size: str) -> int:
    """How many edges a transaction of ``size`` changes (the crossover's order)."""
    return 2 if size == "1+1" else int(size)


def transaction(rng, work: Workload, nodes: int, edges: set, size: str, i: int):
    """(inserted, deleted) edges of the ``i``-th transaction of ``size``: inserted ones
    are new, deleted ones exist, so that both change the input (and never overlap)."""
    if size == "1+1":
        n_ins, n_del = 1, 1
    elif size == "1":  # alternate, so that the graph keeps its size
        n_ins, n_del = (1, 0) if i % 2 == 0 else (0, 1)
    else:
        n_ins, n_del = int(size) // 2, int(size) - int(size) // 2
    inserted: set = set()
    while len(inserted) < n_ins:
        edge = work.new_edge(rng, nodes)
        if edge not in edges:
            inserted.add(edge)
    deleted = rng.sample(sorted(edges), n_del)  # sorted: the same draw on every run
    return sorted(inserted), deleted


def recompute(program, engine: str, spark, relation: str, rows: list) -> float:
    """Seconds to evaluate ``program`` from scratch on ``rows`` (its outputs computed:
    ``run`` computes them on DuckDB, a count does on Spark)."""
    started = time.perf_counter()
    out = program.run(engine=engine, spark=spark, inputs={relation: rows})
    if engine == "spark":
        for frame in out.values():
            frame.count()
    seconds = time.perf_counter() - started
    program.close()  # a separate Program: the maintained one's tables stay
    return seconds


def check(live, program, relation: str, edges: set) -> tuple[list[str], int]:
    """(outputs whose maintained rows differ from a fresh DuckDB evaluation, rows of
    the workload's first output): DuckDB is the reference on either engine."""
    ctor = program.compiled.layouts[relation].flat_ctor
    runner = DuckDBRunner()
    try:
        fresh = Evaluator(program.compiled, runner).evaluate(
            {relation: {Record(ctor, e) for e in edges}}, program.outputs)
    finally:
        runner.close()
    wrong = [rel for rel in program.outputs if set(live.records(rel)) != fresh[rel]]
    return wrong, len(fresh[program.outputs[0]])


@dataclass
class Result:
    """One (workload, N, size): seconds of each transaction and recomputation, the
    methods per stratum, the correctness check, the failure if any."""

    work: str
    n: int
    size: str
    incremental: list
    recomputed: list
    methods: dict
    wrong: list
    rows: int = 0
    failure: str = ""


def bench(name: str, n: int, args, spark) -> list[Result]:
    """Every size of one workload at N = ``n``, on one maintained program."""
    work = WORKLOADS[name]
    nodes, edges = work.nodes(n), set(work.graph(n))
    program = dl2sql.compile(PROGRAMS / work.file)
    baseline = dl2sql.compile(PROGRAMS / work.file)  # closed after each recomputation
    live = program.maintain(inputs={work.relation: sorted(edges)}, engine=args.engine,
                            spark=spark)
    strata = [s.name for s in live.updater.plan.strata if s.method != "input"]
    # warm-up (not timed): the first transaction and run prepare queries and caches
    rng = random.Random(f"{name}/{n}/warm-up")
    ins, dels = transaction(rng, work, nodes, edges, "1+1", 0)
    live.apply(insert={work.relation: ins}, delete={work.relation: dels})
    edges = (edges - set(dels)) | set(ins)
    recompute(baseline, args.engine, spark, work.relation, sorted(edges))
    results = []
    for size in args.sizes:
        rng = random.Random(f"{name}/{n}/{size}")
        res = Result(name, n, size, [], [], {s: Counter() for s in strata}, [])
        for i in range(args.transactions):
            ins, dels = transaction(rng, work, nodes, edges, size, i)
            started = time.perf_counter()
            try:
                live.apply(insert={work.relation: ins}, delete={work.relation: dels})
            except Exception as e:  # the engine's failure is the result: report the case
                res.failure = (f"transaction {i + 1}: inserting {ins[:5]}"
                               f"{'...' if len(ins) > 5 else ''} and deleting {dels[:5]}"
                               f"{'...' if len(dels) > 5 else ''} raised "
                               f"{type(e).__name__}: {e}")
                traceback.print_exc()
                break
            res.incremental.append(time.perf_counter() - started)
            edges = (edges - set(dels)) | set(ins)
            for s in strata:
                res.methods[s][live.last.methods.get(s, "skipped")] += 1
            res.recomputed.append(recompute(baseline, args.engine, spark, work.relation,
                                            sorted(edges)))
        res.wrong, res.rows = check(live, program, work.relation, edges)
        report(res)
        results.append(res)
    live.close()
    return results


def spread(values: list) -> str:
    """min-max of ``values`` in seconds."""
    return f"{min(values):.3f}-{max(values):.3f}" if values else "-"


def report(r: Result) -> None:
    """One line as soon as a size is done (and its failure, if any)."""
    inc = statistics.median(r.incremental) if r.incremental else float("nan")
    rec = statistics.median(r.recomputed) if r.recomputed else float("nan")
    methods = "; ".join(f"{s}: " + ", ".join(f"{m} {c}" for m, c in counts.most_common())
                        for s, counts in r.methods.items() if set(counts) != {"skipped"})
    print(f"{r.work:<13} {r.n:>5} {r.rows:>9,} {r.size:>5} {inc:>9.3f} "
          f"{spread(r.incremental):>13} {rec:>9.3f} {spread(r.recomputed):>13} "
          f"{inc / rec:>7.2f}  {methods}", flush=True)
    if r.failure:
        print(f"  FAILED: {r.work} N={r.n} size {r.size}: {r.failure}", flush=True)
    if r.wrong:
        print(f"  WRONG: {r.work} N={r.n} size {r.size}: {', '.join(r.wrong)} differ "
              f"from a fresh evaluation", flush=True)


HEADER = (f"{'workload':<13} {'N':>5} {'rows':>9} {'size':>5} {'incr med':>9} "
          f"{'incr min-max':>13} {'recomp med':>9} {'recomp min-max':>13} "
          f"{'ratio':>7}  method per stratum: transactions (strata never run left out)")


def crossover(results: list[Result]) -> str:
    """The smallest size at which the median recomputation beat the median
    transaction."""
    for r in sorted(results, key=lambda r: changed_edges(r.size)):
        if r.incremental and statistics.median(r.recomputed) < statistics.median(
                r.incremental):
            return f"recomputing is faster from size {r.size}"
    return f"incremental is faster at every size up to {results[-1].size}"


def main(argv=None) -> int:
    """Run the benchmark; 0 when every transaction ran and every check passed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark"), default="duckdb")
    ap.add_argument("--nodes", default=None, help="comma-separated N (default 500,1000)")
    ap.add_argument("--sizes", default=None,
                    help="comma-separated change sizes (default 1,1+1,10,100,1000)")
    ap.add_argument("--transactions", type=int, default=None, help="per size (default 20)")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--master", default="local[2]", help="Spark master")
    ap.add_argument("--quick", action="store_true",
                    help="N=500, sizes 1+1 and 10, 5 transactions")
    args = ap.parse_args(argv)
    quick = args.quick
    args.nodes = [int(x) for x in (args.nodes or ("500" if quick else "500,1000")).split(",")]
    args.sizes = (args.sizes or ("1+1,10" if quick else "1,1+1,10,100,1000")).split(",")
    args.transactions = args.transactions or (5 if quick else 20)

    spark = None
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow to load

        spark = get_spark(args.master)
    print(f"engine {args.engine}, {args.transactions} transactions per size; seconds "
          f"(rows: the first output after the transactions; ratio: incremental / "
          f"recompute medians)\n{HEADER}", flush=True)
    table = []
    for name in args.workloads.split(","):
        for n in args.nodes:
            table.append(bench(name, n, args, spark))
    print(f"\n{HEADER}")
    ok = True
    for results in table:
        for r in results:
            report(r)
            ok = ok and not r.failure and not r.wrong
        print(f"  {results[0].work} N={results[0].n}: {crossover(results)}")
    print("all correctness checks passed" if ok else "SOME TRANSACTIONS FAILED OR WERE WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
