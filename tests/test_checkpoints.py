"""Reliable checkpoints (what a cluster with a checkpoint directory uses), run here on
the shared local session by forcing them: same results as local checkpoints and as
DuckDB, files deleted as soon as no table is stored in them, the run's directory gone
after close, the session's own checkpoint directory untouched; and which kind a
session gets by default."""
from __future__ import annotations

import os

import pytest

import dl2sql
from dl2sql.diagnostics import Dl2sqlWarning
from dl2sql.runner.spark_checkpoints import (LocalCheckpoints,
                                             ReliableCheckpoints, checkpoints_for)

PROGRAM = """
input relation Edge(x: u64, y: u64)
function gcd(a: u64, b: u64): u64 { if (b == 0) { a } else { gcd(b, a % b) } }
output relation Path(x: u64, y: u64)
Path(x, y) :- Edge(x, y).
// a Python UDF inside the loop (always true), which also keeps this from being
// evaluated as a transitive closure by doubling: one loop step per edge of a path
Path(x, z) :- Path(x, y), Edge(y, z), gcd(z + 1, 1) == 1.
output relation G(x: u64, g: u64)
G(x, gcd(x, y)) :- Path(x, y), x > 0.
"""
# a cycle of 25 nodes with a tail: a loop of about 25 steps, more than COMPACT_EVERY
EDGES = [(i, (i + 1) % 25) for i in range(25)] + [(30, 31), (31, 0)]


def _rdd_dirs(root: str) -> list[str]:
    return [d for d, _, _ in os.walk(root) if os.path.basename(d).startswith("rdd-")]


def _sorted(frame) -> list:
    rows = frame.collect() if hasattr(frame, "collect") else frame.fetchall()
    return sorted(tuple(r) for r in rows)


def test_reliable_checkpoints_agree_and_clean_up(spark, tmp_path):
    from dl2sql.api.evaluate import Evaluator
    from dl2sql.runner.spark_runner import SparkRunner

    program = dl2sql.compile(PROGRAM)
    expected = {rel: _sorted(df) for rel, df in
                program.run(engine="duckdb", inputs={"Edge": EDGES}).items()}
    before = spark.sparkContext.getCheckpointDir()
    runner = SparkRunner(spark, checkpoints="reliable", checkpoint_dir=str(tmp_path))
    assert isinstance(runner.store, ReliableCheckpoints)
    seen = []

    class Watch:  # the files on disk after each loop step
        def on_iteration(self, stratum, iteration, counts, seconds):
            seen.append(len(_rdd_dirs(str(tmp_path))))

    compiled = program.compiled
    plan = compiled.plan_for("spark")
    bound = program.bind_inputs({"Edge": EDGES}, "spark")
    Evaluator(compiled, runner, Watch(), {}).run(bound, tuple(program.outputs))
    got = {rel: _sorted(runner.dataframe(plan.relations[rel])) for rel in program.outputs}
    assert got == expected
    every = runner.thresholds.compact_every
    assert len(seen) > every  # the loop outlived a compaction
    # superseded files are deleted as the loop goes: what is on disk stays bounded
    assert max(seen) <= 2 * every + 4, seen
    # every file set on disk holds a table of the runner, and nothing else is left
    live = runner.stored_files()
    assert {p.split(":", 1)[-1] for p in live} == set(_rdd_dirs(str(tmp_path)))
    assert spark.sparkContext.getCheckpointDir() == before  # put back after the run
    runner.close()
    assert _rdd_dirs(str(tmp_path)) == [] and os.listdir(tmp_path) == []


def test_program_outputs_stay_readable_until_close(spark, tmp_path):
    from dl2sql.runner import spark_runner

    class Reliable(spark_runner.SparkRunner):
        def __init__(self, session, **kw):
            super().__init__(session, **{**kw, "checkpoints": "reliable",
                                         "checkpoint_dir": str(tmp_path)})

    program = dl2sql.compile(PROGRAM)
    original = spark_runner.SparkRunner
    spark_runner.SparkRunner = Reliable  # what a cluster session with a directory gets
    try:
        out = program.run(spark=spark, inputs={"Edge": EDGES})
    finally:
        spark_runner.SparkRunner = original
    # intermediate tables were dropped at the end of the run, outputs kept
    assert set(program.last_runner.tables) == {program.compiled.plan_for("spark")
                                              .relations[r].name for r in program.outputs}
    # the cycle's 25 x 25 paths, 31 reaching the 25, 30 reaching those and 31
    assert len(_sorted(out["Path"])) == 25 * 25 + 25 + 26
    assert _rdd_dirs(str(tmp_path))
    program.close()
    assert os.listdir(tmp_path) == []


def test_default_kinds(spark, tmp_path):
    # a local master: local checkpoints, directory or not
    assert isinstance(checkpoints_for(spark, str(tmp_path)), LocalCheckpoints)
    with pytest.raises(ValueError, match="checkpoint directory"):
        checkpoints_for(spark, None, "reliable")

    class Cluster:  # what checkpoints_for reads of a cluster session
        conf = spark.conf

        class sparkContext:  # noqa: N801 - mimics SparkSession.sparkContext
            master = "spark://127.0.0.1:7077"
            applicationId = "app-test-default-kinds"

            @staticmethod
            def getCheckpointDir():
                return None

    assert isinstance(checkpoints_for(Cluster, str(tmp_path)), ReliableCheckpoints)
    with pytest.warns(Dl2sqlWarning, match="a lost executor will fail the run"):
        assert isinstance(checkpoints_for(Cluster, None), LocalCheckpoints)
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("error")
        checkpoints_for(Cluster, None)  # once per session


def _attribute_ids(frame) -> set[int]:
    output = frame._jdf.queryExecution().analyzed().output()
    return {output.apply(i).exprId().id() for i in range(output.size())}


@pytest.mark.parametrize("kind", ["local", "reliable"])
def test_a_checkpoint_shares_no_attribute_with_its_query(spark, tmp_path, kind):
    # a stored table computed from another keeps none of its attribute ids: Spark's
    # analysis does not always rename shared ids apart in a join (docs/performance.md,
    # run 24), which failed tests/programs/constants in a transaction
    store = LocalCheckpoints() if kind == "local" else ReliableCheckpoints(spark, str(tmp_path))
    source = spark.createDataFrame([(1, 2), (3, 4)], "a long, b long").selectExpr("a", "b AS c")
    with store.active():
        ck, _ = store.checkpoint(source, eager=True)
    assert not _attribute_ids(ck) & _attribute_ids(source)
    assert ck.columns == ["a", "c"]
    assert sorted(tuple(r) for r in ck.collect()) == [(1, 2), (3, 4)]
    again, _ = store.checkpoint(source, eager=False)  # lazy: filled by its first read
    assert not _attribute_ids(again) & (_attribute_ids(source) | _attribute_ids(ck))
    assert again.count() == 2
    store.close()


# strata enough for a transaction to make several lazy checkpoints, and no Python UDF
FILLED = """
import group
input relation Edge(x: u64, y: u64)
output relation Path(x: u64, y: u64)
Path(x, y) :- Edge(x, y).
Path(x, z) :- Path(x, y), Edge(y, z).
output relation Far(x: u64, y: u64)
Far(x, y) :- Path(x, y), not Edge(x, y).
output relation Out(x: u64, n: u64)
Out(x, n) :- Far(x, y), var n = y.group_by(x).count_distinct().
"""


def test_a_transaction_fills_its_lazy_checkpoints_as_they_pile_up(spark):
    """A transaction fills its lazy checkpoints in one job whenever ``fill_every`` of
    them wait (the queries one task computes stay few): with every checkpoint filled
    at once, a transaction runs more jobs than with the default, and gives the same
    relations as recomputing on DuckDB."""
    from dl2sql.plan.thresholds import SparkThresholds

    program = dl2sql.compile(FILLED)
    edges = [(i, (i + 1) % 6) for i in range(6)]
    insert, delete = {"Edge": [(2, 7), (7, 8)]}, {"Edge": [(5, 0)]}
    after = sorted((set(edges) - set(delete["Edge"])) | set(insert["Edge"]))
    want = program.run(engine="duckdb", inputs={"Edge": after})
    jobs, default = {}, SparkThresholds().fill_every
    for every in (default, 1):
        live = program.maintain(inputs={"Edge": edges}, engine="spark", spark=spark,
                                thresholds=SparkThresholds(fill_every=every))
        assert live.runner.thresholds.fill_every == every
        try:
            before = live.runner.actions
            live.apply(insert=insert, delete=delete)
            jobs[every] = live.runner.actions - before
            for rel in program.outputs:
                assert _sorted(live.contents(rel)) == _sorted(want[rel]), (every, rel)
        finally:
            live.close()
    assert jobs[1] > jobs[default], jobs
