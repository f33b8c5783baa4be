"""A transitive closure maintained by its changed edges (dl2sql/incremental/closure.py):
random graphs and random transactions of several inserted and removed edges, checked
against a Python closure after every transaction, on both engines and, on each, with
every search (one recursive query, the loop of steps, the search on the driver)."""
from __future__ import annotations

import dataclasses
import random

import pytest

import dl2sql
from dl2sql.incremental.execute import Choice
from engines import collected, maintain_on, sorted_rows
from graphs import closure

PROGRAM = """
input relation Edge(s: u32, d: u32)
output relation Path(s: u32, d: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Edge(s, m), Path(m, d).
output relation Into(d: u32, n: u64)
Into(d, n) :- Path(s, d), var n = s.group_by(d).count_distinct().
"""


def transactions(seed: int, nodes: int, count: int, degree: int = 3):
    """The initial edges (``degree`` per node on average) and ``count`` transactions
    (inserted, deleted) on ``nodes`` nodes: up to three edges each way, deleted edges
    present, inserted ones absent."""
    rng = random.Random(seed)
    every = [(a, b) for a in range(nodes) for b in range(nodes)]
    edges = set(rng.sample(every, degree * nodes))
    initial = set(edges)
    steps = []
    for _ in range(count):
        deleted = rng.sample(sorted(edges), min(len(edges), rng.randint(0, 3)))
        inserted = rng.sample(sorted(set(every) - edges), rng.randint(0, 3))
        steps.append((inserted, deleted))
        edges = (edges - set(deleted)) | set(inserted)
    return initial, steps


def check_run(program, engine, seed: int, nodes: int, count: int, degree: int = 3,
              **options) -> set:
    """Maintain the closure through the transactions of ``seed``; every transaction's
    contents and changes must be the Python closure's. Returns the methods seen."""
    initial, steps = transactions(seed, nodes, count, degree)
    live = maintain_on(program, engine, {"Edge": sorted(initial)}, **options)
    edges, methods = set(initial), set()
    for inserted, deleted in steps:
        before = closure(edges)
        changes = live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        edges = (edges - set(deleted)) | set(inserted)
        after = closure(edges)
        context = (seed, inserted, deleted)
        assert sorted_rows(live.contents("Path")) == sorted(after), context
        assert sorted_rows(changes["Path"]) == sorted(
            [(s, d, 1) for s, d in after - before] + [(s, d, -1) for s, d in before - after]), \
            context
        into = {}
        for s, d in after:
            into.setdefault(d, set()).add(s)
        assert sorted_rows(live.contents("Into")) == sorted(
            (d, len(ss)) for d, ss in into.items()), context
        methods.add(live.last.methods.get("Path"))
    return methods


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


@pytest.mark.parametrize("seed", range(3))
def test_random_transactions_keep_the_closure(program, engine, seed):
    methods = check_run(program, engine, seed, nodes=7, count=12 if engine.dialect == "spark"
                        else 30, choice=Choice.never())
    assert {"closure", "closure (no path lost)"} <= methods, methods


@pytest.mark.parametrize("steps", [1, 3])
def test_with_the_search_as_a_loop(monkeypatch, program, steps):
    """Spark's search and its loop over kept candidates, run on DuckDB."""
    from dl2sql.engines import ENGINES
    from dl2sql.plan.loops import LoopPolicy
    from dl2sql.runner.duckdb_runner import DuckDBRunner
    monkeypatch.setitem(ENGINES, "duckdb", dataclasses.replace(
        ENGINES["duckdb"], loops=LoopPolicy(steps_per_check=steps)))
    check_run(dl2sql.compile(PROGRAM), DuckDBRunner(), 7 + steps, nodes=7, count=30,
              choice=Choice.never())


def _searches_on_driver(monkeypatch, engine_name: str, below: int) -> list:
    """The engine's policy with ``search_on_driver_below``; the list fills with the
    number of edges of every search done on the driver."""
    from dl2sql.engines import ENGINES
    from dl2sql.incremental.execute import Updater
    policy = ENGINES[engine_name]
    monkeypatch.setitem(ENGINES, engine_name, dataclasses.replace(
        policy, loops=dataclasses.replace(policy.loops, search_on_driver_below=below)))
    seen, search = [], Updater._search_on_driver

    def spy(self, stmt):
        seen.append(self.size(stmt.edges.relation))
        search(self, stmt)
    monkeypatch.setattr(Updater, "_search_on_driver", spy)
    return seen


def test_the_search_on_the_driver(monkeypatch, engine):
    """Every search on the driver (the default for few edges): the same paths, and no
    edge count above the limit."""
    seen = _searches_on_driver(monkeypatch, engine.dialect, 1000)
    methods = check_run(dl2sql.compile(PROGRAM), engine, 11, nodes=7,
                        count=8 if engine.dialect == "spark" else 30, choice=Choice.never())
    assert "closure (no path lost)" in methods and seen and max(seen) <= 1000


def test_more_edges_than_the_driver_searches(monkeypatch, engine):
    """Past ``search_on_driver_below`` edges the search runs on the engine: Spark's loop
    of steps, DuckDB's recursive query."""
    seen = _searches_on_driver(monkeypatch, engine.dialect, 5)
    methods = check_run(dl2sql.compile(PROGRAM), engine, 12, nodes=7,
                        count=8 if engine.dialect == "spark" else 30, choice=Choice.never())
    assert "closure (no path lost)" in methods and seen == []


def test_inserted_edges_probed_on_the_driver(monkeypatch, engine):
    """A transaction that only inserts: the driver tells which inserted edges are no
    path yet, against the edges as they were (the edge (0, 2) is no path before: the
    way 0 -> 1 -> 2 is inserted with it)."""
    seen = _searches_on_driver(monkeypatch, engine.dialect, 1000)
    chain = {(i, i + 1) for i in range(6)} - {(1, 2)}
    live = maintain_on(dl2sql.compile(PROGRAM), engine, {"Edge": sorted(chain)},
                       choice=Choice.never())  # compiled under the policy set above
    inserted = [(1, 2), (0, 2), (3, 5)]
    changes = live.apply(insert={"Edge": inserted})
    after = chain | set(inserted)
    assert seen == [len(after)]
    assert sorted_rows(live.contents("Path")) == sorted(closure(after))
    assert sorted_rows(changes["Path"]) == sorted(
        (s, d, 1) for s, d in closure(after) - closure(chain))
    assert live.last.methods["Path"] == "closure"
    live.apply(insert={"Edge": [(0, 5)]})  # a path already: nothing to insert
    assert len(seen) == 2 and "Path__iedge" in live.updater.empty
    assert sorted_rows(live.contents("Path")) == sorted(closure(after | {(0, 5)}))


EARLY = "recompute (over-deletion too large before the insertions)"
LATE = "recompute (over-deletion too large)"


def _chain_transaction(program, engine, share: float):
    """A chain 0 -> ... -> 8 (36 paths) loses its edge (4, 5) and gains (8, 20) and
    (30, 0): before the insertions 5 sources (0..4 reach 4) times 4 unreached nodes
    (5..8), after them 6 (30 too) times 5 (20 too). Returns the maintained program
    and the transaction's changes, checked against the Python closure."""
    chain = {(i, i + 1) for i in range(8)}
    live = maintain_on(program, engine, {"Edge": sorted(chain)},
                       choice=Choice(recompute_share=None, overdelete_share=share,
                                     estimate_share=None))
    changes = live.apply(insert={"Edge": [(8, 20), (30, 0)]}, delete={"Edge": [(4, 5)]})
    after = (chain - {(4, 5)}) | {(8, 20), (30, 0)}
    assert sorted_rows(live.contents("Path")) == sorted(closure(after))
    assert sorted_rows(changes["Path"]) == sorted(
        [(s, d, 1) for s, d in closure(after) - closure(chain)]
        + [(s, d, -1) for s, d in closure(chain) - closure(after)])
    return live


def test_giving_up_before_the_insertions(program, engine):
    """Over-deletion share 0: the candidates of the closure as it was give up already,
    before any path is inserted (nothing to undo)."""
    live = _chain_transaction(program, engine, 0.0)
    assert live.last.methods["Path"] == EARLY
    assert "Path__ihead" not in live.updater.rows and "Path__added" not in live.updater.rows


def test_giving_up_on_candidates_undoes_the_insertions(program, engine):
    """Share 0.6 of 36 paths (21.6): 20 candidates pass before the insertions, 30
    after them give up; the stratum is recomputed from the relation as it was
    before the insertions of the same transaction."""
    live = _chain_transaction(program, engine, 0.6)
    assert live.last.methods["Path"] == LATE
    assert live.updater.rows["Path__added"] > 0  # made, then undone


def test_candidates_within_the_share_after_the_insertions(program, engine):
    """Share 0.9 (32.4): both checks pass, the closure completes."""
    live = _chain_transaction(program, engine, 0.9)
    assert live.last.methods["Path"] == "closure"


def test_random_transactions_give_up_before_or_after_the_insertions(program, engine):
    """Share 0.5 on sparse random graphs: transactions that complete, lose nothing, give
    up before the insertions and after them, every one exact."""
    methods = check_run(program, engine, 2, nodes=9, count=12, degree=2,
                        choice=Choice(recompute_share=None, overdelete_share=0.5, backoff=0,
                                      estimate_share=None))
    assert {"closure", EARLY, LATE} <= methods, methods


def test_after_giving_up_the_closure_waits_before_trying_again(program, engine):
    """As DRed (tests/test_maintained.py): a give-up costs its search and candidates
    (and the insertions made and undone, where the check after them gives up) on top
    of the recomputation, so the next deleting transactions recompute directly; one
    that only inserts runs the closure, which then is tried again."""
    chain = {(i, i + 1) for i in range(12)}
    live = maintain_on(program, engine, {"Edge": sorted(chain)},
                       choice=Choice(recompute_share=None, overdelete_share=0.05, backoff=1,
                                     estimate_share=None))
    steps = [([], [(5, 6)], EARLY),
             ([], [(0, 1)], "recompute (the closure gave up recently)"),
             ([(40, 41)], [], "closure"),  # no deletion: nothing to give up on
             ([(0, 1)], [(40, 41)], "closure"),  # tried again: one candidate, completes
             ([], [(2, 3)], EARLY)]
    edges = set(chain)
    for inserted, deleted, method in steps:
        live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        assert live.last.methods["Path"] == method, (inserted, deleted)
        edges = (edges - set(deleted)) | set(inserted)
    assert sorted_rows(live.contents("Path")) == sorted(closure(edges))


def test_a_chain_of_inserted_edges_takes_a_round_each(program, engine):
    """Paths through three new edges in a row, none of them a path before."""
    live = maintain_on(program, engine, {"Edge": [(0, 1), (2, 3), (4, 5), (6, 7)]},
                       choice=Choice.never())
    live.apply(insert={"Edge": [(5, 6), (3, 4), (1, 2)]})
    edges = {(i, i + 1) for i in range(7)}
    assert sorted_rows(live.contents("Path")) == sorted(closure(edges))
    assert live.last.methods["Path"] == "closure"


def test_inserted_edges_that_are_paths_already_add_nothing(program, engine):
    """An inserted edge (a, b) with a ~> b already extends no path: the insertion stops
    before looking for new heads; beside an edge that is no path yet, only that one's
    paths are new."""
    chain = {(i, i + 1) for i in range(6)}
    live = maintain_on(program, engine, {"Edge": sorted(chain | {(10, 11)})},
                       choice=Choice.never())
    changes = live.apply(insert={"Edge": [(0, 4), (2, 5)]})
    assert sorted_rows(changes["Path"]) == []
    assert "Path__iedge" in live.updater.empty and "Path__ihead" not in live.updater.rows
    edges = chain | {(10, 11), (0, 4), (2, 5), (1, 3), (6, 10)}
    changes = live.apply(insert={"Edge": [(1, 3), (6, 10)]})
    before = closure(chain | {(10, 11)})
    assert sorted_rows(live.contents("Path")) == sorted(closure(edges))
    assert sorted_rows(changes["Path"]) == sorted((s, d, 1) for s, d in closure(edges) - before)


def test_many_new_heads_are_extended_edge_by_edge(program, engine):
    """More new heads than are joined with every path at once (closure.SPREAD_HEADS):
    an inserted edge into a chain's last node, and new edges beyond it."""
    from dl2sql.incremental.closure import SPREAD_HEADS
    n = SPREAD_HEADS + 16
    chain = {(i, i + 1) for i in range(n)}
    live = maintain_on(program, engine, {"Edge": sorted(chain | {(500, 501)})},
                       choice=Choice.never())
    inserted = [(n, 500), (501, 502)]
    changes = live.apply(insert={"Edge": inserted})
    after = chain | {(500, 501)} | set(inserted)
    assert sorted_rows(live.contents("Path")) == sorted(closure(after))
    assert len(collected(changes["Path"])) == len(closure(after)) - len(
        closure(chain | {(500, 501)}))


def test_a_long_insertion_ends_in_one_recursive_query_where_the_engine_has_one(program,
                                                                              engine):
    """Many new heads and a chain of new paths longer than the levels run as statements
    (nodes.LEVELS_AS_STATEMENTS), where some of the paths it reaches exist already:
    on DuckDB the rest is one recursive query, on Spark a statement per level; the
    paths and changes are the closure's either way."""
    from dl2sql.incremental.closure import SPREAD_HEADS
    from dl2sql.incremental.nodes import LEVELS_AS_STATEMENTS
    n = SPREAD_HEADS + 16
    chain = {(i, i + 1) for i in range(n)}
    beyond = {(500 + i, 501 + i) for i in range(LEVELS_AS_STATEMENTS + 6)}
    beyond.add((3, 500 + LEVELS_AS_STATEMENTS + 2))  # nodes 0-3 reach the end already
    live = maintain_on(program, engine, {"Edge": sorted(chain | beyond)},
                       choice=Choice.never())
    changes = live.apply(insert={"Edge": [(n, 500)]})
    after = chain | beyond | {(n, 500)}
    assert sorted_rows(live.contents("Path")) == sorted(closure(after))
    assert sorted_rows(changes["Path"]) == sorted(
        (s, d, 1) for s, d in closure(after) - closure(chain | beyond))
    assert live.last.methods["Path"] == "closure"
    at_once = "Path__iall" in live.updater.rows
    assert at_once == (engine.dialect == "duckdb"), live.updater.rows.keys()


def test_spark_counts_only_what_decides(program, spark):
    """On Spark a count is a job: an update counts the tables whose size decides what
    runs next (here the input's changes), and leaves the rest for the jobs that read
    them. With few edges, the inserted edges that are no path yet and the removed ones
    not found again come from a search on the driver: a collect of the edges, and of
    the inserted or removed ones. One more job fills what the transaction stored
    lazily."""
    cycle = [(i, i + 1) for i in range(10)] + [(10, 0)]
    live = program.maintain(spark=spark, inputs={"Edge": cycle})
    runner = live.runner
    # every path exists already: the inserted rows counted, two collects, the fill
    steps = [([(3, 7)], [], 4),
             ([], [(3, 7)], 4)]  # still a path: the removed rows counted, ...
    for inserted, deleted, most in steps:
        before = runner.actions
        live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        assert runner.actions - before <= most, (inserted, deleted, runner.actions - before)
    assert sorted_rows(live.contents("Path")) == sorted(closure(set(cycle)))
