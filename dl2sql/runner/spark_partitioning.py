"""Keeping the tables of a Spark loop hash-partitioned on their keys.

The plan names a partition key for the tables of recursive strata
(:mod:`dl2sql.plan.partitioning`). Stored with that partitioning, a checkpointed table
tells Spark's planner how its rows are spread, and the joins, deduplications and set
differences of the next steps read it without a shuffle. Two session settings decide
whether Spark can use that, and they matter only while a query is *planned* (a
checkpoint is planned when it is taken, lazy or not), so they are set just for that
(for a whole loop, or for one statement outside loops):
- adaptive query execution off: an adaptive plan reports its partitioning as unknown,
  so its checkpoint forgets it (and a loop step's partitions are few and even);
- ``spark.sql.requireAllClusterKeysForCoPartition`` off: the set difference compares
  all columns, and both of its sides are partitioned on one of them, which is enough
  for equal rows to meet in the same partition.

The previous values are put back afterwards, so the user's own queries in the same
session plan as before.

A maintained program's transaction is planned under the same settings as a whole
(:meth:`CoPartitioner.transacting`): its statements read few rows, and with adaptive
execution each of their shuffles and broadcasts would be a Spark job of its own. So
is every loop, its tables partitioned or not (:meth:`CoPartitioner.shuffling`).

A checkpoint keeps its partitioning where a query reads it twice (Spark then gives
one of the two reads fresh attributes) only if the attributes of its partitioning are
exactly those of its output. The SQL of a partitioned table's query takes care of that
(``store_partitioned`` in :mod:`dl2sql.sqlgen.dialects`); a DataFrame loaded as an
input is renamed the same way here (:meth:`CoPartitioner.prepare`); a union of stored
pieces needs no renaming.

Every PySpark call costs round trips to the JVM (a ``Column`` or a list argument
several), and a loop step runs many: what can be done in a query's SQL is done there,
and the settings are switched once per loop. A loop step on a 200-node chain went from
~137 round trips to ~50 (docs/performance.md, run 11).
"""
from __future__ import annotations

import contextlib
from typing import Optional


from dl2sql.plan.nodes import Table
from dl2sql.sqlgen.dialects import temporary_names

ADAPTIVE = "spark.sql.adaptive.enabled"
CO_PARTITION_CONF = {
    ADAPTIVE: "false",
    "spark.sql.requireAllClusterKeysForCoPartition": "false",
}


class CoPartitioner:
    """Applies the plan's partition keys to the DataFrames a runner stores.

    ``partitions`` is the number of hash partitions (the session's shuffle partitions,
    which the plan's ``DISTRIBUTE BY`` also uses); 0 turns partitioning off, as does a
    session that refuses to change the settings above."""

    def __init__(self, spark, partitions: int):
        self.spark = spark
        self.partitions = partitions
        self._saved: Optional[dict[str, Optional[str]]] = None
        self._held = False  # the settings stay applied for a whole loop
        self._outside: Optional[dict] = None  # in a transaction: the session's settings
        self._keys: dict[str, list] = {}  # table name -> key Columns, built once

    def wants(self, table: Table) -> bool:
        """Whether ``table`` is kept partitioned."""
        return bool(table.partition_by) and self.partitions > 0

    # -- DataFrames loaded from outside ------------------------------------------------
    def prepare(self, table: Table, df):
        """``df`` hash-partitioned on ``table``'s key, ready to be checkpointed, its
        columns under temporary names (:meth:`finish` restores them).

        For inputs, stored once; the plan's queries are renamed in their SQL."""
        if not self.wants(table):
            return df
        from pyspark.sql import functions as F  # deferred: PySpark loads only when Spark runs

        names, key = temporary_names([c.name for c in table.columns], list(table.partition_by))
        return df.toDF(*names).repartition(self.partitions, *[F.col(k) for k in key])

    def finish(self, table: Table, checkpoint):
        """A checkpoint of :meth:`prepare`'s result, under ``table``'s column names."""
        if not self.wants(table):
            return checkpoint
        return checkpoint.toDF(*[c.name for c in table.columns])

    # -- loop statements ---------------------------------------------------------------
    def repartition(self, table: Table, df):
        """``df``, a union of pieces stored for ``table``, hash-partitioned on
        ``table``'s key (free: a union of co-partitioned pieces keeps their
        partitioning). A piece's columns are the same attributes in its logical and
        its physical plan, so no renaming is needed."""
        if not self.wants(table):
            return df
        keys = self._keys.get(table.name)
        if keys is None:
            from pyspark.sql import functions as F  # deferred: PySpark loads only when Spark runs

            keys = self._keys[table.name] = [F.col(k) for k in table.partition_by]
        return df.repartition(self.partitions, *keys)

    # -- session settings --------------------------------------------------------------
    def planning(self, table: Table):
        """Plan (checkpoint) ``table`` inside this block with the settings above."""
        if self._held or not self.wants(table):
            return contextlib.nullcontext()
        return self._applied()

    @contextlib.contextmanager
    def holding(self):
        """Keep the settings applied inside this block (a loop whose tables are kept
        partitioned), so that its statements plan without switching them."""
        if self._held:
            yield
            return
        with self._applied():
            self._held = True
            try:
                yield
            finally:
                self._held = False

    @contextlib.contextmanager
    def transacting(self):
        """Plan a transaction's statements inside this block with the settings above
        (see ``SparkRunner.transaction``), but for the loops whose tables are not kept
        partitioned: those plan as outside (:meth:`shuffling`). With partitioning off,
        everything plans as the session is."""
        if self.partitions <= 0 or self._outside is not None:
            yield
            return
        with self._applied():
            # blocks inside put back the transaction's settings, not the session's
            self._outside, self._saved = self._saved, dict(self.settings())
            try:
                yield
            finally:
                self._saved, self._outside = self._outside, None

    def settings(self) -> dict[str, str]:
        """The session settings under which partitioned tables are planned: those above,
        and as many shuffle partitions as the tables have, so that the joins and
        deduplications of a loop step shuffle into the same partitions."""
        return {**CO_PARTITION_CONF, "spark.sql.shuffle.partitions": str(self.partitions)}

    def shuffling(self):
        """Inside this block (a loop whose tables are not kept partitioned), shuffles go
        into the tables' number of partitions (not the session's, 200 by default) and
        queries are planned without adaptive execution. An adaptive plan runs each of
        its shuffles and broadcasts as a Spark job of its own, also for a lazy
        checkpoint: on a naive loop over a few rows (tests/programs
        recursive_aggregation) 279 jobs a run against 37 without, 0.7x the time; on
        loops over 10^4-10^6 rows (the field benchmark's cc, sssp, andersen, cspa, sg
        on Spark) the same time either way (docs/performance.md)."""
        if self._held or self.partitions <= 0:
            return contextlib.nullcontext()
        return self._applied({"spark.sql.shuffle.partitions": str(self.partitions),
                              ADAPTIVE: "false"})

    @contextlib.contextmanager
    def _applied(self, wanted: Optional[dict] = None):
        conf = self.spark.conf
        partitioning = wanted is None
        wanted = self.settings() if wanted is None else wanted
        changed = []  # the settings changed here, and only those, are put back after
        try:
            try:
                if self._saved is None:
                    self._saved = {}
                for k in wanted:
                    if k not in self._saved:
                        self._saved[k] = conf.get(k, None)
                for k, v in wanted.items():
                    conf.set(k, v)
                    changed.append(k)
            except Exception:  # a service may refuse runtime confs: plan as the session is
                if partitioning:
                    self.partitions = 0
            yield
        finally:
            for k in changed:
                v = self._saved[k]
                if v is None:
                    conf.unset(k)
                else:
                    conf.set(k, v)


def partitioned_by_plan(df) -> bool:
    """Whether DataFrame ``df`` is planned with a known partitioning (it plans ``df``,
    as running it would): a union of pieces hash-partitioned alike is; a union of
    pieces partitioned apart, whose partitions are all of theirs, is not. On Spark
    Connect, whose client cannot reach the plan: taken as known."""
    jdf = getattr(df, "_jdf", None)
    if jdf is None:
        return True
    partitioning = jdf.queryExecution().executedPlan().outputPartitioning()
    return partitioning.getClass().getSimpleName() != "UnknownPartitioning"
