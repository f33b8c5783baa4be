"""Engine failures as messages a user can act on.

Engines report errors in their own terms, at length: a Spark error is a JVM stack
trace whose first line is a call site (``An error occurred while calling o123.sql``),
and a Python UDF's exception arrives as the worker's whole traceback behind ``An
exception was thrown from the Python worker``. :func:`engine_errors` turns any engine
error raised while dl2sql works into a :class:`RuntimeFailure` that says what failed:
a DDlog function's own failure with the function and rule (:mod:`dl2sql.runtime.udf`),
a wide integer beyond its NARROW form (:class:`~dl2sql.diagnostics.IntegerOverflow`),
DDlog's arithmetic errors, a Python worker's exception with its type and message, or
else the engine's first meaningful line.
"""
from __future__ import annotations

import contextlib
import re

from dl2sql.diagnostics import (DECIMAL_OVERFLOW, DecimalOverflow, InputError, RuntimeFailure,
                                overflow_failure)
from dl2sql.runner.interrupts import interrupt_for
from dl2sql.runtime.udf import udf_failure
from dl2sql.types.divisions import with_sites

# (what the engine's error holds, what it means, the failure raised)
_KNOWN_FAILURES = (
    (("DIVIDE_BY_ZERO", "REMAINDER_BY_ZERO", "Division by zero", "division by zero"),
     "division by zero", RuntimeFailure),
    (("NUMERIC_VALUE_OUT_OF_RANGE", "Overflow in", "Out of Range", "ARITHMETIC_OVERFLOW"),
     f"{DECIMAL_OVERFLOW}, where dl2sql computes bit<64> (wider integers and bigint "
     f"leave it before they would overflow)", DecimalOverflow),
    # a local checkpoint's blocks died with their executor
    (("Checkpoint block", "checkpointed this partition is no longer alive"),
     "an executor was lost, and with it tables that dl2sql kept in local checkpoints; "
     "give a checkpoint directory that every node can reach (--checkpoint-dir, "
     "checkpoint_dir= or spark.checkpoint.dir) so that runs survive lost executors",
     RuntimeFailure),
)

# the last line of a Python traceback: `pkg.module.SomeError: message`
_PYTHON_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning))"
                               r"(?::\s*(.*))?$")


@contextlib.contextmanager
def engine_errors(divisions: tuple[str, ...] = ()):
    """Inside this block, engine errors become :class:`RuntimeFailure` (see the module
    docstring); dl2sql's own errors pass unchanged, but for a division by zero, which
    is named after the places in ``divisions`` (:func:`dl2sql.types.divisions.division_sites`)
    that can cause it."""
    try:
        yield
    except InputError:
        raise
    except RuntimeFailure as e:
        located = with_sites(str(e), divisions)
        if type(e) is RuntimeFailure and located != str(e):
            raise RuntimeFailure(located) from e
        raise
    except Exception as e:
        stopped = interrupt_for(e)  # a signal stopped the engine: it failed for that
        if stopped is not None:
            raise stopped from e
        if _is_interrupt(e):
            raise KeyboardInterrupt from e
        overflow_failure(e)  # a NARROW plan's value beyond 38 digits
        raise _failure(e)(with_sites(engine_message(e), divisions)) from e


def _is_interrupt(e: Exception) -> bool:
    return type(e).__name__ == "Py4JError" and "KeyboardInterrupt" in str(e)


def engine_message(e: BaseException) -> str:
    """A readable message for engine error ``e``."""
    failed = udf_failure(e)
    if failed is not None:
        return failed
    text = str(e)
    for needles, message, _ in _KNOWN_FAILURES:
        if any(n in text for n in needles):
            return f"{message} (engine: {_first_line(text)[:300]})"
    worker = python_worker_exception(text)
    if worker is not None:
        return f"a Python worker of the engine failed: {worker}"
    return f"the engine failed while evaluating the program: {_first_line(text)[:300]}"


def _failure(e: BaseException) -> type:
    """The kind of RuntimeFailure that engine error ``e`` is."""
    if udf_failure(e) is None:
        for needles, _, kind in _KNOWN_FAILURES:
            if any(n in str(e) for n in needles):
                return kind
    return RuntimeFailure


def python_worker_exception(text: str) -> str | None:
    """``Type: message`` of the Python exception whose traceback ``text`` quotes (the
    last one, where exceptions are chained), or None."""
    at = text.rfind("Traceback (most recent call last)")
    if at < 0:
        return None
    found = None
    for line in text[at:].splitlines():
        m = _PYTHON_EXCEPTION.match(line.strip())
        if m and not line.startswith((" ", "\t")):
            found = m.group(0).strip()
    if found is None:
        return None
    return found + _hint(found)


def _hint(exception: str) -> str:
    if exception.startswith("ModuleNotFoundError") and "'dl2sql" in exception:
        return (" (the workers' Python cannot import dl2sql: install dl2sql there, or let "
                "dl2sql ship itself by running the program through it)")
    return ""


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return "unknown error"
    first = lines[0]
    if first.startswith("An error occurred while calling") and len(lines) > 1:
        first = lines[1].lstrip(": ")
    return first
