"""Progress lines of a long run, on stderr, on a terminal or not.

A run that has gone on for :data:`AFTER_SECONDS` gets one line every
:data:`EVERY_SECONDS` at most, saying what it does: the recursive stratum, its
iteration and the rows each relation gained in the last iteration, or the statement
that runs (a recursive query of DuckDB does a whole recursion in one statement, and
reports no iterations). A short run prints nothing, so the lines can be on by default
on the command line (``--quiet`` turns them off); API runs print them when asked
(``report_after=``).

The lines come from a thread of their own: an iteration, or one statement, may take
longer than the interval, and the run is still reported.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Optional, TextIO

from dl2sql.plan.nodes import RECURSIVE_QUERY, Loop, Materialize

# a run this long (seconds) is reported; ``$DL2SQL_PROGRESS_AFTER`` sets it (for tests)
AFTER_SECONDS = 10.0
# at most one line per this many seconds
EVERY_SECONDS = 5.0


def report_after(default: float = AFTER_SECONDS) -> float:
    """The seconds after which the command line reports a run:
    ``$DL2SQL_PROGRESS_AFTER`` (for tests) or ``default``."""
    try:
        return float(os.environ.get("DL2SQL_PROGRESS_AFTER") or default)
    except ValueError:
        return default


class Heartbeat:
    """A progress observer that prints what the run does once it has run ``after``
    seconds, at most every ``every`` seconds (the first line at ``after``), on
    ``stream`` (stderr); every report is passed on to ``inner`` as well. Use as a
    context manager around the run."""

    def __init__(self, inner=None, after: float = AFTER_SECONDS,
                 every: Optional[float] = None, stream: Optional[TextIO] = None):
        self.inner = inner
        self.after = after
        # a short threshold (tests) gets lines as often
        self.every = every if every is not None else min(EVERY_SECONDS, max(after, 0.2))
        self.stream = stream
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._started = time.monotonic()
        self._stratum: Optional[str] = None  # the loop running, if any
        self._statement: Optional[str] = "starting the engine, planning"  # outside loops
        self._iteration = 0
        self._counts: dict = {}
        self._iteration_started = 0.0
        self.lines = 0  # printed so far

    def __enter__(self) -> "Heartbeat":
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._beat, name="dl2sql-progress",
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    # -- reports of the interpreters --------------------------------------------
    def on_statement(self, what: str, stmt) -> None:
        """A statement starts (a loop: ``what`` is its stratum)."""
        with self._lock:
            if isinstance(stmt, Loop):
                self._stratum, self._iteration, self._counts = what, 0, {}
                self._iteration_started = time.monotonic()
            elif self._stratum is None:  # a statement of a loop's body is the loop's
                self._statement = _statement_text(what, stmt)
        forward = getattr(self.inner, "on_statement", None)
        if forward is not None:
            forward(what, stmt)

    def on_iteration(self, stratum: str, iteration: int, counts: dict,
                     seconds: float) -> None:
        """An iteration of a loop ended, with the rows counted by table."""
        with self._lock:
            self._stratum, self._iteration, self._counts = stratum, iteration, dict(counts)
            self._iteration_started = time.monotonic()
        if self.inner is not None:
            self.inner.on_iteration(stratum, iteration, counts, seconds)

    def on_loop_end(self, stratum: str, iterations: int, seconds: float) -> None:
        """A loop converged."""
        with self._lock:
            self._stratum, self._statement = None, None
        if self.inner is not None and hasattr(self.inner, "on_loop_end"):
            self.inner.on_loop_end(stratum, iterations, seconds)

    def __getattr__(self, name):  # whatever else ``inner`` listens to (on_stratum, ...)
        inner = self.__dict__.get("inner")
        if inner is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(inner, name)

    # -- the lines ----------------------------------------------------------------
    def line(self) -> str:
        """What the run does now, in one line."""
        now = time.monotonic()
        with self._lock:
            stratum, iteration, counts = self._stratum, self._iteration, self._counts
            statement, since = self._statement, now - self._iteration_started
        head = f"dl2sql: running for {now - self._started:.0f} s: "
        if stratum is None:
            return head + (statement or "working")  # between statements
        text = head + f"recursive stratum {stratum}"
        if iteration == 0:
            return text + f", first iteration running for {since:.0f} s"
        added = ", ".join(f"{_relation(t)} +{n:,}" for t, n in counts.items())
        text += f", iteration {iteration:,}; rows added in the last: {added or 'none'}"
        if since >= self.every:
            text += f"; the next running for {since:.0f} s"
        return text

    def _beat(self) -> None:
        if self._stop.wait(self.after):
            return
        while True:
            self._write(self.line())
            if self._stop.wait(self.every):
                return

    def _write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        try:
            stream.write(text + "\n")
            stream.flush()
            self.lines += 1
        except (OSError, ValueError):  # stderr closed: nothing to report to
            self._stop.set()


def _statement_text(what: str, stmt) -> str:
    """What a run reports of statement ``stmt`` (``what``: its comment, or the text of
    a step that is no statement)."""
    # once SQL is made the query is SQL: loop planning's comment says what it is
    if isinstance(stmt, Materialize) and what.endswith(RECURSIVE_QUERY):
        return (f"evaluating {what[:-len(RECURSIVE_QUERY)]} by one recursive query (the "
                f"engine reports no iterations of it)")
    return f"evaluating {what}" if isinstance(stmt, Materialize) else what


def _relation(table: str) -> str:
    """The relation whose new or changed rows a loop counts in ``table`` (see
    :func:`dl2sql.plan.build.table_name`)."""
    base, sep, version = table.rpartition("__")
    return base.replace("__", "::") if sep and version in ("new", "changed") else table


def reported(progress, after: Optional[float]):
    """``progress`` within a :class:`Heartbeat` reporting after ``after`` seconds, or
    as it is (with a context that does nothing) when ``after`` is None."""
    if after is None:
        return _Plain(progress)
    return Heartbeat(progress, after)


class _Plain:
    def __init__(self, progress):
        self.progress = progress

    def __enter__(self):
        return self.progress

    def __exit__(self, *exc) -> None:
        return None
