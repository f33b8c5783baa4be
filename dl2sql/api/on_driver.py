"""Small runs evaluated on the driver by the oracle, their results handed to the
engine (the policy and why: :mod:`dl2sql.plan.placement`)."""
from __future__ import annotations

import functools
import os

from dl2sql.engines import ORACLE, Settings, engine
from dl2sql.io.duckdb_frames import can_collect
from dl2sql.io.spark_driver_rows import SparkDriverRows
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Table
from dl2sql.plan.placement import (DriverPolicy, Placement, commands_reason, driver_reason,
                                   state_reason)


def placement_for(program, name: str, inputs: dict, below, spark=None) -> Placement:
    """Where ``program`` (a :class:`~dl2sql.api.program.Program`) runs on engine
    ``name`` with ``inputs`` (as :meth:`Program.run` takes them), under the engine's
    driver policy with ``max_rows`` set by ``below`` (:meth:`DriverPolicy.with_rows`).
    With a classic ``spark`` session, DataFrames and catalog tables count by Spark's
    estimate of their bytes (they reach the driver through Arrow or pandas)."""
    policy = _policy(name, below)
    estimate = driver_rows = None
    if spark is not None and can_collect():
        from dl2sql.io.spark_frames import estimated_bytes  # deferred: Spark's side
        estimate = functools.partial(estimated_bytes, spark)
        driver_rows = SparkDriverRows(spark)
    on_driver, reason = driver_reason(_sources(program, inputs), policy, estimate,
                                      driver_rows)
    return Placement(on_driver, reason, ORACLE if on_driver else name, policy)


def state_placement(program, name: str, manifest: dict, directory: str, below
                    ) -> Placement:
    """Where ``program`` opened from a saved state (its ``manifest``, in
    ``directory``) is maintained on engine ``name``: on the driver where the state is
    small under the engine's driver policy (as a run's inputs are), on a local path.
    Each run decides anew from the state's rows, so a state that grew goes back to the
    engine (the engines write states that both read)."""
    relations = manifest["relations"]
    inputs = sum(e.get("rows") or 0 for rel, e in relations.items()
                 if rel in program.compiled.relations
                 and program.compiled.relations[rel].role == "input")
    rows = sum(e.get("rows") or 0 for e in relations.values())
    rows += sum(e.get("rows") or 0 for e in manifest.get("history", {}).values())
    on_driver, reason = state_reason(inputs, rows, _policy(name, below),
                                     remote="://" in directory)
    return Placement(on_driver, reason, ORACLE if on_driver else name)


def _policy(name: str, below):
    """Engine ``name``'s driver policy with ``max_rows`` set by ``below``, or None."""
    policy = engine(name).driver
    return policy.with_rows(below) if policy is not None else None


def _read_by(spark, source):
    """``source`` as the oracle reads it: a catalog table's name (no file of the
    driver) as the DataFrame ``spark`` reads it, which the oracle collects."""
    if isinstance(source, str) and not os.path.isfile(source):
        return spark.table(source)
    return source


def _sources(program, inputs: dict) -> dict:
    """Every input relation's source: given by the call, else its `#[source]`."""
    sources = {program._resolve(rel): value for rel, value in inputs.items()}
    for rel in program.inputs:  # `#[source]` tables the call does not override
        if rel not in sources and program.compiled.relations[rel].source:
            sources[rel] = program.compiled.relations[rel].source
    return sources


def driver_inputs(program, inputs: dict, spark) -> dict:
    """``inputs`` for the oracle, every input relation's source (named by the call or
    by a `#[source]`) as :func:`_read_by` gives it."""
    return {rel: _read_by(spark, source) for rel, source in _sources(program, inputs).items()}


def commands_placement(name: str, size: int, below) -> Placement:
    """Where a replay of ``size`` bytes of commands on engine ``name`` runs, under the
    engine's driver policy with ``max_rows`` set by ``below``; a replay hands nothing
    to the engine (its results are printed)."""
    policy = _policy(name, below)
    on_driver, reason = commands_reason(size, policy)
    return Placement(on_driver, reason, ORACLE if on_driver else name, policy)


def evaluate_on_driver(program, runner, inputs: dict, progress, policy: DriverPolicy):
    """Evaluate ``program`` on a fresh oracle runner in this process and load its
    outputs into ``runner``; the compiled program in the representation that ran, or
    None (nothing loaded) when the outputs hold more rows than ``policy`` hands over."""
    oracle = engine(ORACLE).runner(Settings())
    try:
        compiled = program._evaluate(oracle, inputs, progress)
        plan = compiled.plan_for(ORACLE)
        tables = [plan.relations[rel] for rel in program.outputs]
        with oracle.running():
            if sum(oracle.size(t) for t in tables) > policy.max_result_rows:
                return None
            fetched = oracle.fetch_all(tables)
        target = compiled.plan_for(runner.engine)
        with runner.running():
            for rel, rows in zip(program.outputs, fetched):  # stored by their first reader
                runner.hold(target.relations[rel], rows)
        return compiled
    finally:
        oracle.close()


class Handover:
    """The frames of a program maintained on the driver (by the oracle) made frames of
    the engine: each :meth:`changes` or :meth:`contents` loads the rows into a table of
    the engine's runner, readable until the next transaction (:meth:`release`), as
    the engine's own frames of a maintained program are."""

    def __init__(self, runner):
        self.runner = runner  # the engine's
        self._made: list[Table] = []

    def given(self, sources: dict) -> dict:
        """Sources a transaction gives (relation -> rows, path, DataFrame or table
        name) as the oracle reads them (:func:`_read_by`)."""
        return {rel: _read_by(self.runner.spark, source) for rel, source in sources.items()}

    def changes(self, live, rel: str):
        """The last transaction's changes of ``rel`` (``Maintained.changes``)."""
        made = live.change_table(rel)  # on the oracle, dropped with the next transaction
        rows = live.runner.fetch(made)
        columns = self._columns(live, rel) + made.columns[-1:]  # and the weight
        return self._frame(Table(made.name, columns, (), rel), rows)

    def contents(self, live, rel: str):
        """Every row of ``rel`` now (``Maintained.contents``)."""
        rows = live.runner.fetch(live.updater.plan.relations[rel])
        return self._frame(Table(table_name(rel, "contents"), self._columns(live, rel), (),
                                 rel), rows)

    def _columns(self, live, rel: str) -> tuple:
        return live.compiled.plan_for(self.runner.engine).relations[rel].columns

    def _frame(self, table: Table, rows: list):
        # a name of its own: a frame handed over earlier stays readable until release
        table = Table(f"{table.name}_{len(self._made)}", table.columns, (), table.relation)
        with self.runner.running():
            self.runner.hold(table, rows)
        self._made.append(table)
        return engine(self.runner.engine).frame(self.runner, table)

    def release(self) -> None:
        """Free the tables of the frames handed over so far."""
        if self._made:
            self.runner.drop_all(self._made)
        self._made = []
