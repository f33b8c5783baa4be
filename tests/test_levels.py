"""Recursive strata maintained by derivation levels (dl2sql.incremental.dred, opted in
with ``Choice(levels=...)``): the results are those of a recomputation, deletion by levels deletes fewer rows than DRed over-deletes, the levels
are made when DRed gives up, and forgotten when a rollback changes the relations."""
from __future__ import annotations

import random

import pytest

import dl2sql
from dl2sql.incremental.choice import History
from dl2sql.incremental.execute import LEVELS, LEVELS_KEPT, Choice
from engines import maintain_on, run_on, sorted_rows
from graphs import closure

# mutual recursion through two relations, a negation of an input and a non-linear rule:
# no transitive closure, so DRed (or levels) maintains the stratum
PROGRAM = """
input relation Edge(s: u32, d: u32)
input relation Blocked(n: u32)
output relation Reach(s: u32, d: u32)
output relation Back(d: u32, s: u32)
Reach(s, d) :- Edge(s, d), not Blocked(d).
Reach(s, d) :- Reach(s, m), Reach(m, d).
Reach(s, d) :- Back(d, s).
Back(d, s) :- Reach(s, m), Edge(m, d), not Blocked(d).
"""

# every level from the first transaction, never recomputed
EAGER = Choice(None, None, None, 0, None, levels="eager")


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _records(live, rel: str) -> list[tuple]:
    return sorted(r.fields for r in live.records(rel))


def _recomputed(program, engine, inputs: dict) -> dict:
    frames = run_on(program, engine, inputs)
    return {rel: sorted_rows(frames[rel]) for rel in ("Reach", "Back")}


# the executor's choices run on the DuckDB runners of ``decider`` (counting every table,
# and only what decides, as on Spark); test_levels_keep_what_has_another_derivation runs
# the statements on Spark too, where each round of a loop is several jobs
def test_levels_give_the_recomputation_by_either_deletion(program, decider):
    engine = decider
    rng = random.Random(7)
    edges = {(rng.randrange(12), rng.randrange(12)) for _ in range(30)}
    blocked = {3}
    live = maintain_on(program, engine, {"Edge": sorted(edges), "Blocked": [(3,)]},
                       choice=EAGER)
    methods = set()
    for _ in range(6):
        gone = rng.sample(sorted(edges), 3)
        new = [(rng.randrange(12), rng.randrange(12)) for _ in range(3)]
        unblock = rng.sample(sorted(blocked), 1) if blocked and rng.random() < 0.5 else []
        block = [rng.randrange(12)]
        edges = (edges - set(gone)) | set(new)
        blocked = (blocked - set(unblock)) | set(block)
        live.apply(insert={"Edge": new, "Blocked": [(b,) for b in block]},
                   delete={"Edge": gone, "Blocked": [(b,) for b in unblock]})
        methods.add(live.last.methods["Back, Reach"])
        want = _recomputed(program, engine, {"Edge": sorted(edges),
                                             "Blocked": [(b,) for b in sorted(blocked)]})
        assert {rel: _records(live, rel) for rel in want} == want
    # the cheaper of the two deletions is learnt: both ran
    assert methods == {LEVELS, LEVELS_KEPT}


DENSE = """
input relation Edge(s: u32, d: u32)
output relation Path(s: u32, d: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Path(s, m), Path(m, d).
"""


def _delete_each(live, edges: set, removed, savepoint_before=None):
    """Each edge of ``removed`` deleted in a transaction of its own (a savepoint taken
    before the ``savepoint_before``-th), the paths checked after each: the methods
    the stratum took, and the savepoint."""
    methods, token = [], None
    for i, edge in enumerate(removed):
        if i == savepoint_before:
            token = live.savepoint()
        live.apply(delete={"Edge": [edge]})
        edges.discard(edge)
        methods.append(live.last.methods["Path"])
        assert _records(live, "Path") == sorted(closure(edges))
    return methods, token


def _deleted(live, table: str) -> int:
    return live.updater.rows.get(table) or 0


def test_levels_keep_what_has_another_derivation(engine):
    """On a complete graph every path has a derivation that avoids a removed edge:
    DRed over-deletes every path through it, levels delete only the edge's own path
    (rederived at once)."""
    program = dl2sql.compile(DENSE)
    edges = [(a, b) for a in range(8) for b in range(8)]
    by_dred = maintain_on(program, engine, {"Edge": edges},
                          choice=Choice(None, None, None, 0, None))
    by_levels = maintain_on(program, engine, {"Edge": edges}, choice=EAGER)
    for live in (by_dred, by_levels):
        live.apply(delete={"Edge": [(1, 2)]})
        assert _records(live, "Path") == sorted(edges)  # every path is left
    assert by_dred.last.methods["Path"] == "dred"
    assert by_levels.last.methods["Path"] == LEVELS
    assert _deleted(by_levels, "Path__dlv") == 1 < _deleted(by_dred, "Path__del")


def test_levels_are_made_when_dred_gives_up_and_forgotten_by_a_rollback(decider):
    engine = decider
    program = dl2sql.compile(DENSE)
    edges = {(a, b) for a in range(6) for b in range(6)}
    # DRed over-deletes more than a tenth of the paths and gives up (deletion by levels
    # deletes one path); the first recomputation after it makes the levels
    choice = Choice(recompute_share=None, overdelete_share=0.1, backoff=1,
                    estimate_share=None, levels="lazy")
    live = maintain_on(program, engine, {"Edge": sorted(edges)}, choice=choice)
    methods, token = _delete_each(live, edges, [(0, 1), (1, 2), (2, 3)], savepoint_before=2)
    assert methods == ["recompute (over-deletion too large)",
                       "recompute (DRed gave up recently)", LEVELS]
    assert live.updater.leveled == {"Path"}
    live.rollback_to(token)
    edges.add((2, 3))
    assert _records(live, "Path") == sorted(closure(edges))
    assert live.updater.leveled == set()
    live.apply(delete={"Edge": [(4, 5)]})  # the levels are stale: DRed, which gives up
    edges.discard((4, 5))
    assert live.last.methods["Path"] == "recompute (over-deletion too large)"
    assert _records(live, "Path") == sorted(closure(edges))


def test_the_cheaper_deletion_is_taken_and_the_other_tried_again():
    past = History()
    assert past.cheaper(("a", "b")) == "a"  # untried first
    past.took("a", 1.0)
    assert past.cheaper(("a", "b")) == "b"
    past.took("b", 2.0)
    picks = [past.cheaper(("a", "b")) for _ in range(5)]
    # b looks a fifth cheaper each time a is taken: 2.0 * 0.8**4 < 1.0
    assert picks == ["a", "a", "a", "a", "b"]
    past.took("b", 0.1)  # half the average: (0.8192 + 0.1) / 2
    assert past.cheaper(("a", "b")) == "b"


def test_levels_stay_when_dred_tried_by_cost_gives_up(decider):
    """The second deletion tries DRed (untried), which over-deletes past the share and
    gives up: the stratum is recomputed with its levels, with no back-off."""
    program = dl2sql.compile(DENSE)
    edges = {(a, b) for a in range(6) for b in range(6)}
    choice = Choice(recompute_share=None, overdelete_share=0.1, backoff=4,
                    estimate_share=None, levels="eager")
    live = maintain_on(program, decider, {"Edge": sorted(edges)}, choice=choice)
    methods, _ = _delete_each(live, edges, [(0, 1), (1, 2)])
    assert methods == [LEVELS, "recompute (over-deletion too large)"]
    assert live.updater.leveled == {"Path"}
    assert live.updater.history["Path"].skip == 0
