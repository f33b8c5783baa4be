"""The temp views a Spark runner's queries read its tables through, with join hints.

A query's tables are registered as temp views under their own names just before it
runs, so that the SQL printed for the ``spark`` dialect can refer to them. A view
carries the hint that tells Spark how to join its table (``SparkRunner`` says why):
a broadcast up to the runner's ``broadcast_bytes``, a shuffle-hash join up to its
``hash_join_bytes``.
"""
from __future__ import annotations

import weakref
from typing import Any

from dl2sql.runner.spark_types import ident

# Temp views are the session's, runners are many (a run beside a maintained program, two
# programs in one notebook): per session, the runner whose table each view shows now.
# A runner registers its view again when another replaced it, and drops only its own.
# (weakly: a runner nobody holds any more goes with its tables)
_VIEW_OWNERS: dict[int, weakref.WeakValueDictionary] = {}


class Views:
    """The views one runner registered on its session."""

    def __init__(self, spark):
        self.spark = spark
        self.shown: dict[str, Any] = {}  # table -> the DataFrame its temp view shows

    def register(self, runner, names) -> None:
        """Register the temp views of ``runner``'s tables ``names``, where the table
        changed since.

        Views are registered when a query needs them, not whenever a table changes:
        in a loop the new rows are appended and renamed without being read by SQL,
        and every registration is a round trip to the JVM (and an analysis)."""
        owners = _VIEW_OWNERS.setdefault(id(self.spark), weakref.WeakValueDictionary())
        for name in names:
            df = runner.tables.get(name)
            if df is None:
                continue  # a CTE or a table not held by this runner
            if self.shown.get(name) is df and owners.get(name) is runner:
                continue  # the view shows this table still (no other runner replaced it)
            size = runner.rows(name)
            nbytes = None if size is None else size * runner.widths[name]
            view = df
            if nbytes is not None and nbytes <= runner.broadcast_bytes:
                view = df.hint("broadcast")
            elif nbytes is not None and nbytes <= runner.hash_join_bytes:
                view = df.hint("shuffle_hash")
            view.createOrReplaceTempView(ident(name))
            self.shown[name] = df
            owners[name] = runner

    def drop(self, runner, name: str) -> None:
        """Forget the view of ``runner``'s table ``name`` (not another runner's view of
        the same name: a run beside a maintained program)."""
        owners = _VIEW_OWNERS.get(id(self.spark), {})
        if self.shown.pop(name, None) is not None and owners.get(name) is runner:
            self.spark.catalog.dropTempView(name)  # a name, not an SQL identifier
            del owners[name]
