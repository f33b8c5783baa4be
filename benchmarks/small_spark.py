"""Small programs on Spark (issue 45): what a run of a small program costs beyond the
session it runs in, and what evaluating it on the driver saves.

    python -m benchmarks.small_spark [--runs 5] [--quick] [--master local[2]]
                                     [--settle 1] [--json PATH] [--only NAME,...]
    python -m benchmarks.small_spark --cli [--runs 3] [--quick] [--json PATH]

Why: a user with a few hundred rows still runs dl2sql inside a Spark job; the run
should cost little more than the session's own price for those rows (a trivial query,
reading the inputs). Workloads: the examples network, rbac and lineage with their
``examples/X/input`` files (bound by :func:`dl2sql.io.files.input_files`), and three
programs of benchmarks/programs with a few hundred Python rows per input:
``small_org.dl`` (transitive reports over string ids, a negation, a count),
``small_access.dl`` (tagged unions, ``match``, nested groups), ``small_config.dl``
(layered configuration: depths, a ``min``, a negation).

How: one process, one local session (``dl2sql.runner.spark_session.get_spark``); per
workload each variant runs once untimed, then the variants take turns for ``--runs``
rounds, the process settling before each timed run (:func:`benchmarks.scale.settle`,
``--settle`` seconds, 0: not at all). Variants, each timed as a whole:

* floor: ``spark.range(1).count()`` and a count of each input as Spark alone reads it
  (``spark.read.csv``/``json`` of a file, ``spark.createDataFrame`` of stored rows);
* spark: ``dl2sql.compile``, ``Program.run(spark=..., on_driver_below=0)`` (every
  stratum on Spark) and a ``count()`` of each output;
* driver: the same with the default policy (a small run evaluated by DuckDB on the
  driver, its outputs handed to Spark; ``DL2SQL_ON_DRIVER_BELOW`` is ignored here);
* duckdb: ``Program.run(engine="duckdb")`` and ``fetchall()`` of each output;
* frames (workloads of Python rows only): driver's run with each input of rows given
  as a DataFrame of them (``spark.createDataFrame``, made inside the timed run), as a
  pipeline that holds its rows in DataFrames passes them.

Each run's output rows (collected untimed) must equal, as sets, those of the first
variant, or :class:`OutputsDiffer` stops the benchmark. Spark jobs are counted per run
by a job group (``statusTracker``), beside the runner's own count of actions. Prints
each variant's median and min-max, compile time, jobs and where it was evaluated, and
the ratios of medians spark/floor, driver/floor and driver/spark ("all": of the sums
of the medians over the workloads).

``--cli`` times whole child processes instead (no session in this one): ``python -m
dl2sql run EXAMPLE.dl --engine spark --input DIR --output TMP --quiet`` as it is
("default") and with ``--on-driver-below 0`` ("spark"), whose outputs must agree,
against a child that starts a bare local session and runs one count ("bare"); they
alternate, and each is also given as a multiple of the bare child's median.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.run import PROGRAMS  # noqa: E402
from benchmarks.scale import settle  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("network", "rbac", "lineage")
OWN = ("small_org", "small_access", "small_config")
BARE = ("from pyspark.sql import SparkSession; "
        "s = SparkSession.builder.master('local[*]').getOrCreate(); s.range(1).count()")


class OutputsDiffer(RuntimeError):
    """Two variants left different rows."""


def org_rows(rng) -> dict:
    """300 employees in a tree of four reports each, departments by subtree (one in
    20 moved to another)."""
    dept = ["exec"] + [f"d{i}" for i in range(1, 5)]
    for i in range(5, 300):
        dept.append(f"d{rng.randint(1, 4)}" if rng.random() < 0.05 else dept[(i - 1) // 4])
    return {"Employee": [(f"e{i}", d) for i, d in enumerate(dept)],
            "ManagedBy": [(f"e{i}", f"e{(i - 1) // 4}") for i in range(1, 300)],
            "OnLeave": [f"e{i}" for i in range(0, 300, 7)]}


def access_rows(rng) -> dict:
    """200 users, 20 services of 5 teams, 30 nested groups, 60 resources."""
    from dl2sql.runtime.values import Record

    users = [Record("User", (f"u{i}",)) for i in range(200)]
    groups = [Record("Group", (f"g{i}",)) for i in range(30)]
    services = [Record("Service", (f"s{i}", f"t{i % 5}")) for i in range(20)]
    actions = [Record(a, ()) for a in ("Read", "Write", "Admin")]
    member = [(groups[i], f"g{(i - 1) // 3}") for i in range(1, 30)]
    member += [(u, f"g{rng.randrange(30)}") for u in users for _ in range(2)]
    member += [(s, f"g{rng.randrange(10, 30)}") for s in services]
    acl = [(rng.choice(groups if i < 120 else users + services), f"r{rng.randrange(60)}",
            rng.choice(actions)) for i in range(200)]
    return {"Member": member, "Acl": acl, "Owns": [(f"t{i % 5}", f"r{i}") for i in range(60)]}


def config_rows(rng) -> dict:
    """150 layers in a tree of three children each, 300 settings of 20 keys."""
    layers = [f"l{i}" for i in range(150)]
    return {"Layer": layers, "Parent": [(f"l{i}", f"l{(i - 1) // 3}") for i in range(1, 150)],
            "Setting": [(rng.choice(layers), f"k{rng.randrange(20)}", f"v{rng.randrange(4)}")
                        for _ in range(300)],
            "Required": [f"k{i}" for i in range(0, 25, 2)]}


def workloads(names) -> dict:
    """name -> (program path, inputs: relation -> file or list of rows)."""
    import dl2sql
    from dl2sql.io.files import input_files

    made = {"small_org": org_rows, "small_access": access_rows, "small_config": config_rows}
    out = {}
    for name in names:
        if name in EXAMPLES:
            path = ROOT / "examples" / name / f"{name}.dl"
            with dl2sql.compile(path) as program:
                out[name] = (path, input_files(program, str(path.parent / "input")))
        else:
            out[name] = (PROGRAMS / f"{name}.dl", made[name](random.Random(45)))
    return out


def norm(value):
    """A collected value comparable across engines: structs (Spark Rows, DuckDB dicts)
    and arrays as tuples, integral decimals as ints."""
    if isinstance(value, dict):
        return tuple(norm(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return tuple(norm(v) for v in value)
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def make_variants(spark, path, inputs) -> dict:
    """variant -> function of no arguments, timed as a whole by :func:`measure`, that
    returns (compile seconds, program or None, output -> rows or a thunk of them)."""
    import dl2sql
    from dl2sql.api.program import RowsInput
    from dl2sql.runner.spark_types import schema_ddl

    with dl2sql.compile(path) as program:  # the floor reads rows as they are stored
        stored = {rel: RowsInput(program.compiled, program._resolve(rel), rows).as_rows()
                  for rel, rows in inputs.items() if isinstance(rows, list)}
        tables = program.compiled.plan_for("spark").relations
        schemas = {rel: schema_ddl(tables[program._resolve(rel)]) for rel in stored}

    def floor():
        spark.range(1).count()
        for rel, source in inputs.items():
            if rel in stored:
                spark.createDataFrame(stored[rel]).count()
            elif source.endswith(".json"):
                spark.read.json(source).count()
            else:
                spark.read.csv(source, header=True).count()
        return 0.0, None, None

    def on(as_frames=False, **how):
        def variant():
            started = time.perf_counter()
            program = dl2sql.compile(path)
            compiled = time.perf_counter() - started
            given = inputs if not as_frames else {  # as a pipeline holding them has them
                **inputs, **{rel: spark.createDataFrame(rows, schemas[rel])
                             for rel, rows in stored.items()}}
            frames = program.run(inputs=given, **how)
            if how.get("engine") == "duckdb":
                return compiled, program, {rel: {norm(r) for r in f.fetchall()}
                                           for rel, f in frames.items()}
            for f in frames.values():
                f.count()
            return compiled, program, {rel: (lambda f=f: {norm(r) for r in f.collect()})
                                       for rel, f in frames.items()}  # untimed
        return variant

    variants = {"floor": floor, "spark": on(spark=spark, on_driver_below=0),
                "driver": on(spark=spark), "duckdb": on(engine="duckdb")}
    if stored:  # the same rows as DataFrames of Python rows, the default policy
        variants["frames"] = on(as_frames=True, spark=spark)
    return variants


def measure(spark, name, variants, reference, group) -> dict:
    """One run of a variant: seconds, compile seconds, Spark jobs (of job group
    ``group``), the runner's actions, where it was evaluated; its rows must equal
    ``reference`` (filled by the first variant with rows)."""
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    started = time.perf_counter()
    compiled, program, rows = variants[name]()
    seconds = time.perf_counter() - started
    jobs = len(sc.statusTracker().getJobIdsForGroup(group))
    sc.setLocalProperty("spark.jobGroup.id", None)
    out = {"seconds": seconds, "compile": compiled, "jobs": jobs, "actions": None,
           "where": None}
    if program is None:
        return out
    out["actions"] = getattr(program.last_runner, "actions", None)  # Spark's runner
    if name != "duckdb":
        out["where"] = "driver" if program.last_placement.on_driver else "spark"
    rows = {rel: r() if callable(r) else r for rel, r in rows.items()}
    program.close()
    if not reference:
        reference.update(rows)
    for rel, got in rows.items():
        if got != reference[rel]:
            raise OutputsDiffer(f"{group}: {rel} has {len(got)} rows, the first variant "
                                f"{len(reference[rel])}; {len(got - reference[rel])} only "
                                f"here, {len(reference[rel] - got)} only there")
    return out


def summary(samples: list) -> dict:
    values = [s["seconds"] for s in samples]
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "compile": statistics.median(s["compile"] for s in samples),
            "jobs": statistics.median(s["jobs"] for s in samples),
            "actions": samples[-1]["actions"], "where": samples[-1]["where"],
            "samples": values}


def ratios(med: dict) -> dict:
    return {f"{a}/{b}": med[a] / med[b] for a, b in
            (("spark", "floor"), ("driver", "floor"), ("driver", "spark"))}


def in_session(args, names) -> dict:
    from dl2sql.runner.spark_session import get_spark

    spark = get_spark(args.master)
    results, totals = [], {}
    for name, (path, inputs) in workloads(names).items():
        variants, reference = make_variants(spark, path, inputs), {}
        for v in variants:  # warm-up, untimed; also the first comparison of rows
            measure(spark, v, variants, reference, f"{name}-{v}-warm")
        samples = {v: [] for v in variants}
        for i in range(args.runs):
            for v in variants:
                if args.settle > 0:
                    settle(spark, args.settle)
                samples[v].append(measure(spark, v, variants, reference, f"{name}-{v}-{i}"))
            print(f"  {name:<13} run {i + 1}: " + ", ".join(
                f"{v} {s[-1]['seconds']:.2f} s ({s[-1]['jobs']} jobs)"
                for v, s in samples.items()), flush=True)
        figures = {v: summary(s) for v, s in samples.items()}
        for v, f in figures.items():
            totals[v] = totals.get(v, 0.0) + f["median"]
        results.append({"workload": name, "program": str(path.relative_to(ROOT)),
                        "input_rows": {r: len(x) if isinstance(x, list) else x
                                       for r, x in inputs.items()},
                        "output_rows": {r: len(x) for r, x in reference.items()},
                        "variants": figures,
                        "ratios": ratios({v: f["median"] for v, f in figures.items()})})
    return {"master": args.master, "runs": args.runs, "results": results,
            "all": {"median_sum": totals, "ratios": ratios(totals)}}


def print_session(out: dict) -> None:
    print(f"\nsmall programs, master {out['master']}, one session, median of {out['runs']} "
          f"(min-max) s; compile s and Spark jobs per run (runner actions) included")
    print(f"{'workload':<13} {'variant':<7} {'median':>7} {'min-max':>12} {'compile':>7} "
          f"{'jobs':>5} {'actions':>7} {'where':>6}")
    for r in out["results"]:
        for v, f in r["variants"].items():
            spread = f"{f['min']:.2f}-{f['max']:.2f}"
            actions = "-" if f["actions"] is None else f["actions"]
            print(f"{r['workload']:<13} {v:<7} {f['median']:>7.2f} {spread:>12} "
                  f"{f['compile']:>7.2f} {f['jobs']:>5g} {actions:>7} {f['where'] or '-':>6}")
    print("\nratios of medians")
    for r in out["results"] + [{"workload": "all", "ratios": out["all"]["ratios"]}]:
        print(f"{r['workload']:<13} " + "  ".join(f"{k} {x:5.2f}" for k, x in r["ratios"].items()))
    print("every variant gives the same rows on every workload")


def same_files(a: str, b: str) -> None:
    """The Parquet outputs in directories ``a`` and ``b`` hold the same rows."""
    import duckdb

    for name in sorted(os.listdir(a)):
        rows = [{norm(r) for r in duckdb.sql(f"SELECT * FROM '{os.path.join(d, name)}'")
                 .fetchall()} for d in (a, b)]
        if rows[0] != rows[1]:
            raise OutputsDiffer(f"{name}: {len(rows[0])} rows in {a}, {len(rows[1])} in {b}")


def cli(args, names) -> dict:
    """Child processes: a bare session's count, then ``dl2sql run`` of each example
    (default, and with ``--on-driver-below 0``; their outputs must hold the same rows),
    ``--runs`` rounds."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    kinds = {"default": [], "spark": ["--on-driver-below", "0"]}
    samples: dict = {"bare": []}

    def child(cmd) -> float:
        started = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - started

    with tempfile.TemporaryDirectory(prefix="dl2sql_small_cli_") as tmp:
        for i in range(args.runs):
            samples["bare"].append(child([sys.executable, "-c", BARE]))
            for name in names:
                d = ROOT / "examples" / name
                for kind, extra in kinds.items():
                    seconds = child([sys.executable, "-m", "dl2sql", "run", str(d / f"{name}.dl"),
                                     "--engine", "spark", "--input", str(d / "input"),
                                     "--output", os.path.join(tmp, f"{name}-{kind}"),
                                     "--quiet", *extra])
                    samples.setdefault(f"{name} {kind}", []).append(seconds)
                same_files(*(os.path.join(tmp, f"{name}-{kind}") for kind in kinds))
            print(f"  round {i + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s"
                                                   for k, v in samples.items()), flush=True)
    bare = statistics.median(samples["bare"])
    print(f"\nwhole processes, median of {args.runs} (min-max) s, and / bare session")
    for k, v in samples.items():
        med = statistics.median(v)
        print(f"{k:<18} {med:7.2f} {f'{min(v):.2f}-{max(v):.2f}':>12} {med / bare:6.2f}x")
    print("with and without --on-driver-below 0 the outputs hold the same rows")
    return {"runs": args.runs, "samples": samples,
            "median": {k: statistics.median(v) for k, v in samples.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=None,
                    help="timed runs of each variant (default 5; 3 with --cli)")
    ap.add_argument("--cli", action="store_true", help="time child processes instead")
    ap.add_argument("--quick", action="store_true", help="1 run, fewer programs")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--settle", type=float, default=1.0,
                    help="seconds to settle before each timed run (0: no settling)")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the figures")
    ap.add_argument("--only", default=None, metavar="NAME,...",
                    help=f"these workloads only (of {', '.join(EXAMPLES + OWN)})")
    args = ap.parse_args(argv)
    os.environ.pop("DL2SQL_ON_DRIVER_BELOW", None)  # "driver" is the built-in default
    if args.runs is None:
        args.runs = 1 if args.quick else (3 if args.cli else 5)
    if args.cli:
        out = {"cli": cli(args, EXAMPLES[:1] if args.quick else EXAMPLES)}
    else:
        names = (args.only.split(",") if args.only else
                 ("network", "small_org") if args.quick else EXAMPLES + OWN)
        out = in_session(args, names)
        print_session(out)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
