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

    def partitioned(self, table: Table, df):
        """``df`` hash-partitioned on ``table``'s key. Free when ``df`` is partitioned
        so already (Spark drops a repartition its input satisfies)."""
        if not self.wants(table):
            return df
        return df.repartition(self.partitions, *table.partition_by)

    @contextlib.contextmanager
    def planning(self, table: Table):
        """Plan (checkpoint) ``table`` inside this block with the settings above."""
        if not self.wants(table):
            yield
            return
        conf = self.spark.conf
        try:
            if self._saved is None:
                self._saved = {k: conf.get(k, None) for k in CO_PARTITION_CONF}
            for k, v in CO_PARTITION_CONF.items():
                conf.set(k, v)
        except Exception:  # pragma: no cover - a service may refuse runtime confs
            self.partitions = 0
            yield
            return
        try:
            yield
        finally:
            for k, v in self._saved.items():
                if v is None:
                    conf.unset(k)
                else:
                    conf.set(k, v)
