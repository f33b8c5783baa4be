"""Constants of the program: recursive strata that read no input, evaluated once when
the plan is made instead of by a loop at every run.

A relation is a *constant of the program* when its rows depend on nothing but the
program's own text: it is not an input (a delayed relation ``R-1`` is one too: replay
fills it), not a stream or multiset (whose rows are those of one transaction), not a
user transformer's output, every relation its rules read is a constant, and neither
its rules nor the functions they call (transitively) call an ``extern function`` that
is bound at run time (an extern outside ``ddlog_std``: the user's callable, or a
library function that a callable of the same qualified name replaces). Everything else
its rules compute with is deterministic, so such a relation holds the same rows in
every run and in every transaction; the incremental plan never touches it, since no
relation it reads ever changes.

On an engine whose :class:`~dl2sql.plan.loops.LoopPolicy` says so (``constant_rows``:
Spark, where every iteration of a loop is at least one job, ~0.1-0.25 s: upstream's
``simple2`` counts a relation up to 65,599 one row per iteration, hours there) each
recursive stratum of constants is evaluated once by the caller's ``evaluate`` (the
oracle: DuckDB's recursive query does that relation in about 2 s), and its
:class:`~dl2sql.plan.nodes.Fixpoint` becomes one :class:`~dl2sql.plan.nodes.Load` per
relation: its rows, part of the plan. The strata it reads are evaluated with it (those
folded already as their loads), not the inputs. A stratum of more rows than the policy
allows keeps its loop (its rows would be held in the plan, on the driver). A failure
of the evaluation (a function failing, a loop that does not converge) is kept in the
load, which raises it where the loop would have run. Non-recursive constants stay
statements: each is one query already.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Optional

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.passes.bags import is_bag
from dl2sql.passes.stratify import Stratum, dependency_edges
from dl2sql.plan.build import relation_table
from dl2sql.plan.nodes import Fixpoint, Load, Materialize, Plan, Transform
from dl2sql.ra.nodes import RelationLayout
from dl2sql.types import typed as T
from dl2sql.types.check_functions import calls_in
from dl2sql.types.model import RelationInfo

# evaluate(plan, relations, limit): the rows of ``relations`` (by relation) after
# running ``plan`` with no inputs, or None when they hold more than ``limit`` rows
# together; raises RuntimeFailure where the plan fails
Evaluate = Callable[[Plan, tuple, int], Optional[dict]]


@dataclass(frozen=True)
class Program:
    """What finding and folding constants reads of a compiled program."""

    relations: dict[str, RelationInfo]
    rules: list[T.CoreRule]
    strata: list[Stratum]
    functions: dict  # (name, targs) -> FunctionIR of the functions written in DDlog
    run_time_externs: frozenset[str]  # extern functions bound when the program runs
    layouts: dict[str, RelationLayout]


def constant_relations(program: Program) -> set[str]:
    """The relations that are constants of the program (see the module docs)."""
    reads = _reads(program.rules)
    bound = _calling_run_time_externs(program)
    constant: set[str] = set()
    for s in program.strata:  # in dependency order: what a stratum reads came before
        members = set(s.relations)
        info = [program.relations[r] for r in s.relations]
        if s.transform is not None or any(i.role == "input" or is_bag(i) for i in info) \
                or members & bound:
            continue
        if all(src in constant or src in members for r in members for src in reads.get(r, ())):
            constant |= members
    return constant


def _reads(rules: list[T.CoreRule]) -> dict[str, set[str]]:
    """Relation -> the relations its rules read (negated and aggregated too)."""
    reads: dict[str, set[str]] = {}
    for e in dependency_edges(rules):
        reads.setdefault(e.target, set()).add(e.source)
    return reads


def _calling_run_time_externs(program: Program) -> set[str]:
    """The relations whose rules call, directly or through DDlog functions, an extern
    function bound at run time."""
    by_name: dict[str, list] = {}
    for (name, _), fn in program.functions.items():
        by_name.setdefault(name, []).append(fn.body)
    reaches: dict[str, bool] = {}

    def calls_extern(func: str) -> bool:
        if func not in reaches:
            reaches[func] = False  # a recursive function: its other calls decide
            bodies = by_name.get(func)
            reaches[func] = (func in program.run_time_externs if bodies is None else
                             any(calls_extern(c.func) for b in bodies for c in calls_in(b)))
        return reaches[func]

    out = set()
    for rule in program.rules:
        if any(calls_extern(c.func) for c in calls_in(rule)):
            out |= {h.relation for h in rule.heads}
    return out


def fold_constants(plan: Plan, program: Program, limit: int, evaluate: Evaluate) -> Plan:
    """``plan`` (loops not planned yet) with each :class:`Fixpoint` of constants of at
    most ``limit`` rows replaced by loads of its rows, which ``evaluate`` computes."""
    constant = constant_relations(program)
    if limit <= 0 or not any(isinstance(s, Fixpoint) and s.relations[0] in constant
                             for s in plan.statements):
        return plan
    reads = _reads(program.rules)
    done: list = []
    for s in plan.statements:
        if isinstance(s, Fixpoint) and s.relations[0] in constant:
            done += _folded(s, done, plan, program, reads, limit, evaluate)
        else:
            done.append(s)
    return dataclasses.replace(plan, statements=tuple(done))


def _folded(f: Fixpoint, earlier: list, plan: Plan, program: Program, reads: dict,
            limit: int, evaluate: Evaluate) -> list:
    """The loads of ``f``'s relations, evaluated with the statements of ``earlier`` that
    make what they read (or ``f`` itself, when they hold more than ``limit`` rows)."""
    needed, todo = set(), list(f.relations)
    while todo:
        rel = todo.pop()
        if rel not in needed:
            needed.add(rel)
            todo += reads.get(rel, ())
    sub = tuple(s for s in earlier if _writes(s) & needed) + (f,)
    alone = Plan((), sub, {r: t for r, t in plan.relations.items() if r in needed})
    # every member, an aggregation's helpers too: a saved state holds them all
    members = f.relations
    try:
        rows = evaluate(alone, members, limit)
    except RuntimeFailure as e:
        return [Load(relation_table(program.layouts, rel), (), str(e),
                     f"{rel}: a constant of the program whose evaluation failed when planned")
                for rel in members]
    if rows is None:
        return [f]
    return [Load(relation_table(program.layouts, rel), tuple(rows[rel]), "",
                 f"{rel}: a constant of the program, {len(rows[rel])} rows evaluated "
                 f"once when planned") for rel in members]


def _writes(s) -> set[str]:
    """The relations a statement of a plan before loop planning writes."""
    if isinstance(s, Fixpoint):
        return set(s.relations)
    if isinstance(s, (Materialize, Load)):
        return {s.target.relation}
    if isinstance(s, Transform):
        return {t.relation for t in s.outputs}
    return set()
