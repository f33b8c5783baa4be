"""Runs that store wide integers NARROW while they can (:mod:`dl2sql.types.wide_ints`).

A program with wide integer types runs first with every such value a plain
DECIMAL(38,0), at native speed; where a value needs more than 38 digits (an input
value, a constant, a result), the NARROW plan fails with an
:class:`~dl2sql.diagnostics.IntegerOverflow`, and the run starts again from the same
inputs in the WIDE representation, which holds any value. The user sees the results
of the run that succeeded; the switch is reported to the run's progress observer
(``on_wide_integers(reason)``, :mod:`dl2sql.runner.progress`), never as an error.
"""
from __future__ import annotations

from typing import Callable, TypeVar

from dl2sql.compiler import CompiledProgram
from dl2sql.diagnostics import OVERFLOW_MARKER, OVERFLOWS, IntegerOverflow, RuntimeFailure

R = TypeVar("R")


def first(compiled: CompiledProgram) -> CompiledProgram:
    """``compiled`` in the representation its runs start in."""
    return compiled.represented(compiled.integers[0]) if compiled.integers else compiled


def speculate(compiled: CompiledProgram, attempt: Callable[[CompiledProgram], R],
              progress=None) -> tuple[CompiledProgram, R]:
    """``attempt(program)`` with ``program`` in ``compiled``'s representation, and
    where that raises IntegerOverflow, in each later one in turn (reported to
    ``progress``); the program it succeeded with, and its result. ``attempt`` starts
    from the inputs each time: it binds them itself. (An engine's own DECIMAL overflow
    counts as an IntegerOverflow in a NARROW plan, which leaves that check to it.)"""
    program = compiled
    while True:
        try:
            return program, attempt(program)
        except OVERFLOWS as e:
            wider = program.fallback()
            if wider is None:
                raise
            switched(progress, e)
            program = wider


def switched(progress, overflow: RuntimeFailure) -> None:
    """Tell ``progress`` (if it listens) that a run goes on with wide integers, and why."""
    note = getattr(progress, "on_wide_integers", None)
    if note is not None:
        note(reason(overflow))


def reason(overflow: RuntimeFailure) -> str:
    """Why a run went WIDE, for the user: the overflow's message without its marker."""
    text = str(overflow)
    if not isinstance(overflow, IntegerOverflow):  # the engine's own DECIMAL check
        engine = text[text.find("(engine: "):] if "(engine: " in text else f"({text})"
        return f"a value of a wide integer type needs more than the 38 digits of " \
               f"DECIMAL(38,0) {engine}"
    return text.replace(OVERFLOW_MARKER, "", 1).strip()
