"""Runner thresholds (dl2sql/plan/thresholds.py): declared per engine, printed, and
replaced for one run or maintained program by ``thresholds=``, which changes what a
run costs and never its rows."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.compiler.emit_update import emit_update
from dl2sql.engines import ENGINES
from dl2sql.plan.thresholds import DuckDBThresholds, SparkThresholds

PROGRAM = """
input relation Edge(a: u32, b: u32)
output relation Path(a: u32, b: u32)
Path(a, b) :- Edge(a, b).
Path(a, c) :- Path(a, b), Edge(b, c).
"""
EDGES = [(i, i + 1) for i in range(8)]


def _rows(frame) -> list:
    return sorted(frame.fetchall())


def test_each_engine_declares_its_own_kind():
    assert isinstance(ENGINES["duckdb"].thresholds, DuckDBThresholds)
    assert isinstance(ENGINES["spark"].thresholds, SparkThresholds)
    assert SparkThresholds().text().startswith("local_rows=1000, one_partition_rows=")


def test_thresholds_given_replace_the_engines_and_keep_the_rows():
    program = dl2sql.compile(PROGRAM)
    want = _rows(program.run(engine="duckdb", inputs={"Edge": EDGES})["Path"])
    assert program.last_runner.thresholds == ENGINES["duckdb"].thresholds
    # nothing held on the driver, every load one row at a time
    given = DuckDBThresholds(held_rows=0, defer_rows=0, load_chunk=1)
    got = program.run(engine="duckdb", inputs={"Edge": EDGES}, thresholds=given)
    assert program.last_runner.thresholds is given
    assert _rows(got["Path"]) == want


def test_a_maintained_program_keeps_its_thresholds():
    program = dl2sql.compile(PROGRAM)
    given = DuckDBThresholds(held_rows=0, defer_rows=0)
    live = program.maintain(engine="duckdb", inputs={"Edge": EDGES}, thresholds=given)
    try:
        assert live.runner.thresholds is given
        live.apply(insert={"Edge": [(8, 9)]}, delete={"Edge": [(3, 4)]})
        after = sorted((set(EDGES) - {(3, 4)}) | {(8, 9)})
        want = _rows(program.run(engine="duckdb", inputs={"Edge": after})["Path"])
        assert _rows(live.contents("Path")) == want
    finally:
        live.close()


def test_thresholds_of_another_engine_are_refused():
    program = dl2sql.compile(PROGRAM)
    with pytest.raises(TypeError, match="DuckDBThresholds, not a SparkThresholds"):
        program.run(engine="duckdb", inputs={"Edge": EDGES}, thresholds=SparkThresholds())


@pytest.mark.parametrize("dialect", ["duckdb", "spark"])
def test_the_update_plan_prints_the_engines_thresholds(dialect):
    engine = next(e for e in ENGINES.values() if e.dialect == dialect)
    text = emit_update(dl2sql.compile(PROGRAM).compiled, dialect)
    assert f"-- runner thresholds: {engine.thresholds.text()}\n" in text
