"""Keeping the tables of a Spark loop hash-partitioned on their keys.

The plan names a partition key for the tables of recursive strata
(:mod:`dl2sql.plan.partitioning`). Stored with that partitioning, a checkpointed table
tells Spark's planner how its rows are spread, and the joins, deduplications and set
differences of the next steps read it without a shuffle. Two session settings decide
whether Spark can use that, and they matter only while a query is *planned* (a
checkpoint is planned when it is taken, lazy or not), so they are set just for that:

- adaptive query execution off: an adaptive plan reports its partitioning as unknown,
  so its checkpoint forgets it (and a loop step's partitions are few and even);
- ``spark.sql.requireAllClusterKeysForCoPartition`` off: the set difference compares
  all columns, and both of its sides are partitioned on one of them, which is enough
  for equal rows to meet in the same partition.

The previous values are put back afterwards, so the user's own queries in the same
session plan as before.
"""
from __future__ import annotations

import contextlib
from typing import Optional

from dl2sql.plan.nodes import Table

CO_PARTITION_CONF = {
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.requireAllClusterKeysForCoPartition": "false",
}


# not a possible DDlog field name, so never a column's own name
_TEMPORARY = "dl2sql$"


class CoPartitioner:
    """Applies the plan's partition keys to the DataFrames a runner stores.

    ``partitions`` is the number of hash partitions (the session's shuffle partitions,
    which the plan's ``DISTRIBUTE BY`` also uses); 0 turns partitioning off, as does a
    session that refuses to change the settings above."""

    def __init__(self, spark, partitions: int):
        self.spark = spark
        self.partitions = partitions
        self._saved: Optional[dict[str, Optional[str]]] = None

    def wants(self, table: Table) -> bool:
        """Whether ``table`` is kept partitioned."""
        return bool(table.partition_by) and self.partitions > 0

    def prepare(self, table: Table, df):
        """``df`` hash-partitioned on ``table``'s key, ready to be checkpointed, its
        columns under temporary names (:meth:`finish` restores them).

        The repartition is free when ``df`` is partitioned so already (Spark drops a
        repartition its input satisfies). The renaming is what makes the checkpoint
        keep its partitioning where a query reads it twice, or next to a table with
        an attribute of the same id: Spark then re-instantiates the checkpoint and
        carries its partitioning over only if its attributes are exactly those of
        its output, and a SQL query's output attributes carry the qualifiers of its
        subqueries (``n.x``) while its partitioning carries others (``t1.x``).
        Renamed, both are the same fresh unqualified attributes."""
        if not self.wants(table):
            return df
        from pyspark.sql import functions as F

        temporary = [_TEMPORARY + str(i) for i in range(len(table.columns))]
        index = {c.name: i for i, c in enumerate(table.columns)}
        keys = [F.col(temporary[index[k]]) for k in table.partition_by]
        return df.toDF(*temporary).repartition(self.partitions, *keys)

    def finish(self, table: Table, checkpoint):
        """A checkpoint of :meth:`prepare`'s result, under ``table``'s column names."""
        if not self.wants(table):
            return checkpoint
        return checkpoint.toDF(*[c.name for c in table.columns])

    @contextlib.contextmanager
    def planning(self, table: Table):
        """Plan (checkpoint) ``table`` inside this block with the settings above."""
        if not self.wants(table):
            yield
            return
        conf = self.spark.conf
        changed = []  # the settings changed here, and only those, are put back after
        try:
            try:
                if self._saved is None:
                    self._saved = {k: conf.get(k, None) for k in CO_PARTITION_CONF}
                for k, v in CO_PARTITION_CONF.items():
                    conf.set(k, v)
                    changed.append(k)
            except Exception:  # a service may refuse runtime confs: plan as the session is
                self.partitions = 0
            yield
        finally:
            for k in changed:
                v = self._saved[k]
                if v is None:
                    conf.unset(k)
                else:
                    conf.set(k, v)
