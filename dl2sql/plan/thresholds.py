"""The thresholds by which a runner stores and moves a table's rows, one set per engine.

The plan says what a statement computes; these say how a runner keeps the result:
on the driver or in the engine, as a local relation or a checkpoint, in one partition
or many, patched now or later. Every one is declared here with the measurement behind
its default, set per engine in :data:`dl2sql.engines.ENGINES`, printed by
``dl2sql compile --emit update`` and ``run --explain``, and replaced for one run by
``Program.run(thresholds=...)`` / ``Program.maintain(thresholds=...)``. None of them
changes a result, only its cost.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass


class _Thresholds:
    """What the thresholds of every engine share."""

    def text(self) -> str:
        """``name=value`` of every threshold, comma-separated."""
        return fields_text(self)


@dataclass(frozen=True)
class DuckDBThresholds(_Thresholds):
    """How the DuckDB runner (:mod:`dl2sql.runner.duckdb_runner`) keeps rows.

    ``held_rows``: rows given to the runner from Python (a transaction's changes, what
    the driver worked out) of at most this many stay on the driver until a statement
    reads them, so that a transaction whose changes the driver works out runs no
    statement for them (:mod:`dl2sql.runner.duckdb_held`). ``defer_rows``: a stored
    table's patches by held rows wait on the driver for a reader until they touch this
    many rows. ``load_chunk``: rows sent per statement when loading (DuckDB copies
    every parameter into its own vectors: one giant list would be copied whole).
    ``kept_rows``: a transaction's temporary tables of fewer rows are not dropped
    before the next one, which replaces those it makes again: dropping is a catalog
    write (20 tables, 2.8 ms in one call), replacing a table costs 0.04 ms more than
    making it anew (a transaction of an update plan makes 20 to 50 small tables)."""

    held_rows: int = 1_000
    defer_rows: int = 10_000
    load_chunk: int = 100_000
    kept_rows: int = 10_000


@dataclass(frozen=True)
class SparkThresholds(_Thresholds):
    """How the Spark runner (:mod:`dl2sql.runner.spark_runner`) keeps rows.

    ``local_rows``: rows loaded from Python up to this many stay a local relation in
    the query plan (no checkpoint, no job); more are checkpointed.
    ``one_partition_rows``: a frame known to hold at most this many rows is read as one
    partition (a transaction's changes: one task instead of one per partition).
    ``fill_every``: a transaction fills its lazy checkpoints in one job once this many
    wait, else at its end (the queries of checkpoints partitioned alike run in one
    task, each shuffled hash join holding its memory until the task ends: four strata
    of a random program filled at once ran out of task memory).
    ``compact_every``: a table may be the union of this many stored pieces before the
    smallest are stored as one (:mod:`dl2sql.runner.spark_pieces`).
    ``eager_every``: every this many compactions of a table one is written at once (a
    chain of lazy checkpoints outgrew the JVM stack at about 700 loop iterations).
    ``narrow_rows``, ``narrow_factor``: a probe of a table by one of at most
    ``narrow_rows`` rows, when the probed table holds at least ``narrow_factor`` times
    as many, first narrows the probed table to the small one's keys
    (:mod:`dl2sql.runner.spark_probes`). ``kept_rows``: as DuckDB's; 0, every
    temporary table of a transaction is dropped at its end (its cached blocks freed)."""

    local_rows: int = 1_000
    one_partition_rows: int = 100_000
    fill_every: int = 16
    compact_every: int = 8
    eager_every: int = 64
    narrow_rows: int = 100_000
    narrow_factor: int = 16
    kept_rows: int = 0


def fields_text(policy) -> str:
    """``name=value`` of every field of a dataclass (a policy or a set of
    thresholds), comma-separated, as ``--emit update`` and ``--explain`` print them."""
    return ", ".join(f"{f.name}={getattr(policy, f.name)}"
                     for f in dataclasses.fields(policy))


def chosen(given, default):
    """The thresholds of one runner: ``given`` (the caller's, of the same kind as the
    engine's ``default``) or the engine's; TypeError naming both kinds otherwise."""
    if given is None:
        return default
    if type(given) is not type(default):
        raise TypeError(f"thresholds for this engine are a {type(default).__name__}, "
                        f"not a {type(given).__name__}")
    return given
