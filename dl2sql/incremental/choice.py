"""When a transaction recomputes a stratum rather than maintaining it
(:class:`Choice`), and what earlier transactions taught about each recursive stratum
(:class:`History`); :mod:`dl2sql.incremental.execute` applies both."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Choice:
    """When recomputing a stratum is expected to be cheaper than maintaining it.

    ``recompute_share``: the relations a stratum reads changed by more than this share
    of their rows. Delete-and-rederive gives up (and recomputes) once it over-deleted
    more than ``overdelete_share`` of the stratum's rows, or once over-deletion took
    longer than ``overdelete_time_share`` of the stratum's last recomputation (before
    the first, of its loop in the program's first evaluation, else of that whole
    evaluation; over-deletion measured 0.49 of a DRed that completes on a random graph's
    transitive closure and 0.23 on same generation, medians of 12 transactions). After giving up, the stratum is recomputed
    directly for the next 1, 2, 4, ... (at most ``backoff``) transactions that would
    delete from it, then DRed is tried again; a DRed that completes resets it. None (or
    0 for ``backoff``) turns a rule off. Measured in ``benchmarks/incremental.py``
    (docs/performance.md, run 15)."""

    recompute_share: Optional[float] = 0.5
    overdelete_share: Optional[float] = 0.25
    overdelete_time_share: Optional[float] = 0.3
    backoff: int = 16

    @classmethod
    def never(cls) -> "Choice":
        """Always maintain, never recompute (tests of the algorithms)."""
        return cls(None, None, None, 0)


@dataclass
class History:
    """What earlier transactions taught about one recursive stratum."""

    recompute_seconds: Optional[float] = None  # its last recomputation (and diff)
    backoff: int = 0  # transactions recomputed directly after the last give-up
    skip: int = 0  # of those, the ones still to come
