"""The plan interpreter shared by every runner.

The interpreter owns control flow (loading inputs, statement order, the fixpoint loop
and its termination test); the runner owns data. Keeping the loop here means Spark and
DuckDB cannot disagree about when a recursive stratum has converged.
"""
from __future__ import annotations

import contextlib
import time
from typing import Optional, Protocol

from dl2sql.diagnostics import InputError, RuntimeFailure, runtime_failure
from dl2sql.plan.fixpoint import iterate
from dl2sql.plan.nodes import (Append, Choose, Load, Loop, Materialize, Plan, Refuse, Rename,
                               Stmt, Table, Transform)


class Progress(Protocol):
    """Optional observer of a running plan (see :mod:`dl2sql.runner.progress`)."""

    def on_iteration(self, stratum: str, iteration: int, counts: dict, seconds: float) -> None:
        """Called after each iteration of a loop with the sizes of its counted tables."""

    def on_loop_end(self, stratum: str, iterations: int, seconds: float) -> None:
        """Called when a loop has converged."""


def execute(plan: Plan, runner, inputs: dict[str, list[tuple]], progress: Optional[Progress] = None,
            transforms: Optional[dict] = None) -> None:
    """Run ``plan`` on ``runner``.

    Every table of ``plan.inputs`` is loaded from ``inputs``: normalised rows, or an
    object whose ``load_into(runner, table)`` loads it (a missing name loads an empty
    table); then the statements run in order. A :class:`Loop` repeats until all
    its ``until_empty`` tables were counted empty in the same iteration, and raises
    :class:`RuntimeFailure` naming the stratum and the last delta sizes after
    ``max_iterations``; it runs as many bodies per termination test as the plan says
    (:func:`steps`). A :class:`Choose` takes its doubling branch where the probe finds
    the graph long and thin. A runner with ``looping(loop)`` runs each loop inside that
    context manager (the Spark runner applies its co-partitioning settings once per
    loop there). A :class:`Transform` runs ``transforms[name](statement, runner)``
    (the API binds user transformers, :mod:`dl2sql.api.transformers`). A :class:`Load`
    loads its rows (a constant of the program), or raises the failure that computing
    them met.
    """
    for table in plan.inputs:
        data = inputs.get(table.name, ())
        _announce(progress, f"loading input {table.relation or table.name}", None)
        if hasattr(data, "load_into"):  # a DataFrame, table or file bound by the API
            data.load_into(runner, table)
        else:
            runner.load(table, list(data))
    _run_block(plan.statements, runner, progress, {}, transforms=transforms)


def run_statements(stmts: tuple[Stmt, ...], runner, progress: Optional[Progress] = None,
                   transforms: Optional[dict] = None) -> None:
    """Run plan statements whose inputs the runner holds already (a part of a plan)."""
    _run_block(stmts, runner, progress, {}, transforms=transforms)


def _run_block(stmts: tuple[Stmt, ...], runner, progress, counts: dict,
               counted: bool = True, transforms: Optional[dict] = None) -> None:
    for stmt in stmts:
        if isinstance(stmt, Materialize):
            if stmt.comment and not stmt.count:  # a loop's body counts; it is announced
                _announce(progress, stmt.comment, stmt)
            count = stmt.count and counted
            started = time.perf_counter()
            n = runner.materialize(stmt.target, stmt.query, count)
            on_made = getattr(progress, "on_made", None)
            if on_made is not None:
                on_made(stmt.target, time.perf_counter() - started)
            if count:
                counts[stmt.target.name] = n
        elif isinstance(stmt, Append):
            runner.append(stmt.target, stmt.source)
        elif isinstance(stmt, Rename):
            runner.rename(stmt.target, stmt.source)
        elif isinstance(stmt, Loop):
            _announce(progress, stmt.stratum, stmt)
            _run_loop(stmt, runner, progress)
        elif isinstance(stmt, Choose):
            _run_block(stmt.doubling if _wants_doubling(stmt, runner) else stmt.linear,
                       runner, progress, counts)
        elif isinstance(stmt, Load):
            if stmt.failure:
                raise runtime_failure(stmt.failure)  # as the oracle reported it
            runner.load(stmt.target, list(stmt.rows))
        elif isinstance(stmt, Transform):
            run = (transforms or {}).get(stmt.transformer)
            if run is None:
                raise RuntimeFailure(f"transformer `{stmt.transformer}` (applied at "
                                     f"{stmt.origin}) has no implementation bound")
            run(stmt, runner)
        elif isinstance(stmt, Refuse):
            refuse_rows(stmt, runner.fetch(stmt.table))
        else:
            raise TypeError(f"not a plan statement: {stmt!r}")


def refuse_rows(stmt: Refuse, rows: list) -> None:
    """Fail with ``stmt``'s message and the first of ``rows``, if there are any."""
    if rows:  # sorted: the same message on every engine
        shown = ", ".join(sorted(str(tuple(r)) for r in rows)[:3])
        raise InputError(f"{stmt.message}: {shown}{', ...' if len(rows) > 3 else ''}")


def _announce(progress, what: str, stmt) -> None:
    """Tell ``progress`` (where it listens, :class:`dl2sql.runner.heartbeat.Heartbeat`)
    what runs now: a statement of one query may run long (DuckDB's recursive query
    does a whole recursion), and a report of the run names it."""
    on_statement = getattr(progress, "on_statement", None)
    if on_statement is not None:
        on_statement(what, stmt)


def _wants_doubling(choose: Choose, runner) -> bool:
    """Whether to evaluate a transitive closure by doubling: paths are long and thin
    (few edges per source). Loop planning made the choice only for engines that pay
    much per iteration."""
    runner.materialize(choose.probe, choose.probe_query, False)
    (edges, sources), = runner.fetch(choose.probe)
    runner.drop(choose.probe)
    return sources > 0 and edges <= choose.max_degree * sources


def loop_settings(runner, loop: Loop):
    """Context of a whole ``loop`` on ``runner``: its ``looping(loop)`` where it has one
    (Spark: the session settings a loop plans under), else nothing."""
    looping = getattr(runner, "looping", None)
    return looping(loop) if looping else contextlib.nullcontext()


def _run_loop(loop: Loop, runner, progress) -> None:
    with loop_settings(runner, loop):
        _iterate(loop, runner, progress)


def _iterate(loop: Loop, runner, progress) -> None:
    def body(counted: bool) -> dict:
        counts: dict = {}
        _run_block(loop.body, runner, progress, counts, counted=counted)
        return counts
    iterate(loop, body, progress)


def fetch_relation(plan: Plan, runner, rel_name: str) -> list[tuple]:
    """The rows of DDlog relation ``rel_name`` after :func:`execute` (normalised form)."""
    try:
        table: Table = plan.relations[rel_name]
    except KeyError:
        raise KeyError(
            f"no relation {rel_name!r} in plan (known: {', '.join(sorted(plan.relations))})"
        ) from None
    return runner.fetch(table)
