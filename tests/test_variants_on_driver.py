"""Rule variants the driver evaluates (dl2sql/incremental/driver_variants.py): a rule
that negates a transitive closure for each row of an input whose edges the driver
holds gets its rows added and removed from searches of the held edges, not from
probes of every path on the engine. Checked on both engines against Python after
every transaction of a random sequence, and by which tables the engine made."""
from __future__ import annotations

import random

import pytest

import dl2sql
from dl2sql.incremental.execute import Choice
from dl2sql.incremental.nodes import VariantsOnDriver
from engines import maintain_on, sorted_rows
from graphs import closure
from test_held_rows import Watch

PROGRAM = """
input relation Edge(s: u32, d: u32)
output relation Path(s: u32, d: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Path(s, m), Edge(m, d).
// the edges on no cycle, reversed (the benchmark's Unreached)
output relation Unreached(s: u32, d: u32)
Unreached(s, d) :- Edge(d, s), not Path(s, d).
// the edges whose ends no link joins either way: a closure of another input
input relation Link(x: u32, y: u32)
output relation Linked(x: u32, y: u32)
Linked(x, y) :- Link(x, y).
Linked(x, z) :- Link(x, y), Linked(y, z).
output relation Apart(b: u32, a: u32)
Apart(b, a) :- Edge(a, b), not Linked(a, b), not Linked(b, a).
"""


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def expected(edges: set, links: set) -> dict:
    paths, linked = closure(edges), closure(links)
    return {"Unreached": sorted((s, d) for d, s in edges if (s, d) not in paths),
            "Apart": sorted((b, a) for a, b in edges
                            if (a, b) not in linked and (b, a) not in linked)}


def check(live, edges: set, links: set, changes, before: dict) -> None:
    now = expected(edges, links)
    for rel, rows in now.items():
        assert sorted_rows(live.contents(rel)) == rows, rel
        old = set(before[rel])
        assert sorted_rows(changes[rel]) == sorted(
            [(*r, 1) for r in set(rows) - old] + [(*r, -1) for r in old - set(rows)]), rel


def test_the_plan_makes_both_rules_changes_on_the_driver(program):
    for engine in ("duckdb", "spark"):
        plan = program.compiled.update_for(engine)
        on_driver = {s.statement.target.name: s for st in plan.strata
                     for s in st.statements if isinstance(s, VariantsOnDriver)}
        assert set(on_driver) == {"Unreached__plus", "Unreached__minus", "Apart__plus",
                                  "Apart__minus"}, engine
        # a variant over a change of Path itself stays on the engine
        assert None in on_driver["Unreached__plus"].parts
        probes = [a for p in on_driver["Apart__plus"].parts if p for a in p.absent]
        assert {a.edges.name for a in probes} == {"Link"}
        assert sorted((a.start, a.end, a.before) for a in probes) == [
            (0, 1, False), (1, 0, False)]
        removed = [a for p in on_driver["Apart__minus"].parts if p for a in p.absent]
        assert {a.before for a in removed} == {True}


def test_random_transactions_match_python(program, engine):
    rng = random.Random(2)

    def some(n: int) -> list:  # on 8 nodes: most changes leave the closures as they are
        return [(rng.randrange(8), rng.randrange(8)) for _ in range(n)]
    edges, links = set(some(24)), set(some(16))
    live = maintain_on(program, engine, {"Edge": sorted(edges), "Link": sorted(links)},
                       choice=Choice.never())
    # a first transaction changes both inputs: the searches fetch their rows, which
    # the driver holds from then on
    before = expected(edges, links)
    changes = live.apply(insert={"Edge": [(8, 9)], "Link": [(8, 9)]})
    edges, links = edges | {(8, 9)}, links | {(8, 9)}
    check(live, edges, links, changes, before)
    watch = Watch(live)
    on_driver = 0
    for i in range(16):
        before = expected(edges, links)
        closures = closure(edges), closure(links)
        ins, l_ins = some(rng.randrange(3)), some(rng.randrange(2))
        dels = rng.sample(sorted(edges), min(len(edges), rng.randrange(3)))
        l_dels = rng.sample(sorted(links), min(len(links), rng.randrange(2)))
        made = len(watch.made)
        changes = live.apply(insert={"Edge": ins, "Link": l_ins},
                             delete={"Edge": dels, "Link": l_dels})
        edges = (edges - set(dels)) | set(ins)
        links = (links - set(l_dels)) | set(l_ins)
        check(live, edges, links, changes, before)
        if (closure(edges), closure(links)) == closures:
            # no path changed: every variant left ran on the driver
            assert not {t for t in watch.made[made:] if t.startswith(("Unreached",
                                                                       "Apart"))}, i
            on_driver += 1
    assert on_driver >= 8


def test_changes_given_as_a_frame_run_on_the_engine(program, engine, tmp_path):
    edges, links = {(0, 1), (1, 2), (2, 0), (2, 3)}, {(3, 0), (4, 5)}
    live = maintain_on(program, engine, {"Edge": sorted(edges), "Link": sorted(links)},
                       choice=Choice.never())
    live.apply(insert={"Edge": [(3, 4)]})  # the driver holds the edges from now on
    edges.add((3, 4))
    before = expected(edges, links)
    watch = Watch(live)
    frame = tmp_path / "edges.csv"
    frame.write_text("s,d\n4,0\n")
    changes = live.apply(insert={"Edge": str(frame)}, delete={"Edge": [(2, 0)]})
    edges = (edges - {(2, 0)}) | {(4, 0)}
    check(live, edges, links, changes, before)
    assert "Unreached__plus" in watch.made  # the held edges were let go
