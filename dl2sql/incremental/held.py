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

from collections import defaultdict
from typing import Iterable, Optional


class HeldRows:
    """The rows the driver holds of each input relation in ``holdable`` (full table
    names) that a search fetched, and this transaction's changes of them."""

    def __init__(self, holdable: Iterable[str]):
        self.holdable = frozenset(holdable)
        self.rows: dict[str, set] = {}  # as the last committed transaction left them
        self._changes: dict[str, tuple[list, list]] = {}  # this transaction's
        self._fetched: dict[str, list] = {}  # fetched whole in this transaction
        # the committed rows' edges as successor sets, by relation and columns (graph)
        self._graphs: dict[tuple[str, tuple[int, int]], dict] = {}

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

    def changed(self, relation: str) -> Optional[tuple[list, list]]:
        """The rows this transaction adds to and removes from ``relation``, where the
        driver worked them out (None otherwise)."""
        return self._changes.get(relation)

    def graph(self, relation: str, at: tuple[int, int],
              before: bool = False) -> Optional["Successors"]:
        """The edges ``(row[at[0]], row[at[1]])`` of held ``relation`` (rows of two
        columns, one edge each) as successor sets: as this transaction leaves them, or
        ``before`` it (None where the driver does not hold the relation). The sets of
        the committed rows are made once and kept up to date at each commit: a
        transaction's search reads them with its own changes over them, no copy."""
        held = self.rows.get(relation)
        if held is None:
            return None
        base = self._graphs.get((relation, at))
        if base is None:
            base = self._graphs[(relation, at)] = successors(
                (r[at[0]], r[at[1]]) for r in held)
        plus, minus = ((), ()) if before else self._changes.get(relation, ((), ()))
        return Successors(base, plus, minus, at)

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
        self._forget_graphs(relation)

    def _forget_graphs(self, relation: str) -> None:
        for key in [k for k in self._graphs if k[0] == relation]:
            del self._graphs[key]

    def commit(self) -> None:
        """The transaction succeeded: hold the rows it left."""
        for relation, (plus, minus) in self._changes.items():
            held = self.rows[relation]
            held.difference_update(minus)
            held.update(plus)
            for (name, (i, j)), graph in self._graphs.items():
                if name == relation:
                    for r in minus:
                        graph[r[i]].discard(r[j])
                    for r in plus:
                        graph[r[i]].add(r[j])
        for relation, rows in self._fetched.items():
            self.rows[relation] = set(rows)
            self._forget_graphs(relation)
        self.rollback()

    def rollback(self) -> None:
        """The transaction failed: its changes are forgotten, the rows held stay."""
        self._changes, self._fetched = {}, {}


def successors(edges: Iterable[tuple]) -> dict:
    """The ends of the edges ``(x, y)`` leaving each node ``x``, as sets."""
    after: dict = defaultdict(set)
    for x, y in edges:
        after[x].add(y)
    return after


class Successors:
    """A graph's successor sets (``base``, node -> set of ends) with the edges of rows
    ``plus`` added and those of rows ``minus`` removed (edges ``(row[at[0]],
    row[at[1]])``; ``plus`` holds no edge of ``base``, ``minus`` only edges of it),
    read without copying ``base``: :meth:`get` as a dict's."""

    def __init__(self, base: dict, plus, minus, at: tuple[int, int]):
        i, j = at
        self.base = base
        self.added = successors((r[i], r[j]) for r in plus)
        self.removed = successors((r[i], r[j]) for r in minus)

    def get(self, x, default=()):
        """The ends of the edges leaving ``x`` (``default`` where there are none)."""
        ends = self.base.get(x)
        gone, new = self.removed.get(x), self.added.get(x)
        if not gone and not new:
            return ends if ends else default
        ends = [y for y in ends or () if y not in gone] if gone else list(ends or ())
        return ends + list(new or ())
