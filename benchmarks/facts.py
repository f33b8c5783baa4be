"""Compile time against the number of facts written in the program (issue 41): programs
of N facts (:func:`benchmarks.generators.facts_program`: integers, strings, a tagged
union, a struct, two rules over them), compiled as ``dl2sql compile`` does for each
dialect, and evaluated on DuckDB.

    python -m benchmarks.facts [--sizes 2000,20000,200000] [--runs 3] [--as-rules]

Each size's variants run once to warm up, then round-robin (A B C A B C ...) in one
process. For each: every sample, the median and the spread (min-max), the seconds per
1,000 facts, and that figure's ratio to the smallest size's (1.0 everywhere: linear).
``compile duckdb`` and ``compile spark`` are the CLI's ``compile`` command in this
process (parsing the program, checking it, planning and printing the SQL; not the
interpreter's start, about a second); ``run duckdb`` evaluates the compiled program
on a new in-memory database and counts every output's rows, which must be the same
in every run. ``--as-rules`` turns off reading facts as data
(:data:`dl2sql.syntax.facts.MIN_FACTS`): every fact a rule, as before issue 41 (keep
the sizes small: seconds per 1,000 facts).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.generators import facts_program  # noqa: E402
from dl2sql.api.program import compile as compile_program  # noqa: E402
from dl2sql.cli.main import main as cli_main  # noqa: E402
from dl2sql.syntax import facts as fact_lines  # noqa: E402


def compile_cli(path: str, dialect: str) -> tuple[int, float]:
    """(bytes printed, seconds) of ``dl2sql compile --dialect DIALECT path``."""
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out):
        code = cli_main(["compile", "--dialect", dialect, path])
    seconds = time.perf_counter() - started
    if code != 0:
        raise RuntimeError(f"dl2sql compile failed on {path}")
    return len(out.getvalue()), seconds


def run_duckdb(program) -> tuple[int, float]:
    """(rows of every output, seconds) of one evaluation of ``program`` on DuckDB."""
    started = time.perf_counter()
    outputs = program.run(engine="duckdb")
    rows = sum(rel.count("*").fetchall()[0][0] for rel in outputs.values())
    return rows, time.perf_counter() - started


def variants(path: str) -> dict:
    """label -> () -> (a check value that must not change between runs, seconds)."""
    program = compile_program(path)
    return {"compile duckdb": lambda: compile_cli(path, "duckdb"),
            "compile spark": lambda: compile_cli(path, "spark"),
            "run duckdb": lambda: run_duckdb(program)}


def measure(n: int, runs: int, directory: str) -> dict:
    """label -> (samples in seconds, check value) for the program of ``n`` facts."""
    path = str(Path(directory) / f"facts_{n}.dl")
    Path(path).write_text(facts_program(n))
    chosen = variants(path)
    checks: dict = {}
    for label, fn in chosen.items():  # warm-up
        checks[label] = {fn()[0]}
    samples: dict = {label: [] for label in chosen}
    for _ in range(runs):
        for label, fn in chosen.items():
            check, seconds = fn()
            checks[label].add(check)
            samples[label].append(seconds)
    return {label: (samples[label], checks[label]) for label in chosen}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="2000,20000,200000",
                    help="comma-separated numbers of facts")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--as-rules", action="store_true",
                    help="every fact a rule (no facts read as data), as before issue 41")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    saved = fact_lines.MIN_FACTS
    if args.as_rules:
        fact_lines.MIN_FACTS = sys.maxsize
    table, ok = [], True
    try:
        with tempfile.TemporaryDirectory() as directory:
            for n in sizes:
                size = len(facts_program(n).encode())
                results = measure(n, args.runs, directory)
                for label, (xs, checks) in results.items():
                    if len(checks) != 1:
                        ok = False
                        print(f"  {n} facts {label}: RESULTS DIFFER: {sorted(checks)}")
                    print(f"  {n:>7} facts ({size / 1e6:.2f} MB) {label:<15} "
                          f"median {statistics.median(xs):7.2f} s  "
                          f"({', '.join(f'{x:.2f}' for x in xs)})", flush=True)
                table.append((n, size, results))
    finally:
        fact_lines.MIN_FACTS = saved
    print_table(table)
    print("results agree between runs" if ok else "RESULTS DIFFER")
    return 0 if ok else 1


def print_table(table) -> None:
    """Medians, spreads, seconds per 1,000 facts and their ratio to the smallest size's
    (linear compile time: 1.0 on every row)."""
    print(f"\n{'facts':>8} {'MB':>5} {'variant':<15} {'median s':>9} {'min-max s':>13} "
          f"{'s/1k facts':>10} {'vs smallest':>11} {'check':>8}")
    base: dict = {}
    for n, size, results in table:
        for label, (xs, checks) in results.items():
            med = statistics.median(xs)
            per = med / n * 1000
            base.setdefault(label, per)
            print(f"{n:>8} {size / 1e6:>5.2f} {label:<15} {med:>9.2f} "
                  f"{f'{min(xs):.2f}-{max(xs):.2f}':>13} {per:>10.4f} "
                  f"{per / base[label]:>10.2f}x {min(checks):>8}")


if __name__ == "__main__":
    sys.exit(main())
