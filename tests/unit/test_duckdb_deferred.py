"""The DuckDB runner's deferred patches and lazy BEGIN (dl2sql/runner/duckdb_held.py):
a stored table patched from held rows is brought up to date when something reads it,
and a transaction that runs no statement sends no BEGIN. (DuckDB only: Spark's
``hold`` makes a table at once.)"""
from __future__ import annotations

import duckdb
import pytest
from sqlglot import exp

from dl2sql.io.duckdb_frames import result_frame, write_table
from dl2sql.plan.nodes import Column, Table
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.sqlgen.trees import select_all, table as table_ref


def T(name: str, *cols: tuple[str, str]) -> Table:
    return Table(name, tuple(Column(n, exp.DataType.build(t, dialect="spark")) for n, t in cols))


EDGE = T("Edge", ("a", "BIGINT"), ("b", "STRING"))
PLUS = T("Edge__plus", ("a", "BIGINT"), ("b", "STRING"))
MINUS = T("Edge__minus", ("a", "BIGINT"), ("b", "STRING"))


class Counting:
    """A DuckDB connection that records the statements sent to it."""

    def __init__(self):
        self.inner, self.sent = duckdb.connect(":memory:"), []

    def execute(self, text, *args):
        self.sent.append(text)
        return self.inner.execute(text, *args)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def runner():
    r = DuckDBRunner(Counting())
    r.load(EDGE, [(1, "a"), (2, "b"), (3, "c")])
    yield r
    r.con.inner.close()


def stored(runner) -> list:
    """The table's rows as DuckDB has them now (not through the runner)."""
    return sorted(runner.con.inner.execute(runner.sql(select_all("Edge"))).fetchall())


def patch(runner, plus, minus):
    runner.hold(PLUS, plus)
    runner.hold(MINUS, minus)
    runner.patch(EDGE, PLUS, MINUS)


def test_a_patch_of_held_rows_waits_for_a_reader():
    r = DuckDBRunner(Counting())
    r.load(EDGE, [(1, "a"), (2, "b"), (3, "c")])
    before = len(r.con.sent)
    patch(r, [(4, "d")], [(2, "b")])
    patch(r, [(2, "b"), (5, "e")], [(4, "d"), (1, "a")])  # undoes part of the first
    assert len(r.con.sent) == before and stored(r) == [(1, "a"), (2, "b"), (3, "c")]
    assert sorted(r.fetch(EDGE)) == [(2, "b"), (3, "c"), (5, "e")]
    assert len(r.con.sent) == before + 3  # one DELETE, one INSERT, the SELECT
    assert r.count(EDGE) == 3  # nothing left to apply


@pytest.mark.parametrize("reader", ["materialize", "frame", "count", "append", "rename",
                                    "contents", "file"])
def test_every_reader_sees_the_deferred_changes(runner, reader, tmp_path):
    patch(runner, [(4, "d")], [(1, "a")])
    want = [(2, "b"), (3, "c"), (4, "d")]
    other = T("Other", ("a", "BIGINT"), ("b", "STRING"))
    if reader == "materialize":
        runner.materialize(other, select_all("Edge"), False)
        assert sorted(runner.fetch(other)) == want
    elif reader == "frame":
        frame = runner.frame_of(exp.select("a").from_(table_ref("Edge")))
        assert sorted(frame.fetchall()) == [(2,), (3,), (4,)]
    elif reader == "count":
        assert runner.count(EDGE) == 3 and stored(runner) == want
    elif reader == "append":
        runner.load(other, [(9, "z")])
        runner.append(other, EDGE)
        assert sorted(runner.fetch(other)) == want + [(9, "z")]
    elif reader == "rename":
        runner.rename(other, EDGE)
        assert sorted(runner.fetch(other)) == want
    elif reader == "contents":
        assert sorted(result_frame(runner, EDGE).fetchall()) == want
    else:
        path = tmp_path / "edge.csv"
        write_table(runner, EDGE, str(path), "csv")
        assert path.read_text().splitlines()[1:] == ["2,b", "3,c", "4,d"]


def test_a_replaced_or_dropped_table_forgets_its_deferred_changes(runner):
    patch(runner, [(4, "d")], [])
    runner.load(EDGE, [(7, "g")])
    assert runner.fetch(EDGE) == [(7, "g")]
    patch(runner, [(8, "h")], [])
    runner.drop(EDGE)
    runner.load(EDGE, [])
    assert runner.fetch(EDGE) == []


def test_a_transaction_that_runs_no_statement_sends_no_begin(runner):
    sent = len(runner.con.sent)
    with runner.transaction():
        patch(runner, [(4, "d")], [(1, "a")])
    assert len(runner.con.sent) == sent
    with runner.transaction():
        assert runner.count(EDGE) == 3
    assert [s.split()[0].upper() for s in runner.con.sent[sent:]] == [
        "BEGIN", "DELETE", "INSERT", "SELECT", "COMMIT"]


def test_a_failed_transaction_keeps_the_changes_deferred_before_it(runner):
    patch(runner, [(4, "d")], [(1, "a")])  # deferred before the transaction
    with pytest.raises(RuntimeError):
        with runner.transaction():
            assert runner.count(EDGE) == 3  # applied inside it, then undone
            patch(runner, [(5, "e")], [(2, "b")])  # deferred inside it: gone
            raise RuntimeError("the transaction fails")
    assert stored(runner) == [(1, "a"), (2, "b"), (3, "c")]
    assert sorted(runner.fetch(EDGE)) == [(2, "b"), (3, "c"), (4, "d")]


def test_rows_that_cannot_be_kept_apart_are_applied_at_once():
    r = DuckDBRunner(Counting())
    listed = T("Listed", ("a", "BIGINT"), ("xs", "ARRAY<BIGINT>"))
    plus = T("Listed__plus", ("a", "BIGINT"), ("xs", "ARRAY<BIGINT>"))
    r.load(listed, [(1, [1, 2])])
    r.hold(plus, [(2, [3])])
    r.patch(listed, plus, None)
    assert sorted(r.con.inner.execute(r.sql(exp.select("a").from_(table_ref("Listed"))))
                  .fetchall()) == [(1,), (2,)]


def test_changes_that_touch_many_rows_are_applied_without_waiting(runner):
    from dl2sql.plan.thresholds import DuckDBThresholds

    runner.thresholds = DuckDBThresholds(defer_rows=3)
    patch(runner, [(4, "d"), (5, "e")], [])  # two rows touched: deferred
    assert stored(runner) == [(1, "a"), (2, "b"), (3, "c")]
    patch(runner, [], [(1, "a"), (2, "b")])  # four: applied
    assert stored(runner) == [(3, "c"), (4, "d"), (5, "e")]
