"""A suite of workloads for incremental maintenance (issue 43): per program, transactions
of a few changed rows applied to a maintained program (``Program.maintain``), timed
against evaluating the program from scratch on the same inputs, in one process.

    python -m benchmarks.incremental_suite [--engine duckdb|spark|both] [--only NAME,...]
        [--sizes 1,10,100] [--transactions 5] [--scale F] [--quick] [--json PATH]
        [--levels lazy|eager]

The workloads (:mod:`benchmarks.suite_data`, programs ``benchmarks/programs/suite_*.dl``):
a star join with sums per group, Andersen points-to, a mutually recursive value flow,
same generation on a forest, a closure over string ids with a negation and an
interpolation, tagged unions by ``match`` over a dependency graph, counts over a
closure, shortest distances (recursion through ``min``), a multiset and a stream.
Each has a DuckDB scale (a recomputation of about 0.2-2 s), a smaller Spark scale and
a tiny one (``--quick``: one transaction per size, for the smoke test).

Size k (``1`` is ``1+1``) deletes k/2 existing rows and inserts k/2 new ones
(:mod:`benchmarks.suite_data` says how they are drawn; deterministic, seeded by
workload, scale and size). One maintained program per workload and engine goes
through every size in turn: one warm-up transaction per size (not timed), then
``--transactions`` transactions, each followed by a recomputation of the inputs as
they are now (round-robin). Timed: ``live.apply`` (on Spark with every output's
changes counted, where they are lazy) and ``Program.run`` (loading the inputs
included; on Spark its outputs counted). After each transaction every output of the
maintained program is compared with the recomputation's (row count and a sum of row
hashes on the engine; rows fetched and the difference shown when they differ): a
difference fails the workload and the run. Reported per workload, size and engine:
median seconds of both, the median of the transactions' ratios
(maintained / recomputed) and their min-max, and per stratum the methods of
``live.last.methods`` (count, median seconds from the executor's ``on_stratum``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass, field

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dl2sql  # noqa: E402
from benchmarks.incremental import StratumTimes  # noqa: E402
from benchmarks.run import PROGRAMS  # noqa: E402
from benchmarks.suite_data import WORKLOADS, Workload  # noqa: E402
from dl2sql.incremental.choice import Choice  # noqa: E402

SIZES = ("1+1", "10", "100")
# the long method names of docs/incremental.md, shortened for the table
SHORT = {"recompute (over-deletion too large)": "gave up",
         "recompute (over-deletion too large before the insertions)": "gave up early",
         "recompute (DRed gave up recently)": "recompute (backoff)",
         "recompute (the closure gave up recently)": "recompute (backoff)",
         "recompute (recursive aggregation)": "recompute (rec. agg.)",
         "recompute (cheaper by estimate)": "recompute (estimate)",
         "recompute (many groups touched)": "recompute (groups)",
         "closure (no path lost)": "closure (none lost)"}


class Wrong(Exception):
    """Maintained outputs differ from the recomputation's."""


# -- inputs and transactions -------------------------------------------------------------
class State:
    """The inputs of a workload as the transactions leave them: a set of rows per
    relation, a Counter of copies per multiset, the input stream's rows of the last
    transaction."""

    def __init__(self, work: Workload, n: int):
        self.work, self.n = work, n
        self.rows = {rel: Counter(rows) if rel in work.multisets else set(rows)
                     for rel, rows in work.inputs(n).items()}
        self.stream: list = []

    def inputs(self) -> dict[str, list]:
        """Every input relation's rows now (a multiset's copies repeated), deterministic
        in order."""
        out = {rel: sorted(rows.elements() if isinstance(rows, Counter) else rows, key=repr)
               for rel, rows in self.rows.items()}
        if self.work.stream is not None:
            out[self.work.stream[0]] = list(self.stream)
        return out

    def size(self) -> int:
        return sum(sum(r.values()) if isinstance(r, Counter) else len(r)
                   for r in self.rows.values())

    def draw(self, rng: random.Random, size: str) -> tuple[dict, dict]:
        """(inserted, deleted) rows per relation of a transaction of ``size`` (applied
        to the state): deleted rows exist, inserted rows of a set are new."""
        k = 2 if size == "1+1" else int(size)
        n_del, n_ins = k - k // 2, k // 2
        work, deleted = self.work, {}
        weights = [len(self.rows[r]) if r not in work.multisets
                   else sum(self.rows[r].values()) for r in work.changes]
        order = rng.choices(work.changes, weights=weights, k=n_del)
        for rel in work.changes:
            wanted = order.count(rel)
            if not wanted:
                continue
            rows = self.rows[rel]
            pool = sorted(rows.elements() if rel in work.multisets else
                          (r for r in rows if work.deletable(rel, r, self.n)), key=repr)
            deleted[rel] = rng.sample(pool, min(wanted, len(pool)))
        hints = [(rel, row) for rel in work.changes for row in deleted.get(rel, ())]
        inserted: dict[str, list] = {}
        for rel, hint in hints[:n_ins]:
            rows, made = self.rows[rel], inserted.setdefault(rel, [])
            for tries in range(1000):
                row = work.new_row(rng, rel, self.n, hint if tries < 20 else None)
                if rel in work.multisets or (row not in rows and row not in made):
                    made.append(row)
                    break
            else:
                raise RuntimeError(f"no new row of {rel} found in 1000 draws")
        for rel, rows in deleted.items():
            if rel in work.multisets:
                self.rows[rel] -= Counter(rows)
            else:
                self.rows[rel] -= set(rows)
        for rel, rows in inserted.items():
            self.rows[rel].update(rows)
        if work.stream is not None:
            self.stream = work.stream[1](rng, self.n, k)
            inserted[work.stream[0]] = list(self.stream)
        return inserted, deleted


# -- comparing outputs on the engine -----------------------------------------------------
def checksum(frame) -> tuple[int, int]:
    """(rows, sum of row hashes) of a DuckDB relation or a Spark DataFrame, computed on
    its engine (copies of a row counted each)."""
    if hasattr(frame, "collect"):
        from pyspark.sql import functions as F  # deferred: only on Spark
        row = frame.agg(F.count(F.lit(1)), F.sum(F.xxhash64(*frame.columns).cast(
            "decimal(38,0)"))).collect()[0]
    else:
        cols = ", ".join('"' + c.replace('"', '""') + '"' for c in frame.columns)
        row = frame.aggregate(f"count(*)::BIGINT, sum(hash({cols})::HUGEINT)").fetchall()[0]
    return int(row[0]), int(row[1] or 0)


def _rows(frame) -> Counter:
    rows = frame.collect() if hasattr(frame, "collect") else frame.fetchall()
    return Counter(repr(tuple(r)) for r in rows)


def compare(live, outputs: dict) -> int:
    """Rows of every output; raises :class:`Wrong`, showing rows, where the maintained
    program's contents differ from ``outputs`` (a recomputation's frames)."""
    total, wrong = 0, []
    for rel, frame in outputs.items():
        kept = live.contents(rel)
        mine, theirs = checksum(kept), checksum(frame)
        total += theirs[0]
        if mine != theirs:
            a, b = _rows(kept), _rows(frame)
            extra, missing = sorted((a - b).elements()), sorted((b - a).elements())
            wrong.append(f"{rel}: {mine[0]} rows maintained, {theirs[0]} recomputed; "
                         f"{len(extra)} extra {extra[:3]}, {len(missing)} missing "
                         f"{missing[:3]}")
    if wrong:
        raise Wrong("; ".join(wrong))
    return total


def recompute(program, engine: str, spark, inputs: dict,
              on_driver_below=None) -> tuple[float, dict]:
    """Seconds to evaluate ``program`` from scratch on ``inputs`` (outputs computed:
    ``run`` computes them on DuckDB, a count does on Spark), and its outputs."""
    started = time.perf_counter()
    out = program.run(engine=engine, spark=spark, inputs=inputs,
                      on_driver_below=on_driver_below)
    if engine == "spark":
        for frame in out.values():
            frame.count()
    return time.perf_counter() - started, out


# -- the benchmark -----------------------------------------------------------------------
@dataclass
class Result:
    """One (workload, scale, size, engine): seconds of each maintained transaction and
    recomputation, per stratum each method's seconds, the rest of ``apply``."""

    work: str
    engine: str
    n: int
    size: str
    input_rows: int = 0
    output_rows: int = 0
    maintained: list = field(default_factory=list)
    recomputed: list = field(default_factory=list)
    methods: dict = field(default_factory=dict)  # stratum -> method -> [seconds]
    outside: list = field(default_factory=list)
    failure: str = ""

    @property
    def ratios(self) -> list[float]:
        return [m / r for m, r in zip(self.maintained, self.recomputed)]

    def summary(self) -> dict:
        """The result with its medians and ratio, for ``--json``."""
        out = asdict(self)
        for key in ("maintained", "recomputed", "ratios"):
            values = getattr(self, key)
            out[f"{key}_median"] = statistics.median(values) if values else None
        out["ratios"] = self.ratios
        out["ratio_min_max"] = [min(self.ratios), max(self.ratios)] if self.ratios else None
        return out


def bench(name: str, engine: str, spark, n: int, sizes, transactions: int,
          on_driver_below=None, levels=None) -> list[Result]:
    """Every size of one workload at scale ``n`` on one maintained program."""
    work = WORKLOADS[name]
    program = dl2sql.compile(PROGRAMS / work.file)
    baseline = dl2sql.compile(PROGRAMS / work.file)  # closed after each recomputation
    # recomputations on a session of their own: a run drops the temporary views the
    # maintained program's runner made on its session
    other = spark.newSession() if spark is not None else None
    state, progress = State(work, n), StratumTimes()
    seconds, _ = recompute(baseline, engine, other, state.inputs(),  # warm-up
                           on_driver_below)
    baseline.close()
    started = time.perf_counter()
    live = program.maintain(inputs=state.inputs(), engine=engine, spark=spark,
                            progress=progress, on_driver_below=on_driver_below,
                            choice=Choice(levels=levels))
    print(f"{name} on {engine}, scale {n}: {state.size():,} input rows; first "
          f"evaluation {seconds:.3f} s, maintained from "
          f"{time.perf_counter() - started:.3f} s; {live.placement.text().strip()}",
          flush=True)
    strata = [s.name for s in live.updater.plan.strata if s.method != "input"]
    results = []
    try:
        for size in sizes:
            res = Result(name, engine, n, size, methods={s: {} for s in strata})
            results.append(res)
            rng = random.Random(f"{name}/{n}/{size}")
            for i in range(-1, transactions):  # -1: a warm-up, not timed
                ins, dels = state.draw(rng, size)
                progress.strata.clear()
                t0 = time.perf_counter()
                try:
                    changes = live.apply(insert=ins, delete=dels)
                    if engine == "spark":  # read, as the recomputation's outputs are
                        for frame in changes.values():
                            frame.count()
                except Exception as e:  # the engine's failure is the result
                    traceback.print_exc()
                    res.failure = (f"transaction {i + 1} raised {type(e).__name__}: {e}")
                    return results
                took = time.perf_counter() - t0
                if i < 0:  # a warm-up: the next comparison sees what it did
                    continue
                res.maintained.append(took)
                res.outside.append(took - sum(progress.strata.values()))
                for s in strata:
                    method = live.last.methods.get(s, "skipped")
                    res.methods[s].setdefault(method, []).append(progress.strata.get(s, 0.0))
                took, outputs = recompute(baseline, engine, other, state.inputs(),
                                          on_driver_below)
                res.recomputed.append(took)
                try:
                    res.output_rows = compare(live, outputs)
                except Wrong as e:
                    res.failure = f"transaction {i + 1}: WRONG: {e}"
                    return results
                finally:
                    baseline.close()
            res.input_rows = state.size()
            print(line(res), flush=True)
    finally:
        live.close()
        program.close()
        for res in results:
            if res.failure:
                print(line(res), flush=True)
    return results


# -- the table ---------------------------------------------------------------------------
def methods_text(res: Result) -> str:
    """Per stratum updated: each method's count (and median seconds)."""
    parts = []
    for stratum, by in res.methods.items():
        if set(by) == {"skipped"}:
            continue
        shown = ", ".join(
            f"{SHORT.get(m, m)} {len(t)}" + ("" if m == "skipped" else
                                              f" ({statistics.median(t):.3f})")
            for m, t in sorted(by.items(), key=lambda mt: (-len(mt[1]), mt[0])))
        parts.append(f"{stratum}: {shown}")
    return "; ".join(parts) or "-"


HEADER = (f"{'workload':<10} {'engine':<6} {'scale':>7} {'in rows':>9} {'out rows':>9} "
          f"{'size':>4} {'maint med':>9} {'recomp med':>10} {'ratio':>6} "
          f"{'(min-max)':>13}  per stratum: method count (median s)")


def line(r: Result) -> str:
    """One row of the table (and the failure, if any)."""
    med = (lambda xs: f"{statistics.median(xs):.3f}" if xs else "-")
    ratios = r.ratios
    ratio = f"{statistics.median(ratios):.3f}" if ratios else "-"
    span = f"({min(ratios):.3f}-{max(ratios):.3f})" if ratios else ""
    text = (f"{r.work:<10} {r.engine:<6} {r.n:>7} {r.input_rows:>9,} {r.output_rows:>9,} "
            f"{r.size:>4} {med(r.maintained):>9} {med(r.recomputed):>10} {ratio:>6} "
            f"{span:>13}  {methods_text(r)}")
    if r.outside:
        text += f"; outside strata {statistics.median(r.outside):.3f}"
    if r.failure:
        text += f"\n  FAILED: {r.work} on {r.engine} size {r.size}: {r.failure}"
    return text


def main(argv=None) -> int:
    """Run the suite; 0 when every transaction ran and every output matched."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", choices=("duckdb", "spark", "both"), default="duckdb")
    ap.add_argument("--only", default=None,
                    help=f"comma-separated workloads (default all: {','.join(WORKLOADS)})")
    ap.add_argument("--sizes", default=None,
                    help="comma-separated changed rows per transaction (1 is 1+1; "
                         "default 1,10,100)")
    ap.add_argument("--transactions", type=int, default=None,
                    help="timed transactions per size (default 5; --quick: 1)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="factor on every workload's scale (default 1)")
    ap.add_argument("--quick", action="store_true",
                    help="tiny scales, one transaction per size: checks that it works")
    ap.add_argument("--json", default=None, help="write every result to this file")
    ap.add_argument("--master", default="local[2]", help="Spark master")
    ap.add_argument("--on-driver-below", type=int, default=None,
                    help="Spark runs and maintained programs of at most this many input "
                         "rows on the driver (0: on Spark; default: dl2sql's policy)")
    ap.add_argument("--levels", choices=("lazy", "eager"), default=None,
                    help="maintain recursive strata by derivation levels "
                         "(Choice.levels; default: DRed)")
    args = ap.parse_args(argv)
    names = args.only.split(",") if args.only else list(WORKLOADS)
    unknown = [w for w in names if w not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)} (known: {', '.join(WORKLOADS)})")
    sizes = ["1+1" if s in ("1", "1+1") else str(int(s))
             for s in (args.sizes.split(",") if args.sizes else SIZES)]
    transactions = args.transactions or (1 if args.quick else 5)
    engines = ["duckdb", "spark"] if args.engine == "both" else [args.engine]
    spark = None
    if "spark" in engines:
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow
        spark = get_spark(args.master)
    print(f"{transactions} transactions per size ({', '.join(sizes)}); seconds; ratio: "
          f"median of maintained / recomputed per transaction\n{HEADER}", flush=True)
    started, results = time.perf_counter(), []
    for engine in engines:
        for name in names:
            scale = WORKLOADS[name].scales[2 if args.quick else (engine == "spark")]
            n = max(1, round(scale * args.scale))
            results += bench(name, engine, spark if engine == "spark" else None, n,
                             sizes, transactions, args.on_driver_below, args.levels)
    took = time.perf_counter() - started
    print(f"\n{HEADER}")
    for r in results:
        print(line(r))
    failed = [r for r in results if r.failure]
    print(f"suite took {took:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seconds": took, "results": [r.summary() for r in results]}, f,
                      indent=1)
    print("every maintained output matched the recomputation" if not failed else
          f"FAILED: {len(failed)} of {len(results)} (workload, size, engine) failed or "
          f"differed from the recomputation")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
