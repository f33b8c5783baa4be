"""Programs on a DuckDB connection of the user's (dl2sql/runner/duckdb_namespace.py):
the user's own tables are never written, programs on one connection keep apart, and
``close`` frees what a program keeps. (DuckDB only: on Spark dl2sql writes nothing to
the catalog, its tables are DataFrames of its own.)"""
from __future__ import annotations

import duckdb
import pytest

import dl2sql

CLOSURE = """
input relation Edge(a: u32, b: u32)
output relation Path(a: u32, b: u32)
Path(a, b) :- Edge(a, b).
Path(a, c) :- Path(a, b), Edge(b, c).
"""


def _tables(con) -> set:
    return {tuple(r) for r in con.execute(
        "SELECT database_name, table_name FROM duckdb_tables()").fetchall()}


def test_the_users_tables_named_like_relations_stay_as_they_were():
    con = duckdb.connect()
    con.execute("CREATE TABLE Edge AS SELECT * FROM (VALUES (1, 2), (1, 2), (2, 3)) t(a, b)")
    con.execute("CREATE TABLE Path AS SELECT 42 AS x")
    out = dl2sql.compile(CLOSURE).run(inputs={"Edge": "Edge"}, engine="duckdb", con=con)
    assert sorted(out["Path"].fetchall()) == [(1, 2), (1, 3), (2, 3)]
    # read and deduplicated into a table of dl2sql's, not written back over the user's
    assert sorted(con.sql("SELECT * FROM Edge").fetchall()) == [(1, 2), (1, 2), (2, 3)]
    assert con.sql("SELECT * FROM Path").fetchall() == [(42,)]


def test_two_programs_maintained_on_one_connection_keep_their_own_rows():
    con = duckdb.connect()
    first = dl2sql.compile("input relation In(x: u32)\noutput relation Out(x: u32)\n"
                           "Out(x) :- In(x).\n")
    second = dl2sql.compile("input relation In(x: u32)\noutput relation Out(x: u32)\n"
                            "Out(x + 100) :- In(x).\n")
    a = first.maintain(inputs={"In": [(1,)]}, engine="duckdb", con=con)
    b = second.maintain(inputs={"In": [(2,)]}, engine="duckdb", con=con)
    a.apply(insert={"In": [(3,)]})
    b.apply(insert={"In": [(4,)]}, delete={"In": [(2,)]})
    assert sorted(a.contents("Out").fetchall()) == [(1,), (3,)]
    assert sorted(b.contents("Out").fetchall()) == [(104,)]


def test_a_database_file_is_not_written(tmp_path):
    path = str(tmp_path / "user.duckdb")
    con = duckdb.connect(path)
    con.execute("CREATE TABLE Edge AS SELECT 1 AS a, 2 AS b")
    mine = _tables(con)
    program = dl2sql.compile(CLOSURE)
    out = program.run(inputs={"Edge": "Edge"}, engine="duckdb", con=con)
    assert out["Path"].fetchall() == [(1, 2)]
    assert _tables(con) > mine  # the run's tables are on the connection
    con.close()  # without program.close(): they lived in memory only
    again = duckdb.connect(path)
    assert _tables(again) == mine


def test_close_frees_the_tables_of_every_run():
    con = duckdb.connect()
    before = _tables(con)
    program = dl2sql.compile(CLOSURE)
    first = program.run(inputs={"Edge": [(1, 2)]}, engine="duckdb", con=con)
    second = program.run(inputs={"Edge": [(2, 3)]}, engine="duckdb", con=con)
    # each run's outputs stay readable while held, as on Spark
    assert first["Path"].fetchall() == [(1, 2)] and second["Path"].fetchall() == [(2, 3)]
    program.close()
    assert _tables(con) == before
    with pytest.raises(duckdb.Error):
        first["Path"].fetchall()


def test_closing_one_program_leaves_the_next_ones_tables():
    con = duckdb.connect()
    first, second = dl2sql.compile(CLOSURE), dl2sql.compile(CLOSURE)
    first.run(inputs={"Edge": [(1, 2)]}, engine="duckdb", con=con)
    first.close()
    out = second.run(inputs={"Edge": [(2, 3)]}, engine="duckdb", con=con)
    first.close()  # again: frees nothing of the second's
    assert out["Path"].fetchall() == [(2, 3)]
