"""The one driver of every fixpoint loop: a program's evaluation
(:mod:`dl2sql.plan.interpret`) and a maintained program's updates
(:mod:`dl2sql.incremental.execute`) both run their loops here, so that the iteration
limits, the fused semi-naive steps, the check that the loop counts what it waits on
and the progress reports are the same for both. Each interpreter says how to run the
loop's body once; this module decides how often.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.plan import limits
from dl2sql.plan.nodes import Loop, Materialize


def iterate(loop: Loop, body: Callable[[bool], dict], progress=None,
            after_round: Optional[Callable[[], None]] = None) -> int:
    """Run ``loop`` until every table it waits on (``until_empty``) is empty; the
    number of iterations run.

    ``body(counted)`` runs the loop's body once and returns the rows of the tables it
    counted (``counted`` False: a fused step before the one that is tested, which need
    count nothing, :func:`steps_for`). ``after_round()`` runs after each round whose
    tables are not all empty (a maintenance gives up there). A round that leaves a
    waited-on table uncounted fails: the loop could not end."""
    started = time.perf_counter()
    counts: dict = {}
    iteration = 0
    largest: Optional[int] = None  # the largest delta counted so far
    relations = counted_relations(loop)
    while True:
        # the plan's bound, the user's (--max-iterations) and the planner's deadline
        limits.check(loop.stratum, iteration, loop.max_iterations, counts, relations)
        t0 = time.perf_counter()
        steps = steps_for(loop, largest)
        counts = {}
        for step in range(steps):
            counts.update(body(step == steps - 1))
        iteration += steps
        largest = max(largest or 0, sum(n or 0 for n in counts.values()))
        missing = [name for name in loop.until_empty if name not in counts]
        if missing:
            raise RuntimeFailure(
                f"stratum {loop.stratum}: loop body does not count {', '.join(missing)}")
        if progress is not None:
            progress.on_iteration(loop.stratum, iteration, dict(counts),
                                  time.perf_counter() - t0)
        if all(counts[name] == 0 for name in loop.until_empty):
            break
        if after_round is not None:
            after_round()
    if progress is not None and hasattr(progress, "on_loop_end"):
        progress.on_loop_end(loop.stratum, iteration, time.perf_counter() - started)
    return iteration


def counted_relations(loop: Loop) -> dict[str, str]:
    """The relation of each table the body of ``loop`` counts (for messages)."""
    out = {}
    for stmt in loop.body:
        if isinstance(stmt, Materialize) and stmt.count and stmt.target.relation:
            out[stmt.target.name] = stmt.target.relation
    return out


def steps_for(loop: Loop, largest_delta: Optional[int]) -> int:
    """Semi-naive steps to run before the next termination test.

    On Spark the uncounted steps are lazy, so one job runs them all and the per-job
    overhead (~0.1 s) is paid once; extra steps after the fixpoint derive nothing, so
    the result is the same. That pays in long thin recursions, where every delta is
    small. Once a delta was large the relations are large too: every step's own work
    (deduplicating against the whole relation) dominates, the steps run past the
    fixpoint cost more than the jobs saved, and fused steps were measured slower
    (benchmarks: random-graph closure). So the first step, and every step once any
    delta counted ``loop.fuse_below_rows`` rows or more, is tested alone; the loop's
    ``steps_per_check`` comes from loop planning (:mod:`dl2sql.plan.loops`)."""
    steps = max(1, loop.steps_per_check)
    if steps == 1 or largest_delta is None:
        return 1
    return steps if largest_delta < loop.fuse_below_rows else 1
