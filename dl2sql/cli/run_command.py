"""``dl2sql run``: evaluate a program on a directory of input files and write one file
per output relation."""
from __future__ import annotations

import time
import warnings
from typing import TextIO

from dl2sql.api.program import Program
from dl2sql.compiler.emit import emit
from dl2sql.diagnostics import Dl2sqlWarning
from dl2sql.io.files import (check_output_format, file_stem, input_files, unnamed_inputs,
                             write_outputs)
from dl2sql.runner.progress import RecordingProgress, RichProgress


class _Both:
    """Forwards progress reports to a live display and a recorder."""

    def __init__(self, *observers):
        self.observers = observers

    def on_iteration(self, stratum, iteration, counts, seconds) -> None:
        for o in self.observers:
            o.on_iteration(stratum, iteration, counts, seconds)

    def on_loop_end(self, stratum, iterations, seconds) -> None:
        for o in self.observers:
            o.on_loop_end(stratum, iterations, seconds)


def run_files(compiled, args, externs: dict, out: TextIO, err: TextIO) -> int:
    """Run ``compiled`` as the CLI arguments say; returns the exit code."""
    program = Program(compiled, externs)
    files = input_files(program, args.input)
    check_output_format(program, args.output, args.format)  # before the engine starts
    empty = unnamed_inputs(program, files)
    if empty:
        warnings.warn(f"{args.input}: no file names input relation(s) "
                      f"{', '.join(file_stem(r) for r in empty)}; they are empty in this "
                      f"run (files are named RELATION.csv, .json or .parquet)",
                      Dl2sqlWarning, stacklevel=2)
    recorder = RecordingProgress()
    live = None if args.quiet else RichProgress()  # draws only on a terminal
    started = time.perf_counter()
    options = dict(inputs=files, engine=args.engine, master=args.master,
                   checkpoint_dir=args.checkpoint_dir, partitions=args.partitions)
    with program:  # its checkpoint files go once the outputs are written
        if live is not None:
            with live:
                program.run(progress=_Both(live, recorder), **options)
        else:
            program.run(progress=recorder, **options)
        written = write_outputs(program, program.last_runner, args.output, args.format)
        if args.explain:
            explain(program, recorder, out)
    seconds = time.perf_counter() - started
    if not args.quiet:
        err.write(f"wrote {len(written)} output relation(s) to {args.output} "
                  f"in {seconds:.2f} s\n")
    return 0


def explain(program: Program, recorder: RecordingProgress, out: TextIO) -> None:
    """Strata, plan and per-iteration row counts of the last run."""
    compiled = program.compiled
    out.write("== strata\n")
    out.write(emit(compiled, "strata", program.last_runner.dialect))
    out.write("== plan\n")
    out.write(emit(compiled, "plan", program.last_runner.dialect))
    out.write("== iterations\n")
    if not recorder.iterations:
        out.write("(no loop ran: recursive strata, if any, were single recursive "
                  "queries)\n")
    for stratum, i, counts, secs in recorder.iterations:
        sizes = ", ".join(f"{n}={c}" for n, c in counts.items())
        out.write(f"{stratum}: iteration {i}: {sizes} ({secs:.3f} s)\n")
    for stratum, n, secs in recorder.loops:
        out.write(f"{stratum}: converged after {n} iteration(s) in {secs:.2f} s\n")
