"""What the executor (:mod:`dl2sql.incremental.execute`) does for streams, multisets and
delayed relations: the bag statements of the update plan, input streams emptied by
every transaction, and the history of the relations read delayed.

The history of a relation ``R`` read as ``R-1`` ... ``R-D`` holds its changes of the
last ``D`` transactions, stored beside the relations (and saved with them): when a
transaction ends, the oldest goes, the others move one transaction back, and ``R``'s
change of this transaction becomes the newest. The delayed relation ``R-N`` then takes
the change of ``N`` transactions ago (:mod:`dl2sql.incremental.bags`). The initial
evaluation counts as the first transaction: its change is ``R``'s contents.
"""
from __future__ import annotations

from typing import Optional

from sqlglot import exp

from dl2sql.incremental.bag_nodes import BagPatch, BagPlan, Replace
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Table


class BagUpdates:
    """The part of an :class:`~dl2sql.incremental.execute.Updater` (``updater``) that
    keeps weights and history, for an update plan whose ``bags`` is ``plan``."""

    def __init__(self, plan: BagPlan, updater):
        self.plan, self.u = plan, updater
        self.rows: dict[str, int] = {}  # rows of each history table
        self.loaded = False  # the history tables were loaded from a saved state
        self._before: Optional[dict] = None  # self.rows as the transaction found it
        updater.state |= {t.name for t, _ in plan.history()}

    def tables(self) -> dict[str, Table]:
        """The history tables (part of the state), by name."""
        return {t.name: t for t, _ in self.plan.history()}

    def start(self) -> None:
        """The history after the first evaluation (the newest change: every row), or
        as loaded from a saved state."""
        runner = self.u.runner
        for d in self.plan.delays:
            for k, pair in enumerate(d.tables):
                for t, version in zip(pair, ("plus", "minus")):
                    if self.loaded:
                        self.rows[t.name] = runner.size(t)
                    elif k == 0 and version == "plus":
                        self.rows[t.name] = runner.materialize(
                            t, _select_all(table_name(d.relation)), True)
                    else:
                        runner.load(t, [])
                        self.rows[t.name] = 0

    def begin(self) -> None:
        """A transaction starts: the executor learns which history tables are empty."""
        self._before = dict(self.rows)
        for t, _ in self.plan.history():
            if self.rows.get(t.name):
                self.u.empty.discard(t.name)
            else:
                self.u.empty.add(t.name)

    def pending(self, s) -> bool:
        """Whether input stratum ``s`` must run though no change was given for it: an
        input stream holding rows, which the transaction empties."""
        rel = s.relations[0]
        return rel in self.plan.stream_inputs and self.u.size(rel) > 0

    def run(self, stmt) -> bool:
        """Run ``stmt`` if it is a bag statement; whether it was one."""
        if isinstance(stmt, BagPatch):
            self._patch(stmt)
        elif isinstance(stmt, Replace):
            self._replace(stmt)
        else:
            return False
        return True

    def _patch(self, s: BagPatch) -> None:
        u, runner = self.u, self.u.runner
        plus = s.plus.name not in u.empty
        if s.minus.name not in u.empty:
            # every copy of a row of ``minus`` goes; the copies that stay come back
            # with ``plus`` (the runner's patch removes all equal rows, then inserts)
            n = runner.materialize(s.add, s.keep_plus if plus else s.keep, True)
            u._made(s.add.name, n)
            runner.patch(s.target, s.add if n else None, s.minus)
        elif plus:
            runner.append(s.target, s.plus)

    def _replace(self, s: Replace) -> None:
        u = self.u
        if s.source.name in u.empty:
            u.runner.load(s.target, [])
            return
        u.runner.rename(s.target, s.source)
        u.rows.pop(s.source.name, None)
        u.empty.add(s.source.name)

    def end(self) -> None:
        """A transaction ends (inside the runner's transaction): each history moves
        one transaction back and takes this transaction's change."""
        u, runner = self.u, self.u.runner
        for d in self.plan.delays:
            for t in d.tables[-1]:
                runner.drop(t)
            for k in range(len(d.tables) - 1, 0, -1):
                for older, newer in zip(d.tables[k], d.tables[k - 1]):
                    runner.rename(older, newer)
                    self.rows[older.name] = self.rows.get(newer.name, 0)
            for t, version in zip(d.tables[0], ("plus", "minus")):
                change = table_name(d.relation, version)
                if change in u.empty or change not in u.rows:
                    runner.load(t, [])
                    self.rows[t.name] = 0
                else:
                    self.rows[t.name] = runner.materialize(t, _select_all(change), True)

    def rollback(self) -> None:
        """The transaction failed: the runner restored the tables, this their sizes."""
        if self._before is not None:
            self.rows = self._before
        self._before = None


def _select_all(name: str) -> exp.Select:
    return exp.Select(expressions=[exp.Star()]).from_(
        exp.Table(this=exp.to_identifier(name, quoted=True)))
