"""A Spark runner's table held as the union of the pieces stored for it.

A loop's relation grows by an append at every step. Storing each union anew copies the
whole relation at each step, which late in a loop (few new rows, a large relation) was
most of the step's work; holding it as the union of every step's piece instead makes
each query that reads it plan and ship one more piece per step (docs/performance.md,
run 12). So a table is the union of its pieces, and once it has more than
:data:`~dl2sql.runner.spark_checkpoints.COMPACT_EVERY` the smallest are stored as one
(:func:`compacted`): the large pieces of a loop's busy steps are never copied again.
"""
from __future__ import annotations

import functools
from typing import Any, NamedTuple, Optional

from dl2sql.plan.nodes import Table
from dl2sql.runner.spark_checkpoints import COMPACT_EVERY

# every this many compactions of a table one is written at once, see compacted
EAGER_EVERY = 64


class Piece(NamedTuple):
    """A stored part of a table: its DataFrame, rows (where counted) and the reliable
    checkpoint files it is stored in."""

    df: Any
    size: Optional[int]
    files: frozenset


def union_of(runner, table: Table, pieces) -> Any:
    """One flat union of ``pieces`` (nested unions of unions cost the optimizer time
    at every step), partitioned as ``table`` is on ``runner``."""
    df = functools.reduce(lambda a, b: a.union(b), [p.df for p in pieces])
    # co-partitioned pieces union into as many partitions as each has
    return runner.co.repartition(table, df) if runner.co.wants(table) else runner.bounded(df)


def compacted(runner, table: Table, pieces, compactions: dict[str, int]) -> tuple:
    """``pieces`` with the smallest stored as one, down to half ``COMPACT_EVERY``
    (``compactions`` counts them by table)."""
    order = sorted(range(len(pieces)), key=lambda i: (
        pieces[i].size is None, pieces[i].size or 0))
    chosen = set(order[:len(pieces) - COMPACT_EVERY // 2 + 1])
    merged = [pieces[i] for i in sorted(chosen)]
    compactions[table.name] = n = compactions.get(table.name, 0) + 1
    # A lazy checkpoint keeps its parents until a job fills it; in a long loop the
    # chain of unions can outgrow the JVM stack when a task is deserialised (seen at
    # ~700 iterations), so every EAGER_EVERY compactions one is written now.
    with runner.co.planning(table):
        ck, files = runner.checkpoint(union_of(runner, table, merged),
                                      eager=n % EAGER_EVERY == 0)
    sizes = [p.size for p in merged]
    one = Piece(ck, None if None in sizes else sum(sizes), files)
    return tuple(p for i, p in enumerate(pieces) if i not in chosen) + (one,)
