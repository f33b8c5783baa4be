"""The Spark runner: executes plan statements with PySpark.

Every plan table is a DataFrame held in a dict; a query's tables are registered as temp
views under their own names just before it runs, so that the SQL printed by sqlglot for
the ``spark`` dialect can refer to them.

Where the time goes (see design.md, "Semi-naive evaluation"): a recursive stratum runs
its body hundreds of times, so the fixed cost per statement dominates. This runner

- cuts lineage with ``localCheckpoint`` so that plans do not grow with the iterations;
- spends at most one Spark action per counted ``Materialize``: the row count is taken
  with ``observe()`` during the eager checkpoint (classic sessions), or by a ``count()``
  that itself fills a lazy checkpoint (Spark Connect, where observed metrics do not
  arrive after ``localCheckpoint``);
- checkpoints uncounted results and appends lazily, so they cost no action of their own:
  they are computed by the next action that reads them;
- keeps the partition count of growing tables bounded (``coalesce`` after a union);
- keeps the tables of recursive strata hash-partitioned on the plan's partition keys,
  so that a loop step shuffles little (:mod:`dl2sql.runner.spark_partitioning`).

Only SQL, the DataFrame API, ``localCheckpoint`` and ``observe`` are used here (no
``sparkContext``, RDDs or JVM handles), so the runner also works on ``sc://`` sessions.
:mod:`dl2sql.runner.spark_session` starts sessions.
"""
from __future__ import annotations

import contextlib
from typing import Any, Optional

from sqlglot import exp

from dl2sql.engines import ENGINES
from dl2sql.plan.nodes import Loop, Materialize, Table
from dl2sql.plan.thresholds import SparkThresholds, chosen
from dl2sql.runner.spark_checkpoints import (checkpoint_counted, checkpoints_for,
                                              collect_each, fill)
from dl2sql.runner.spark_inline import inline_query
from dl2sql.runner.spark_partitioning import CoPartitioner, partitioned_by_plan
from dl2sql.runner.spark_pieces import Piece, compacted, union_of
from dl2sql.runner.spark_probes import narrowed
from dl2sql.runner.spark_python import ensure_runtime, send_by_value
from dl2sql.runner.spark_quiet import Quiet
from dl2sql.runner.spark_session import get_spark, hash_join_budget, is_connect, loop_partitions
from dl2sql.runner.spark_types import relaxed, row_width, schema_ddl, spark_rows, to_spark
from dl2sql.runner.spark_views import Views
from dl2sql.runtime.spark_values import SparkUdf, normalize
from dl2sql.sqlgen.dialects import SPARK
from dl2sql.sqlgen.trees import select_all

# --- runner ----------------------------------------------------------------------------


class SparkRunner:
    """Runs plans on a SparkSession (classic or Connect).

    ``count_mode`` chooses how a ``Materialize`` gets its row count: ``"observe"``
    (metrics observed during the eager checkpoint), ``"count"`` (lazy checkpoint filled
    by ``count()``, the Connect-safe way) or ``"auto"`` (observe on classic sessions,
    count on Connect, and count for good once observed metrics come back empty).

    Checkpointed DataFrames carry no statistics Spark trusts, so the runner tells Spark
    how to join them, by hints on the temp views of tables whose size it counted:
    up to ``broadcast_bytes`` (default 0: never) a broadcast hint, up to
    ``hash_join_bytes`` a shuffle-hash hint. Broadcasting costs a job per query (the
    relation changes every iteration, so nothing is reused) and sort-merge joins sort
    both sides, which was most of a loop step's work on a random graph (a profile of
    run 12). A hash join keeps its build side in memory and cannot spill, so the
    default bound follows the memory a task has (:func:`hash_join_budget`); above it
    the choice is Spark's (sort-merge, which spills). ``thresholds`` say when rows
    stay local relations, when checkpoints are filled and compacted, and when probes
    are narrowed (:class:`~dl2sql.plan.thresholds.SparkThresholds`; the engine's
    by default).
    """

    engine = "spark"
    dialect = "spark"
    lazy_uncounted = True  # uncounted results are checkpointed lazily (no action)
    counting_costs = True  # a count is an action (incremental updates count little)

    def __init__(self, spark, count_mode: str = "auto", broadcast_bytes: int = 0,
                 hash_join_bytes: Optional[int] = None, partitions: Optional[int] = None,
                 checkpoint_dir: Optional[str] = None, checkpoints: str = "auto",
                 thresholds: Optional[SparkThresholds] = None):
        # how rows are loaded, checkpointed and probed (dl2sql.plan.thresholds)
        self.thresholds = chosen(thresholds, ENGINES["spark"].thresholds)
        if count_mode not in ("auto", "observe", "count"):
            raise ValueError(f"count_mode must be auto, observe or count, not {count_mode!r}")
        self.spark = spark
        try:
            # Spark 4's constraint propagation fails on unions of checkpointed frames
            # ("key not found" in UnionBase.rewriteConstraints during localCheckpoint);
            # it also only costs optimizer time on the plans this runner builds.
            spark.conf.set("spark.sql.constraintPropagation.enabled", "false")
        except Exception:  # pragma: no cover - a service may refuse runtime confs
            pass
        self.tables: dict[str, Any] = {}
        self.sizes: dict[str, Optional[int]] = {}  # row counts, where known
        # sizes before a lazy patch, where the count is not known: they choose joins
        self._estimates: dict[str, Optional[int]] = {}
        if count_mode == "auto":
            count_mode = "count" if is_connect(spark) else "observe"
        self.count_mode = count_mode
        self.broadcast_bytes = broadcast_bytes
        # partitions of the loops' tables: the cluster's parallelism unless given
        self.partitions = loop_partitions(spark) if partitions is None else int(partitions)
        self.hash_join_bytes = (hash_join_budget(spark, self.partitions)
                                if hash_join_bytes is None else hash_join_bytes)
        self.actions = 0  # Spark actions issued by this runner (for tests and benchmarks)
        self._compactions: dict[str, int] = {}  # by table, see spark_pieces.compacted
        self.widths: dict[str, int] = {}  # estimated bytes per row, by table
        self.views = Views(spark)  # the temp views of the tables, and their join hints
        self._queries: dict[int, tuple] = {}  # see _printed
        self._narrowed: dict[tuple, tuple] = {}  # see spark_probes.narrowed
        self._row_count = None  # the observed metric, see _checkpoint_counted
        self.co = CoPartitioner(spark, self.partitions)  # the plan's partition keys
        self._quiet = Quiet(spark)
        # local or reliable checkpoints (dl2sql.runner.spark_checkpoints), and the
        # checkpoint files each table is stored in (reliable ones only)
        self.store = checkpoints_for(spark, checkpoint_dir, checkpoints)
        self._pieces: dict[str, tuple[Piece, ...]] = {}  # what each table is the union of
        self._holding_files = False  # inside transaction(): files are not deleted
        # lazy checkpoints made in the running transaction (see _fill); None outside one,
        # where holding them would keep every loop step's blocks alive
        self._unfilled: Optional[list] = None

    @contextlib.contextmanager
    def running(self):
        """Context of one evaluation: the session's progress bar and join-hint warnings
        are muted while dl2sql's queries run (:mod:`dl2sql.runner.spark_quiet`), and
        reliable checkpoints go to this runner's directory."""
        with self._quiet, self.store.active():
            yield self

    def retain(self, tables: list[Table]) -> None:
        """Forget every table but ``tables`` (and free what they held)."""
        keep = {t.name for t in tables}
        for name in [n for n in self.tables if n not in keep]:
            self.drop(Table(name, ()))

    def close(self) -> None:
        """Forget every table and delete this runner's checkpoint files, if it wrote
        any: DataFrames of its tables cannot be read afterwards."""
        for name in list(self.tables):
            self.drop(Table(name, ()))
        self.store.close()

    # -- helpers -------------------------------------------------------------------
    def sql(self, query: exp.Expression) -> str:
        """``query`` printed for Spark SQL (printed once per query: a loop runs the
        same plan statements hundreds of times)."""
        return self._printed(query)[0]

    def _printed(self, query: exp.Expression):
        """``query``'s Spark SQL and the table names it reads (a tuple), cached by identity
        (plan statements are immutable and live as long as the plan)."""
        hit = self._queries.get(id(query))
        if hit is not None and hit[0] is query:
            return hit[1]
        names = frozenset(t.name for t in query.find_all(exp.Table))
        sql = query.sql(dialect=self.dialect)
        self._queries[id(query)] = (query, (sql, names))
        return sql, names

    def rows(self, name: str) -> Optional[int]:
        """The rows of table ``name``: counted, else estimated, else unknown."""
        size = self.sizes.get(name)
        return self._estimates.get(name) if size is None else size

    def _register_views(self, names) -> None:
        """Register the temp views a query reads (:class:`~dl2sql.runner.spark_views.Views`)."""
        self.views.register(self, names)

    def dataframe(self, table: Table):
        """The DataFrame currently holding ``table``."""
        return self.tables[table.name]

    def _set(self, table: Table, df, size: Optional[int], files: frozenset = frozenset(),
             pieces: Optional[tuple] = None) -> None:
        """Hold ``df`` as ``table``: one stored piece (``df`` itself, stored in the
        checkpoint ``files``), or the union of ``pieces``."""
        name = table.name
        old = self.tables.get(name)
        replaced = self._pieces.get(name, ())
        self.tables[name] = df
        self.sizes[name] = size
        self.widths[name] = row_width(table)
        self._pieces[name] = (Piece(df, size, files),) if pieces is None else pieces
        if old is not None and old is not df and not any(d is old for d in self.tables.values()):
            self._release(old)
        if any(p.files for p in replaced):
            self._collect()

    def stored_files(self) -> set:
        """The reliable checkpoint files the tables are stored in."""
        return {f for pieces in self._pieces.values() for p in pieces for f in p.files}

    def _collect(self) -> None:
        """Delete the checkpoint files no table is stored in any more (not while a
        transaction may still restore tables stored in them)."""
        if self.store.reliable and not self._holding_files:
            self.store.collect(self.stored_files())

    def checkpoint(self, df, eager: bool):
        """``df`` checkpointed in this runner's store, and the files it is stored in."""
        if eager or self.store.reliable:  # reliable checkpoints are always written now
            self.actions += 1
        return self.store.checkpoint(df, eager)

    @staticmethod
    def _release(df) -> None:
        # Checkpoint blocks are freed when the DataFrame is garbage collected (classic:
        # ContextCleaner; Connect: the cached relation is released on __del__). Dropping
        # our reference is what matters; unpersist covers DataFrames that were cached.
        try:
            if getattr(df, "is_cached", False):
                df.unpersist()
        except Exception:  # pragma: no cover
            pass

    def bounded(self, df):
        """``df`` with at most ``partitions`` partitions.

        Appends union checkpointed pieces; without this every append adds the
        partitions of the delta and a long loop ends with hundreds of tiny tasks.
        ``coalesce`` is narrow (no shuffle)."""
        if self.partitions > 0:
            return df.coalesce(self.partitions)
        return df

    def _checkpoint_counted(self, df):
        """``df`` checkpointed, its row count and its files, for exactly one Spark
        action (:func:`~dl2sql.runner.spark_checkpoints.checkpoint_counted`)."""
        return checkpoint_counted(self, df)

    def _partitioned(self, loop: Loop) -> bool:  # does the loop keep a table partitioned?
        return any(isinstance(s, Materialize) and self.co.wants(s.target) for s in loop.body)

    def looping(self, loop: Loop):
        """Context of a whole ``loop``: co-partitioning settings applied once for it, or
        where its tables are not kept partitioned, just its number of partitions."""
        return self.co.holding() if self._partitioned(loop) else self.co.shuffling()

    # -- Runner protocol -----------------------------------------------------------
    def load(self, table: Table, rows: list[tuple]) -> None:
        """Create ``table`` from normalised ``rows``: up to ``local_rows`` rows as a
        table of literals in the plan (:mod:`spark_inline`), or where their types have
        no literals there as a DataFrame of them; more rows checkpointed, so that the
        Python data is serialised into Spark once, not on every read."""
        self._load_rows(table, rows, eager=True)

    def hold(self, table: Table, rows: list[tuple]) -> None:
        """:meth:`load`, made by the first job that reads it: a few rows are a table of
        literals, more a lazy checkpoint (rows of the driver cannot fail to compute)."""
        self._load_rows(table, rows, eager=False)

    def _load_rows(self, table: Table, rows: list[tuple], eager: bool) -> None:
        rows = spark_rows(table, rows)
        if len(rows) <= self.thresholds.local_rows and not self.co.wants(table):
            # a few rows travel inside each query's plan: no job now, nothing an
            # executor can lose, and as literals no Python worker to read them
            literal = inline_query(table, rows)  # None: types without literals
            df = (self.spark.sql(literal.sql(dialect=self.dialect)) if literal is not None
                  else self.spark.createDataFrame(rows, schema=schema_ddl(table)))
            self._set(table, df, len(rows))
            return
        df = self.spark.createDataFrame(rows, schema=schema_ddl(table))
        with self.co.planning(table):
            ck, files = self.checkpoint(self.co.prepare(table, df), eager=eager)
        self._set(table, self.co.finish(table, ck), len(rows), files)

    def load_dataframe(self, table: Table, df, distinct: bool = True) -> None:
        """Hold DataFrame ``df`` (already of the table's schema) as ``table``,
        checkpointed and counted in one action, so that its source is read once; its
        duplicates dropped unless not ``distinct`` (a bag's copies are its weights)."""
        with self.co.planning(table):
            df = relaxed(df, table)  # as every stored table is (see relaxed)
            ck, n, files = self._checkpoint_counted(self.co.prepare(
                table, df.distinct() if distinct else df))
        self._set(table, self.co.finish(table, ck), n, files)

    def materialize(self, table: Table, query: exp.Expression, count: bool) -> Optional[int]:
        """Run ``query`` and hold its result as ``table`` with its lineage cut, for one
        Spark action. The size is always taken (it is free during the checkpoint and
        chooses the join hints); it is returned only with ``count``."""
        return self._store(table, query, count)

    def materialize_counted(self, items: list[tuple[Table, exp.Expression]]) -> list[int]:
        """Each of ``items`` stored as a lazy checkpoint, then all counted in one Spark
        job that fills them: a job costs some 30-50 ms however few its rows, and a
        transaction counts the rows its input relations gain and lose."""
        if len(items) < 2 or not self.lazy_uncounted or self.store.reliable or any(
                self.co.wants(table) for table, _ in items):
            return [self._store(table, query, True) for table, query in items]
        for table, query in items:
            self._store(table, query, False)
        frames = [self.tables[table.name] for table, _ in items]
        self.actions += 1
        counts = fill(frames)
        if self._unfilled is not None:  # filled now: not again at the transaction's end
            self._unfilled = [df for df in self._unfilled if all(df is not f for f in frames)]
        for (table, _), n in zip(items, counts):
            self.sizes[table.name] = n
        return counts

    def _store(self, table: Table, query: exp.Expression, count: bool,
               bounded: bool = False) -> Optional[int]:
        """:meth:`materialize`; ``bounded``: coalesced into ``partitions`` partitions
        unless planned with a known partitioning (a patch: where the rows added are
        not partitioned as the stored ones, the union has the partitions of both, and
        a relation patched at every transaction ended with thousands of tiny tasks; a
        union of pieces partitioned alike keeps their partitioning, which a coalesce
        would lose, and every join on the table would then shuffle it again)."""
        text, names = self._printed(narrowed(query, self.rows, self._narrowed,
                                             self.thresholds))
        self._register_views(names)
        with self.co.planning(table):
            df = self.spark.sql(text)  # partitioned by its SQL, see dialects.store_partitioned
            df = relaxed(df, table)  # as every stored table is (see relaxed)
            if bounded and not self.co.wants(table) and not partitioned_by_plan(df):
                df = self.bounded(df)
            if not count and self.lazy_uncounted and not self.co.wants(table):
                # no action now (local checkpoints): the next action that reads the
                # table fills the checkpoint. Not for a loop's tables: their sizes
                # choose the loop's joins (an unknown size is a sort-merge join, which
                # sorts the whole relation at every step)
                ck, files = self.checkpoint(df, eager=False)
                self._set(table, ck, None, files)
                if self._unfilled is not None and not self.store.reliable:
                    self._unfilled.append(ck)  # a reliable checkpoint is written at once
                    if len(self._unfilled) >= self.thresholds.fill_every:
                        self._fill()
                return None
            ck, n, files = self._checkpoint_counted(df)
        self._set(table, ck, n, files)
        return n if count else None

    def frame_of(self, query: exp.Expression):
        """A DataFrame of ``query`` (no action: it is computed when it is read); of
        one partition where the tables it reads are known to hold together at most
        ``one_partition_rows`` rows.

        A transaction's changes are a few rows spread over the partitions of the
        tables they were made in. Counting them (or any aggregate) shuffles them into
        one partition first, and with adaptive execution that shuffle is a Spark job
        of its own: two jobs for each count of a frame of changes, where one
        partition makes it one (docs/performance.md, run 29)."""
        text, names = self._printed(query)
        self._register_views(names)
        df = self.spark.sql(text)
        sizes = [self.sizes.get(name) for name in names]
        if sizes and None not in sizes and sum(sizes) <= self.thresholds.one_partition_rows:
            return df.coalesce(1)
        return df

    def append(self, target: Table, source: Table) -> None:
        """``target := target ∪ source`` with no action now: the union of the stored
        pieces themselves, where more than ``compact_every`` pieces have some of the
        smallest stored as one (lazily where local: the next action that reads
        ``target`` writes it).

        Not a checkpoint of every union: that copies the whole relation at each loop
        step, which late in a loop (few new rows, a large relation) cost most of the
        step; but not many pieces either: each costs every query that reads the table
        time to plan and to ship (docs/performance.md, run 12). A union of
        co-partitioned pieces keeps their partitioning."""
        pieces = self._pieces[target.name] + self._pieces[source.name]
        if len(pieces) > self.thresholds.compact_every:
            pieces = compacted(self, target, pieces, self._compactions)
        a, b = self.sizes.get(target.name), self.sizes.get(source.name)
        self._set(target, union_of(self, target, pieces), None if a is None or b is None
                  else a + b, pieces=pieces)

    def rename(self, target: Table, source: Table) -> None:
        """Point ``target`` at the data of ``source`` and forget ``source``."""
        if target.name == source.name:
            return
        df = self.tables.pop(source.name)
        size = self.sizes.pop(source.name, None)
        estimate = self._estimates.pop(source.name, None)
        # ``source``'s view (if any) stays until the table is next set or dropped: no
        # query reads it meanwhile, and dropping it would cost a JVM round trip
        self._set(target, df, size, pieces=self._pieces.pop(source.name))
        self._estimates.pop(target.name, None)
        if estimate is not None:
            self._estimates[target.name] = estimate

    def patch(self, target: Table, plus: Optional[Table], minus: Optional[Table]) -> None:
        """``target := (target − minus) ∪ plus``: with rows to remove, the stored rows
        that stay and the added ones stored anew (one action); with rows to add only,
        an append."""
        if minus is None:
            if plus is not None:
                self.append(target, plus)
            return
        columns = [c.name for c in target.columns]
        query = SPARK.difference(select_all(target.name), minus.name, columns)
        if plus is not None:
            query = exp.union(query, select_all(plus.name), distinct=False)
        # lazily (no action now): the next query that reads the relation computes it;
        # its size before stays as the estimate that chooses its joins
        before = self.sizes.get(target.name)  # None after a lazy patch: its estimate
        if before is None:
            before = self._estimates.get(target.name)
        self._store(target, query, False, bounded=True)
        self._estimates[target.name] = before

    @contextlib.contextmanager
    def transaction(self):
        """What fails inside leaves every table as it was: the DataFrames held before
        are held again (and their checkpoint files are kept until it ends).

        The lazy checkpoints it made are filled at its end, all in one job, so that
        what fails (a function raising) fails the transaction, not a later read, and
        a transaction's time is spent inside it (docs/performance.md, run 23).

        Its statements are planned without adaptive execution (``co.transacting``):
        with it, every shuffle and broadcast of a query is a job of its own, and a
        transaction of a few changed rows is mostly such jobs (run 24)."""
        saved = (dict(self.tables), dict(self.sizes), dict(self._pieces), dict(self.widths))
        self._holding_files = True
        self._unfilled = []
        # planning without adaptive execution needs checkpoints with attributes of
        # their own (spark_checkpoints.with_own_attributes), which Connect cannot give
        planned = contextlib.nullcontext() if is_connect(self.spark) else self.co.transacting()
        try:
            with planned:
                yield
                self._fill()
        except BaseException:
            self.tables, self.sizes, self._pieces, self.widths = saved
            self.views.shown = {}  # registered again from the tables held now
            raise
        finally:
            self._holding_files = False
            self._unfilled = None
            self._collect()

    def _fill(self) -> None:
        """Fill the lazy checkpoints made since the transaction began (or since the
        last fill, ``fill_every``) that a table still holds (alone or as a piece),
        in one job, and learn those tables' sizes. (One no table holds is filled by
        the job that computes a checkpoint made from it, if any.)"""
        held = [df for df in self.tables.values()] + [
            p.df for pieces in self._pieces.values() for p in pieces]
        wanted = {id(df) for df in self._unfilled}
        self._unfilled = []
        frames = list({id(df): df for df in held if id(df) in wanted}.values())
        if not frames:
            return
        self.actions += 1
        rows = dict(zip(map(id, frames), fill(frames)))
        for name, df in self.tables.items():
            if self.sizes.get(name) is None and id(df) in rows:
                self.sizes[name] = rows[id(df)]

    def compute(self, tables: list[Table]) -> None:
        """Fill the lazy checkpoints among ``tables`` (one action each), counting them."""
        for table in tables:
            if self.sizes.get(table.name) is None and table.name in self.tables:
                self.actions += 1
                self.sizes[table.name] = self.tables[table.name].count()

    def fetch(self, table: Table) -> list[tuple]:
        """All rows of ``table`` collected to the driver, normalised."""
        self.actions += 1
        return [normalize(tuple(r)) for r in self.tables[table.name].collect()]

    def fetch_all(self, tables: list[Table]) -> list[list[tuple]]:
        """The rows of each of ``tables``, as :meth:`fetch` gives them. Tables of one
        row type are collected in one job, a union of them with each row tagged with
        its table's place: a Spark job costs some 20-40 ms however few its rows, and
        the closure's search on the driver reads three versions of one relation."""
        types = [[c.type for c in t.columns] for t in tables]
        if len(tables) < 2 or any(t != types[0] for t in types):
            return [self.fetch(t) for t in tables]
        self.actions += 1
        return [[normalize(tuple(r)) for r in rows]
                for rows in collect_each([self.tables[t.name] for t in tables])]

    def drop(self, table: Table) -> None:
        """Forget ``table`` and its temp view."""
        df = self.tables.pop(table.name, None)
        self.sizes.pop(table.name, None)
        self._estimates.pop(table.name, None)
        replaced = self._pieces.pop(table.name, ())
        self.views.drop(self, table.name)
        if df is not None:
            if not any(d is df for d in self.tables.values()):
                self._release(df)
        if any(p.files for p in replaced):
            self._collect()

    def drop_all(self, tables: list[Table]) -> None:
        """Forget each of ``tables``."""
        for t in tables:
            self.drop(t)

    def size(self, table: Table) -> int:
        """Number of rows of ``table``: known where it was counted when stored, else
        counted now (one action)."""
        known = self.sizes.get(table.name)
        return known if known is not None else self.count(table)

    def count(self, table: Table) -> int:
        """Number of rows of ``table`` (one action; for checks, not used by loops)."""
        self.actions += 1
        return self.tables[table.name].count()

    def register_function(self, name: str, fn, arg_types, ret_type) -> None:
        """Register ``fn`` as Spark SQL function ``name`` (:func:`register_spark_function`)."""
        register_spark_function(self.spark, name, fn, ret_type)


def register_spark_function(spark, name: str, fn, ret_type) -> None:
    """Register ``fn`` (normalised values in and out) as Spark SQL function ``name`` of
    ``spark``, first making dl2sql's runtime importable by the session's Python workers
    (:func:`dl2sql.runner.spark_python.ensure_runtime`, once per session)."""
    ensure_runtime(spark)
    send_by_value(getattr(fn, "user_functions", tuple)())
    # the type as DDL text, which the session parses (StructType.fromDDL is PySpark 4's)
    spark.udf.register(name, SparkUdf(fn, to_spark(ret_type)), ret_type.sql(dialect="spark"))


def open_runner(settings) -> SparkRunner:
    """A runner on ``settings.spark``, or on the active or a new session on
    ``settings.master``."""
    spark = settings.spark if settings.spark is not None else get_spark(settings.master)
    return SparkRunner(spark, partitions=settings.partitions,
                       checkpoint_dir=settings.checkpoint_dir, thresholds=settings.thresholds)
