"""The ``dl2sql`` command line: compile, replay, check.

This is the only module that prints to the terminal or exits; user errors end with
exit code 1 and a located message, never a Python traceback.
"""
from __future__ import annotations

import argparse
import difflib
import importlib.util
import inspect
import signal
import sys
import warnings
from typing import Optional

import dl2sql
from dl2sql.api.replaying import evaluation, replay_program
from dl2sql.cli.run_command import integers_text, run_files
from dl2sql.compiler import compile_file
from dl2sql.compiler.emit import STAGES
from dl2sql.compiler.emit import emit, is_helper
from dl2sql.compiler.emit_update import emit_update
from dl2sql.compiler.spark_script import pyspark_program, script_options, spark_script
from dl2sql.diagnostics import (CompileError, Dl2sqlWarning, InputError, RuntimeFailure,
                                decode_source, read_source, user_error_text)
from dl2sql.engines import ENGINES, ORACLE, Settings
from dl2sql.api.on_driver import commands_placement
from dl2sql.plan.placement import ENVIRONMENT
from dl2sql.engines import engine as get_engine
from dl2sql.replay.session import replay
from dl2sql.plan.limits import iteration_limit
from dl2sql.plan.nodes import Loop
from dl2sql.runner.heartbeat import report_after, reported
from dl2sql.runner.interrupts import (Terminated, exit_code, interrupt_for, interruptible,
                                      message, stopping)
from dl2sql.runner.progress import RecordingProgress
from dl2sql.sqlgen.dialects import DIALECTS
from dl2sql.types.model import NARROW, WIDE



class _HelpWithDefaults(argparse.HelpFormatter):
    """Help that names each option's default, where it has one worth naming."""

    def _get_help_string(self, action) -> str:
        text = action.help or ""
        if (action.option_strings and action.default not in (None, False, [])
                and action.default is not argparse.SUPPRESS and "default" not in text):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    """argparse with dl2sql's conventions: defaults in ``--help``, and exit code 1 for
    a misused command line as for every other user error (argparse's own is 2)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpWithDefaults)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="dl2sql", description="Differential Datalog on Spark SQL and DuckDB.")
    p.add_argument("--version", action="version", version=f"dl2sql {dl2sql.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("compile", help="print the program as SQL (a Spark SQL script by "
                                       "default) or a compilation stage")
    c.add_argument("program")
    c.add_argument("--dialect", choices=sorted(DIALECTS), default="spark",
                   help="SQL dialect to print")
    c.add_argument("--emit", choices=STAGES + ("script", "pyspark", "update"), default=None,
                   help="what to print: `script` (Spark SQL that runs by itself; the "
                        "default for --dialect spark), `pyspark` (the same statements as a "
                        "standalone PySpark program, for Spark 3.5), `sql` (the plan's "
                        "statements; the default for duckdb), `update` (the plan that "
                        "applies a transaction, stratum by stratum) or an earlier stage")
    c.add_argument("--input", dest="script_inputs", action="append", default=[],
                   metavar="REL=TABLE", help="script: read input relation REL from TABLE "
                                             "(default: the table or view named REL)")
    c.add_argument("--schema", default="", help="script: create its tables in this schema")
    c.add_argument("--prefix", default="", help="script: begin the name of every table it "
                                                "creates with this")
    c.add_argument("--integers", choices=(NARROW, WIDE), default=None,
                   help="how the plan stores values of bigint, bit<N> and signed<N> (N > "
                        "64): narrow, DECIMAL(38,0) (what a run starts with), or wide, "
                        "(num, big) pairs (what it goes on with once a value needs more "
                        "than 38 digits); default: what a run starts with")
    c.add_argument("--internal", action="store_true",
                   help="also show the relations the compiler made (aggregation steps, "
                        "the standard library's own) in types, strata and ra")
    _common(c)

    r = sub.add_parser("replay", help="run DDlog commands (.dat) from stdin and print "
                                      "exactly what DDlog's CLI prints")
    r.add_argument("program")
    r.add_argument("--engine", choices=sorted(ENGINES), default="duckdb", help="engine to run on")
    r.add_argument("--master", default=None, help="Spark master URL (default local[*])")
    _spark_options(r)
    r.add_argument("--no-init-snapshot", action="store_true")
    r.add_argument("--commands", default=None, help="read commands from this file "
                                                    "instead of stdin")
    r.add_argument("--recompute", action="store_true",
                   help="evaluate the program from scratch at every commit instead of "
                        "applying the changes (a check of the incremental default)")
    r.add_argument("--explain", action="store_true",
                   help="at the end, print to stderr how each stratum was brought up to "
                        "date at the commits (method, number of commits, seconds)")
    r.add_argument("--quiet", action="store_true",
                   help="no progress lines (printed on stderr once a run takes over 10 s)")
    _driver_option(r, "a replay whose commands hold at most 64 bytes a row for ROWS "
                      "rows on the driver with DuckDB, without starting Spark")
    _limits(r)
    _common(r)

    u = sub.add_parser("run", help="evaluate a program on files: one file per relation "
                                   "in --input, one per output relation in --output")
    u.add_argument("program")
    u.add_argument("--engine", choices=sorted(ENGINES), default="spark", help="engine to run on")
    u.add_argument("--master", default=None, help="Spark master URL (default local[*])")
    _spark_options(u)
    # required but with --state's savepoints (checked by _check_run: argparse cannot)
    u.add_argument("--input", metavar="DIR",
                   help="directory of input files: RELATION.csv|.json|.parquet")
    u.add_argument("--output", metavar="DIR",
                   help="directory for the output relations (replaced file by file "
                        "once all are written)")
    u.add_argument("--format", choices=("csv", "json", "parquet"), default="parquet",
                   help="file format of the outputs")
    u.add_argument("--state", default=None, metavar="DIR",
                   help="keep the program's relations in DIR between runs: the input "
                        "directory holds changes (RELATION.insert.csv, RELATION.delete.csv, "
                        "RELATION.insert_or_update.csv; any format), the outputs are the "
                        "changes of the output relations (with a weight column), and DIR "
                        "is updated atomically (created by the first run)")
    marks = u.add_mutually_exclusive_group()
    marks.add_argument("--savepoint", metavar="NAME",
                       help="with --state: name the state's current version NAME, so that "
                            "it is kept and --rollback-to NAME returns to it; with --input, "
                            "before the run's changes are applied")
    marks.add_argument("--rollback-to", metavar="NAME",
                       help="with --state: make the version savepoint NAME names current "
                            "again, writing to --output the changes of the outputs that "
                            "this makes; the savepoints named after NAME are forgotten")
    marks.add_argument("--release", metavar="NAME",
                       help="with --state: forget savepoint NAME and those named after it "
                            "(their versions are deleted by the next run)")
    u.add_argument("--quiet", action="store_true",
                   help="no progress display, no progress lines (printed on stderr once "
                        "a run takes over 10 s), no summary line")
    u.add_argument("--explain", action="store_true",
                   help="after the run, print where it was evaluated, the strata, the "
                        "plan and the row counts of every iteration")
    _driver_option(u, "a run whose input files hold at most 64 bytes a row for ROWS "
                      "rows (with --state: a saved state of at most ROWS input rows) "
                      "on the driver with DuckDB and hand the outputs to Spark")
    _limits(u)
    _common(u)
    p.run_parser = u  # for the checks argparse cannot make (_check_run)

    k = sub.add_parser("check", help="replay on Spark and DuckDB and report differences")
    k.add_argument("program")
    k.add_argument("--master", default=None)
    _spark_options(k)
    k.add_argument("--no-init-snapshot", action="store_true")
    k.add_argument("--commands", default=None)
    _common(k)
    return p


def _spark_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--checkpoint-dir", default=None, metavar="DIR",
                   help="on a cluster, write loop checkpoints under DIR (a directory every "
                        "node can reach: hdfs://..., s3a://...) so that a lost executor does "
                        "not fail the run; default: the session's spark.checkpoint.dir")
    p.add_argument("--partitions", type=int, default=None, metavar="N",
                   help="hash partitions of loop tables (default: the session's cores)")


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return n


def _driver_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--on-driver-below", type=_count, default=None, metavar="ROWS",
                   help=f"on Spark, evaluate {what}: the same rows, without Spark's cost "
                        f"per job; 0: always on Spark; default: 100,000, or the "
                        f"{ENVIRONMENT} environment variable")


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of rows (0 or more), not "
                                         f"{text!r}")
    return n


def _limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-iterations", type=_positive, default=None, metavar="N",
                   help="fail when a recursive stratum runs more than N iterations, "
                        "naming the relations still growing (a recursion that keeps "
                        "making new values never ends); on DuckDB recursion then runs "
                        "as counted loops instead of recursive queries; default: no "
                        "limit")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("-L", dest="lib_dirs", action="append", default=[],
                   help="directory to search for imported modules")
    p.add_argument("--output-internal-relations", action="store_true",
                   help="treat every internal relation as an output")
    p.add_argument("--externs", default=None, metavar="FILE.py",
                   help="Python file defining the program's extern functions (by name)")


def make_runner(engine: str, args=None):
    """A runner for ``engine`` with the Spark options in ``args`` (``--master``,
    ``--checkpoint-dir``, ``--partitions``)."""
    return get_engine(engine).runner(Settings(
        master=getattr(args, "master", None), partitions=getattr(args, "partitions", None),
        checkpoint_dir=getattr(args, "checkpoint_dir", None)))


def main(argv: Optional[list[str]] = None) -> int:
    """Entry point of the ``dl2sql`` console script; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "run":
        _check_run(parser.run_parser, args)
    with warnings.catch_warnings():
        warnings.simplefilter("always", Dl2sqlWarning)
        warnings.showwarning = _show_warning
        return _main(args)


def _check_run(parser: argparse.ArgumentParser, args) -> None:
    """``run`` needs ``--input`` and ``--output``, but for the savepoints of a state:
    ``--savepoint`` alone and ``--release`` write no outputs, ``--rollback-to``
    applies no changes."""
    marks = [(flag, value) for flag, value in (("--savepoint", args.savepoint),
                                                ("--rollback-to", args.rollback_to),
                                                ("--release", args.release)) if value is not None]
    needed = ["--input", "--output"]
    if marks:
        flag = marks[0][0]
        if not args.state:
            parser.error(f"argument {flag}: needs --state DIR (savepoints name versions "
                         f"of a state)")
        refused = {"--rollback-to": ["--input"], "--release": ["--input", "--output"],
                   "--savepoint": [] if args.input else ["--output"]}[flag]
        given = [n for n in refused if getattr(args, n[2:]) is not None]
        if given:
            parser.error(f"argument {flag}: not allowed with {' or '.join(given)} "
                         + {"--rollback-to": "(a rollback applies no changes: run them next)",
                            "--release": "(it changes nothing but the state's names)",
                            "--savepoint": "without --input (no changes, no outputs)"}[flag])
        needed = {"--rollback-to": ["--output"], "--release": [],
                  "--savepoint": ["--output"] if args.input else []}[flag]
    missing = [n for n in needed if getattr(args, n[2:]) is None]
    if missing:
        parser.error(f"the following arguments are required: {', '.join(missing)}")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    if issubclass(category, Dl2sqlWarning):
        print(f"warning: {message}", file=sys.stderr)
    else:
        sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _main(args) -> int:
    signum = None
    try:
        # Ctrl-C and SIGTERM stop engines and clean up (dl2sql.runner.interrupts)
        with interruptible(hard=True), iteration_limit(getattr(args, "max_iterations", None)):
            try:
                return _dispatch(args)
            except Exception as e:
                if interrupt_for(e) is None:  # not a failure because of a signal
                    raise
                signum = stopping()
    except KeyboardInterrupt as e:
        signum = signal.SIGTERM if isinstance(e, Terminated) else signal.SIGINT
    except (CompileError, RuntimeFailure, InputError) as e:
        print(user_error_text(e), file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(message(signum), file=sys.stderr)
    return exit_code(signum)


NEEDS_DRIVER = ("-- These statements are dl2sql's plan: the loops between `-- repeat` and "
                "`-- until` need\n-- dl2sql's driver (`dl2sql run`, the Python API). "
                "`dl2sql compile --dialect spark`\n-- prints a Spark SQL script that runs "
                "by itself.\n")


def _has_loop(statements) -> bool:
    return any(isinstance(s, Loop) or _has_loop(getattr(s, "doubling", ()))
               or _has_loop(getattr(s, "linear", ())) for s in statements)


def script_text(program, args, stage: str) -> str:
    """The Spark SQL script, or the PySpark program, that ``dl2sql compile`` prints
    (:mod:`dl2sql.compiler.spark_script`)."""
    if args.dialect != "spark":
        raise InputError(f"a script is for Spark: use `--emit {stage}` with --dialect spark "
                         f"(DuckDB's statements need dl2sql's loop: `dl2sql run`)")
    options = script_options(program, args.script_inputs, args.schema, args.prefix)
    make = pyspark_program if stage == "pyspark" else spark_script
    return make(program, options)


def _dispatch(args) -> int:
    program = compile_file(args.program, tuple(args.lib_dirs),
                           args.output_internal_relations)
    if args.command == "compile":
        shown = program.represented(args.integers) if args.integers else program
        stage = args.emit or ("script" if args.dialect == "spark" else "sql")
        if stage in ("script", "pyspark"):
            sys.stdout.write(script_text(shown, args, stage))
        elif stage == "update":
            sys.stdout.write(emit_update(shown, args.dialect))
        else:
            if stage == "sql" and _has_loop(shown.plan_for(args.dialect).statements):
                sys.stdout.write(NEEDS_DRIVER)
            sys.stdout.write(emit(shown, stage, args.dialect, args.internal))
        return 0
    if args.command == "run":
        return run_files(program, args, load_externs(args.externs), sys.stdout, sys.stderr)
    commands, name = _read_commands(args)
    externs = load_externs(args.externs)
    if args.command == "replay":
        return _replay(program, args.engine, args, commands, name,
                       not args.no_init_snapshot, sys.stdout, sys.stderr, externs)

    outputs = {}
    for engine in ENGINES:
        runner = make_runner(engine, args)
        try:
            outputs[engine] = replay_program(program, runner, commands,
                                             init_snapshot=not args.no_init_snapshot,
                                             filename=name, externs=externs)
        finally:
            runner.close()
    return _report_check(outputs)


def _read_commands(args) -> tuple[str, str]:
    if args.commands:
        return read_source(args.commands), args.commands
    raw = getattr(sys.stdin, "buffer", None)  # None: stdin replaced by a text stream
    text = sys.stdin.read() if raw is None else decode_source(raw.read(), "<stdin>")
    return text, "<stdin>"


def load_externs(path: Optional[str]) -> dict:
    """The functions defined in Python file ``path``, by name."""
    if not path:
        return {}

    spec = importlib.util.spec_from_file_location("dl2sql_user_externs", path)
    if spec is None or spec.loader is None:
        raise RuntimeFailure(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except FileNotFoundError:
        raise
    except Exception as e:  # the user's module failed to import
        raise RuntimeFailure(f"{path}: cannot load extern functions: {e}") from e
    return {n: f for n, f in vars(module).items() if inspect.isfunction(f) or
            inspect.isbuiltin(f)}


def _replay(program, engine, args, commands, name, init_snapshot, out, err,
            externs=None) -> int:
    placement = commands_placement(engine, len(commands.encode()),
                                   getattr(args, "on_driver_below", None))
    runner = make_runner(placement.engine, args)
    explain = RecordingProgress() if getattr(args, "explain", False) else None
    if explain is not None:
        err.write(placement.text())
        err.write(f"runner thresholds: {runner.thresholds.text()}\n")
    after = None if getattr(args, "quiet", False) else report_after()
    with reported(explain, after) as progress:
        return _replay_on(runner, program, args, commands, name, init_snapshot, out, err,
                          externs, explain, progress)


def _replay_on(runner, program, args, commands, name, init_snapshot, out, err, externs,
               explain, progress) -> int:
    try:
        driven = evaluation(program, runner, externs, args.recompute, progress)
        code = replay(driven, commands, out, err, init_snapshot=init_snapshot, filename=name)
        if explain is not None:
            live = getattr(driven, "live", None)  # a maintained program, once started
            err.write(integers_text(live.compiled if live else driven.program,
                                    explain.widened, "wide integers stored:\n"))
            err.write("strata maintained at the commits:\n"
                      + (explain.methods_summary({r for r in program.relations
                                                   if is_helper(program, r)})
                         or "  none (no commit changed an input)")
                      + "\n")
        return code
    finally:
        runner.close()


def _report_check(outputs: dict) -> int:
    """Compare every engine's replay with the oracle's (exit code and output)."""
    c1, o1, e1 = outputs[ORACLE]
    others = [e for e in outputs if e != ORACLE]
    differ = [e for e in others if outputs[e][:2] != (c1, o1)]
    if not differ:
        lines = o1.count("\n")
        print(f"{' and '.join(others + [ORACLE])} agree ({lines} "
              f"line{'s' if lines != 1 else ''} of output, exit code {c1})")
        if e1:
            sys.stderr.write(e1)
        return c1
    for other in differ:
        print(f"{other} and {ORACLE} differ:")
        diff = difflib.unified_diff(o1.splitlines(True), outputs[other][1].splitlines(True),
                                    ORACLE, other)
        sys.stdout.writelines(diff)
    for engine, (code, _, err) in outputs.items():
        if err:
            print(f"--- {engine} stderr (exit {code}):\n{err}", end="")
    return 1


if __name__ == "__main__":
    sys.exit(main())
