"""Incremental maintenance against recomputation: transactions of k changed edges
applied to a maintained program (``Program.maintain``), timed against evaluating the
program from scratch on the same inputs, in one process.

    python -m benchmarks.incremental [--engine duckdb|spark] [--nodes 500,1000]
        [--sizes 1,1+1,10,100,1000] [--transactions 20] [--workloads tc_neg_group,sg]
        [--fetch-changes] [--quick]

Workloads (deterministic: every graph and transaction comes from a fixed seed):

* ``tc_neg_group`` transitive closure, a negation and a group_by over it
  (``programs/tc_neg_group.dl``) on a random directed graph of N nodes, 2N edges;
  deleted edges are random, inserted ones random new edges;
* ``sg``           same generation (``programs/sg.dl``) on a random tree of 4N nodes;
  a transaction moves nodes to new parents (deletes their parent edge, inserts one).

Size k deletes k/2 edges and inserts k/2; size ``1`` alternates one deletion and one
insertion, ``1+1`` is one of each in one transaction. Each size starts on a freshly
maintained program (one warm-up transaction, not timed); each transaction is followed
by a recomputation on the inputs as they are now (round-robin, so that drift in the
machine's speed hits both). Timed: ``apply`` (loading the changes and returning the
outputs' changes included; on Spark the changes counted, where the update's statements
are lazy; on DuckDB, where ``apply`` has run them, with ``--fetch-changes`` their rows
fetched), ``Program.run`` (loading the inputs included; on Spark the outputs counted).
After each size every output is compared with a fresh DuckDB evaluation. Prints medians and min-max, their ratio, per stratum each method's count
and median seconds, the rest of ``apply`` ("outside strata"), the whole transactions
grouped by the first stratum's method (count, median, min-max), and the crossover.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dl2sql  # noqa: E402
from benchmarks import generators  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402
from dl2sql.api.evaluate import Evaluator  # noqa: E402
from dl2sql.engines import ENGINES  # noqa: E402
from dl2sql.incremental.execute import Choice  # noqa: E402
from dl2sql.runner.duckdb_runner import DuckDBRunner  # noqa: E402
from dl2sql.runner.progress import RecordingProgress  # noqa: E402
from dl2sql.runtime.values import Record  # noqa: E402


def random_tree(n: int, seed: int = 11) -> list[tuple[int, int]]:
    """``(parent, child)`` edges of a random recursive tree on ``n`` nodes (root 0):
    node i's parent is uniform among 0..i-1, so depths are about ln n and the same
    generation holds about a tenth of all pairs."""
    rng = random.Random(seed)
    return [(rng.randrange(i), i) for i in range(1, n)]


@dataclass(frozen=True)
class Workload:
    """A program, its input relation, the input graph for N, how to draw one new edge
    (``new_edge(rng, nodes, child)``; ``child``: a node that just lost a parent) and
    which edges a transaction may delete."""

    file: str
    relation: str
    nodes: Callable[[int], int]
    graph: Callable[[int], list]
    new_edge: Callable[[random.Random, int, int | None], tuple[int, int]]
    deletable: Callable[[tuple[int, int]], bool] = lambda edge: True


def _any_edge(rng: random.Random, nodes: int, child=None) -> tuple[int, int]:
    a, b = rng.randrange(nodes), rng.randrange(nodes - 1)
    return a, b + (b >= a)  # no self-loops, like generators.random_graph


def _new_parent(rng: random.Random, nodes: int, child=None) -> tuple[int, int]:
    # a new parent for the node that lost one: the input stays a random recursive
    # tree however many transactions run (random edges would orphan ever more nodes
    # and shrink SG as the benchmark goes on); parent before child: no cycle
    if child is None or child < 2:
        child = rng.randrange(2, nodes)
    return rng.randrange(child), child


WORKLOADS = {
    "tc_neg_group": Workload("tc_neg_group.dl", "Edge", lambda n: n,
                             generators.random_graph, _any_edge),
    # node 1 has no other possible parent: moving it would orphan its subtree (a
    # random share of the tree) and give another node two parents
    "sg": Workload("sg.dl", "Parent", lambda n: 4 * n, lambda n: random_tree(4 * n),
                   _new_parent, lambda edge: edge[1] >= 2),
}


def changed_edges(size: str) -> int:
    """How many edges a transaction of ``size`` changes (the crossover's order)."""
    return 2 if size == "1+1" else int(size)


def transaction(rng, work: Workload, nodes: int, edges: set, size: str, i: int,
                previous: list):
    """(inserted, deleted) edges of the ``i``-th transaction of ``size`` (``previous``:
    the edges the last one deleted). Deleted edges exist and inserted ones are new, so
    that every row changes the input; the k-th insertion gets the child of the k-th
    deletion (of the previous deletion for size 1), see ``_new_parent``."""
    if size == "1+1":
        n_ins, n_del = 1, 1
    elif size == "1":  # alternate (the warm-up, i = -1, deletes), keeping the size
        n_ins, n_del = (0, 1) if i % 2 else (1, 0)
    else:
        n_ins, n_del = int(size) // 2, int(size) - int(size) // 2
    # sorted: the same draw on every run
    deleted = rng.sample(sorted(e for e in edges if work.deletable(e)), n_del)
    children = [c for _, c in deleted or previous]
    inserted: list = []
    tries = 0
    while len(inserted) < n_ins:
        k = len(inserted)
        # a child whose possible parents all have edges already: any other node
        child = children[k] if k < len(children) and tries < 20 else None
        edge = work.new_edge(rng, nodes, child)
        tries += 1
        if edge not in edges and edge not in inserted:
            inserted.append(edge)
            tries = 0
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
    the program's first output): DuckDB is the reference on either engine."""
    ctor = program.compiled.layouts[relation].flat_ctor
    runner = DuckDBRunner()
    try:
        fresh = Evaluator(program.compiled, runner).evaluate(
            {relation: {Record(ctor, e) for e in edges}}, program.outputs)
    finally:
        runner.close()
    wrong = [rel for rel in program.outputs if set(live.records(rel)) != fresh[rel]]
    return wrong, len(fresh[program.outputs[0]])


class StratumTimes(RecordingProgress):
    """Seconds of each stratum the last transaction updated (the executor reports
    them through ``on_stratum``)."""

    def __init__(self):
        super().__init__()
        self.strata: dict[str, float] = {}

    def on_stratum(self, name: str, method: str, seconds: float) -> None:
        """Record one stratum's update."""
        self.strata[name] = seconds


@dataclass
class Result:
    """One (workload, N, size): seconds of each transaction and recomputation, per
    stratum and method the seconds it took (0 when skipped), what ``apply`` spent
    outside the strata, the check's wrong outputs, the failure if any."""

    work: str
    n: int
    size: str
    incremental: list = field(default_factory=list)
    recomputed: list = field(default_factory=list)
    methods: dict = field(default_factory=dict)
    outside: list = field(default_factory=list)
    # whole transactions by the first stratum's method (a transaction's cost is mostly
    # decided there: the median of all mixes kinds, see docs/performance.md run 24)
    kinds: dict = field(default_factory=dict)
    wrong: list = field(default_factory=list)
    rows: int = 0
    failure: str = ""


def choice_of(args) -> Choice:
    """The :class:`Choice` the command line asks for (Choice's defaults otherwise)."""
    given = {k: v for k, v in (("overdelete_share", args.overdelete_share),
                               ("recompute_share", args.recompute_share),
                               ("overdelete_time_share", args.overdelete_time_share),
                               ("backoff", args.backoff)) if v is not None}
    if given.get("overdelete_time_share") == 0:
        given["overdelete_time_share"] = None
    return Choice(**given)


def bench(name: str, n: int, args, spark) -> list[Result]:
    """Every size of one workload at N = ``n``; each size on a freshly maintained
    program, so that every size starts from the same graph."""
    work = WORKLOADS[name]
    nodes = work.nodes(n)
    program = dl2sql.compile(PROGRAMS / work.file)
    baseline = dl2sql.compile(PROGRAMS / work.file)  # closed after each recomputation
    # recomputations on a session of their own: two runners on one SparkSession share
    # its temp views, and a run drops the views (`Edge`) the maintained program reads
    other = spark.newSession() if spark is not None else None
    recompute(baseline, args.engine, other, work.relation, work.graph(n))  # warm-up
    results = []
    for size in args.sizes:
        edges, progress = set(work.graph(n)), StratumTimes()
        if changed_edges(size) > len(edges):  # would delete more than half the input
            print(f"{name} N={n}: size {size} skipped ({len(edges)} edges)", flush=True)
            continue
        live = program.maintain(inputs={work.relation: sorted(edges)}, engine=args.engine,
                                spark=spark, progress=progress, choice=choice_of(args))
        strata = [s.name for s in live.updater.plan.strata if s.method != "input"]
        rng = random.Random(f"{name}/{n}/{size}")
        res, previous = Result(name, n, size, methods={s: {} for s in strata}), []
        for i in range(-1, args.transactions):  # -1: a warm-up, not timed
            ins, dels = transaction(rng, work, nodes, edges, size, i, previous)
            progress.strata.clear()
            progress.iterations.clear()
            started = time.perf_counter()
            try:
                changes = live.apply(insert={work.relation: ins},
                                     delete={work.relation: dels})
                if args.engine == "spark":  # read, as the recomputation's outputs are
                    for frame in changes.values():
                        frame.count()
                elif args.fetch_changes:
                    for frame in changes.values():
                        frame.fetchall()
            except Exception as e:  # the engine's failure is the result: report the case
                res.failure = (f"{f'transaction {i + 1}' if i >= 0 else 'warm-up'}: "
                               f"inserting {ins[:5]}"
                               f"{'...' if len(ins) > 5 else ''} and deleting {dels[:5]}"
                               f"{'...' if len(dels) > 5 else ''} raised "
                               f"{type(e).__name__}: {e}")
                traceback.print_exc()
                break
            seconds = time.perf_counter() - started
            edges, previous = (edges - set(dels)) | set(ins), dels
            if i < 0:
                continue
            res.incremental.append(seconds)
            res.outside.append(seconds - sum(progress.strata.values()))
            res.kinds.setdefault(live.last.methods.get(strata[0], "skipped"), []).append(seconds)
            for s in strata:
                method = live.last.methods.get(s, "skipped")
                res.methods[s].setdefault(method, []).append(progress.strata.get(s, 0.0))
            res.recomputed.append(recompute(baseline, args.engine, other, work.relation,
                                            sorted(edges)))
        res.wrong, res.rows = check(live, program, work.relation, edges)
        live.close()
        report(res)
        results.append(res)
    return results


def spread(values: list) -> str:
    """min-max of ``values`` in seconds."""
    return f"{min(values):.3f}-{max(values):.3f}" if values else "-"


def report(r: Result) -> None:
    """One line as soon as a size is done (and its failure, if any)."""
    inc = statistics.median(r.incremental) if r.incremental else float("nan")
    rec = statistics.median(r.recomputed) if r.recomputed else float("nan")
    methods = "; ".join(
        f"{s}: " + ", ".join(f"{m} {len(t)}" + ("" if m == "skipped" else
                                                 f" ({statistics.median(t):.3f})")
                             for m, t in sorted(by.items(), key=lambda mt: -len(mt[1])))
        for s, by in r.methods.items() if set(by) != {"skipped"})
    if r.outside:
        methods += f"; outside strata {statistics.median(r.outside):.3f}"
    print(f"{r.work:<13} {r.n:>5} {r.rows:>9,} {r.size:>5} {inc:>9.3f} "
          f"{spread(r.incremental):>13} {rec:>9.3f} {spread(r.recomputed):>13} "
          f"{inc / rec:>7.2f}  {methods}", flush=True)
    if len(r.kinds) > 1:
        print(f"  whole transactions by {next(iter(r.methods))}'s method: " + ", ".join(
            f"{m} {len(t)} ({statistics.median(t):.3f}, {spread(t)})"
            for m, t in sorted(r.kinds.items(), key=lambda mt: -len(mt[1]))), flush=True)
    if r.failure:
        print(f"  FAILED: {r.work} N={r.n} size {r.size}: {r.failure}", flush=True)
    if r.wrong:
        print(f"  WRONG: {r.work} N={r.n} size {r.size}: {', '.join(r.wrong)} differ "
              f"from a fresh evaluation", flush=True)


HEADER = (f"{'workload':<13} {'N':>5} {'rows':>9} {'size':>5} {'incr med':>9} "
          f"{'incr min-max':>13} {'recomp med':>9} {'recomp min-max':>13} "
          f"{'ratio':>7}  per stratum: method, transactions (median s)")


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
    ap.add_argument("--overdelete-share", type=float, default=None,
                    help="Choice.overdelete_share (default: Choice's)")
    ap.add_argument("--recompute-share", type=float, default=None,
                    help="Choice.recompute_share (default: Choice's)")
    ap.add_argument("--overdelete-time-share", type=float, default=None,
                    help="Choice.overdelete_time_share (default: Choice's; 0: off)")
    ap.add_argument("--backoff", type=int, default=None,
                    help="Choice.backoff (default: Choice's; 0: off)")
    ap.add_argument("--search-on-driver-below", type=int, default=None,
                    help="LoopPolicy.search_on_driver_below (default: the engine's; 0: a "
                         "closure's search always runs on the engine)")
    ap.add_argument("--fetch-changes", action="store_true",
                    help="DuckDB: also fetch the rows of every output's changes")
    ap.add_argument("--quick", action="store_true",
                    help="N=500, sizes 1+1 and 10, 5 transactions")
    args = ap.parse_args(argv)
    q = args.quick
    args.nodes = [int(x) for x in (args.nodes or ("500" if q else "500,1000")).split(",")]
    args.sizes = (args.sizes or ("1+1,10" if q else "1,1+1,10,100,1000")).split(",")
    args.transactions = args.transactions or (5 if q else 20)

    if args.search_on_driver_below is not None:
        engine = ENGINES[args.engine]
        ENGINES[args.engine] = dataclasses.replace(engine, loops=dataclasses.replace(
            engine.loops, search_on_driver_below=args.search_on_driver_below))
    spark = None
    if args.engine == "spark":
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow

        spark = get_spark(args.master)
    print(f"engine {args.engine}, {choice_of(args)}, {args.transactions} transactions per "
          f"size; seconds "
          f"(rows: the first output after the transactions; ratio: incremental / "
          f"recompute medians; strata never updated left out)\n{HEADER}", flush=True)
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
    print("all correctness checks passed" if ok else "SOME TRANSACTIONS FAILED OR WERE "
          "WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
