"""The Python API: compile a DDlog program once, run it inside a Spark (or DuckDB) job.

>>> import dl2sql
>>> program = dl2sql.compile("reach.dl")
>>> out = program.run(spark=spark, inputs={"Edge": edges_df})
>>> out["Reach"].show()

Inputs are bound by relation name to a DataFrame, a catalog table name or a file path
(``.parquet``, ``.json`` lines, ``.csv`` with a header); an input relation declared
with ``#[source = "db.table"]`` reads that table when the call does not name it, and
any other input relation is empty. Outputs come back as DataFrames of the engine.
"""
from __future__ import annotations

import builtins
import dataclasses
import os
import weakref
from pathlib import Path
from typing import Optional

from sqlglot import exp

from dl2sql.api.evaluate import Evaluator
from dl2sql.api.evaluate import bind_externs
from dl2sql.api.transformers import bind_transformers
from dl2sql.api.maintained import Maintained
from dl2sql.api.on_driver import (Handover, driver_inputs, evaluate_on_driver, placement_for,
                                  state_placement)
from dl2sql.api.speculation import speculate
from dl2sql.api.state import current, loaders, read_manifest, representation
from dl2sql.incremental.execute import Choice
from dl2sql.io.files import require_record_form
from dl2sql.compiler import CompiledProgram, compile_file, compile_source
from dl2sql.compiler.emit import create_view, load_text, refuse_text, transform_text
from dl2sql.diagnostics import InputError, suggest
from dl2sql.engines import ORACLE, Settings, engine_of
from dl2sql.engines import engine as get_engine
from dl2sql.passes.bags import is_bag
from dl2sql.plan import limits
from dl2sql.plan.placement import Placement
from dl2sql.plan.nodes import Append, Load, Materialize, Refuse, Rename, Transform
from dl2sql.plan.walk import walk
from dl2sql.runner.heartbeat import reported
from dl2sql.runner.interrupts import interruptible
from dl2sql.runtime.convert import as_is, to_sql
from dl2sql.sqlgen.trees import select_all, table


def compile(source_or_path, extern: Optional[dict] = None, lib_dirs=(),
            output_internal: bool = False) -> "Program":
    """Compile DDlog source text or a ``.dl`` file into a :class:`Program`.

    ``extern`` maps the names of ``extern function``s and ``extern transformer``s to
    Python callables; a program calling one without a binding fails here, with the
    declaration's (a transformer's: its ``apply``'s) location.
    Raises :class:`~dl2sql.diagnostics.CompileError` on errors in the program."""
    lib_dirs = tuple(str(d) for d in lib_dirs)
    text = str(source_or_path)
    if isinstance(source_or_path, Path) or (
            "\n" not in text and text.endswith(".dl") and Path(text).is_file()):
        compiled = compile_file(text, lib_dirs, output_internal)
    else:
        compiled = compile_source(text, "<source>", lib_dirs, output_internal)
    return Program(compiled, extern or {})


class Program:
    """A compiled program: its relations, its SQL, and runs on Spark or DuckDB."""

    def __init__(self, compiled: CompiledProgram, extern: dict):
        self.compiled = compiled
        self.extern = extern
        bind_externs(compiled, extern)  # a missing binding is an error now, not at run
        bind_transformers(compiled, extern)
        self.last_runner = None
        self.last_placement: Optional[Placement] = None  # where the last run evaluated
        # this program in the representation of wide integers its last run ended in
        # (the tables of last_runner are of its plan)
        self.last_compiled = compiled
        # the runners of this program's runs still alive, closed by close(); a runner the
        # caller no longer reaches goes with its tables (reliable checkpoint files stay
        # until the end of the process, see dl2sql.runner.spark_checkpoints)
        self._runners = weakref.WeakSet()
        # what frees the tables a run left on a DuckDB connection of the caller's (its
        # outputs stay readable until close(), also once its runner is gone)
        self._releases: list = []
        # (runner, inputs key, output frames, inputs) of the last run on Spark, while open
        self._last_run = None

    @property
    def inputs(self) -> list[str]:
        """The input relations, by qualified name."""
        return self.compiled.input_relations()

    @property
    def outputs(self) -> list[str]:
        """The output relations, by qualified name."""
        return self.compiled.output_relations()

    def sql(self, dialect: str = "spark") -> list[str]:
        """The SQL statements of the plan for ``dialect`` ("spark" or "duckdb"), in
        order; the loop of a recursive stratum appears once, its body inline."""
        out: list[str] = []
        for event, s, _ in walk(self.compiled.plan_for(dialect).statements):
            if event == "loop":
                out.append(f"-- repeat until {', '.join(s.until_empty)} are empty:")
            elif event == "end loop":
                out.append("-- end repeat")
            elif event == "choose":
                out.append(f"-- if ({s.probe_query.sql(dialect=dialect)}) has at most "
                           f"{s.max_degree} edges per source: {s.stratum} by doubling")
            elif event == "else":
                out.append("-- else:")
            elif event == "end choose":
                out.append("-- end if")
            elif isinstance(s, Materialize):
                out.append(create_view(s).sql(dialect=dialect))
            elif isinstance(s, Append):
                out.append(exp.insert(select_all(s.source.name),
                                      table(s.target.name)).sql(dialect=dialect))
            elif isinstance(s, Rename):
                out.append(f"-- {s.source.name} becomes {s.target.name}")
            elif isinstance(s, Transform):
                out.append(f"-- {transform_text(s)}")
            elif isinstance(s, Load):
                out.append(f"-- {load_text(s)}")
            elif isinstance(s, Refuse):
                out.append(f"-- {refuse_text(s)}")
        return out

    # ------------------------------------------------------------------ running
    def run(self, spark=None, inputs: Optional[dict] = None, engine: str = "spark",
            master: Optional[str] = None, progress=None, con=None,
            checkpoint_dir: Optional[str] = None, partitions: Optional[int] = None,
            max_iterations: Optional[int] = None,
            report_after: Optional[float] = None,
            on_driver_below=None, thresholds=None) -> dict:
        """Evaluate the program; the output relations by name.

        On Spark (the default) ``spark`` is used as it is — any master, a cluster
        included — and a local session is started only when it is None; outputs are
        Spark DataFrames, computed before this returns. On a cluster, loops survive lost
        executors when a checkpoint directory is known: ``checkpoint_dir`` (a directory
        every node can reach), else the session's ``spark.checkpoint.dir``. Loop tables
        have ``partitions`` hash partitions (default: the session's parallelism). With
        ``engine="duckdb"`` outputs are DuckDB relations (``.df()`` gives pandas) on
        ``con`` or a fresh in-memory database.

        Outputs stay readable until :meth:`close`, or as long as the caller holds them
        (reliable checkpoint files: until the end of the process at the latest).

        A recursive stratum that runs more than ``max_iterations`` iterations fails
        with a :class:`~dl2sql.diagnostics.RuntimeFailure` naming the relations still
        growing (default: no limit but the plan's own million); with a limit, DuckDB
        evaluates recursion by counted loops instead of recursive queries. With
        ``report_after`` (seconds) a run that takes longer prints a progress line on
        stderr every few seconds (default: none; the CLI's is 10 s). Ctrl-C (SIGINT)
        stops the run in the main thread within a second or two, on both engines, with
        KeyboardInterrupt.

        On Spark a small run is evaluated on the driver by DuckDB and its outputs handed
        to Spark as tables of their rows (the same rows; docs/performance.md, "Small
        programs on the driver"): when every input is given as Python rows, as a file
        on the driver, or as a DataFrame or table whose bytes Spark estimates without a
        job (collected through pandas), at most ``on_driver_below`` rows (default
        100,000, or the ``DL2SQL_ON_DRIVER_BELOW`` environment variable) and 64 bytes a
        row of files and tables (6.4 MB by default), and the outputs hold at most a
        million rows. 0 evaluates
        every run on Spark; a :class:`~dl2sql.plan.placement.DriverPolicy` sets every
        bound. :attr:`last_placement` says where the last run was evaluated and why.

        ``thresholds`` replaces the engine's runner thresholds for this run (when rows
        stay on the driver, when checkpoints are filled, ...: a
        :class:`~dl2sql.plan.thresholds.DuckDBThresholds` or
        :class:`~dl2sql.plan.thresholds.SparkThresholds`); they change what a run
        costs, never its rows."""
        with interruptible(), limits.iteration_limit(max_iterations), \
                reported(progress, report_after) as progress:
            return self._run(spark, inputs, engine, master, progress, con, checkpoint_dir,
                             partitions, on_driver_below, thresholds)

    def _run(self, spark, inputs, engine, master, progress, con, checkpoint_dir,
             partitions, on_driver_below=None, thresholds=None) -> dict:
        runner = get_engine(engine).runner(Settings(spark, master, con, checkpoint_dir,
                                                    partitions, thresholds))
        self._runners.add(runner)
        if getattr(runner, "release", None) is not None:
            self._releases.append(runner.release)
        self._last_run = None
        # partitions=0: loop tables are not kept partitioned (the plan carries no keys)
        loops = (limits.counted_policy(dataclasses.replace(get_engine(engine).loops,
                                                           partitioned=False))
                 if partitions == 0 else None)
        spark = getattr(runner, "spark", None)
        # the engine's jobs here (counting the driver's frames, collecting the inputs
        # the driver evaluates) as quiet as an evaluation's (dl2sql.runner.spark_quiet)
        with runner.running():
            self.last_placement = placement_for(self, runner.engine, inputs or {},
                                                on_driver_below, spark)
            compiled = None
            if self.last_placement.on_driver:
                given = driver_inputs(self, inputs or {}, spark)
                compiled = evaluate_on_driver(self, runner, given, progress,
                                              self.last_placement.policy)
                if compiled is None:  # too many result rows to hand over: Spark does it
                    self.last_placement = Placement(
                        False, f"the outputs held more than "
                               f"{self.last_placement.policy.max_result_rows:,} rows, too "
                               f"many to hand over from the driver", runner.engine)
        self.last_runner = runner
        self.last_compiled = (compiled if compiled is not None else
                              self._evaluate(runner, inputs or {}, progress, loops))
        plan = self.last_compiled.plan_for(runner.engine, loops)
        outputs = [plan.relations[rel] for rel in self.outputs]
        runner.retain(outputs)  # intermediate relations: memory and files freed now
        frame = engine_of(runner).frame
        frames = {rel: frame(runner, table) for rel, table in zip(self.outputs, outputs)}
        # the sources held too: an identity in the key stays theirs while it is kept
        self._last_run = (runner, _inputs_key(inputs), frames, dict(inputs or {}))
        return frames

    def maintain(self, inputs: Optional[dict] = None, engine: str = "spark", spark=None,
                 master: Optional[str] = None, con=None, progress=None,
                 state: Optional[str] = None, choice: Optional[Choice] = None,
                 checkpoint_dir: Optional[str] = None, partitions: Optional[int] = None,
                 max_iterations: Optional[int] = None, report_after: Optional[float] = None,
                 on_driver_below=None, thresholds=None):
        """Evaluate the program on ``inputs`` (as for :meth:`run`) and keep its relations
        stored, to be updated transaction by transaction: a
        :class:`~dl2sql.api.maintained.Maintained` (its ``apply`` takes the inserted
        and deleted rows and returns the changes of the outputs). With ``state``, a
        directory where an earlier process saved this program's relations
        (``Maintained.save``), they are opened from there instead (``inputs`` must
        then be None); a directory without a saved state is evaluated as usual.
        ``choice`` says when a stratum is recomputed rather than maintained
        (:class:`~dl2sql.incremental.execute.Choice`; the default was measured).
        ``checkpoint_dir`` and ``partitions`` are :meth:`run`'s: on a cluster, the
        stored relations survive lost executors only in a checkpoint directory.
        ``max_iterations`` and ``report_after`` are :meth:`run`'s, for this evaluation
        (the transactions of ``apply`` run under the limit in force where they run,
        :func:`dl2sql.plan.limits.iteration_limit`). ``on_driver_below`` is :meth:`run`'s:
        a program whose inputs are small is maintained on the driver by DuckDB, its
        changes and contents handed to Spark as DataFrames, whatever size it grows to
        (``live.placement`` says where and why); so is one opened from a small saved
        state (its input relations' rows within ``on_driver_below``, all its rows
        within the policy's results), decided anew each time it is opened. Its
        :meth:`save` writes a state that Spark reads; a state at a Hadoop URL stays on
        the engine. ``thresholds`` are
        :meth:`run`'s, for this program's runner (its evaluation and transactions)."""
        with interruptible(), limits.iteration_limit(max_iterations), \
                reported(progress, report_after) as progress:
            return self._maintain(inputs, engine, spark, master, con, progress, state,
                                  choice, checkpoint_dir, partitions, on_driver_below,
                                  thresholds)

    def _maintain(self, inputs, engine, spark, master, con, progress, state, choice,
                  checkpoint_dir, partitions, on_driver_below=None, thresholds=None):
        choice = choice or Choice()
        runner = get_engine(engine).runner(Settings(spark, master, con, checkpoint_dir,
                                                    partitions, thresholds))
        self._runners.add(runner)
        if getattr(runner, "release", None) is not None:
            self._releases.append(runner.release)
        folder = (current(state, getattr(runner, "spark", None), runner.engine)
                  if state is not None else None)
        if folder is None:
            spark = getattr(runner, "spark", None)
            with runner.running():  # quiet, as in _run
                placement = (placement_for(self, runner.engine, inputs or {},
                                           on_driver_below, spark)
                             if state is None or "://" not in state else Placement(
                                 False, "a state at a Hadoop URL is written by the engine",
                                 runner.engine))
                target, handover = self._placed(runner, placement)
                if placement.on_driver:
                    inputs = driver_inputs(self, inputs or {}, spark)
                live = speculate(self.compiled, lambda compiled: Maintained(
                    compiled, target, self.bind_inputs(inputs or {}, target.engine,
                                                       compiled=compiled),
                    self.extern, progress, choice, program=self, handover=handover),
                    progress)[1]
            live.placement = placement
            return live
        if inputs:
            raise InputError(f"state directory `{state}` holds a saved state: its inputs "
                             f"are there already (apply changes to them instead)")
        manifest = read_manifest(folder, self.compiled, state)
        saved = self.compiled.represented(representation(manifest))  # goes on as it was
        placement = state_placement(self, runner.engine, manifest, state, on_driver_below)
        target, handover = self._placed(runner, placement)
        live = Maintained(saved, target, {}, self.extern, progress, choice, program=self,
                          saved=loaders(folder, manifest, saved, target.engine),
                          handover=handover)
        live.placement = placement
        return live

    def _placed(self, runner, placement: Placement):
        """The runner that maintains the program under ``placement`` and the handover
        of its frames to ``runner``'s engine: the oracle's on the driver, else
        ``runner`` itself and none."""
        if not placement.on_driver:
            return runner, None
        target = get_engine(ORACLE).runner(Settings())
        self._runners.add(target)
        return target, Handover(runner)

    def close(self) -> None:
        """Free what the runs of this program hold: stored tables and checkpoint files.
        Output DataFrames of earlier runs cannot be read afterwards."""
        for runner in list(self._runners):
            runner.close()
        self._runners.clear()
        for release in self._releases:
            release()
        self._releases.clear()
        self.last_runner = None
        self.last_compiled = self.compiled
        self._last_run = None

    def __enter__(self) -> "Program":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def register_views(self, spark=None, prefix: str = "", inputs: Optional[dict] = None,
                       master: Optional[str] = None) -> dict[str, str]:
        """Register every output as a temporary view named ``prefix + relation``
        (``::`` becomes ``_``), so that later ``spark.sql`` in the same job can query
        it; returns relation -> view name.

        The outputs of this program's last :meth:`run` on Spark are used when that run
        is still open (not closed) and was on the same session (``spark`` None or the
        same) with the same ``inputs`` (None, or the same sources: equal paths and
        table names, the very same DataFrames and lists); otherwise the program runs
        now."""
        last = self._last_run
        if (last is not None and last[0].engine == "spark"  # views of a Spark session
                and (spark is None or last[0].spark is spark)
                and (inputs is None or _inputs_key(inputs) == last[1])):
            frames = last[2]
        else:
            frames = self.run(spark=spark, inputs=inputs, master=master)
        views = {}
        for rel, df in frames.items():
            name = prefix + rel.replace("::", "_")
            df.createOrReplaceTempView(name)
            views[rel] = name
        return views

    def _evaluate(self, runner, inputs: dict, progress, loops=None) -> CompiledProgram:
        """Evaluate on ``runner``, wide integers NARROW where they fit
        (:mod:`dl2sql.api.speculation`); the program in the representation that ran."""
        self.last_runner = runner  # also when the run fails: what it holds is closed later

        def attempt(compiled: CompiledProgram) -> None:
            bound = self.bind_inputs(inputs, runner.engine, compiled=compiled)
            # outputs computed now: errors surface in this call, and the caller's later
            # actions only read stored results
            Evaluator(compiled, runner, progress, self.extern, loops).run(
                bound, tuple(self.outputs))
        return speculate(self.compiled, attempt, progress)[0]

    def bind_inputs(self, inputs: dict, engine: str, sources: bool = True,
                    compiled: Optional[CompiledProgram] = None) -> dict:
        """Loaders for the input relations on ``engine``: those named in ``inputs``
        (short or qualified names) and, with ``sources``, those with a ``#[source]``;
        their values stored as in ``compiled`` (this program in a representation of
        wide integers, by default the one its runs start in)."""
        frames = get_engine(engine).inputs
        compiled = compiled or self.compiled

        def wrap(rel: str, source):
            require_record_form(compiled, rel, str(source) if isinstance(
                source, (str, os.PathLike)) else "input")
            loader = frames(rel, source, compiled.layouts[rel].columns, compiled.type_env)
            loader.keep_duplicates = is_bag(rels[rel])  # a row's copies are its weight
            return loader
        rels = self.compiled.relations
        bound = {}
        for name, data in inputs.items():
            rel = self._resolve(name)
            if rels[rel].role != "input":
                raise InputError(f"`{name}` is not an input relation (inputs: "
                                 f"{', '.join(self.inputs) or 'none'})")
            bound[rel] = (RowsInput(compiled, rel, data)
                          if isinstance(data, (builtins.list, builtins.tuple, builtins.set))
                          else wrap(rel, data))
        for rel in self.inputs if sources else ():
            if rel not in bound and rels[rel].source:
                bound[rel] = wrap(rel, rels[rel].source)
        return bound

    def _resolve(self, name: str) -> str:
        rels = self.compiled.relations
        if name in rels:
            return name
        matches = [r for r in rels if r.rsplit("::", 1)[-1] == name]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise InputError(f"relation name `{name}` is ambiguous: {', '.join(matches)}")
        raise InputError(f"unknown relation `{name}`" + suggest(name, rels))

def _inputs_key(inputs: Optional[dict]) -> tuple:
    """What identifies a run's inputs: paths and table names by value, anything else
    (DataFrames, lists of rows) by identity."""
    def source(value):
        return ("v", str(value)) if isinstance(value, (str, os.PathLike)) else ("id", id(value))
    return tuple(sorted((name, source(value)) for name, value in (inputs or {}).items()))


class RowsInput:
    """Small inputs written in Python: a list of tuples of field values (or of single
    values for one-field relations), in declaration order. A maintained program asks
    for them as the table's columns have them (:meth:`as_rows`): it may work an
    input's changes out from them on the driver (:mod:`dl2sql.incremental.held`)
    and then never load them."""

    def __init__(self, compiled: CompiledProgram, relation: str, rows):
        self.compiled, self.relation, self.rows = compiled, relation, rows
        self._converted: Optional[list] = None

    def as_rows(self) -> list:
        """The rows converted to the table's columns (once; distinct, except for a
        stream or multiset, whose copies stay)."""
        if self._converted is not None:
            return self._converted
        env = self.compiled.type_env
        columns = self.compiled.layouts[self.relation].columns
        plain = all(as_is(t, env) for _, t in columns)
        out = []
        for i, row in enumerate(self.rows):
            values = row if isinstance(row, builtins.tuple) else (row,)
            if len(values) != len(columns):
                raise InputError(f"input relation `{self.relation}`: row {i} has "
                                 f"{len(values)} value(s), expected {len(columns)} "
                                 f"({', '.join(n for n, _ in columns)})")
            out.append(values if plain else builtins.tuple(
                to_sql(t, v, env) for (_, t), v in zip(columns, values)))
        if plain and not is_bag(self.compiled.relations[self.relation]):
            try:  # rows of scalars: their own keys
                out = builtins.list(dict.fromkeys(out))
            except TypeError:  # a list where a scalar belongs: said when loaded
                out = builtins.list({_hashable(row): row for row in out}.values())
        elif not is_bag(self.compiled.relations[self.relation]):
            # arrays (Vec, Set, Map) are lists
            out = builtins.list({_hashable(row): row for row in out}.values())
        self._converted = out
        return out

    def load_into(self, runner, table) -> int:
        """Load the rows (:meth:`as_rows`) into ``table``; the number of rows loaded."""
        out = self.as_rows()
        runner.load(table, out)
        return len(out)


def _hashable(value):
    """A normalised row or value with its lists as tuples (equal where it is equal)."""
    if isinstance(value, (builtins.list, builtins.tuple)):
        return builtins.tuple(_hashable(v) for v in value)
    return value
