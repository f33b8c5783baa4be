"""When a transaction recomputes a stratum rather than maintaining it
(:class:`Choice`), and what earlier transactions taught about each recursive stratum
(:class:`History`); :mod:`dl2sql.incremental.execute` applies both."""
from __future__ import annotations

from dataclasses import dataclass, field
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
    # recompute a stratum when its maintenance is expected to take longer than this
    # many times its last recomputation (History.expects_longer)
    estimate_share: Optional[float] = 1.0
    # a recursive stratum maintained by derivation levels (dl2sql.incremental.dred):
    # "lazy", its levels made when it is recomputed after DRed gave up (until then,
    # DRed); "eager", also when maintenance starts; None (the default): DRed only. Not
    # the default: on the incremental suite it won where DRed gives up on every
    # deletion (points-to, 1+1) and lost where DRed completes (same generation on a
    # forest), its evaluation with levels costing 1.1-1.5x a plain one
    # (docs/performance.md)
    levels: Optional[str] = None

    @classmethod
    def never(cls) -> "Choice":
        """Always maintain, never recompute (tests of the algorithms)."""
        return cls(None, None, None, 0, None)


@dataclass
class History:
    """What earlier transactions taught about one stratum."""

    # its last recomputation (and diff); before one, the first evaluation's loop of a
    # recursive stratum, else that whole evaluation (a bound)
    recompute_seconds: Optional[float] = None
    backoff: int = 0  # transactions recomputed directly after the last give-up
    skip: int = 0  # of those, the ones still to come
    # (rows changed in the relations it reads, seconds) of its last maintenances
    observed: list = field(default_factory=list)

    # a deleting maintenance's seconds per algorithm (an average, the last counting
    # half), where a stratum has more than one (dl2sql.incremental.dred)
    spent: dict = field(default_factory=dict)

    def cheaper(self, methods: tuple[str, ...]) -> str:
        """The method of ``methods`` that cost least so far (one not tried yet first);
        the others look a fifth cheaper each time, so that a method that lost once on
        a slow transaction is tried again after a few."""
        untried = [m for m in methods if m not in self.spent]
        if untried:
            return untried[0]
        best = min(methods, key=self.spent.__getitem__)
        for m in methods:
            if m != best:
                self.spent[m] *= 0.8
        return best

    def took(self, method: str, seconds: float) -> None:
        """Learn that ``method`` maintained the stratum in ``seconds``."""
        before = self.spent.get(method)
        self.spent[method] = seconds if before is None else (before + seconds) / 2

    def expects_longer(self, changed: Optional[int], share: Optional[float]) -> bool:
        """Whether maintaining the stratum for ``changed`` rows read is expected to
        take longer than ``share`` times recomputing it: one of its last maintenances
        of at most as many rows did. (A maintenance costs a fixed part and a part per
        row: a cost per row learnt from small transactions overestimated larger ones
        5x on same generation in the incremental suite; but more rows do not cost
        less, up to noise, which :meth:`recomputed_by_estimate` lets go.)"""
        if share is None or changed is None or changed <= 0 or self.recompute_seconds is None:
            return False
        return any(n <= changed and t > share * self.recompute_seconds
                   for n, t in self.observed)

    def maintained(self, seconds: float, changed: Optional[int]) -> None:
        """Learn from a maintenance of ``changed`` rows read that took ``seconds``."""
        if changed is None or changed <= 0:
            return
        self.observed = [*self.observed[-(_OBSERVED - 1):], (changed, seconds)]

    def recomputed_by_estimate(self) -> None:
        """Forget the oldest maintenance: after a few recomputations chosen so, the
        stratum is maintained again and its cost measured anew (a slow maintenance
        must not keep it recomputed for ever, nor a stratum whose data changed)."""
        self.observed = self.observed[1:]


# the maintenances of a stratum that its History keeps
_OBSERVED = 4
