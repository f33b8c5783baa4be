"""Bounds on recursive loops that hold while a run goes on: an iteration limit (the
user's ``--max-iterations``, ``max_iterations=``) and a deadline (the planner's budget
for evaluating constants of the program, :mod:`dl2sql.compiler.oracle`).

They are context variables rather than parameters because a loop runs many calls below
the API call that sets them (evaluation, speculation on wide integers, incremental
maintenance, replay), and every one of those paths would otherwise have to pass them
on. The interpreters of both plans (:mod:`dl2sql.plan.interpret`,
:mod:`dl2sql.incremental.execute`) read them at every iteration.

An engine whose recursive query runs a whole recursion as one statement (DuckDB's
recursive union) cannot count its iterations: while an iteration limit is in force,
recursive strata are planned as counted loops instead (:func:`counted_policy`).
"""
from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import time
from typing import Iterator, Optional

from dl2sql.diagnostics import RuntimeFailure

_MAX_ITERATIONS: contextvars.ContextVar[Optional[int]] = contextvars.ContextVar(
    "dl2sql_max_iterations", default=None)
_DEADLINE: contextvars.ContextVar[Optional[float]] = contextvars.ContextVar(
    "dl2sql_deadline", default=None)


class OutOfTime(RuntimeFailure):
    """A loop passed the deadline of :func:`deadline` (the planner gives the stratum up
    to run time; never shown to a user)."""


@contextlib.contextmanager
def iteration_limit(n: Optional[int]) -> Iterator[None]:
    """Inside this block a recursive loop fails after ``n`` iterations (None: only the
    plan's own bound); a limit already in force that is lower stays."""
    if n is not None and n < 1:
        raise ValueError(f"max_iterations must be at least 1, not {n}")
    outer = _MAX_ITERATIONS.get()
    token = _MAX_ITERATIONS.set(n if outer is None else outer if n is None else min(n, outer))
    try:
        yield
    finally:
        _MAX_ITERATIONS.reset(token)


def max_iterations() -> Optional[int]:
    """The iteration limit in force, or None."""
    return _MAX_ITERATIONS.get()


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Inside this block a loop raises :class:`OutOfTime` at the first iteration that
    starts more than ``seconds`` from now, and no iteration limit is in force (the
    deadline bounds the work, and what is evaluated under it must not depend on a
    user's limit: the planner keeps its results)."""
    token = _DEADLINE.set(time.monotonic() + seconds)
    cleared = _MAX_ITERATIONS.set(None)
    try:
        yield
    finally:
        _MAX_ITERATIONS.reset(cleared)
        _DEADLINE.reset(token)


def check(stratum: str, iteration: int, plan_limit: int, counts: dict,
          relations: dict) -> None:
    """Before iteration ``iteration + 1`` of the loop of ``stratum``: raise
    :class:`RuntimeFailure` when it would pass the iteration limit (the lower of
    ``plan_limit`` and the one in force), saying which relations still grow by how
    much (``counts``: rows counted in the last iteration by table; ``relations``: the
    relation of each counted table), or :class:`OutOfTime` past the deadline."""
    due = _DEADLINE.get()
    if due is not None and time.monotonic() > due:
        raise OutOfTime(f"stratum {stratum}: out of time after {iteration} iterations")
    limit = _MAX_ITERATIONS.get()
    limit = plan_limit if limit is None else min(limit, plan_limit)
    if iteration < limit:
        return
    # a naive loop (recursion through group_by) counts the rows that changed
    kind = "changed" if counts and all(t.endswith("__changed") for t in counts) else "added"
    rows = ", ".join(f"{relations.get(t, t)} {n:,}" for t, n in counts.items() if n)
    raise RuntimeFailure(
        f"stratum {stratum} did not converge within {limit:,} iterations (rows {kind} "
        f"by its last iteration: {rows or 'none counted'}); a rule that keeps making new "
        f"values (a counter, a string that grows) never converges: bound it with a "
        f"condition, or, if it does converge, allow more iterations (--max-iterations, "
        f"max_iterations=)")


def counted_policy(policy):
    """``policy`` (a :class:`~dl2sql.plan.loops.LoopPolicy`) as the limit in force
    needs it: without recursive queries, whose iterations cannot be counted, while an
    iteration limit is in force."""
    if _MAX_ITERATIONS.get() is None or not (policy.recursive_union or
                                             policy.keyed_recursion):
        return policy
    return dataclasses.replace(policy, recursive_union=False, keyed_recursion=False)
