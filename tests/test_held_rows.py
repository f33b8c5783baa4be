"""An input relation whose rows the driver holds between transactions
(dl2sql/incremental/held.py): the edges of a transitive closure searched on the driver.
Its rows added and removed are worked out on the driver, the search fetches nothing,
and a failed transaction or changes given as a frame leave the held rows right. Every
transaction is checked against a Python closure, on both engines."""
from __future__ import annotations

import pytest

import dl2sql
import dl2sql.incremental.driver_work as driver_work
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.incremental.execute import Choice
from engines import maintain_on, sorted_rows
from graphs import closure

PROGRAM = """
input relation Edge(s: u32, d: u32)
output relation Path(s: u32, d: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Edge(s, m), Path(m, d).
output relation OneWay(s: u32, d: u32)
OneWay(s, d) :- Edge(s, d), not Path(d, s).
"""

START = {(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 5)}


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


class Watch:
    """The runner calls that fetch rows to the driver, and the tables made or loaded
    (or held, to be made when read) on the engine, of a maintained program."""

    def __init__(self, live):
        self.fetches, self.made, self.loads = [], [], []
        runner = live.updater.runner
        fetch_all, materialize = runner.fetch_all, runner.materialize
        counted, load, hold = runner.materialize_counted, runner.load, runner.hold

        def loading(table, rows):
            self.loads.append(table.name)
            return load(table, rows)

        def holding(table, rows):  # a load the engine may make when it is read
            self.loads.append(table.name)
            return hold(table, rows)

        def fetching(tables):
            self.fetches.append([t.name for t in tables])
            return fetch_all(tables)

        def making(table, query, count):
            self.made.append(table.name)
            return materialize(table, query, count)

        def making_counted(items):
            self.made += [t.name for t, _ in items]
            return counted(items)
        runner.fetch_all, runner.materialize = fetching, making
        runner.materialize_counted = making_counted
        runner.load, runner.hold = loading, holding


def check(live, edges: set, changes=None, before: set = None) -> None:
    """The maintained relations (and ``changes``, made from ``before``) are those of
    ``edges``."""
    paths = closure(edges)
    assert sorted_rows(live.contents("Path")) == sorted(paths)
    assert sorted_rows(live.contents("OneWay")) == sorted(
        (s, d) for s, d in edges if (d, s) not in paths)
    if changes is not None:
        old = closure(before)
        assert sorted_rows(changes["Path"]) == sorted(
            [(s, d, 1) for s, d in paths - old] + [(s, d, -1) for s, d in old - paths])


def test_the_edges_are_fetched_once_and_their_changes_worked_out_on_the_driver(
        program, engine):
    live = maintain_on(program, engine, {"Edge": sorted(START)}, choice=Choice.never())
    watch = Watch(live)
    edges = set(START)
    steps = [
        ([(5, 0)], [(2, 0)]),  # a cycle closes and another opens
        ([(5, 0), (1, 3)], [(9, 9)]),  # a row stored already; one never stored
        ([(3, 4)], [(3, 4)]),  # deleted and inserted again: it stays
        ([], [(5, 0), (0, 1)]),
        ([(0, 1), (6, 7)], []),
    ]
    first = loads = None
    for i, (inserted, deleted) in enumerate(steps):
        before = set(edges)
        changes = live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        edges = (edges - set(deleted)) | set(inserted)
        check(live, edges, changes, before)
        assert live.updater.held.rows.get("Edge") == edges, i
        assert live.last.added.get("Edge", 0) == len(edges - before), i
        assert live.last.removed.get("Edge", 0) == len(before - edges), i
        first = len(watch.made) if first is None else first
        loads = len(watch.loads) if loads is None else loads
    # the first search fetched the edges; from then on the driver held them
    assert watch.fetches == [["Edge", "Edge__plus", "Edge__minus"]]
    # and the engine made the input's changes in the first transaction only
    assert "Edge__plus" in watch.made[:first]
    assert not {"Edge__plus", "Edge__minus"} & set(watch.made[first:])
    # the rows inserted and deleted were loaded then only: later the driver worked
    # the changes out from them and loaded those
    assert {"Edge__insert", "Edge__delete"} <= set(watch.loads[:loads])
    assert not {"Edge__insert", "Edge__delete"} & set(watch.loads[loads:])
    assert "Edge__plus" in watch.loads[loads:]


def test_a_failed_transaction_leaves_the_held_rows(program, engine, monkeypatch):
    live = maintain_on(program, engine, {"Edge": sorted(START)}, choice=Choice.never())
    edges = set(START) | {(5, 3)}
    live.apply(insert={"Edge": [(5, 3)]})
    held = set(live.updater.held.rows["Edge"])
    assert held == edges

    def failing(*args):
        raise RuntimeError("the search failed")
    monkeypatch.setattr(driver_work, "driver_rows", failing)
    with pytest.raises(RuntimeFailure, match="the search failed"):
        live.apply(insert={"Edge": [(4, 0)]}, delete={"Edge": [(0, 1)]})
    monkeypatch.undo()
    assert live.updater.held.rows["Edge"] == held
    check(live, edges)
    before = set(edges)
    changes = live.apply(insert={"Edge": [(4, 0)]}, delete={"Edge": [(1, 2)]})
    edges = (edges - {(1, 2)}) | {(4, 0)}
    check(live, edges, changes, before)


def test_changes_given_as_a_frame_are_made_on_the_engine(program, engine):
    """The driver does not see rows given as a frame: the engine makes the changes and
    the search fetches the relation again, which the driver then holds."""
    live = maintain_on(program, engine, {"Edge": sorted(START)}, choice=Choice.never())
    watch = Watch(live)
    live.apply(insert={"Edge": [(5, 3)]})
    if engine.dialect == "spark":
        frame = engine.spark.createDataFrame([(4, 1)], "s int, d int")
    else:
        frame = engine.con.sql("SELECT 4 AS s, 1 AS d")
    edges = set(START) | {(5, 3), (4, 1)}
    live.apply(insert={"Edge": frame}, delete={"Edge": [(4, 5)]})
    edges.discard((4, 5))
    check(live, edges)
    assert "Edge__plus" in watch.made
    before = set(edges)
    changes = live.apply(insert={"Edge": [(5, 0)]}, delete={"Edge": [(3, 4)]})
    edges = (edges - {(3, 4)}) | {(5, 0)}
    check(live, edges, changes, before)
    assert live.updater.held.rows["Edge"] == edges
    assert len(watch.fetches) == 2  # the first search, and the one after the frame


def test_relations_of_floats_or_wide_integers_are_not_held():
    """A float's NaN equals itself in SQL and in no Python set, and integers wider than
    64 bits have representations of their own: such a relation's changes are always
    made on the engine."""
    from dl2sql.incremental.nodes import InputOnDriver
    compiled = dl2sql.compile("""
input relation E(s: u32, d: u32)
input relation W(s: u32, w: double)
input relation B(n: bigint)
output relation P(s: u32, d: u32)
P(s, d) :- E(s, d).
P(s, d) :- E(s, m), P(m, d).
output relation Heavy(s: u32)
Heavy(s) :- W(s, w), w > 1.0.
output relation Big(n: bigint)
Big(n) :- B(n).
""")
    live = compiled.maintain(inputs={"E": [(1, 2)], "W": [(1, 2.0)], "B": [(3,)]},
                             engine="duckdb")
    try:
        inputs = {s.relations[0]: s.statements[0] for s in live.updater.plan.strata
                  if s.method == "input"}
        assert isinstance(inputs["E"], InputOnDriver)
        assert not isinstance(inputs["W"], InputOnDriver)
        assert not isinstance(inputs["B"], InputOnDriver)
        assert live.updater.held.holdable == {"E"}
    finally:
        live.close()


def test_edges_of_strings_are_held_and_compared_as_the_engine_does(engine):
    """Strings held on the driver equal the engine's: a row deleted is found among the
    held ones, one inserted again is known (names with spaces, accents, case)."""
    compiled = dl2sql.compile("""
input relation Link(a: string, b: string)
output relation Reach(a: string, b: string)
Reach(a, b) :- Link(a, b).
Reach(a, c) :- Link(a, b), Reach(b, c).
""")
    names = ["Ana", "ana", "Zoë", "São Paulo", "x y"]
    links = {(names[i], names[(i + 1) % len(names)]) for i in range(len(names))}
    live = maintain_on(compiled, engine, {"Link": sorted(links)}, choice=Choice.never())
    for inserted, deleted in [([("ana", "Ana")], [("Zoë", "São Paulo")]),
                              ([("Zoë", "São Paulo")], [("ana", "Ana"), ("Ana", "ana")]),
                              ([("Ana", "ana")], [("x y", "Ana")])]:
        live.apply(insert={"Link": inserted}, delete={"Link": deleted})
        links = (links - set(deleted)) | set(inserted)
        assert live.updater.held.rows.get("Link") == links
        assert sorted_rows(live.contents("Reach")) == sorted(closure(links))
