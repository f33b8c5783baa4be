"""Part of a program evaluated on the oracle while the plan of another engine is made:
the constants of the program (:mod:`dl2sql.plan.constants`).

The part is a plan of the oracle, made by the oracle's own engine passes, and it runs
as any plan does: the shared interpreter on a runner of the oracle engine (a new one,
with no inputs), its Python UDFs registered as when the program runs
(:mod:`dl2sql.runner.functions`), engine errors turned into the same runtime failures
(:mod:`dl2sql.runner.errors`)."""
from __future__ import annotations

import os
import threading
from typing import Optional

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.engines import ENGINES, ORACLE
from dl2sql.plan import limits
from dl2sql.plan.interpret import execute
from dl2sql.plan.nodes import Plan
from dl2sql.runner.errors import engine_errors
from dl2sql.runner.functions import register_udfs

# Seconds of evaluation the planner spends on one stratum of constants before it leaves
# the stratum to the run: a recursion that never converges (a counter without bound)
# would otherwise keep `dl2sql compile` from ever finishing. upstream's simple2, the
# longest known to converge, takes about 2 s.
CONSTANT_SECONDS = 10.0


def evaluate_on_oracle(plan: Plan, relations: tuple[str, ...], limit: int, env,
                       functions: dict) -> Optional[dict[str, list[tuple]]]:
    """The rows of ``relations`` (normalised, by relation) after running ``plan`` (a
    plan of the oracle engine, its SQL made, reading no input) on a new runner of the
    oracle; None when they hold more than ``limit`` rows together. ``functions`` are
    the program's DDlog functions; no extern is bound (a constant calls none that is
    bound at run time). None too when the evaluation takes longer than
    :func:`budget_seconds`. Raises :class:`~dl2sql.diagnostics.RuntimeFailure` where
    the plan fails."""
    runner = ENGINES[ORACLE].runner()
    seconds = budget_seconds()
    # A recursive query is one statement, which only an interrupt stops in time; a
    # loop of many statements stops at the deadline (dl2sql.plan.limits).
    timer = threading.Timer(seconds, runner.interrupt)
    timer.daemon = True
    timer.start()
    try:
        with runner.running(), limits.deadline(seconds), engine_errors():
            register_udfs(runner, plan, env, functions, {}, set())
            execute(plan, runner, {})
            tables = [plan.relations[r] for r in relations]
            if sum(runner.size(t) for t in tables) > limit:
                return None
            return {r: runner.fetch(t) for r, t in zip(relations, tables)}
    except RuntimeFailure as e:
        if isinstance(e, limits.OutOfTime) or not timer.is_alive():  # the timer fired
            return None  # left to run time, where a run can be watched and stopped
        raise
    finally:
        timer.cancel()
        runner.close()


def budget_seconds() -> float:
    """Seconds the planner gives the evaluation of one stratum of constants:
    ``$DL2SQL_CONSTANT_SECONDS`` (for tests), else :data:`CONSTANT_SECONDS`."""
    try:
        return float(os.environ.get("DL2SQL_CONSTANT_SECONDS") or CONSTANT_SECONDS)
    except ValueError:
        return CONSTANT_SECONDS
