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

from sqlglot import exp

from dl2sql.incremental.bag_execute import BagUpdates
from dl2sql.incremental.build import RECURSIVE_AGGREGATION, written
from dl2sql.incremental.choice import Choice, History
from dl2sql.incremental.decisive import decisive_tables
from dl2sql.incremental.driver_work import DriverWork
from dl2sql.incremental.nodes import (BySize, DriverSearch, Enough, InputOnDriver,
                                      OverDeletion, Refuse, StratumUpdate, UpdatePlan,
                                      VariantsOnDriver)
from dl2sql.plan.build import table_name
from dl2sql.plan.fixpoint import iterate
from dl2sql.plan.interpret import loop_settings, refuse_rows, run_statements
from dl2sql.plan.nodes import Append, Loop, Materialize, Patch, Rename, Table


# the method of a transitive closure whose removed edges are all paths still
NOTHING_LOST = "closure (no path lost)"
# the methods that may give up (and recompute) part-way: after a give-up, the next
# 1, 2, 4, ... transactions that delete recompute the stratum directly (Choice.backoff)
GIVE_UP_NAMES = {"dred": "DRed", "closure": "the closure"}
# the method of a stratum whose maintenance was expected to cost more than recomputing
ESTIMATED = "recompute (cheaper by estimate)"
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


class _GiveUp(Exception):
    """The update grew past what recomputing the stratum costs: recompute it instead
    (the message says why, for the method's name)."""


class Updater:
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

    def expect(self, seconds: dict[str, float], otherwise: Optional[float]) -> None:
        """What evaluating each recursive stratum (by name) took in a first evaluation,
        or ``otherwise`` (the whole evaluation: a bound) for those not timed: until a
        stratum is recomputed here, DRed's time limit is measured against that."""
        for s in self.plan.strata:
            t = seconds.get(s.name, otherwise)
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
            except _GiveUp as why:
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

    # -- statements --------------------------------------------------------------------
    def _run(self, stmts) -> None:
        stmts = list(stmts)
        at = 0
        while at < len(stmts):
            stmt = stmts[at]
            at += 1
            if isinstance(stmt, Materialize):
                batch = [stmt]
                while at < len(stmts) and self._counted_apart(batch, stmts[at]):
                    batch.append(stmts[at])
                    at += 1
                if len(batch) == 1:
                    self._materialize(stmt)
                else:
                    self._materialize_counted(batch)
            elif isinstance(stmt, Append):
                self._append(stmt.target, stmt.source)
            elif isinstance(stmt, Rename):
                self._rename(stmt.target, stmt.source)
            elif isinstance(stmt, Patch):
                plus = stmt.plus if stmt.plus and stmt.plus.name not in self.empty else None
                minus = stmt.minus if stmt.minus and stmt.minus.name not in self.empty else None
                if plus or minus:
                    self.runner.patch(stmt.target, plus, minus)
            elif isinstance(stmt, Loop):
                self._loop(stmt)
            elif isinstance(stmt, OverDeletion):
                self._loop(stmt.loop, stmt)
            elif isinstance(stmt, BySize):
                small = self.rows.get(stmt.table.name, 0) <= stmt.limit
                self._run(stmt.small if small else stmt.large)
            elif isinstance(stmt, Enough):
                share = getattr(self.choice, stmt.share)
                rows = 1
                for t in stmt.tables:
                    rows *= self.rows.get(t.name) or 0
                if share is not None and rows > share * max(1, self.size(stmt.relation)):
                    raise _GiveUp(stmt.why)
            elif isinstance(stmt, InputOnDriver):
                self._input_on_driver(stmt)
            elif isinstance(stmt, VariantsOnDriver):
                rows = self.driver.variants(stmt, self.empty)
                if rows is None:
                    self._run((stmt.statement,))
                else:
                    self._loaded(stmt.statement.target, rows)
            elif isinstance(stmt, DriverSearch):
                changed = not {stmt.added.name, stmt.removed.name} <= self.empty
                if changed and self.size(stmt.edges.relation) <= stmt.below:
                    self._search_on_driver(stmt)
                else:
                    if changed:  # too many edges to hold
                        self.held.release(stmt.edges.name)
                    self._run(stmt.first)
                    if stmt.removed.name in self.empty:  # nothing to search for
                        self._vanish(stmt.reached)
                        self._vanish(stmt.pending)
                    else:
                        self._run(stmt.otherwise)
            elif isinstance(stmt, Refuse):
                if stmt.table.name not in self.empty:
                    refuse_rows(stmt, self.runner.fetch(stmt.table))
            elif self.bags is None or not self.bags.run(stmt):
                raise TypeError(f"not an update statement: {stmt!r}")

    def _materialize(self, stmt: Materialize) -> None:
        query = self._chosen(stmt)
        if query is not None:
            n = self.runner.materialize(stmt.target, query, self._counts(stmt))
            self._made(stmt.target.name, n)

    def _chosen(self, stmt: Materialize) -> Optional[exp.Expression]:
        """``stmt``'s query without the parts that need a table empty now, the empty
        tables it reads made; None, and its table empty, where no part is left."""
        query = stmt.query.choose(self.empty)
        if query is None:
            self._vanish(stmt.target)
            return None
        for name in self._reads(query):
            if name in self.empty and name not in self.rows and name in self.plan.tables:
                self.runner.load(self.plan.tables[name], [])  # an unmade empty table
                self.rows[name] = 0
        return query

    def _counts(self, stmt: Materialize) -> bool:
        return stmt.count and (self.decisive is None or stmt.target.name in self.decisive)

    def _counted_apart(self, batch: list[Materialize], stmt) -> bool:
        """Whether ``stmt`` joins ``batch``, counted statements made together: it is
        counted too, and neither reads nor depends on the emptiness of their tables."""
        if not (isinstance(stmt, Materialize) and self._counts(stmt) and self._counts(batch[0])):
            return False
        made = {m.target.name for m in batch} | {stmt.target.name}
        for m in batch + [stmt]:
            query = m.query.choose(self.empty)
            if made & set(m.query.names) or (query is not None and made & set(self._reads(query))):
                return False
        return True

    def _materialize_counted(self, batch: list[Materialize]) -> None:
        chosen = [(stmt.target, self._chosen(stmt)) for stmt in batch]
        items = [(target, query) for target, query in chosen if query is not None]
        for (target, _), n in zip(items, self.runner.materialize_counted(items)):
            self._made(target.name, n)

    def _input_on_driver(self, stmt: InputOnDriver) -> None:
        """The input's rows added and removed from the rows the driver holds, else
        made on the engine."""
        found = self.driver.input_changes(stmt, self.rows)
        if found is None:
            for table in (stmt.inserted, stmt.deleted):
                rows = self.driver.unloaded(table)
                if rows is not None:
                    self.runner.load(table, rows)
            self._run(stmt.otherwise)
            return
        for table, rows in zip((stmt.plus, stmt.minus), found):
            self._loaded(table, rows)

    def _search_on_driver(self, stmt: DriverSearch) -> None:
        found = self.driver.search(stmt, self.empty, self.runner.fetch_all)
        for table, rows in zip((stmt.new_edges, stmt.reached, stmt.pending), found):
            self._loaded(table, rows)

    def _loaded(self, table: Table, rows: list) -> None:
        """``table`` made of ``rows`` on the driver (empty where there are none); its
        rows known to the driver for this transaction."""
        self.driver.made(table, rows)
        if rows:
            self.runner.hold(table, rows)
            self._made(table.name, len(rows))
        else:
            self._vanish(table)

    def _reads(self, query: exp.Expression) -> tuple:
        hit = self._names.get(id(query))
        if hit is None or hit[0] is not query:
            hit = self._names[id(query)] = (query, tuple(
                {t.name for t in query.find_all(exp.Table)}))
        return hit[1]

    def _made(self, name: str, n: Optional[int]) -> None:
        """A table made with ``n`` rows (None: not counted, so taken as not empty)."""
        self.rows[name] = self.counted[name] = n
        if n is None or n:
            self.empty.discard(name)
        else:
            self.empty.add(name)

    def _vanish(self, table: Table) -> None:
        if table.name in self.lasting:  # kept between transactions: made empty
            self.runner.load(table, [])
            self._made(table.name, 0)
            return
        if table.name in self.rows:
            self.runner.drop(table)
            del self.rows[table.name]
        self.empty.add(table.name)
        self.counted[table.name] = 0

    def _append(self, target: Table, source: Table) -> None:
        if source.name in self.empty:
            return
        if target.name not in self.state:
            if target.name not in self.rows:
                self.runner.load(target, [])
                self.rows[target.name] = 0
            a, b = self.rows[target.name], self.rows[source.name]
            self._made(target.name, None if a is None or b is None else a + b)
        else:  # a stored relation made empty by a recomputation holds rows now
            self.empty.discard(target.name)
        self.runner.append(target, source)

    def _rename(self, target: Table, source: Table) -> None:
        if source.name in self.empty:
            self._vanish(target)
            return
        self.runner.rename(target, source)
        self._made(target.name, self.rows.pop(source.name))
        self.empty.add(source.name)

    def _loop(self, loop: Loop, over: Optional[OverDeletion] = None) -> None:
        with loop_settings(self.runner, loop):
            self._iterate(loop, over)

    def _iterate(self, loop: Loop, over: Optional[OverDeletion]) -> None:
        outer = self.counted
        on_statement = getattr(self.progress, "on_statement", None)
        if on_statement is not None:  # a report of a long run names the stratum
            on_statement(loop.stratum, loop)

        def body(counted: bool) -> dict:
            # update loops count every step (steps_per_check 1): ``counted`` is True
            self.counted = {}
            self._run(loop.body)
            # the sizes the body's statements counted (its new rows are renamed since);
            # a table no statement made this round is empty
            return {n: self.counted.get(n, 0) for n in loop.until_empty}

        def give_up() -> None:
            if self._too_large(loop, over):
                raise _GiveUp("over-deletion too large")
        iterate(loop, body, self.progress, give_up if over is not None else None)
        # an enclosing loop's counts stay (its termination reads them after its body)
        self.counted = {**outer, **self.counted}

    def _too_large(self, loop: Loop, over: OverDeletion) -> bool:
        """Whether over-deletion has grown past what recomputing would cost."""
        share = self.choice.overdelete_share
        if share is not None:
            deleted = sum(self.rows.get(t) or 0 for _, t in over.deleted)
            if deleted > share * sum(self.size(r) for r, _ in over.deleted):
                return True
        limit, past = self.choice.overdelete_time_share, self._past.recompute_seconds
        return (limit is not None and past is not None
                and time.perf_counter() - self._started > limit * past)
