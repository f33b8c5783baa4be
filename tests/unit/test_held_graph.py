"""The successor sets of the rows the driver holds (dl2sql/incremental/held.py): made
once, kept up to date by each commit, and read with a transaction's own changes over
them, they always equal the successors of the rows as they are then."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dl2sql.incremental.held import HeldRows, successors
from profiles import examples

rows = st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=12)


def as_dict(graph, nodes=range(6)) -> dict:
    """Every node's ends, as the graph gives them, where it has some."""
    return {x: set(graph.get(x, ())) for x in nodes if set(graph.get(x, ()))}


def expected(edges, at=(0, 1)) -> dict:
    i, j = at
    return {x: ends for x, ends in successors((r[i], r[j]) for r in edges).items() if ends}


@settings(max_examples=examples(200))
@given(rows, st.lists(st.tuples(rows, rows, st.booleans()), max_size=6),
       st.sampled_from([(0, 1), (1, 0)]))
def test_the_graph_follows_the_rows(start, transactions, at):
    held = HeldRows(["E"])
    held.fetched("E", sorted(start))
    held.commit()
    committed = set(start)
    for inserted, deleted, fails in transactions:
        plus, minus = held.changes("E", sorted(inserted), sorted(deleted))
        now = (committed - set(minus)) | set(plus)
        assert now == (committed - deleted) | inserted
        assert as_dict(held.graph("E", at)) == expected(now, at)
        assert as_dict(held.graph("E", at, before=True)) == expected(committed, at)
        assert held.changed("E") == (plus, minus)
        if fails:
            held.rollback()
        else:
            held.commit()
            committed = now
        assert held.rows["E"] == committed
        assert as_dict(held.graph("E", at)) == expected(committed, at)


def test_a_released_relation_has_no_graph():
    held = HeldRows(["E"])
    assert held.graph("E", (0, 1)) is None
    held.fetched("E", [(1, 2)])
    assert held.graph("E", (0, 1)) is None  # held from the commit on
    held.commit()
    assert as_dict(held.graph("E", (0, 1))) == {1: {2}}
    held.changes("E", None, [])  # changes made on the engine: let go
    assert held.graph("E", (0, 1)) is None
