"""``dl2sql run``: evaluate a program on a directory of input files and write one file
per output relation."""
from __future__ import annotations

import dataclasses
import time
import warnings
from typing import TextIO

from dl2sql.api.on_driver import placement_for
from dl2sql.api.program import Program
from dl2sql.api.savepoints import changes_to_saved
from dl2sql.api.state import Version, current, loaders, read_manifest
from dl2sql.api.state_store import store_for
from dl2sql.compiler.emit import emit, is_helper
from dl2sql.diagnostics import Dl2sqlWarning, InputError
from dl2sql.engines import engine as get_engine
from dl2sql.io.files import (CHANGE_KINDS, change_files, check_output_format, file_stem,
                             input_files, unnamed_inputs, write_outputs)
from dl2sql.runner.heartbeat import report_after
from dl2sql.runner.progress import RecordingProgress, RichProgress, switch_text
from dl2sql.types.model import NARROW


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

    def on_wide_integers(self, reason) -> None:
        for o in self.observers:
            o.on_wide_integers(reason)


def run_files(compiled, args, externs: dict, out: TextIO, err: TextIO) -> int:
    """Run ``compiled`` as the CLI arguments say; returns the exit code."""
    program = Program(compiled, externs)
    if getattr(args, "state", None):
        return run_with_state(program, args, out, err)
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
    # a small run on the driver writes its files there too: the oracle's writer writes
    # the same values (docs/cli.md), and the engine's session is never started
    placement = placement_for(program, args.engine, files, args.on_driver_below)
    options = dict(inputs=files, engine=placement.engine, master=args.master,
                   checkpoint_dir=args.checkpoint_dir, partitions=args.partitions,
                   report_after=None if args.quiet else report_after(),
                   on_driver_below=args.on_driver_below)
    with program:  # its checkpoint files go once the outputs are written
        if live is not None:
            with live:
                program.run(progress=_Both(live, recorder), **options)
        else:
            program.run(progress=recorder, **options)
        written = write_outputs(program, program.last_runner, args.output, args.format)
        if placement.on_driver:
            program.last_placement = dataclasses.replace(
                placement, reason=placement.reason + "; outputs written on the driver")
        if args.explain:
            explain(program, recorder, out)
    seconds = time.perf_counter() - started
    if not args.quiet:
        err.write(f"wrote {len(written)} output relation(s) to {args.output} "
                  f"in {seconds:.2f} s\n")
    return 0


def explain(program: Program, recorder: RecordingProgress, out: TextIO) -> None:
    """Strata, plan and per-iteration row counts of the last run."""
    compiled = program.last_compiled  # in the representation of wide integers it ended in
    placement = program.last_placement
    out.write("== placement\n" + placement.text())
    thresholds = getattr(program.last_runner, "thresholds", None)
    if thresholds is not None:  # of the runner that evaluated (dl2sql.plan.thresholds)
        out.write(f"== runner thresholds\n{thresholds.text()}\n")
    dialect = get_engine(placement.engine).dialect  # of the plan that ran
    out.write(integers_text(compiled, recorder.widened, "== integers\n"))
    out.write("== strata\n")
    out.write(emit(compiled, "strata", dialect))
    out.write("== plan\n")
    out.write(emit(compiled, "plan", dialect))
    out.write("== iterations\n")
    if not recorder.iterations:
        out.write("(no loop ran: recursive strata, if any, were single recursive "
                  "queries)\n")
    for stratum, i, counts, secs in recorder.iterations:
        sizes = ", ".join(f"{n}={c}" for n, c in counts.items())
        out.write(f"{stratum}: iteration {i}: {sizes} ({secs:.3f} s)\n")
    for stratum, n, secs in recorder.loops:
        out.write(f"{stratum}: converged after {n} iteration(s) in {secs:.2f} s\n")


def integers_text(compiled, widened: list[str], title: str) -> str:
    """How a run stored wide integers (``compiled``: the program in the representation
    it ended in; ``widened``: why it switched), under ``title``; nothing for a program
    without wide integers."""
    if compiled.integers == (NARROW,):
        return ""
    if compiled.representation == NARROW:
        return title + "narrow: DECIMAL(38,0) (no value needed more than 38 digits)\n"
    lines = [f"wide: {switch_text(reason)}" for reason in widened] or [
        "wide: (num, big) pairs from the start (a constant of the program has more than "
        "38 digits)" if compiled.integers == (compiled.representation,) else
        "wide: (num, big) pairs (as the state was stored already)"]
    return title + "\n".join(lines) + "\n"


def _engine_options(args) -> dict:
    """``Program.maintain``'s engine options from the command line."""
    return dict(engine=args.engine, master=args.master,
                checkpoint_dir=getattr(args, "checkpoint_dir", None),
                partitions=getattr(args, "partitions", None),
                on_driver_below=getattr(args, "on_driver_below", None),
                report_after=None if args.quiet else report_after())


def run_with_state(program: Program, args, out: TextIO, err: TextIO) -> int:
    """``dl2sql run --state DIR``: apply the changes in the input directory to the
    state saved in DIR (or create it from them), write each output's changes (its
    columns and ``weight``: 1 added, -1 removed) and save the state. Outputs are
    written before the state is saved: a run that fails leaves the state as it was,
    and running it again applies the same changes."""
    started = time.perf_counter()
    spark = None
    if "://" in args.state and args.engine == "spark":  # a Hadoop URL: the session reaches it
        from dl2sql.runner.spark_session import get_spark  # deferred: PySpark is slow

        spark = get_spark(args.master)
    store = store_for(args.state, spark, args.engine)
    if getattr(args, "rollback_to", None) is not None:
        return rollback_state(program, args, store, out, err)
    if getattr(args, "release", None) is not None:
        return release_savepoint(args, store, err)
    if getattr(args, "savepoint", None) is not None:
        name_savepoint(args, store, err)
        if args.input is None:
            return 0
    check_output_format(program, args.output, args.format)
    changes = change_files(program, args.input)
    recorder = RecordingProgress()
    spark_options = _engine_options(args)
    with program:
        if current(args.state, spark, args.engine) is None:
            refused = sorted(f"{file_stem(r)}.{k}" for r, kinds in changes.items()
                             for k in kinds if k != "insert")
            if refused:
                raise InputError(f"state directory `{args.state}` holds no state yet, so "
                                 f"there is nothing to delete or update: "
                                 f"{', '.join(refused)} (the first run of a state takes "
                                 f"insertions only)")
            inputs = {rel: kinds["insert"] for rel, kinds in changes.items()}
            live = program.maintain(inputs=inputs, progress=recorder, **spark_options)
            what = "created"
        else:
            live = program.maintain(state=args.state, progress=recorder, **spark_options)
            by_kind = {k: {rel: kinds[k] for rel, kinds in changes.items() if k in kinds}
                       for k in CHANGE_KINDS}
            live.apply(by_kind["insert"], by_kind["delete"],
                       insert_or_update=by_kind["insert_or_update"])
            what = "updated"
        tables = {rel: live.change_table(rel) for rel in program.outputs}
        written = write_outputs(program, live.runner, args.output, args.format, tables)
        live.save(args.state)
        if args.explain:
            out.write("== placement\n" + live.placement.text())
            out.write(integers_text(live.compiled, recorder.widened, "== integers\n"))
            out.write("== strata maintained\n")
            hidden = {r for r in program.compiled.relations if is_helper(program.compiled, r)}
            out.write((recorder.methods_summary(hidden) or "  none (a new state)") + "\n")
    if not args.quiet:
        err.write(f"{what} the state in {args.state}; wrote the changes of "
                  f"{len(written)} output relation(s) to {args.output} in "
                  f"{time.perf_counter() - started:.2f} s\n")
    return 0


# -- savepoints of a state directory ---------------------------------------------------
def name_savepoint(args, store, err: TextIO) -> None:
    """``--savepoint NAME``: name the current version NAME (a name given again moves to
    it: the newest savepoint)."""
    version = store.current()
    if version is None:
        raise InputError(f"state directory `{args.state}` holds no state yet: there is no "
                         f"version for savepoint `{args.savepoint}` to name (the first "
                         f"run with --state creates it)")
    named = [(n, v) for n, v in store.savepoints() if n != args.savepoint]
    store.set_savepoints(named + [(args.savepoint, version)])
    if not args.quiet:
        err.write(f"savepoint `{args.savepoint}` names version {version} of the state in "
                  f"{args.state}\n")


def _savepoint_at(args, store, name: str) -> tuple[list, int]:
    """The savepoints of the state, and where savepoint ``name`` is among them."""
    named = store.savepoints()
    for i, (n, _) in enumerate(named):
        if n == name:
            return named, i
    if store.current() is None:
        raise InputError(f"state directory `{args.state}` holds no state yet, so no "
                         f"savepoint `{name}`")
    known = ", ".join(f"`{n}`" for n, _ in named) or "none"
    raise InputError(f"state directory `{args.state}` has no savepoint `{name}` (its "
                     f"savepoints: {known})")


def release_savepoint(args, store, err: TextIO) -> int:
    """``--release NAME``: forget savepoint NAME and those named after it; their
    versions go (but the current one)."""
    named, at = _savepoint_at(args, store, args.release)
    store.set_savepoints(named[:at])
    store.prune()
    if not args.quiet:
        err.write(f"released savepoint `{args.release}` of the state in {args.state}\n")
    return 0


def rollback_state(program: Program, args, store, out: TextIO, err: TextIO) -> int:
    """``--rollback-to NAME``: write the changes of the outputs from the current state
    to the version savepoint NAME names (as a run writes its changes), then make that
    version current; the savepoints named after NAME are forgotten, NAME stays. The
    outputs are written first: a rollback that fails leaves the state as it was."""
    check_output_format(program, args.output, args.format)
    named, at = _savepoint_at(args, store, args.rollback_to)
    started = time.perf_counter()
    with program:
        live = program.maintain(state=args.state, **_engine_options(args))
        target = Version(store, named[at][1])
        manifest = read_manifest(target, live.compiled, args.state)
        changes_to_saved(live, loaders(target, manifest, live.compiled, live.runner.engine))
        tables = {rel: live.change_table(rel) for rel in program.outputs}
        written = write_outputs(program, live.runner, args.output, args.format, tables)
    current = store.restore(target.name)
    store.set_savepoints(named[:at + 1])
    store.prune()
    if not args.quiet:
        err.write(f"rolled the state in {args.state} back to savepoint `{args.rollback_to}` "
                  f"(now version {current}); wrote the changes of {len(written)} output "
                  f"relation(s) to {args.output} in {time.perf_counter() - started:.2f} s\n")
    return 0
