"""The engines dl2sql runs on, each declared once.

An engine is a SQL dialect (:data:`dl2sql.sqlgen.dialects.DIALECTS`), a runner that
executes plans (:mod:`dl2sql.runner`), a reader of the DataFrames, tables and files
bound as inputs, a writer of output files and the frames results come back as. The
parts are named ``"module:attribute"`` and imported on first use, so that choosing
DuckDB never imports PySpark. Adding an engine is one entry here plus its runner
module (see docs/architecture.md).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from dl2sql.plan.loops import LoopPolicy
from dl2sql.plan.placement import DriverPolicy
from dl2sql.plan.thresholds import DuckDBThresholds, SparkThresholds


@dataclass(frozen=True)
class Settings:
    """What a caller may say about the engine of one run; an engine uses what applies
    to it: ``spark`` (a session) or ``master`` (to start one), ``con`` (a DuckDB
    connection), ``checkpoint_dir`` and ``partitions`` (Spark loops); ``thresholds``
    replaces the engine's (:mod:`dl2sql.plan.thresholds`)."""

    spark: Any = None
    master: Optional[str] = None
    con: Any = None
    checkpoint_dir: Optional[str] = None
    partitions: Optional[int] = None
    thresholds: Any = None


@dataclass(frozen=True)
class Engine:
    """One engine: its ``name`` (``--engine``), the ``dialect`` its SQL is printed in,
    how it evaluates recursive strata (``loops``, :mod:`dl2sql.plan.loops`), how its
    runner stores and moves rows (``thresholds``, :mod:`dl2sql.plan.thresholds`), and
    where its parts live (``"module:attribute"``): ``runner`` makes a runner from
    :class:`Settings`; ``inputs`` wraps a bound input (``Input(relation, source,
    columns, env)`` with ``load_into(runner, table)``); ``writer(runner, table, path,
    fmt)`` writes an output file; ``frame(runner, table)`` is a result as the engine's
    DataFrame."""

    name: str
    dialect: str
    loops: LoopPolicy
    runner_at: str
    inputs_at: str
    writer_at: str
    frame_at: str
    thresholds: Any = None
    # small runs evaluated by the oracle on the driver (dl2sql.plan.placement); None:
    # every run on this engine
    driver: Optional[DriverPolicy] = None
    _loaded: dict = field(default_factory=dict, compare=False, repr=False)

    def _part(self, where: str) -> Callable:
        if where not in self._loaded:
            module, _, attribute = where.partition(":")
            self._loaded[where] = getattr(importlib.import_module(module), attribute)
        return self._loaded[where]

    def runner(self, settings: Settings = Settings()):
        """A new runner of this engine."""
        return self._part(self.runner_at)(settings)

    @property
    def inputs(self) -> Callable:
        return self._part(self.inputs_at)

    @property
    def writer(self) -> Callable:
        return self._part(self.writer_at)

    @property
    def frame(self) -> Callable:
        return self._part(self.frame_at)


ENGINES: dict[str, Engine] = {e.name: e for e in (
    # DuckDB's recursive union deduplicates against every earlier row: a linear
    # recursive relation is one query, and a loop step costs little. A maintained
    # transitive closure's search (and its probe of the inserted edges) is done on the
    # driver over at most 20,000 edges: with 2,000 edges fetching and searching them
    # took 1.6 ms against 8 ms for the three queries, and at 20,000 about 9 ms
    # (docs/performance.md, run 26)
    Engine("duckdb", dialect="duckdb",
           loops=LoopPolicy(recursive_union=True, keyed_recursion=True,
                            search_on_driver_below=20_000),
           runner_at="dl2sql.runner.duckdb_runner:open_runner",
           inputs_at="dl2sql.io.duckdb_frames:DuckDBInput",
           writer_at="dl2sql.io.duckdb_frames:write_table",
           frame_at="dl2sql.io.duckdb_frames:result_frame",
           thresholds=DuckDBThresholds()),
    # Each Spark job costs ~0.1 s however small: several semi-naive steps per
    # termination test (one job computes the uncounted ones), but not in loops whose
    # tables are kept partitioned, where a step is one job already and fused steps
    # measured slower (docs/performance.md, run 9); long thin transitive closures by
    # doubling (log2 of the path length iterations instead of one per edge); loop
    # tables hash-partitioned on their join keys (dl2sql.plan.partitioning); recursive
    # strata that read no input evaluated once on the oracle when the plan is made and
    # loaded (dl2sql.plan.constants), up to a million rows; a maintained transitive
    # closure's search for the paths left by a transaction's deletions, and for the
    # inserted edges that are no path yet, done on the driver over at most 200,000
    # edges (collecting that many took 0.53 s, about two breadth-first levels of the
    # loop's jobs; docs/performance.md, runs 21 and 22). A run of at most 100,000 input
    # rows (6.4 MB of files) held by the driver is evaluated there by DuckDB and its
    # results handed over (docs/performance.md, "Small programs on the driver"). All
    # give exactly the same result.
    Engine("spark", dialect="spark",
           loops=LoopPolicy(partitioned=True, steps_per_check=4, fuse_below_rows=10_000,
                            closure_by_doubling=True, constant_rows=1_000_000,
                            search_on_driver_below=200_000),
           runner_at="dl2sql.runner.spark_runner:open_runner",
           inputs_at="dl2sql.io.spark_frames:SparkInput",
           writer_at="dl2sql.io.spark_frames:write_table",
           frame_at="dl2sql.io.spark_frames:result_frame",
           thresholds=SparkThresholds(), driver=DriverPolicy()),
)}

# the engine whose results others are checked against (``dl2sql check``)
ORACLE = "duckdb"


def engine(name: str) -> Engine:
    """The engine called ``name``; ValueError naming the known ones otherwise."""
    try:
        return ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r} (engines: "
                         f"{', '.join(sorted(ENGINES))})") from None


def engine_of(runner) -> Engine:
    """The engine a runner belongs to."""
    return ENGINES[runner.engine]
