"""Where a run is evaluated: on its engine, or on the driver by the oracle.

A Spark job costs tens of milliseconds however few its rows, and a small program runs
hundreds of them (docs/performance.md, issue 45's breakdown), while DuckDB in the
driver process evaluates the same plan in milliseconds. So an engine may declare a
:class:`DriverPolicy`: a run whose inputs are all known on the driver (rows given in
Python, files on the driver's file system) and small is evaluated by the oracle
(:data:`dl2sql.engines.ORACLE`) in the driver process, and its results are handed to
the engine as tables of their rows; the engine's frames, writers and later queries read
them as they read any table. The results are the same either way: the engines agree on
every program (the property and conformance tests check it), and each result row
crosses in the normalised form both runners share (:mod:`dl2sql.runner.base`).

DataFrames and catalog tables count by the engine's estimate of their bytes, which
costs no job (the caller gives it). Where the engine has none, a frame of rows the
driver gave (``createDataFrame`` of a Python list: the rows are in the driver's memory
already) counts as rows given in Python, all such frames counted by one job (the
caller's :class:`DriverRows`), since a small run kept on the engine costs dozens of
jobs; any other keeps the run on the engine: counting it would cost what reading it
does, and reading a large one onto the driver is what a user with a cluster does not
want. A run whose results turn out larger than ``max_result_rows`` is evaluated again
on the engine (handing many rows over from Python costs more than the engine's
evaluation of them).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional, Protocol

# the environment variable that sets ``max_rows`` for every run that does not say
# (0: never on the driver); the test suite sets it to exercise the engines' runners
ENVIRONMENT = "DL2SQL_ON_DRIVER_BELOW"


@dataclass(frozen=True)
class DriverPolicy:
    """When a run is evaluated on the driver: at most ``max_rows`` input rows given in
    Python and at most ``bytes_per_row`` bytes a row of input files (``max_file_bytes``),
    and at most ``max_result_rows`` rows in the results handed to the engine (else it
    is evaluated again on the engine)."""

    max_rows: int = 100_000
    bytes_per_row: int = 64
    max_result_rows: int = 1_000_000

    @property
    def max_file_bytes(self) -> int:
        """The input files' budget."""
        return self.max_rows * self.bytes_per_row

    def with_rows(self, rows) -> "DriverPolicy":
        """This policy with ``max_rows`` set by a caller (None: by the environment
        variable :data:`ENVIRONMENT`, else unchanged; a :class:`DriverPolicy`: that
        one); 0 turns the driver off."""
        if isinstance(rows, DriverPolicy):
            return rows
        if rows is None:
            text = os.environ.get(ENVIRONMENT, "").strip()
            if not text:
                return self
            try:
                rows = int(text)
            except ValueError:
                raise ValueError(f"{ENVIRONMENT} must be a number of rows, not "
                                 f"{text!r}") from None
        if rows < 0:
            raise ValueError(f"on_driver_below must be at least 0, not {rows}")
        return DriverPolicy(rows, self.bytes_per_row, self.max_result_rows)


@dataclass(frozen=True)
class Placement:
    """Where a run was evaluated and why (``run --explain`` prints :meth:`text`)."""

    on_driver: bool
    reason: str
    engine: str  # the engine whose runner evaluated the plan
    policy: Optional[DriverPolicy] = None  # the policy it was decided by

    def text(self) -> str:
        """One line: where and why."""
        where = f"on the driver ({self.engine})" if self.on_driver else f"on {self.engine}"
        return f"evaluated {where}: {self.reason}\n"


def _closed(policy: Optional[DriverPolicy]) -> Optional[str]:
    """Why no run goes to the driver under ``policy``, or None."""
    if policy is None:
        return "the engine evaluates every run itself"
    if policy.max_rows == 0:
        return "the driver is turned off (on_driver_below=0)"
    return None


def commands_reason(size: int, policy: Optional[DriverPolicy]) -> tuple[bool, str]:
    """Whether a replay of ``size`` bytes of commands is small enough for the driver
    under ``policy`` (as files are), and why."""
    closed = _closed(policy)
    if closed is not None:
        return False, closed
    if size > policy.max_file_bytes:
        return False, f"{size:,} bytes of commands, more than {policy.max_file_bytes:,}"
    return True, f"{size:,} bytes of commands (at most {policy.max_file_bytes:,})"


def state_reason(input_rows: int, rows: int, policy: Optional[DriverPolicy],
                 remote: bool = False) -> tuple[bool, str]:
    """Whether a saved state of ``rows`` rows in all (``input_rows`` of them in input
    relations) is small enough for the driver under ``policy`` (its inputs within
    ``max_rows``, the whole within ``max_result_rows``), and why; one at a Hadoop URL
    (``remote``) is the engine's to read."""
    closed = _closed(policy)
    if closed is not None:
        return False, closed
    if remote:
        return False, "a state at a Hadoop URL is read by the engine"
    if input_rows > policy.max_rows:
        return False, (f"a saved state of {input_rows:,} input rows, more than "
                       f"{policy.max_rows:,}")
    if rows > policy.max_result_rows:
        return False, f"a saved state of {rows:,} rows, more than {policy.max_result_rows:,}"
    return True, (f"a saved state of {rows:,} rows, {input_rows:,} of them inputs (at most "
                  f"{policy.max_result_rows:,} and {policy.max_rows:,})")


class DriverRows(Protocol):
    """The engine's frames of rows the driver gave (a DataFrame of a Python list)."""

    def holds(self, source) -> bool:
        """Whether ``source`` is such a frame (no job)."""

    def count(self, sources: list) -> Optional[int]:
        """The rows of ``sources`` in all, by one job (None: not counted)."""


def driver_reason(sources: dict, policy: Optional[DriverPolicy],
                  estimate=None, driver_rows: Optional[DriverRows] = None
                  ) -> tuple[bool, str]:
    """Whether inputs ``sources`` (relation -> rows given in Python, a path, or any
    other source) are small enough for the driver under ``policy``, and why. Any other
    source counts by ``estimate(source)``, the engine's estimate of its bytes without
    a job, within the files' budget; where that is None, a frame that ``driver_rows``
    holds counts as rows given in Python (all of them counted by one job, once the
    other inputs fit), and any other keeps the run on the engine."""
    closed = _closed(policy)
    if closed is not None:
        return False, closed
    rows = files = frames = 0
    counted: list = []  # frames of the driver's rows, counted last
    for rel, source in sorted(sources.items()):
        if isinstance(source, (list, tuple, set, frozenset)):
            rows += len(source)
        elif isinstance(source, (str, os.PathLike)) and os.path.isfile(source):
            files += os.path.getsize(source)
        elif source is not None:
            size = estimate(source) if estimate is not None else None
            if size is not None:
                frames += size
            elif driver_rows is not None and driver_rows.holds(source):
                counted.append(source)
            else:
                return False, f"input `{rel}` is not on the driver ({_kind(source)})"
    if rows > policy.max_rows:
        return False, f"{rows:,} input rows, more than {policy.max_rows:,}"
    if files + frames > policy.max_file_bytes:
        what = "of input files" if not frames else "of input files and tables"
        return False, f"{files + frames:,} bytes {what}, more than {policy.max_file_bytes:,}"
    in_frames = ""
    if counted:
        n = driver_rows.count(counted)
        if n is None:
            return False, "the engine failed to count the rows of the driver's DataFrames"
        rows += n
        in_frames = f", {n:,} of them in DataFrames of the driver's rows (counted)"
        if rows > policy.max_rows:
            return False, f"{rows:,} input rows{in_frames}, more than {policy.max_rows:,}"
    reason = (f"{rows:,} input rows given in Python{in_frames} (at most "
              f"{policy.max_rows:,}) and {files:,} bytes of input files")
    if frames:
        reason += f" and tables ({frames:,} bytes by the engine's estimate)"
    return True, reason + f" (at most {policy.max_file_bytes:,})"


def _kind(source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return "a table or directory whose size is not known without a job"
    return f"a {type(source).__name__} whose size is not known without a job"
