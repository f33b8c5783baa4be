"""The variants of the field benchmark (:mod:`benchmarks.field`): dl2sql through its
Python API and the baselines, each behind one interface.

A variant is prepared for one input (untimed: compiling the DDlog program, writing
Nemo's CSV files), then run any number of times; :meth:`Variant.run` is what gets
timed and returns an :class:`Outcome`.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Optional

REFERENCE = {"duckdb": "dl2sql/DuckDB", "spark": "dl2sql/Spark"}
ON_SPARK = "dl2sql/Spark, on Spark"  # on_driver_below=0: never evaluated on the driver


@dataclasses.dataclass
class Outcome:
    """What one run found: rows per output relation, the result rows where they are
    compared (cc, sssp), and the iterations the engine reported (None: it has none)."""
    counts: dict
    rows: Optional[frozenset] = None
    iterations: Optional[int] = None


@dataclasses.dataclass
class Variant:
    """``run()`` is timed; ``after()`` (untimed) frees what a run left behind;
    ``close()`` what preparing made."""
    run: Callable[[], Outcome]
    after: Callable[[], None] = lambda: None
    close: Callable[[], None] = lambda: None


def _dl2sql(program, workload, inputs: dict, **run_args) -> Variant:
    """dl2sql through ``program.run`` (the Python API), counting each output in the
    engine and fetching the compared result rows, iterations summed over the loops
    the run reported (0: the engine ran the recursion as one recursive query)."""
    from dl2sql.runner.progress import RecordingProgress

    def run() -> Outcome:
        progress = RecordingProgress()
        out = program.run(inputs=inputs, progress=progress, **run_args)
        counts = {rel: _count(out[rel]) for rel in workload.outputs}
        rows = None
        if workload.compare_rows:
            rows = frozenset(tuple(r) for r in _collect(out[workload.outputs[0]]))
        return Outcome(counts, rows, sum(i for _, i, _ in progress.loops))
    return Variant(run, after=program.close)


def _count(frame) -> int:
    if hasattr(frame, "fetchall"):  # a DuckDB relation
        return frame.count("*").fetchall()[0][0]
    return frame.count()


def _collect(frame) -> list:
    return frame.fetchall() if hasattr(frame, "fetchall") else frame.collect()


def duckdb_variants(workload, inputs: dict, program) -> tuple[dict, dict]:
    """(label -> Variant, label -> why it is left out) for the DuckDB process:
    dl2sql on DuckDB, DuckDB's own recursive query, Nemo."""
    import duckdb

    from benchmarks import field_duckdb, field_nemo

    name = workload.name
    variants = {REFERENCE["duckdb"]: _dl2sql(program, workload, inputs, engine="duckdb")}
    skipped = {}

    def native() -> Outcome:
        con = duckdb.connect()
        try:
            counts, rows = field_duckdb.run(con, name, inputs)
        finally:
            con.close()
        return Outcome(counts, rows)
    variants[f"DuckDB {field_duckdb.KIND[name]}"] = Variant(native)

    why = field_nemo.missing() or field_nemo.UNSUPPORTED.get(name)
    if why:
        skipped["Nemo"] = why
    else:
        nemo = field_nemo.NemoProgram(name, inputs)
        variants["Nemo"] = Variant(lambda: Outcome(nemo.run()), close=nemo.close)
    return variants, skipped


def spark_variants(workload, inputs: dict, program, spark) -> tuple[dict, dict]:
    """(label -> Variant, label -> why it is left out) for the Spark process: dl2sql
    on Spark, the hand-tuned PySpark loop, Spark's ``WITH RECURSIVE``."""
    from benchmarks import field_spark

    name = workload.name
    # dl2sql as a user gets it (a run whose inputs are small evaluated on the driver
    # and handed to Spark, docs/user-guide.md "Speed"), and with every run kept on
    # Spark's executors
    variants = {REFERENCE["spark"]: _dl2sql(program, workload, inputs, spark=spark),
                ON_SPARK: _dl2sql(program, workload, inputs, spark=spark, on_driver_below=0)}
    skipped = {}
    if name in ("cc", "sssp", "tc"):
        label = {"cc": "hand-tuned PySpark label propagation",
                 "sssp": "hand-tuned PySpark Bellman-Ford",
                 "tc": "hand-tuned PySpark semi-naive"}[name]
        variants[label] = Variant(
            lambda: Outcome(*field_spark.handtuned(spark, name, inputs)))
    else:
        skipped["hand-tuned PySpark"] = "no hand-written loop for this program"
    if name == "sg" and workload.acyclic:
        variants["Spark WITH RECURSIVE UNION ALL"] = Variant(
            lambda: Outcome(*field_spark.same_generation_recursive(spark, inputs["Parent"])))
    else:
        skipped["Spark WITH RECURSIVE"] = field_spark.SPARK_RECURSIVE_SKIPS[name]
    return variants, skipped
