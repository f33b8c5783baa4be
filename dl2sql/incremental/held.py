"""Input relations whose rows the driver holds between transactions.

A transitive closure whose edges are few is searched on the driver
(:class:`~dl2sql.incremental.nodes.DriverSearch`), which fetches every edge at each
transaction. Where the edges are an input relation given its changes as rows, the
driver keeps the rows it fetched and brings them up to date itself: the rows a
transaction adds and removes are then worked out on the driver
(:class:`~dl2sql.incremental.nodes.InputOnDriver`) and the next search fetches nothing.
On Spark each of the two was a job, a fifth of a small transaction's time.

The held rows change only when a transaction commits: a failed one leaves them as the
stored relation is left, as they were. A relation whose changes the engine made (rows
given as a DataFrame or a file) is let go, and fetched again by the next search.
"""
from __future__ import annotations

from typing import Iterable, Optional


class HeldRows:
    """The rows the driver holds of each input relation in ``holdable`` (full table
    names) that a search fetched, and this transaction's changes of them."""

    def __init__(self, holdable: Iterable[str]):
        self.holdable = frozenset(holdable)
        self.rows: dict[str, set] = {}  # as the last committed transaction left them
        self._changes: dict[str, tuple[list, list]] = {}  # this transaction's
        self._fetched: dict[str, list] = {}  # fetched whole in this transaction

    def holds(self, relation: Optional[str]) -> bool:
        """Whether the driver holds ``relation``'s rows now."""
        return relation in self.rows

    def changes(self, relation: str, inserted: Optional[list],
                deleted: Optional[list]) -> Optional[tuple[list, list]]:
        """The rows ``relation`` gains and loses in this transaction, where the driver
        holds it and the ``inserted`` and ``deleted`` rows are known (None when not:
        the engine makes them, and the relation is let go). Deletions apply first: a
        row deleted and inserted again stays."""
        held = self.rows.get(relation)
        if held is None or inserted is None or deleted is None:
            self.release(relation)
            return None
        again = dict.fromkeys(inserted)
        plus = [r for r in again if r not in held]
        minus = [r for r in dict.fromkeys(deleted) if r in held and r not in again]
        self._changes[relation] = (plus, minus)
        return plus, minus

    def now(self, relation: str) -> Optional[tuple[list, list, list]]:
        """``relation``'s rows in this transaction, with those it added and removed,
        where the driver worked its changes out (None otherwise)."""
        change = self._changes.get(relation)
        if change is None:
            return None
        plus, minus = change
        gone = set(minus)
        return [r for r in self.rows[relation] if r not in gone] + plus, plus, minus

    def fetched(self, relation: str, rows: list) -> None:
        """``relation``'s rows as this transaction leaves them, fetched whole: held from
        its end, where the relation may be held."""
        if relation in self.holdable:
            self._fetched[relation] = rows

    def release(self, relation: str) -> None:
        """Hold ``relation`` no more (too large to search on the driver, or changed by
        the engine)."""
        self.rows.pop(relation, None)
        self._changes.pop(relation, None)
        self._fetched.pop(relation, None)

    def commit(self) -> None:
        """The transaction succeeded: hold the rows it left."""
        for relation, (plus, minus) in self._changes.items():
            held = self.rows[relation]
            held.difference_update(minus)
            held.update(plus)
        for relation, rows in self._fetched.items():
            self.rows[relation] = set(rows)
        self.rollback()

    def rollback(self) -> None:
        """The transaction failed: its changes are forgotten, the rows held stay."""
        self._changes, self._fetched = {}, {}
