"""``dl2sql compile --emit update``: the plan that applies a transaction, stratum by
stratum, as the executor of :mod:`dl2sql.incremental.execute` runs it on an engine.

Each stratum shows its method (``rules``, ``group``, ``dred``, ``closure``, ...), the
relations whose changes wake it, and its statements: the plan's own (``:=`` a query,
loops, checks) and the update's branches that the executor takes at run time, each
with the condition that decides it (a table's size, the rows the driver holds, a share
of over-deleted rows). What the branch conditions' thresholds are comes from the
engine's policy; the decision itself is made per transaction (``--explain`` of
``run``/``replay`` says what was taken).
"""
from __future__ import annotations

from dl2sql.compiler.emit import _plan_lines
from dl2sql.incremental.choice import Choice
from dl2sql.incremental.bag_nodes import BagPatch, Replace
from dl2sql.incremental.nodes import (BySize, DriverSearch, Enough, InputOnDriver, Lookup,
                                      OverDeletion, VariantsOnDriver)
from dl2sql.engines import ENGINES
from dl2sql.plan.nodes import Choose, Loop, Patch
from dl2sql.plan.thresholds import fields_text


def _policy(engine: str) -> list[str]:
    """The thresholds the branches below are decided by: the engine's loop policy
    (:data:`dl2sql.engines.ENGINES`) and the default choice between maintaining and
    recomputing (:class:`~dl2sql.incremental.choice.Choice`; ``maintain(choice=...)``
    sets another); and those by which its runner keeps the rows of each statement
    (:mod:`dl2sql.plan.thresholds`; ``maintain(thresholds=...)`` sets others)."""
    return [f"-- loops: {fields_text(ENGINES[engine].loops)}",
            f"-- choice (the default): {fields_text(Choice())}",
            f"-- runner thresholds: {ENGINES[engine].thresholds.text()}"]


def emit_update(program, dialect: str) -> str:
    """The update plan of ``program`` on the engine of ``dialect``, as text."""
    engine = next(name for name, e in ENGINES.items() if e.dialect == dialect)
    plan = program.update_for(engine)
    lines = [f"-- the update plan on {engine}: what one transaction runs", *_policy(engine)]
    for rel, tables in plan.changes.items():  # kind (insert, delete, ...) -> its table
        names = ", ".join(f"{kind} in {t.name}" for kind, t in tables.items())
        lines.append(f"changes of {rel}: the transaction's rows, {names}")
    for rel, lookup in plan.lookups.items():
        lines.append(f"before a transaction, {rel}'s stored rows of the changed keys:")
        _statements((lookup.found,), dialect, lines, 1)
    if plan.init:
        lines.append("once, after the first evaluation:")
        _statements(plan.init, dialect, lines, 1)
    for s in plan.strata:
        reads = f"when {', '.join(s.reads)} changed" if s.reads else "the transaction's changes"
        negates = f"; negates {', '.join(s.negates)}" if s.negates else ""
        lines.append(f"stratum {s.name}: {s.method} ({reads}{negates})")
        _statements(s.statements, dialect, lines, 1)
        if s.recompute:
            lines.append("  or, recomputed:")
            _statements(s.recompute, dialect, lines, 2)
            _statements(s.diff, dialect, lines, 2)
        if s.levels is not None:
            names = ", ".join(t.name for t in s.levels.lasting)
            lines.append(f"  or, by derivation levels (kept in {names}):")
            _statements(s.levels.deletion + s.levels.insertion, dialect, lines, 2)
            lines.append("  or, by DRed keeping the levels:")
            _statements(s.levels.dred + s.levels.insertion, dialect, lines, 2)
            lines.append("  or, recomputed with levels:")
            _statements(s.levels.rebuild, dialect, lines, 2)
            _statements(s.diff, dialect, lines, 2)
        if s.undo:
            lines.append("  on giving up, the stored relations back as they were:")
            _statements(s.undo, dialect, lines, 2)
    return "\n".join(lines) + "\n"


def _statements(stmts, dialect: str, lines: list[str], depth: int) -> None:
    pad = "  " * depth
    if not stmts:
        lines.append(f"{pad}nothing")
    for s in stmts:
        if isinstance(s, OverDeletion):
            tables = ", ".join(t for _, t in s.deleted)
            lines.append(f"{pad}over-deletion, recomputing instead once {tables} hold more "
                         f"than a share of the rows:")
            _statements((s.loop,), dialect, lines, depth + 1)
        elif isinstance(s, Enough):
            tables = " x ".join(t.name for t in s.tables)
            lines.append(f"{pad}recompute instead when {tables} exceed {s.share} of "
                         f"{s.relation} ({s.why})")
        elif isinstance(s, BySize):
            lines.append(f"{pad}if {s.table.name} has at most {s.limit} rows:")
            _statements(s.small, dialect, lines, depth + 1)
            lines.append(f"{pad}else:")
            _statements(s.large, dialect, lines, depth + 1)
        elif isinstance(s, DriverSearch):
            lines.append(f"{pad}if {s.edges.name} has at most {s.below} rows: the closure's "
                         f"search on the driver, making {s.new_edges.name}, "
                         f"{s.reached.name}, {s.pending.name}")
            lines.append(f"{pad}else:")
            _statements(s.first + s.otherwise, dialect, lines, depth + 1)
        elif isinstance(s, InputOnDriver):
            lines.append(f"{pad}if the driver holds {s.relation.name}: {s.plus.name} and "
                         f"{s.minus.name} from {s.inserted.name} and {s.deleted.name} there")
            lines.append(f"{pad}else:")
            _statements(s.otherwise, dialect, lines, depth + 1)
        elif isinstance(s, VariantsOnDriver):
            lines.append(f"{pad}on the driver when it holds every part's rows, else:")
            _statements((s.statement,), dialect, lines, depth + 1)
        elif isinstance(s, Lookup):
            _statements((s.found,), dialect, lines, depth)
        elif isinstance(s, Patch):
            parts = ([f"+ {s.plus.name}"] if s.plus else []) + \
                ([f"- {s.minus.name}"] if s.minus else [])
            lines.append(f"{pad}{s.target.name} patched in place: {' '.join(parts)}")
        elif isinstance(s, BagPatch):
            lines.append(f"{pad}{s.target.name} patched in place, copy by copy: "
                         f"+ {s.plus.name} - {s.minus.name}")
        elif isinstance(s, Replace):
            lines.append(f"{pad}{s.target.name} := {s.source.name} (replaced whole)")
        elif isinstance(s, Loop):
            lines.append(f"{pad}repeat (stratum {s.stratum}):")
            _statements(s.body, dialect, lines, depth + 1)
            lines.append(f"{pad}until empty: {', '.join(s.until_empty)}")
        elif isinstance(s, Choose):
            lines.append(f"{pad}if the edges have at most {s.max_degree} per source "
                         f"(long thin paths): {s.stratum} by doubling")
            _statements(s.doubling, dialect, lines, depth + 1)
            lines.append(f"{pad}else:")
            _statements(s.linear, dialect, lines, depth + 1)
        else:
            before = len(lines)
            _plan_lines((s,), dialect, False, lines, depth)
            if len(lines) == before:  # a statement kind the plan printer does not know
                lines.append(f"{pad}{type(s).__name__}")
