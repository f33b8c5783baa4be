"""A Spark runner's table held as the union of the pieces stored for it.

A loop's relation grows by an append at every step. Storing each union anew copies the
whole relation at each step, which late in a loop (few new rows, a large relation) was
most of the step's work; holding it as the union of every step's piece instead makes
each query that reads it plan and ship one more piece per step (docs/performance.md,
run 12). So a table is the union of its pieces, and once it has more than the runner's
``compact_every`` (:mod:`dl2sql.plan.thresholds`) the smallest are stored as one
(:func:`compacted`): the large pieces of a loop's busy steps are never copied again.
"""
from __future__ import annotations

import functools
from typing import Any, NamedTuple, Optional

from dl2sql.plan.nodes import Table


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
    """``pieces`` with the smallest stored as one, down to half the runner's
    ``compact_every`` (``compactions`` counts them by table)."""
    limits = runner.thresholds
    order = sorted(range(len(pieces)), key=lambda i: (
        pieces[i].size is None, pieces[i].size or 0))
    chosen = set(order[:len(pieces) - limits.compact_every // 2 + 1])
    merged = [pieces[i] for i in sorted(chosen)]
    compactions[table.name] = n = compactions.get(table.name, 0) + 1
    # A lazy checkpoint keeps its parents until a job fills it; in a long loop the
    # chain of unions can outgrow the JVM stack when a task is deserialised (seen at
    # ~700 iterations), so every ``eager_every`` compactions one is written now.
    with runner.co.planning(table):
        ck, files = runner.checkpoint(union_of(runner, table, merged),
                                      eager=n % limits.eager_every == 0)
    sizes = [p.size for p in merged]
    one = Piece(ck, None if None in sizes else sum(sizes), files)
    return tuple(p for i, p in enumerate(pieces) if i not in chosen) + (one,)
