"""How the executor (:mod:`dl2sql.incremental.execute`) runs an update plan's
statements: the tables it knows empty left out of each query (and made, empty, where a
query still reads them), counted statements made together, loops with their give-up
checks, and the work the driver does instead of the engine."""
from __future__ import annotations

import time
from typing import Optional

from sqlglot import exp

from dl2sql.incremental.nodes import (BySize, DriverSearch, Enough, InputOnDriver,
                                      OverDeletion, Refuse, VariantsOnDriver)
from dl2sql.plan.fixpoint import iterate
from dl2sql.plan.interpret import loop_settings, refuse_rows
from dl2sql.plan.nodes import Append, Loop, Materialize, Patch, Rename, Table


class GiveUp(Exception):
    """The update grew past what recomputing the stratum costs: recompute it instead
    (the message says why, for the method's name)."""


class StatementRunner:
    """The statements' half of :class:`dl2sql.incremental.execute.Updater` (whose
    ``__init__`` sets the state these methods share: ``runner``, ``plan``, ``empty``,
    ``rows``, ``counted``, ``driver``, ...)."""

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
                    raise GiveUp(stmt.why)
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
                raise GiveUp("over-deletion too large")
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
