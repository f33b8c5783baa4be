"""Running an update plan (:mod:`dl2sql.incremental.nodes`, its SQL made by
:mod:`dl2sql.sqlgen.update_sql`) on a runner, one transaction at a time.

The executor knows which temporary tables are empty: a stratum that reads no changed
relation is skipped, and a rule variant that joins an empty change is left out of its
query. It chooses per stratum and transaction between the incremental algorithm and
recomputing the stratum (:class:`Choice`), and a transaction runs inside the runner's
``transaction()``: a failure leaves the stored relations as they were.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from dl2sql.incremental.bag_execute import BagUpdates
from dl2sql.incremental.build import RECURSIVE_AGGREGATION, written
from dl2sql.incremental.choice import Choice, History
from dl2sql.incremental.decisive import decisive_tables
from dl2sql.incremental.driver_work import DriverWork
from dl2sql.incremental.nodes import StratumUpdate, UpdatePlan
from dl2sql.incremental.statements_run import GiveUp, StatementRunner
from dl2sql.plan.build import table_name
from dl2sql.plan.interpret import run_statements
from dl2sql.plan.nodes import Table


# the method of a transitive closure whose removed edges are all paths still
NOTHING_LOST = "closure (no path lost)"
# the methods that may give up (and recompute) part-way: after a give-up, the next
# 1, 2, 4, ... transactions that delete recompute the stratum directly (Choice.backoff)
GIVE_UP_NAMES = {"dred": "DRed", "closure": "the closure"}
# the method of a stratum whose maintenance was expected to cost more than recomputing
ESTIMATED = "recompute (cheaper by estimate)"
# a stratum recomputed inside a transaction costs its evaluation and the comparison of
# its new rows with the old ones (a full outer join of about the same size): 1.4-2x
# the evaluation alone in the incremental suite (reachcount, strings)
RECOMPARED = 1.5
# the methods of a recursive stratum whose level tables are up to date
# (dl2sql.incremental.dred): deletion by levels, or DRed keeping the levels, whichever
# cost less so far (DRed where rows have one derivation each, as on a forest)
LEVELS = "dred by levels"
LEVELS_KEPT = "dred (levels kept)"


@dataclass
class Outcome:
    """What a transaction did: per relation the rows added and removed (those it
    changed), and per stratum the method that maintained it."""

    added: dict[str, int] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    methods: dict[str, str] = field(default_factory=dict)


class Updater(StatementRunner):
    """Applies transactions to the relations a runner stores (all of them evaluated
    already, each in its full table)."""

    def __init__(self, plan: UpdatePlan, runner, progress=None, choice: Choice = Choice(),
                 transforms: Optional[dict] = None):
        self.plan, self.runner, self.progress, self.choice = plan, runner, progress, choice
        self.transforms = transforms  # user transformers (dl2sql.api.transformers)
        self.state = {t.name for t in plan.relations.values()}
        self.state |= {t.name for t in written(plan.init)}
        self.sizes: dict[str, int] = {}  # rows of each relation
        self.rows: dict[str, int] = {}  # rows of each temporary table made
        self.empty: set[str] = set()
        self._left: set[str] = set()  # small temporary tables not dropped (clear)
        self.counted: dict[str, int] = {}  # rows of the tables made by a loop's body
        self._names: dict[int, tuple] = {}
        self.history: dict[str, History] = {}
        self._started = 0.0  # when the stratum being updated started
        self._past = History()  # and what is known of it
        # where counting a table costs an engine action (Spark), only the tables whose
        # size decides something are counted; the others are left for the engine to
        # compute when something reads them
        self.decisive = (decisive_tables(plan) if getattr(runner, "counting_costs", False)
                         else None)
        # streams, multisets and delayed relations (dl2sql.incremental.bag_execute)
        self.bags = BagUpdates(plan.bags, self) if plan.bags is not None else None
        # what the driver works out instead of the engine, and the rows it holds
        self.driver = DriverWork(plan)
        self.held = self.driver.held
        # run inside each transaction as it commits (dl2sql.api.savepoints' log)
        self.on_commit: Optional[Callable[[], None]] = None
        # the level tables of recursive strata (kept between transactions, not state
        # that a savepoint or a saved state restores), and the strata whose level
        # tables are up to date
        self.lasting = {t.name for s in plan.strata if s.levels is not None
                        for t in s.levels.lasting}
        self.leveled: set[str] = set()

    def expect(self, seconds: dict[str, float], otherwise: Optional[float],
               made: Optional[dict[str, float]] = None) -> None:
        """What evaluating each stratum took in a first evaluation: its loop's
        ``seconds`` (by stratum), else the sum of its relations' tables' (``made``, by
        relation, where the runner computed them as it made them; times RECOMPARED,
        for the comparison with the old rows that recomputing it here adds), else
        ``otherwise`` (the whole evaluation: a bound). Until a stratum is recomputed
        here, its estimate and DRed's time limit are measured against that."""
        made = made or {}
        for s in self.plan.strata:
            t = seconds.get(s.name)
            if t is None and all(r in made for r in s.relations):
                t = RECOMPARED * sum(made[r] for r in s.relations)
            t = otherwise if t is None else t
            if s.method != "input" and t is not None:
                self.history.setdefault(s.name, History()).recompute_seconds = t

    def start(self) -> None:
        """Prepare the freshly evaluated relations for transactions."""
        run_statements(self.plan.init, self.runner, self.progress)
        if self.choice.levels == "eager":
            for s in self.plan.strata:
                if s.levels is not None:
                    self._run(s.levels.rebuild)
                    self.leveled.add(s.name)
            self.clear(everything=True)
        for rel, t in self.plan.relations.items():
            self.sizes[rel] = self.runner.size(t)
        if self.bags is not None:
            self.bags.start()

    # -- a transaction -----------------------------------------------------------------
    def apply(self, changes: dict[str, dict]) -> Outcome:
        """Apply a transaction: ``changes`` maps input relations to their changes by
        kind (``insert``, ``delete``, and for a primary-key relation
        ``insert_or_update`` and ``delete_key``), each normalised rows (of the
        relation; for ``delete_key``, one-column rows of keys), an object whose
        ``as_rows()`` gives them, or one whose ``load_into(runner, table)`` loads
        them. Rows of a relation the driver holds (:mod:`dl2sql.incremental.held`)
        are loaded only if the engine works its changes out. Deletions apply first: a
        row both deleted and inserted is present after it. The previous transaction's
        temporary tables (its changes included) are dropped first, or left to be
        replaced (:meth:`clear`)."""
        self.clear()
        self.driver.begin()
        for rel, kinds in changes.items():
            for kind, data in kinds.items():
                table = self.plan.changes[rel][kind]
                if data is None:
                    continue
                if hasattr(data, "as_rows"):  # rows known on the driver
                    data = data.as_rows()
                elif hasattr(data, "load_into"):  # may answer with its number of rows
                    n = data.load_into(self.runner, table)
                    self.rows[table.name] = n if isinstance(n, int) else self.runner.size(table)
                    continue
                rows = list(data)  # distinct rows (a count only estimates the cost)
                if not self.driver.given(table, rows):
                    self.runner.load(table, rows)
                self.rows[table.name] = len(rows)
        outcome = Outcome()
        sizes = dict(self.sizes)
        self.empty = {n for n in self.plan.tables if n not in self.state and (
            self.rows.get(n) == 0 if n in self.lasting else not self.rows.get(n))}
        if self.bags is not None:
            self.bags.begin()
        try:
            with self.runner.transaction():
                for s in self.plan.strata:
                    self._stratum(s, outcome)
                if self.bags is not None:
                    self.bags.end()
                if self.on_commit is not None:
                    self.on_commit()
        except BaseException:
            self.held.rollback()
            self.forget_levels()
            self.sizes = sizes
            self.rows, self.empty = {}, set(self.plan.tables) - self.state
            if self.bags is not None:
                self.bags.rollback()
            raise
        self.held.commit()
        return outcome

    def lookup(self, rel: str, keys: list[tuple]) -> list[tuple]:
        """The stored rows of primary-key input relation ``rel`` whose keys are
        ``keys`` (normalised one-column rows), as the last transaction left them."""
        look = self.plan.lookups[rel]
        self.runner.load(look.keys, keys)
        try:
            self.runner.materialize(look.found.target, look.found.query.choose(set()), False)
            return self.runner.fetch(look.found.target)
        finally:
            self.runner.drop_all([look.keys, look.found.target])

    def clear(self, everything: bool = False) -> None:
        """Drop the temporary tables of the last transaction (``everything``: also the
        small ones left for the next transaction to replace)."""
        names = {name for name in self.rows if name not in self.state
                 and name not in self.lasting}
        keep = 0
        if everything:
            names |= self._left
        else:
            keep = self.runner.thresholds.kept_rows
        # a table left over is never read: one not made by this transaction is empty
        # for it (and replaced where a statement makes it)
        small = {n for n in names if self.rows.get(n) is not None and self.rows[n] < keep}
        dropped = sorted(names - small)
        self._left = (self._left | small) - set(dropped)
        self.runner.drop_all([self.plan.tables.get(name) or Table(name, ())
                              for name in dropped])
        self.rows = {n: k for n, k in self.rows.items() if n in self.lasting}

    def forget_levels(self) -> None:
        """The level tables are no longer up to date (the relations were changed
        otherwise, or a transaction failed): each stratum by levels is maintained by
        DRed until it is recomputed."""
        self.leveled.clear()

    def size(self, rel: str) -> int:
        """The rows of relation ``rel`` now: known from the changes counted, else counted
        (where counting costs, a transaction counts only what decides; a decision that
        needs the size of a relation whose changes were not counted counts it then)."""
        n = self.sizes.get(rel)
        if n is None:
            n = self.sizes[rel] = self.runner.size(self.plan.relations[rel])
        return n

    def changed(self, rel: str) -> bool:
        """Whether the last transaction changed relation ``rel``."""
        return any(table_name(rel, v) not in self.empty for v in ("plus", "minus"))

    def _stratum(self, s: StratumUpdate, outcome: Outcome) -> None:
        if s.method == "input":
            if not any(self.rows.get(t.name) for t in self.plan.changes[s.relations[0]].values()) \
                    and not (self.bags is not None and self.bags.pending(s)):
                return
        elif not any(self.changed(r) for r in s.reads):
            return
        t0 = self._started = time.perf_counter()
        leveled = s.levels is not None and self.choice.levels is not None
        method = maintain = LEVELS if leveled and s.name in self.leveled else s.method
        past = self._past = self.history.setdefault(s.name, History())
        changed = self._changed_rows(s)
        deletes = self._deletes(s)
        if s.method not in ("input", RECURSIVE_AGGREGATION) and self._large(s):
            method = "recompute"
        elif s.method in GIVE_UP_NAMES and past.skip and deletes:
            past.skip -= 1
            method = f"recompute ({GIVE_UP_NAMES[s.method]} gave up recently)"
        elif s.method not in ("input", RECURSIVE_AGGREGATION) and past.expects_longer(
                changed, self.choice.estimate_share):
            method = ESTIMATED
            past.recomputed_by_estimate()
        if method == maintain == LEVELS and deletes:
            method = maintain = past.cheaper((LEVELS, LEVELS_KEPT))
        if method == maintain:  # maintained, unless it gives up
            try:
                self._run(s.statements if maintain == s.method else
                          (s.levels.deletion if maintain == LEVELS else s.levels.dred)
                          + s.levels.insertion)
            except GiveUp as why:
                if maintain != s.method or leveled:  # plain DRed: what keeping levels costs
                    past.took(LEVELS_KEPT if maintain == s.method else maintain,
                              time.perf_counter() - t0)
                method = f"recompute ({why})"
                self._run(s.undo)
                if s.method == "dred":
                    self._undo_overdeletion(s)
                if s.method in GIVE_UP_NAMES and maintain != LEVELS_KEPT:
                    # (DRed tried where the levels are up to date: they stay, below, and
                    # the next deletion goes by them)
                    past.backoff = min(max(1, 2 * past.backoff), self.choice.backoff)
                    past.skip = past.backoff
            else:
                if maintain == s.method:
                    self.leveled.discard(s.name)
                elif deletes:
                    past.took(maintain, time.perf_counter() - t0)
                past.maintained(time.perf_counter() - t0, changed)
                if s.method in GIVE_UP_NAMES and deletes:
                    past.backoff = past.skip = 0
                if s.lossless is not None and deletes \
                        and s.lossless.name in self.empty:
                    method = NOTHING_LOST
        if method.startswith("recompute"):
            started = time.perf_counter()
            # with its levels (dearer: 1.1-1.5x in the incremental suite) only where
            # the next transaction that deletes will maintain it: the last of the
            # recomputations after a give-up, or after DRed tried where the levels were
            # up to date (Choice.levels)
            self._recompute(s, leveled and (maintain == LEVELS_KEPT or not past.skip
                                            and method.endswith("gave up recently)")))
            past.recompute_seconds = time.perf_counter() - started
        for rel in s.relations:
            plus = self.rows.get(table_name(rel, "plus"), 0)
            minus = self.rows.get(table_name(rel, "minus"), 0)
            if plus is None or minus is None:  # counted again when a decision needs it
                self.sizes[rel] = None
            elif self.sizes.get(rel) is not None:
                self.sizes[rel] += plus - minus
            if plus:
                outcome.added[rel] = plus
            if minus:
                outcome.removed[rel] = minus
        outcome.methods[s.name] = method
        on_stratum = getattr(self.progress, "on_stratum", None)
        if on_stratum is not None:
            on_stratum(s.name, method, time.perf_counter() - t0)

    def _changed_rows(self, s: StratumUpdate) -> Optional[int]:
        """The rows by which the relations the stratum reads changed (None where a
        change was not counted)."""
        counts = [self.rows.get(table_name(r, v)) for r in s.reads for v in ("plus", "minus")
                  if table_name(r, v) not in self.empty]
        return None if any(n is None for n in counts) else sum(counts)

    def _large(self, s: StratumUpdate) -> bool:
        """Whether the stratum's inputs changed by more than the share that makes
        recomputing it cheaper."""
        change = sum(self.rows.get(table_name(r, v)) or 0 for r in s.reads
                     for v in ("plus", "minus"))
        share = self.choice.recompute_share
        if share is None or not change:
            return False
        base = sum(self.size(r) for r in s.reads)
        return base > 0 and change > share * base

    def _deletes(self, s: StratumUpdate) -> bool:
        """Whether DRed would over-delete: a relation the stratum reads lost rows, or
        one it negates gained some."""
        return (any(table_name(r, "minus") not in self.empty for r in s.reads)
                or any(table_name(r, "plus") not in self.empty for r in s.negates))

    def _undo_overdeletion(self, s: StratumUpdate) -> None:
        """Over-deletion only wrote temporary tables: forget them."""
        for rel in s.relations:
            for v in ("del", "ddelta", "dnew"):
                self._vanish(self.plan.tables[table_name(rel, v)])

    def _recompute(self, s: StratumUpdate, leveled: bool = False) -> None:
        """The stratum evaluated anew (``leveled``: with its level tables) and its
        changes made."""
        for rel in s.relations:
            full, old = self.plan.relations[rel], self.plan.tables[table_name(rel, "old")]
            rows = self.size(rel)  # before the rename: it may count the stored table
            self.runner.rename(old, full)
            self.rows[old.name] = rows
            self.empty.discard(old.name)
        if leveled:
            self._run(s.levels.rebuild)
            self.leveled.add(s.name)
        else:
            self.leveled.discard(s.name)
            run_statements(s.recompute, self.runner, self.progress, self.transforms)
            for t in written(s.recompute):  # the loop's tables, dropped with the others
                if t.name not in self.state:
                    self.rows.setdefault(t.name, 0)
        self._run(s.diff)
