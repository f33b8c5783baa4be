"""Part of a program evaluated on the oracle while the plan of another engine is made:
the constants of the program (:mod:`dl2sql.plan.constants`).

The part is a plan of the oracle, made by the oracle's own engine passes, and it runs
as any plan does: the shared interpreter on a runner of the oracle engine (a new one,
with no inputs), its Python UDFs registered as when the program runs
(:mod:`dl2sql.runner.functions`), engine errors turned into the same runtime failures
(:mod:`dl2sql.runner.errors`)."""
from __future__ import annotations

from typing import Optional

from dl2sql.engines import ENGINES, ORACLE
from dl2sql.plan.interpret import execute
from dl2sql.plan.nodes import Plan
from dl2sql.runner.errors import engine_errors
from dl2sql.runner.functions import register_udfs


def evaluate_on_oracle(plan: Plan, relations: tuple[str, ...], limit: int, env,
                       functions: dict) -> Optional[dict[str, list[tuple]]]:
    """The rows of ``relations`` (normalised, by relation) after running ``plan`` (a
    plan of the oracle engine, its SQL made, reading no input) on a new runner of the
    oracle; None when they hold more than ``limit`` rows together. ``functions`` are
    the program's DDlog functions; no extern is bound (a constant calls none that is
    bound at run time). Raises :class:`~dl2sql.diagnostics.RuntimeFailure` where the
    plan fails."""
    runner = ENGINES[ORACLE].runner()
    try:
        with runner.running(), engine_errors():
            register_udfs(runner, plan, env, functions, {}, set())
            execute(plan, runner, {})
            tables = [plan.relations[r] for r in relations]
            if sum(runner.size(t) for t in tables) > limit:
                return None
            return {r: runner.fetch(t) for r, t in zip(relations, tables)}
    finally:
        runner.close()
