"""A program kept up to date as its inputs change, transaction by transaction.

>>> live = program.maintain(inputs={"Edge": edges_df})
>>> changes = live.apply(insert={"Edge": [(1, 2)]}, delete={"Edge": [(2, 3)]})
>>> changes["Reach"].show()          # the rows added (weight 1) and removed (weight -1)
>>> live.contents("Reach").show()    # every row now

The relations stay stored on the engine between transactions; a transaction costs
about what it changes (:mod:`dl2sql.incremental`). Wide integers are stored NARROW
while they fit (:mod:`dl2sql.api.speculation`); a transaction that meets a value
beyond 38 digits leaves the relations as they were, which are then stored WIDE
(converted as a saved state is read, :mod:`dl2sql.api.state`), and is applied again.
"""
from __future__ import annotations

import contextlib
import time
from typing import Optional

from sqlglot import exp

from dl2sql.api import state
from dl2sql.api.evaluate import Evaluator
from dl2sql.api.modify import Joined, modifications
from dl2sql.api.savepoints import Rollback, Savepoint, Savepoints
from dl2sql.api.speculation import speculate
from dl2sql.diagnostics import InputError
from dl2sql.engines import engine_of
from dl2sql.passes.bags import is_bag
from dl2sql.incremental.execute import Choice, Outcome, Updater
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Column, Table
from dl2sql.runner.errors import engine_errors
from dl2sql.runner.progress import LoopTimes
from dl2sql.runtime.convert import record_to_row, row_to_record, to_sql
from dl2sql.sqlgen.dialects import DIALECTS
from dl2sql.sqlgen.output_form import output_projection
from dl2sql.sqlgen.types import BIGINT
from dl2sql.sqlgen.trees import select_all, table


class Maintained:
    """The relations of a program evaluated once, then updated by :meth:`apply`.

    Made by :meth:`dl2sql.Program.maintain`. Changes and contents are frames of the
    engine (Spark DataFrames, DuckDB relations), readable until the next transaction."""

    def __init__(self, compiled, runner, inputs: dict, externs: dict, progress=None,
                 choice: Choice = Choice(), program=None, saved: Optional[dict] = None,
                 handover=None):
        """Evaluate ``compiled`` on ``runner`` from ``inputs`` (input relation ->
        normalised rows or a loader), or load every relation from ``saved`` (relation
        -> loader, see :mod:`dl2sql.api.state`), and prepare it for transactions;
        ``program`` (the API's :class:`~dl2sql.Program`) binds frames and files given
        to :meth:`apply`. With ``handover`` (:class:`dl2sql.api.on_driver.Handover`),
        ``runner`` is the oracle's on the driver and frames are handed to the engine.
        ``compiled`` is in the representation of wide integers the relations are
        stored in (a NARROW one that cannot hold ``inputs`` raises IntegerOverflow: the
        caller binds them again WIDE)."""
        self.program, self.compiled, self.runner = program, compiled, runner
        self.handover = handover
        self.externs, self.progress, self.choice = externs, progress, choice
        self._frames: dict[tuple, exp.Expression] = {}  # see changes
        self._unchanged: dict[str, object] = {}  # the frame of no change, by relation
        engine = runner.engine
        timed = LoopTimes(progress)
        evaluator = Evaluator(compiled, runner, timed, externs)
        plan = compiled.plan_for(engine)
        update = compiled.update_for(engine)
        self.updater = Updater(update, runner, progress, choice, evaluator.transforms)
        self._savepoints = Savepoints(self)  # dl2sql.api.savepoints
        self.updater.on_commit = self._savepoints.record
        history = self.updater.bags.tables() if self.updater.bags is not None else {}
        started, total = time.perf_counter(), None
        if saved is None:
            for rel in inputs:
                self._keyed(rel, "insert")
            evaluator.run(inputs)
            total = time.perf_counter() - started
            runner.retain([plan.relations[r] for r in compiled.relations])  # loop tables go
        else:
            with runner.running(), engine_errors(compiled.division_sites):
                for rel, loader in saved.items():  # relations, and delayed ones' history
                    loader.load_into(runner, plan.relations.get(rel) or history[rel])
            if history:
                self.updater.bags.loaded = True
        for rel, t in plan.relations.items():  # the plan left each relation in its table
            assert t.name == update.relations[rel].name, (rel, t.name)
        evaluator.register_udfs(update)
        # what recomputing each stratum costs: its loop or tables, else the whole run
        # (a lazy runner's tables are computed when read: their times say nothing)
        self.updater.expect(timed.seconds, total, None if getattr(
            runner, "counting_costs", False) else timed.made)
        with runner.running():
            self.updater.start()
        self.last: Optional[Outcome] = None
        for rel in compiled.output_relations() if handover is None else ():
            self._unchanged_frame(rel)  # ready for the transactions that leave it as it is

    # -- transactions ------------------------------------------------------------------
    def apply(self, insert: Optional[dict] = None, delete: Optional[dict] = None, *,
              insert_or_update: Optional[dict] = None,
              delete_key: Optional[dict] = None, modify: Optional[dict] = None) -> dict:
        """Apply one transaction and return the changes of every output relation: a
        frame with its columns and ``weight`` (1: row added, -1: row removed; for a
        multiset, the change of the row's weight, and for a stream, its rows in this
        transaction with their weights, as DDlog prints them).

        Each argument maps input relations (short or qualified names) to rows (lists of
        tuples of field values), DataFrames, table names or files, like
        :meth:`dl2sql.Program.run`'s inputs. For a relation with a primary key,
        ``insert_or_update`` replaces the stored row of each row's key (at most one row
        per key), ``delete_key`` lists keys (Python values) whose rows go, and
        ``modify`` lists ``(key, {field: new value})`` pairs: the stored row of the key
        with those fields set (DDlog's ``modify``; see :mod:`dl2sql.api.modify`).
        Deletions apply before insertions. A transaction that fails leaves the
        relations as they were."""
        if self.program is None:
            raise InputError("this maintained program takes DDlog values (apply_records)")

        def bind(compiled) -> dict[str, dict]:
            changes: dict[str, dict] = {}
            engine = self.runner.engine
            for kind, given in (("insert", insert), ("delete", delete),
                                ("insert_or_update", insert_or_update)):
                if given and self.handover is not None:  # the engine's tables, collected
                    given = self.handover.given(given)
                for rel, loader in self.program.bind_inputs(given or {}, engine, sources=False,
                                                            compiled=compiled).items():
                    self._keyed(rel, kind)
                    changes.setdefault(rel, {})[kind] = loader
            for name, keys in (delete_key or {}).items():
                rel = self._resolve(name)
                self._keyed(rel, "delete_key")
                key_type, env = compiled.relations[rel].key_type, compiled.type_env
                changes.setdefault(rel, {})["delete_key"] = [(to_sql(key_type, k, env),)
                                                            for k in keys]
            for name, given in (modify or {}).items():
                rel = self._resolve(name)
                self._keyed(rel, "modify")
                with self.runner.running(), engine_errors(self.compiled.division_sites):
                    keys, rows = modifications(compiled, self.updater, rel, given)
                kinds = changes.setdefault(rel, {})
                kinds["delete_key"] = kinds.get("delete_key", []) + keys
                kinds["insert"] = Joined(kinds["insert"], rows) if "insert" in kinds else rows
            return changes
        if self.handover is not None:  # the last transaction's frames go
            self.handover.release()
        # one quiet context for the transaction and its changes (and one for the frames
        # handed over): entering it reaches into the JVM (dl2sql.runner.spark_quiet)
        handing = (self.handover.runner.running() if self.handover is not None
                   else contextlib.nullcontext())
        with self.runner.running(), handing:
            self._transact(bind)
            return {rel: self.changes(rel) for rel in self.compiled.output_relations()}

    def _transact(self, bind) -> Outcome:
        """Apply the transaction whose changes ``bind(compiled)`` gives as normalised
        rows or loaders of ``compiled``'s representation; where a value outgrows it,
        store the relations in the next one and apply it again."""
        def attempt(compiled) -> Outcome:
            if compiled is not self.compiled:
                self._store_as(compiled)
            return self.apply_rows(bind(compiled))
        return speculate(self.compiled, attempt, self.progress)[1]

    def _store_as(self, wider) -> None:
        """Store every relation in representation ``wider`` of wide integers (the
        relations as they are: the failed transaction left nothing)."""
        with self.runner.running(), engine_errors(self.compiled.division_sites), self.runner.transaction():
            widened = Maintained(wider, self.runner, {}, self.externs, self.progress,
                                 self.choice, self.program, state.reopened(self, wider),
                                 self.handover)
            self._savepoints.widen(widened)  # the open savepoints stay open
        widened.updater.history = self.updater.history  # what DRed learnt holds still
        kept = self._savepoints
        self.__dict__.update(widened.__dict__)
        self._savepoints, self.updater.on_commit = kept, kept.record

    def _keyed(self, rel: str, kind: str) -> None:
        if rel in self.compiled.delayed:
            d = self.compiled.delayed[rel]
            raise InputError(f"relation `{rel}` is `{d.relation}-{d.delay}`, which follows "
                             f"`{d.relation}`: it takes no changes of its own")
        if kind in ("insert_or_update", "delete_key", "modify") \
                and self.compiled.relations[rel].key is None:
            raise InputError(f"`{kind}` needs a primary key, and relation `{rel}` does not "
                             f"have one (declare `input relation {rel}(...) primary key "
                             f"(x) x.field`)")

    def apply_rows(self, changes: dict[str, dict]) -> Outcome:
        """Apply a transaction given per input relation and kind of change, as
        normalised rows or loaders (see :meth:`Updater.apply`) of the representation
        the relations are stored in (no switch: they cannot be bound again)."""
        mark = self._savepoints.mark()
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            try:
                self.last = self.updater.apply(changes)
            except BaseException:
                self._savepoints.restore(mark)  # the log as the transaction found it
                raise
        return self.last

    # -- savepoints (dl2sql.api.savepoints) --------------------------------------------
    def savepoint(self) -> Savepoint:
        """A savepoint of every relation as it is now: a token for
        :meth:`rollback_to` and :meth:`release`. Savepoints nest; while one is open,
        each transaction also keeps its changes of every relation, so that a rollback
        costs what changed since, not the size of the relations."""
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            return self._savepoints.take()

    def rollback_to(self, token: Savepoint) -> dict:
        """Restore every relation (inputs and derived ones, multisets' weights,
        streams, delayed relations and their history) to its state at savepoint
        ``token``, and return the changes of every output as :meth:`apply` does (the
        rows the rollback added back, weight 1, and removed, -1; a stream's: none).
        The savepoints taken after ``token`` are discarded; ``token`` stays open (roll
        back to it again, or :meth:`release` it). A rollback that fails leaves the
        relations and the savepoints as they were."""
        if self.handover is not None:  # the last transaction's frames go
            self.handover.release()
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            self.last = self._savepoints.rollback(token)
            return {rel: self.changes(rel) for rel in self.compiled.output_relations()}

    def release(self, token: Savepoint) -> None:
        """Forget savepoint ``token`` and those taken after it (the relations stay
        as they are); with no savepoint open, transactions keep no log."""
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            self._savepoints.release(token)

    @property
    def savepoints(self) -> tuple:
        """The open savepoints, oldest first."""
        return self._savepoints.tokens()

    def apply_records(self, inserted: dict[str, list], deleted: dict[str, list]) -> Outcome:
        """Apply a transaction of DDlog values (records) per input relation."""
        def bind(compiled) -> dict[str, dict]:
            def rows(rel, records):
                return [record_to_row(compiled.layouts[rel], v, compiled.type_env)
                        for v in records] if records else None
            return {r: {"insert": rows(r, inserted.get(r)), "delete": rows(r, deleted.get(r))}
                    for r in set(inserted) | set(deleted)}
        return self._transact(bind)

    # -- results -----------------------------------------------------------------------
    def changed(self, rel: str) -> bool:
        """Whether the last transaction changed relation ``rel``."""
        return self.updater.changed(rel)

    def change_records(self, rel: str) -> tuple[list, list]:
        """The last transaction's rows added to and removed from ``rel``, as DDlog
        values (for replay and tests)."""
        env, layout = self.compiled.type_env, self.compiled.layouts[rel]
        names = [table_name(rel, v) for v in ("plus", "minus")]
        made = [self.updater.plan.tables[n] for n in names if n not in self.updater.empty]
        with self.runner.running(), engine_errors(self.compiled.division_sites):  # both in one Spark job
            fetched = dict(zip((t.name for t in made), self.runner.fetch_all(made)))
        plus, minus = ([row_to_record(layout, r, env) for r in fetched.get(n, ())]
                       for n in names)
        return plus, minus

    def records(self, rel: str) -> list:
        """Every row of ``rel`` now, as DDlog values."""
        env, layout = self.compiled.type_env, self.compiled.layouts[rel]
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            rows = self.runner.fetch(self.updater.plan.relations[rel])
        return [row_to_record(layout, r, env) for r in rows]

    def changes(self, rel: str):
        """The last transaction's changes of ``rel``: its columns and ``weight``
        (before any transaction: every row, weight 1). A frame that reads the
        transaction's tables when it is read: until the next transaction. Its values
        are in output form, as :meth:`contents`' (wide integers as decimal text)."""
        rel = self._resolve(rel)
        if self.handover is not None:
            with self.runner.running(), engine_errors(self.compiled.division_sites):
                return self.handover.changes(self, rel)
        sources = self._change_sources(rel)
        if not sources:
            return self._unchanged_frame(rel)
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            return self.runner.frame_of(self._frame_query(rel, sources))

    def _frame_query(self, rel: str, sources: tuple) -> exp.Expression:
        """The query of the frame of the changes of ``rel`` read from ``sources``."""
        # one query per relation and set of tables of changes: the runner prints a
        # query once, and a transaction reads every output's changes (on DuckDB
        # building and printing them cost about as much as the transaction's SQL)
        query = self._frames.get((rel, sources))
        if query is None:
            table, query = self._change_query(rel, sources)
            shown = output_projection(table.columns, DIALECTS[self.runner.dialect])
            if shown is not None:
                query = exp.select(*shown).from_(exp.Subquery(
                    this=query, alias=exp.TableAlias(this=exp.to_identifier("changes"))))
            self._frames[(rel, sources)] = query
        return query

    def _unchanged_frame(self, rel: str):
        """The frame of no change of ``rel``: it reads no table, so one serves every
        transaction (made with the maintained program, see ``__init__``)."""
        frame = self._unchanged.get(rel)
        if frame is None:
            with self.runner.running(), engine_errors(self.compiled.division_sites):
                frame = self._unchanged[rel] = self.runner.frame_of(
                    self._frame_query(rel, ()))
        return frame

    def change_table(self, rel: str) -> Table:
        """The table of :meth:`changes`, made on the runner (dropped with the next
        transaction's)."""
        rel = self._resolve(rel)
        table, query = self._change_query(rel, self._change_sources(rel))
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            self.runner.materialize(table, query, True)
        self.updater.rows[table.name] = 0  # dropped with the transaction's tables
        return table

    def _change_sources(self, rel: str) -> tuple[tuple[str, int], ...]:
        """The tables the changes of ``rel`` are read from, each with its weight."""
        if isinstance(self.last, Rollback) and rel in self.compiled.streams:
            return ()  # a rollback emits no stream rows (dl2sql.api.savepoints)
        # a stream's changes are its contents (DDlog prints no retraction of a stream)
        if self.last is None or rel in self.compiled.streams:
            return ((self.updater.plan.relations[rel].name, 1),)
        return tuple((table_name(rel, v), w) for v, w in (("plus", 1), ("minus", -1))
                     if table_name(rel, v) not in self.updater.empty)

    def _change_query(self, rel: str, sources) -> tuple[Table, exp.Expression]:
        """The table the changes of ``rel`` are stored in, and the query making them
        from ``sources`` (:meth:`_change_sources`)."""
        full = self.updater.plan.relations[rel]
        weight = "weight" if all(c.name != "weight" for c in full.columns) else "dl2sql_weight"
        table = Table(table_name(rel, "changes"), full.columns + (
            Column(weight, BIGINT.copy()),), (), rel)
        columns = [c.name for c in full.columns]
        bag = is_bag(self.compiled.relations[rel])
        parts = [weighted(name, columns, w, weight) if bag else select_all(name).select(
            exp.alias_(exp.Literal.number(w), weight, quoted=True)) for name, w in sources]
        if not parts:  # the relation's columns and no row, reading no table
            parts.append(exp.select(*[exp.alias_(exp.Cast(this=exp.null(), to=c.type.copy()),
                                                  c.name, quoted=True) for c in full.columns],
                                    exp.alias_(exp.Literal.number(1), weight, quoted=True)
                                    ).where(exp.false()))
        query = parts[0] if len(parts) == 1 else exp.union(*parts, distinct=False)
        return table, query

    def contents(self, rel: str):
        """Every row of relation ``rel`` now (short or qualified name; a stream or
        multiset holds a row once per unit of its weight)."""
        rel = self._resolve(rel)
        if self.handover is not None:
            with self.runner.running(), engine_errors(self.compiled.division_sites):
                return self.handover.contents(self, rel)
        return engine_of(self.runner).frame(self.runner, self.updater.plan.relations[rel])

    def _resolve(self, rel: str) -> str:
        if self.program is not None:
            return self.program._resolve(rel)
        if rel not in self.updater.plan.relations:
            raise InputError(f"unknown relation `{rel}`")
        return rel

    def save(self, directory: str) -> None:
        """Save every relation to ``directory`` (Parquet files, see
        :mod:`dl2sql.api.state`), atomically: a later process opens it with
        ``Program.maintain(state=directory)``."""
        with self.runner.running(), engine_errors(self.compiled.division_sites):
            try:
                state.save(self, directory)
            except OSError as e:
                raise InputError(f"cannot save the state to `{directory}`: "
                                 f"{e.strerror or e}") from e

    def close(self) -> None:
        """Free the stored relations."""
        if self.handover is not None:
            self.handover.release()
        self.updater.clear(everything=True)
        self.runner.close()


def weighted(name: str, columns: list[str], sign: int, weight: str) -> exp.Select:
    """The rows of bag table ``name`` once each, with their number of copies (times
    ``sign``) as column ``weight``: a weight as DDlog prints it."""
    count: exp.Expression = exp.Count(this=exp.Star())
    if sign < 0:
        count = exp.Neg(this=count)
    keys = [exp.column(c, quoted=True) for c in columns]
    return exp.Select(expressions=[k.copy() for k in keys] + [
        exp.alias_(count, weight, quoted=True)]).from_(table(name)).group_by(*keys)
