"""Running a compiled program on the runner of the ``engine`` fixture, and reading its
outputs, the same way for both engines."""
from __future__ import annotations

import contextlib


def run_on(program, engine, inputs: dict) -> dict:
    """``program.run`` on the engine of runner ``engine`` (its Spark session or its
    DuckDB connection); the output frames by relation."""
    if engine.dialect == "spark":
        return program.run(spark=engine.spark, inputs=inputs)
    return program.run(engine="duckdb", con=engine.con, inputs=inputs)


@contextlib.contextmanager
def session_setting(spark, key: str, value: str):
    """Spark session setting ``key`` at ``value`` inside this block, its own value (or
    none) put back after."""
    before = spark.conf.get(key, None)
    spark.conf.set(key, value)
    try:
        yield
    finally:
        if before is None:
            spark.conf.unset(key)
        else:
            spark.conf.set(key, before)


def collected(frame) -> list:
    """The rows of a Spark DataFrame or a DuckDB relation, as they come."""
    return frame.collect() if hasattr(frame, "collect") else frame.fetchall()


def sorted_rows(frame) -> list[tuple]:
    """The rows of an output frame as sorted tuples."""
    return sorted(tuple(r) for r in collected(frame))


def maintain_on(program, engine, inputs: dict, **options):
    """``program.maintain`` on the engine of runner ``engine``; on ``engine`` itself
    where it counts tables as Spark does (costly_counts_duckdb), which
    ``program.maintain``, making a runner of its own, would not. Without a ``choice``,
    the default one but for the estimate of what is cheaper (it compares seconds: a
    test that checks the method a stratum took must not depend on the machine's
    speed; the property tests run with it, tests/test_maintained.py tests it)."""
    from dl2sql.incremental.execute import Choice

    if options.get("choice") is None:
        options["choice"] = Choice(estimate_share=None)
    if engine.dialect == "spark":
        return program.maintain(spark=engine.spark, inputs=inputs, **options)
    if getattr(engine, "counting_costs", False):
        from dl2sql.api.maintained import Maintained

        assert set(options) <= {"choice"}, options
        return Maintained(program.compiled, engine, program.bind_inputs(inputs, "duckdb"),
                          program.extern, choice=options["choice"], program=program)
    return program.maintain(engine="duckdb", con=engine.con, inputs=inputs, **options)


def costly_counts_duckdb():
    """A DuckDB runner that counts a table only when asked to, as Spark does (a count
    is an action there): incremental updates then count only the tables whose size
    decides something, which the DuckDB tests exercise through it."""
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    class CostlyCounts(DuckDBRunner):
        counting_costs = True

        def materialize(self, table, query, count):
            n = super().materialize(table, query, count)
            return n if count else None
    return CostlyCounts()
