"""The searches on the driver of a maintained transitive closure
(:mod:`dl2sql.incremental.closure_search`), against the closure of the edges: a removed
edge is pending exactly when its end is no longer reached, a source with a pending edge
has every node it reaches in ``reached`` (and no other source any), and an inserted
edge is new exactly when it was no path of the edges before."""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dl2sql.incremental.closure_search import (_reach, driver_rows, graph_of,  # noqa: E402
                                               reaches)
from graphs import closure  # noqa: E402
from profiles import examples

pairs = st.tuples(st.integers(0, 6), st.integers(0, 6))


def search_rows(edges, removed) -> tuple:
    """The rows of ``reached`` and ``pending`` the driver's search gives."""
    now = graph_of(edges)
    return driver_rows(now, now, [], removed)[1:]


def new_edge_rows(now, added, removed) -> list:
    """The rows of ``new_edges`` the driver's search gives (the edges before: those
    ``now`` less the ``added`` ones, with the ``removed`` ones)."""
    before = (set(now) - set(added)) | set(removed)
    return driver_rows(graph_of(now), graph_of(sorted(before)), added, removed)[0]


@settings(max_examples=examples(300))
@given(st.sets(pairs, max_size=20), st.sets(pairs, min_size=1, max_size=4))
def test_the_driver_search_finds_what_the_edges_reach(edges, removed):
    reached, pending = search_rows(sorted(edges), sorted(removed))
    paths = closure(edges)
    assert len(reached) == len(set(reached))
    assert set(reached) <= paths
    assert set(pending) == {(a, b) for a, b in removed if (a, b) not in paths}
    # every node a source with a pending edge reaches; nothing of the other sources
    # (the rows lost are looked for from the pending edges' sources only)
    sources = {a for a, _ in pending}
    assert {a for a, _ in reached} <= sources
    for a in sources:
        assert {y for x, y in reached if x == a} == {y for x, y in paths if x == a}


def test_a_source_stops_once_its_removed_edges_are_found():
    """From 0 the end 1 is one edge away: the search does not go on to the chain beyond."""
    chain = [(0, 1)] + [(i, i + 1) for i in range(1, 50)]
    after = {x: [y] for x, y in chain}
    assert _reach(lambda x: after.get(x, ()), 0, {1}) == ({1}, set())
    assert reaches(graph_of(chain), 0, 1) and not reaches(graph_of(chain), 1, 0)
    assert search_rows(chain, [(0, 1)]) == ([], [])


def test_a_removed_self_loop_needs_a_cycle():
    assert search_rows([(1, 2)], [(1, 1)]) == ([(1, 2)], [(1, 1)])
    assert search_rows([(1, 2), (2, 1)], [(1, 1)]) == ([], [])


@settings(max_examples=examples(300))
@given(st.sets(pairs, max_size=20), st.sets(pairs, max_size=4), st.sets(pairs, max_size=4))
def test_the_inserted_edges_that_were_no_path(kept, added, removed):
    before = kept | removed
    added -= before
    removed -= kept
    now = kept | added
    new = new_edge_rows(sorted(now), sorted(added), sorted(removed))
    assert len(new) == len(set(new))
    assert set(new) == added - closure(before)


def test_the_edges_before_lack_the_inserted_and_have_the_removed():
    """(0, 2) was no path before: 0 -> 1 -> 2 goes through (1, 2), inserted with it.
    In the second transaction it was one, through the two edges removed."""
    assert sorted(new_edge_rows([(0, 1), (1, 2), (0, 2)], [(1, 2), (0, 2)], [])) == [
        (0, 2), (1, 2)]
    assert new_edge_rows([(0, 2)], [(0, 2)], [(0, 1), (1, 2)]) == []



@settings(max_examples=examples(300))
@given(st.sets(pairs, max_size=20))
def test_reaches_is_a_path_of_one_edge_or_more(edges):
    """The two-ended search agrees with the closure for every pair of nodes (a node
    reaches itself only along a cycle)."""
    graph, paths = graph_of(sorted(edges)), closure(edges)
    assert {(a, b) for a in range(7) for b in range(7) if reaches(graph, a, b)} == paths
