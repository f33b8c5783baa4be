"""A maintained program (``Program.maintain``) with a stream, a multiset and a delayed
relation, on both engines: changes come back with their weights as DDlog prints them,
contents hold a row once per unit of weight, a stream holds one transaction's rows, and
a saved state keeps the weights and the history that ``R-1`` needs."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.diagnostics import CompileError, InputError
from dl2sql.incremental.execute import Choice
from engines import maintain_on, run_on, sorted_rows

PROGRAM = """
input multiset Sale(item: string, qty: u32)
input relation Shelf(item: string, aisle: u32)
input stream Scan(item: string)

output multiset SaleAisle(aisle: u32, qty: u32)
SaleAisle(a, q) :- Sale(i, q), Shelf(i, a).

output stream Scanned(item: string, aisle: u32)
Scanned(i, a) :- Scan(i), Shelf(i, a).

output relation Previous(aisle: u32, qty: u32)
Previous(a, q) :- SaleAisle-1(a, q).
"""


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _reopen(program, engine, directory: str):
    if engine.dialect == "spark":
        return program.maintain(spark=engine.spark, state=directory, choice=Choice.never())
    return program.maintain(engine="duckdb", con=engine.con, state=directory,
                            choice=Choice.never())


def test_weights_streams_and_delays_through_a_saved_state(program, engine, tmp_path):
    live = maintain_on(program, engine, {
        "Sale": [("apple", 2), ("apple", 2)], "Shelf": [("apple", 1), ("pear", 2)],
        "Scan": [("pear",)]}, choice=Choice.never())
    # before any transaction: every row, with its weight
    assert sorted_rows(live.changes("SaleAisle")) == [(1, 2, 2)]
    assert sorted_rows(live.contents("SaleAisle")) == [(1, 2), (1, 2)]
    assert sorted_rows(live.changes("Scanned")) == [("pear", 2, 1)]

    changes = live.apply(insert={"Sale": [("pear", 1), ("pear", 1)],
                                 "Scan": [("apple",), ("apple",)]},
                         delete={"Sale": [("apple", 2)]})
    assert sorted_rows(changes["SaleAisle"]) == [(1, 2, -1), (2, 1, 2)]
    assert sorted_rows(live.contents("SaleAisle")) == [(1, 2), (2, 1), (2, 1)]
    # a stream's changes are its rows of this transaction (the pear scan is gone)
    assert sorted_rows(changes["Scanned"]) == [("apple", 1, 2)]
    assert sorted_rows(live.contents("Scanned")) == [("apple", 1), ("apple", 1)]
    assert sorted_rows(changes["Previous"]) == [(1, 2, 1)]  # SaleAisle after the start
    assert live.last.methods["SaleAisle"] == "weights"
    assert live.last.methods["Scanned"] == "stream"

    directory = str(tmp_path / "state")
    live.save(directory)
    live.close()
    again = _reopen(program, engine, directory)
    assert sorted_rows(again.contents("SaleAisle")) == [(1, 2), (2, 1), (2, 1)]
    # nothing changes but time: the stream empties, Previous moves one transaction on
    changes = again.apply()
    assert sorted_rows(changes["Scanned"]) == []
    assert sorted_rows(again.contents("Scanned")) == []
    assert sorted_rows(changes["SaleAisle"]) == []
    assert sorted_rows(changes["Previous"]) == [(2, 1, 1)]
    # deleting a copy Sale does not hold changes nothing
    changes = again.apply(delete={"Sale": [("fig", 1)]})
    assert all(sorted_rows(f) == [] for f in changes.values())
    again.close()


def test_a_delayed_relation_takes_no_changes(program, engine):
    live = maintain_on(program, engine, {})
    with pytest.raises(InputError, match="is `SaleAisle-1`, which follows `SaleAisle`"):
        live.apply(insert={"SaleAisle__prev1": [(1, 2)]})
    live.close()


RECURSIVE_GROUP = """
import group
input multiset Edge(c: u32, p: u32)
output relation Seen(n: u32)
Seen(n) :- Edge(n, _).
Seen(n) :- Deg(n, _).
output relation Deg(n: u32, cs: Vec<u32>)
Deg(p, cs) :- Edge(c, p), Seen(c), var cs = c.group_by(p).to_vec().
"""


def test_a_recursive_group_over_a_multiset_keeps_its_weights_when_recomputed(engine):
    # recursion through a group_by is recomputed at every change; its rows helper reads
    # a multiset and must keep the copies there as the program's own evaluation does
    program = dl2sql.compile(RECURSIVE_GROUP)
    edges = [(1, 2), (1, 2), (3, 2), (2, 4)]
    live = maintain_on(program, engine, {"Edge": edges[:2]})
    live.apply(insert={"Edge": edges[2:]})
    assert live.last.methods["Deg, Deg__group1, Deg__group1_rows, Seen"] == \
        "recompute (recursive aggregation)"
    maintained = sorted_rows(live.contents("Deg"))
    live.close()
    fresh = sorted_rows(run_on(program, engine, {"Edge": edges})["Deg"])
    assert maintained == fresh
    assert [tuple(cs) for n, cs in maintained if n == 2] == [(1, 1, 3)]


def test_the_kind_of_a_relation_is_part_of_a_state(tmp_path):
    live = dl2sql.compile(PROGRAM).maintain(engine="duckdb",
                                            inputs={"Sale": [("a", 1), ("a", 1)]})
    live.save(str(tmp_path))
    as_set = dl2sql.compile(PROGRAM.replace("input multiset Sale", "input relation Sale"))
    with pytest.raises(InputError, match="saved by a different program"):
        as_set.maintain(engine="duckdb", state=str(tmp_path))


def test_streams_and_multisets_have_no_primary_key():
    with pytest.raises(CompileError, match="a multiset cannot have a primary key"):
        dl2sql.compile("input multiset M(k: u32, v: u32) primary key (x) x.k\n")


def test_run_with_state_keeps_weights_and_delays(tmp_path, capsys):
    """``dl2sql run --state`` on DuckDB: a file's duplicate rows are copies of a
    multiset's row, a stream takes each run's rows, ``R-1`` moves on with every run."""
    from dl2sql.cli.main import main

    program = tmp_path / "sales.dl"
    program.write_text(PROGRAM)
    state, out = tmp_path / "state", tmp_path / "out"
    runs = [tmp_path / f"day{i}" for i in range(3)]
    for day in runs:
        day.mkdir()
    (runs[0] / "Sale.csv").write_text("item,qty\napple,2\napple,2\n")
    (runs[0] / "Shelf.csv").write_text("item,aisle\napple,1\n")
    (runs[0] / "Scan.csv").write_text("item\napple\n")
    (runs[1] / "Sale.delete.csv").write_text("item,qty\napple,2\n")
    args = ["run", str(program), "--engine", "duckdb", "--state", str(state),
            "--output", str(out), "--format", "csv", "--quiet"]

    def output(rel: str) -> list[str]:
        return sorted((out / f"{rel}.csv").read_text().splitlines()[1:])
    assert main(args + ["--input", str(runs[0])]) == 0
    assert (output("SaleAisle"), output("Scanned"), output("Previous")) == (
        ["1,2,2"], ["apple,1,1"], [])
    assert main(args + ["--input", str(runs[1]), "--explain"]) == 0
    assert "SaleAisle: weights" in capsys.readouterr().out
    assert (output("SaleAisle"), output("Scanned"), output("Previous")) == (
        ["1,2,-1"], [], ["1,2,1"])
    assert main(args + ["--input", str(runs[2])]) == 0  # nothing given: time moves on
    assert (output("SaleAisle"), output("Scanned"), output("Previous")) == ([], [], [])
