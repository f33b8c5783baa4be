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
:func:`get_spark` is the exception: it starts a local classic session.
"""
from __future__ import annotations

import contextlib
import decimal
import os
import re
import tempfile
from typing import Any, Callable, Optional

from sqlglot import exp

from dl2sql.plan.nodes import Loop, Materialize, Table
from dl2sql.runner.spark_partitioning import CoPartitioner

_DT = exp.DataType.Type

# log4j2 configuration for sessions we start ourselves: Spark's default INFO/WARN chatter
# (native-hadoop warnings, "Using Spark's default log4j profile") would drown the output
# of a command-line tool.
_LOG4J2 = """\
rootLogger.level = fatal
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
# Same level as the root logger, so that PySpark does not announce a "default log level".
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = fatal
logger.pygw.name = org.apache.spark.api.python.PythonGatewayServer
logger.pygw.level = fatal
"""


def _local_cores(master: str) -> int:
    """Number of worker threads of a ``local[...]`` master (cores for ``local[*]``)."""
    m = re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", master.strip())
    if not m:
        return 0
    n = m.group(1)
    if n is None:
        return 1
    if n == "*":
        return os.cpu_count() or 1
    return int(n)


def _log4j_file() -> str:
    path = os.path.join(tempfile.gettempdir(), "dl2sql-log4j2.properties")
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == _LOG4J2:
                return path
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(_LOG4J2)
    return path


def get_spark(master: Optional[str] = None):
    """The active SparkSession, or a new local one tuned for dl2sql.

    A new session uses ``master`` (default ``local[*]``), as many shuffle partitions as
    local cores (Spark's default of 200 means 200 tiny tasks per join on a laptop), AQE,
    case-sensitive identifiers (DDlog names are case-sensitive), no UI and errors-only
    logging so that command output stays readable.
    """
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    master = master or os.environ.get("DL2SQL_SPARK_MASTER") or "local[*]"
    cores = _local_cores(master)
    builder = (
        SparkSession.builder.master(master)
        .appName("dl2sql")
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.sql.caseSensitive", "true")
        .config("spark.sql.constraintPropagation.enabled", "false")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # dl2sql reports engine errors itself, in one line; Spark's JSON logs would
        # bury that line under pages of stack traces
        .config("spark.log.structuredLogging.enabled", "false")
        .config("spark.driver.memory", os.environ.get("DL2SQL_DRIVER_MEMORY", "1g"))
        .config("spark.driver.extraJavaOptions", f"-Dlog4j.configurationFile={_log4j_file()}")
    )
    if cores:
        builder = builder.config("spark.sql.shuffle.partitions", str(cores))
        builder = builder.config("spark.default.parallelism", str(cores))
    spark = builder.getOrCreate()
    # PySpark logs every failed query as JSON on this Python logger; dl2sql reports the
    # failure itself, once and readably
    import logging

    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    try:  # classic sessions only; harmless to skip elsewhere
        spark.sparkContext.setLogLevel("OFF")
    except Exception:  # pragma: no cover
        pass
    return spark


def is_connect(spark) -> bool:
    """Whether ``spark`` is a Spark Connect (remote) session."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


# --- values --------------------------------------------------------------------------

def _ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect="spark")


def _not_null(dtype: exp.DataType) -> str:
    """``dtype`` in Spark DDL with every STRUCT field declared NOT NULL."""
    if dtype.this == _DT.STRUCT:
        fields = ", ".join(
            f"{_ident(e.name)}: {_not_null(e.args['kind'])} NOT NULL" for e in dtype.expressions
        )
        return f"STRUCT<{fields}>"
    if dtype.this in (_DT.ARRAY, _DT.LIST):
        return f"ARRAY<{_not_null(dtype.expressions[0])}>"
    return dtype.sql(dialect="spark")


def schema_ddl(table: Table) -> str:
    """The Spark DDL schema of ``table``, every column and struct field NOT NULL.

    No SQL NULL ever stands for a DDlog value (design.md, "Values"), and saying so lets
    the optimizer drop null checks. (It does not make Spark plan ``EXCEPT`` with plain
    keys: that still compares null-safely, which is why the plan's set difference is
    an explicit anti-join on Spark, see ``sqlgen/dialects.py``.)"""
    return ", ".join(f"{_ident(c.name)} {_not_null(c.type)} NOT NULL" for c in table.columns)


# Spark's own per-value size estimates (DataType.defaultSize), used to decide which
# tables are small enough to broadcast.
_WIDTH = {
    _DT.BOOLEAN: 1, _DT.TINYINT: 1, _DT.SMALLINT: 2, _DT.INT: 4, _DT.FLOAT: 4,
    _DT.BIGINT: 8, _DT.DOUBLE: 8, _DT.DECIMAL: 16, _DT.DATE: 4, _DT.TIMESTAMP: 8,
}


def _width(dtype: exp.DataType) -> int:
    if dtype.this == _DT.STRUCT:
        return sum(_width(e.args["kind"]) for e in dtype.expressions)
    if dtype.this in (_DT.ARRAY, _DT.LIST):
        return 4 * _width(dtype.expressions[0])
    return _WIDTH.get(dtype.this, 20)


def row_width(table: Table) -> int:
    """Estimated bytes per row of ``table`` (8 bytes of row overhead included)."""
    return 8 + sum(_width(c.type) for c in table.columns) if table.columns else 64


def _identity(v: Any) -> Any:
    return v


def _to_spark(dtype: exp.DataType) -> Callable[[Any], Any]:
    """Converter from a normalised value to what ``createDataFrame`` accepts for
    ``dtype``: Spark wants ``Decimal`` for DECIMAL; tuples and lists pass as they are."""
    t = dtype.this
    if t == _DT.DECIMAL:
        return decimal.Decimal
    if t == _DT.STRUCT:
        convs = [_to_spark(e.args["kind"]) for e in dtype.expressions]
        if all(c is _identity for c in convs):
            return _identity
        return lambda v: tuple(c(x) for c, x in zip(convs, v))
    if t in (_DT.ARRAY, _DT.LIST):
        elem = _to_spark(dtype.expressions[0])
        if elem is _identity:
            return _identity
        return lambda v: [elem(x) for x in v]
    return _identity


def normalize(value: Any) -> Any:
    """A collected Spark value → the normalised form of :mod:`dl2sql.runner.base`
    (``Row`` → tuple, ``Decimal`` → int, recursively; lists stay lists)."""
    if isinstance(value, tuple):  # Row is a tuple subclass
        return tuple(normalize(v) for v in value)
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, decimal.Decimal):
        return int(value)
    if isinstance(value, dict):
        return {normalize(k): normalize(v) for k, v in value.items()}
    return value


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
    ``hash_join_bytes`` (64 MB) a shuffle-hash hint. Broadcasting costs a job per query
    (the relation changes every iteration, so nothing is reused) and sort-merge joins
    sort both sides. Shuffled hash joins measured ~15% faster per iteration in an A/B
    with one step per job (chain and random graph), but within the noise in the full
    benchmark run (docs/performance.md, runs 7 and 8). Above 64 MB the choice is
    Spark's (sort-merge, which spills): a hash join keeps its build side in memory.
    """

    dialect = "spark"
    lazy_uncounted = True  # uncounted results are checkpointed lazily (no action)
    # Each Spark job costs ~0.1 s however small: run several semi-naive steps per
    # termination test (the uncounted ones are lazy, one job computes them all), and
    # evaluate long thin transitive closures by doubling (log2 of the path length
    # iterations instead of one per edge). Both give exactly the same result.
    steps_per_check = 4
    fuse_below_rows = 10_000  # ... while no delta has been this large
    # ... but not in loops whose tables are kept partitioned: a step there is one job
    # already, and fused steps measured slower (docs/performance.md, run 9)
    fuse_partitioned = False
    closure_by_doubling = True
    EAGER_EVERY = 64

    def __init__(self, spark, count_mode: str = "auto", broadcast_bytes: int = 0,
                 hash_join_bytes: int = 64 << 20):
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
        if count_mode == "auto":
            count_mode = "count" if is_connect(spark) else "observe"
        self.count_mode = count_mode
        self.broadcast_bytes = broadcast_bytes
        self.hash_join_bytes = hash_join_bytes
        try:
            self.partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
        except Exception:  # pragma: no cover - conf not readable on some services
            self.partitions = 0
        self.actions = 0  # Spark actions issued by this runner (for tests and benchmarks)
        self._appends: dict[str, int] = {}
        self._widths: dict[str, int] = {}  # estimated bytes per row, by table
        self._views: dict[str, Any] = {}  # table -> the DataFrame its temp view shows
        self._queries: dict[tuple, tuple] = {}  # see _printed
        self._row_count = None  # the observed metric, see _checkpoint_counted
        self.co = CoPartitioner(spark, self.partitions)  # the plan's partition keys

    # -- helpers -------------------------------------------------------------------
    def sql(self, query: exp.Expression) -> str:
        """``query`` printed for Spark SQL (printed once per query: a loop runs the
        same plan statements hundreds of times)."""
        return self._printed(query)[0]

    def _printed(self, query: exp.Expression, stored: Optional[Table] = None):
        """``query``'s Spark SQL and the table names it reads (a tuple), cached by identity
        (plan statements are immutable and live as long as the plan); with ``stored``,
        the SQL that stores its result as that table (:meth:`CoPartitioner.stored_query`)."""
        wrapped = stored is not None and self.co.wants(stored)
        key = (id(query), wrapped)
        hit = self._queries.get(key)
        if hit is not None and hit[0] is query:
            return hit[1]
        names = frozenset(t.name for t in query.find_all(exp.Table))
        sql = (self.co.stored_query(stored, query) if wrapped else query).sql(dialect=self.dialect)
        self._queries[key] = (query, (sql, names))
        return sql, names

    def _register_views(self, names) -> None:
        """Register the temp views a query reads, where the table changed since.

        Views are registered when a query needs them, not whenever a table changes:
        in a loop the new rows are appended and renamed without being read by SQL,
        and every registration is a round trip to the JVM (and an analysis)."""
        for name in names:
            df = self.tables.get(name)
            if df is None or self._views.get(name) is df:
                continue  # a CTE or a table not held by this runner
            size = self.sizes.get(name)
            nbytes = None if size is None else size * self._widths[name]
            view = df
            if nbytes is not None and nbytes <= self.broadcast_bytes:
                view = df.hint("broadcast")
            elif nbytes is not None and nbytes <= self.hash_join_bytes:
                view = df.hint("shuffle_hash")
            view.createOrReplaceTempView(_ident(name))
            self._views[name] = df

    def dataframe(self, table: Table):
        """The DataFrame currently holding ``table``."""
        return self.tables[table.name]

    def _set(self, table: Table, df, size: Optional[int]) -> None:
        name = table.name
        old = self.tables.get(name)
        self.tables[name] = df
        self.sizes[name] = size
        self._widths[name] = row_width(table)
        if old is not None and old is not df and not any(d is old for d in self.tables.values()):
            self._release(old)

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

    def _bounded(self, df):
        """``df`` with at most ``partitions`` partitions.

        Appends union checkpointed pieces; without this every append adds the
        partitions of the delta and a long loop ends with hundreds of tiny tasks.
        ``coalesce`` is narrow (no shuffle)."""
        if self.partitions > 0:
            return df.coalesce(self.partitions)
        return df

    def _checkpoint_counted(self, df):
        """``df`` checkpointed, and its row count, for exactly one Spark action."""
        self.actions += 1
        if self.count_mode == "observe":
            from pyspark.sql import Observation
            from pyspark.sql import functions as F

            if self._row_count is None:  # an unresolved expression: reusable, built once
                self._row_count = F.count(F.lit(1)).alias("n")
            obs = Observation()
            ck = df.observe(obs, self._row_count).localCheckpoint(eager=True)
            try:
                n = obs.get.get("n")
            except Exception:  # Connect: "no observe before get"
                n = None
            if n is not None:
                return ck, int(n)
            # Metrics did not arrive (Spark Connect after localCheckpoint). The table is
            # materialised already, so counting it is cheap; from now on use the
            # one-action path.
            self.count_mode = "count"
            self.actions += 1
            return ck, ck.count()
        ck = df.localCheckpoint(eager=False)
        return ck, ck.count()  # the count computes and stores the checkpoint

    def _partitioned(self, loop: Loop) -> bool:  # does the loop keep a table partitioned?
        return any(isinstance(s, Materialize) and self.co.wants(s.target) for s in loop.body)

    def steps_for(self, loop: Loop) -> int:
        """Semi-naive steps per termination test in ``loop``: ``steps_per_check``, or 1
        where the loop's tables are kept partitioned (unless ``fuse_partitioned``)."""
        if not self.fuse_partitioned and self._partitioned(loop):
            return 1
        return self.steps_per_check

    def looping(self, loop: Loop):
        """Context of a whole ``loop``: co-partitioning settings applied once for it."""
        return self.co.holding() if self._partitioned(loop) else contextlib.nullcontext()

    # -- Runner protocol -----------------------------------------------------------
    def load(self, table: Table, rows: list[tuple]) -> None:
        """Create ``table`` from normalised ``rows`` and checkpoint it, so that the
        Python data is serialised into Spark once, not on every read."""
        n = len(table.columns)
        convs = [_to_spark(c.type) for c in table.columns]
        for i, row in enumerate(rows):
            if len(row) != n:
                raise ValueError(
                    f"relation {table.name}: row {i} has {len(row)} columns, expected {n}: {row!r}"
                )
        if any(c is not _identity for c in convs):
            rows = [tuple(c(v) for c, v in zip(convs, r)) for r in rows]
        df = self.spark.createDataFrame(rows, schema=schema_ddl(table))
        self.actions += 1
        with self.co.planning(table):
            ck = self.co.prepare(table, df).localCheckpoint(eager=True)
        self._set(table, self.co.finish(table, ck), len(rows))

    def load_dataframe(self, table: Table, df) -> None:
        """Hold DataFrame ``df`` (already of the table's schema) as ``table``,
        checkpointed and counted in one action, so that its source is read once."""
        with self.co.planning(table):
            ck, n = self._checkpoint_counted(self.co.prepare(table, df.distinct()))
        self._set(table, self.co.finish(table, ck), n)

    def materialize(self, table: Table, query: exp.Expression, count: bool) -> Optional[int]:
        """Run ``query`` and hold its result as ``table`` with its lineage cut, for one
        Spark action. The size is always taken (it is free during the checkpoint and
        chooses the join hints); it is returned only with ``count``."""
        text, names = self._printed(query, table)
        self._register_views(names)
        with self.co.planning(table):
            df = self.spark.sql(text)  # partitioned by CoPartitioner.stored_query
            if not count and self.lazy_uncounted:
                # no action now: the next action that reads the table fills the checkpoint
                self._set(table, df.localCheckpoint(eager=False), None)
                return None
            ck, n = self._checkpoint_counted(df)
        self._set(table, ck, n)
        return n if count else None

    def append(self, target: Table, source: Table) -> None:
        """``target := target ∪ source`` as a lazy checkpoint (no action now: the next
        action that reads ``target`` writes it)."""
        df = self.tables[target.name].unionByName(self.tables[source.name])
        # co-partitioned pieces union into as many partitions as each has
        df = self.co.repartition(target, df) if self.co.wants(target) else self._bounded(df)
        a, b = self.sizes.get(target.name), self.sizes.get(source.name)
        self._appends[target.name] = n = self._appends.get(target.name, 0) + 1
        # A lazy checkpoint keeps its parents until a job fills it; in a long loop
        # the chain of unions can outgrow the JVM stack when a task is deserialised
        # (seen at ~700 iterations), so every EAGER_EVERY appends one is written now.
        eager = n % self.EAGER_EVERY == 0
        with self.co.planning(target):
            ck = df.localCheckpoint(eager=eager)
        self._set(target, ck, None if a is None or b is None else a + b)
        if eager:
            self.actions += 1

    def rename(self, target: Table, source: Table) -> None:
        """Point ``target`` at the data of ``source`` and forget ``source``."""
        if target.name == source.name:
            return
        df = self.tables.pop(source.name)
        size = self.sizes.pop(source.name, None)
        # ``source``'s view (if any) stays until the table is next set or dropped: no
        # query reads it meanwhile, and dropping it would cost a JVM round trip
        self._set(target, df, size)

    def fetch(self, table: Table) -> list[tuple]:
        """All rows of ``table`` collected to the driver, normalised."""
        self.actions += 1
        return [normalize(tuple(r)) for r in self.tables[table.name].collect()]

    def drop(self, table: Table) -> None:
        """Forget ``table`` and its temp view."""
        df = self.tables.pop(table.name, None)
        self.sizes.pop(table.name, None)
        if self._views.pop(table.name, None) is not None:
            self.spark.catalog.dropTempView(table.name)  # a name, not an SQL identifier
        if df is not None:
            if not any(d is df for d in self.tables.values()):
                self._release(df)

    def count(self, table: Table) -> int:
        """Number of rows of ``table`` (one action; for checks, not used by loops)."""
        self.actions += 1
        return self.tables[table.name].count()

    def register_function(self, name: str, fn, arg_types, ret_type) -> None:
        """Register ``fn`` (normalised values in and out) as Spark SQL function ``name``."""
        from pyspark.sql.types import StructType

        schema = StructType.fromDDL(f"v {ret_type.sql(dialect='spark')}")
        to_spark = _to_spark(ret_type)

        def wrapped(*args):
            return to_spark(fn(*[normalize(a) for a in args]))
        self.spark.udf.register(name, wrapped, schema.fields[0].dataType)
