"""A maintained program (``Program.maintain``) on both engines: transactions of Python
rows and frames, weighted changes, failed transactions that change nothing, and the
choice between maintaining and recomputing a stratum."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.diagnostics import InputError, RuntimeFailure
from dl2sql.incremental.execute import Choice
from dl2sql.runtime.values import Record
from engines import collected, maintain_on, session_setting, sorted_rows
from graphs import closure as _reach

PROGRAM = """
input relation Edge(s: u32, d: u32)
output relation Reach(s: u32, d: u32)
Reach(s, d) :- Edge(s, d).
Reach(s, d) :- Reach(s, m), Edge(m, d).
output relation OneWay(s: u32, d: u32)
OneWay(s, d) :- Edge(s, d), not Reach(d, s).
output relation Fanout(s: u32, n: u64)
Fanout(s, n) :- Reach(s, d), var n = d.group_by(s).count_distinct().
"""


# the same relations with Reach's recursion non-linear: not a transitive closure's two
# rules, so Reach is maintained by delete and rederive
DRED_PROGRAM = PROGRAM.replace("Reach(s, d) :- Reach(s, m), Edge(m, d).",
                               "Reach(s, d) :- Reach(s, m), Reach(m, d).")


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


@pytest.fixture(scope="module")
def dred_program():
    return dl2sql.compile(DRED_PROGRAM)


def _expected(edges) -> dict:
    reach = _reach(edges)
    fan = {}
    for s, d in reach:
        fan.setdefault(s, set()).add(d)
    return {"Reach": sorted(reach),
            "OneWay": sorted((s, d) for s, d in edges if (d, s) not in reach),
            "Fanout": sorted((s, len(ds)) for s, ds in fan.items())}


def _contents(live) -> dict:
    return {rel: sorted_rows(live.contents(rel)) for rel in ("Reach", "OneWay", "Fanout")}


def test_transactions_return_weighted_changes(program, engine):
    edges = {(1, 2), (2, 3)}
    live = maintain_on(program, engine, {"Edge": sorted(edges)})
    assert _contents(live) == _expected(edges)
    changes = live.apply(insert={"Edge": [(3, 1)]})
    edges.add((3, 1))
    assert _contents(live) == _expected(edges)
    assert sorted_rows(changes["Reach"]) == sorted(
        (s, d, 1) for s, d in _reach(edges) - _reach(edges - {(3, 1)}))
    # a cycle: OneWay loses every edge
    assert sorted_rows(changes["OneWay"]) == [(1, 2, -1), (2, 3, -1)]
    changes = live.apply(delete={"Edge": [(2, 3)]})
    edges.discard((2, 3))
    assert _contents(live) == _expected(edges)
    assert sorted_rows(changes["Reach"]) == sorted(
        (s, d, -1) for s, d in _reach(edges | {(2, 3)}) - _reach(edges))
    # 1 reaches 2 only, 3 reaches 1 and 2, 2 nothing (each reached 3 nodes before)
    assert sorted_rows(changes["Fanout"]) == [(1, 1, 1), (1, 3, -1), (2, 3, -1),
                                              (3, 2, 1), (3, 3, -1)]


def test_recomputed_strata_give_their_changes_with_a_side(program, engine):
    """A stratum recomputed inside a transaction finds its rows added and removed in
    one pass over the new and old rows (a full outer join, plan node Changes); the
    changes it gives, and those of the strata that read it, are exact."""
    edges = {(1, 2), (2, 3), (3, 4)}
    live = maintain_on(program, engine, {"Edge": sorted(edges)},
                       choice=Choice(recompute_share=0.0, estimate_share=None))
    changes = live.apply(insert={"Edge": [(4, 1)]}, delete={"Edge": [(2, 3)]})
    assert live.last.methods["Reach"] == "recompute"
    before, edges = edges, (edges | {(4, 1)}) - {(2, 3)}
    assert _contents(live) == _expected(edges)
    gained, lost = _reach(edges) - _reach(before), _reach(before) - _reach(edges)
    assert gained and lost
    assert sorted_rows(changes["Reach"]) == sorted(
        [(s, d, 1) for s, d in gained] + [(s, d, -1) for s, d in lost])
    # only removed rows: every path goes
    changes = live.apply(delete={"Edge": sorted(edges)})
    assert live.last.methods["Reach"].startswith("recompute")
    assert sorted_rows(changes["Reach"]) == sorted((s, d, -1) for s, d in _reach(edges))
    assert _contents(live) == _expected(set())


def test_a_first_evaluation_times_each_stratum(program):
    """On an engine that computes a table when it makes it, each stratum's first
    recomputation estimate is its own tables' time, not the whole evaluation's."""
    import time

    started = time.perf_counter()
    live = program.maintain(inputs={"Edge": [(i, i + 1) for i in range(40)]},
                            engine="duckdb")
    took = time.perf_counter() - started
    seconds = {name: past.recompute_seconds for name, past in live.updater.history.items()}
    assert set(seconds) >= {"Reach", "OneWay"}
    # each the whole evaluation before: the strata's sum was several times it
    assert 0 < sum(seconds.values()) <= took


def test_an_input_relation_counts_its_changes_together(program, engine):
    """The rows an input gains and loses are made and counted in one call (on Spark,
    one job)."""
    live = maintain_on(program, engine, {"Edge": [(1, 2), (2, 3)]})
    runner, batches = live.updater.runner, []
    counted = type(runner).materialize_counted

    def spy(items):
        batches.append(sorted(t.name for t, _ in items))
        return counted(runner, items)
    runner.materialize_counted = spy
    live.apply(insert={"Edge": [(3, 4)]}, delete={"Edge": [(1, 2)]})
    assert ["Edge__minus", "Edge__plus"] in batches
    assert _contents(live) == _expected({(2, 3), (3, 4)})


def test_rows_present_or_absent_change_nothing(program, engine):
    live = maintain_on(program, engine, {"Edge": [(1, 2), (2, 3)]})
    changes = live.apply(insert={"Edge": [(1, 2)]}, delete={"Edge": [(7, 8)]})
    assert all(sorted_rows(f) == [] for f in changes.values())
    assert live.last.methods == {"Edge": "input"}  # no derived stratum touched
    # deletions apply first: a row both deleted and inserted stays
    live.apply(insert={"Edge": [(2, 3)]}, delete={"Edge": [(2, 3)]})
    assert _contents(live) == _expected({(1, 2), (2, 3)})


def test_a_transaction_reads_no_table_an_earlier_one_left(program, engine):
    # DuckDB leaves a transaction's small tables for the next one to replace
    def tables() -> set:
        return {r[0] for r in engine.con.execute("SELECT table_name FROM "
                                                 "information_schema.tables").fetchall()}
    before = tables() if engine.dialect == "duckdb" else None
    live = maintain_on(program, engine, {"Edge": [(1, 2), (2, 3)]})
    started = tables() if engine.dialect == "duckdb" else None
    first = live.apply(insert={"Edge": [(3, 1)]})
    assert sorted_rows(first["OneWay"]) == [(1, 2, -1), (2, 3, -1)]
    again = live.apply(insert={"Edge": [(3, 1)]}, delete={"Edge": [(5, 6)]})  # no change
    assert all(sorted_rows(f) == [] for f in again.values())
    assert _contents(live) == _expected({(1, 2), (2, 3), (3, 1)})
    if engine.dialect == "duckdb":
        assert tables() - started  # some were left (or this test tests nothing)
        live.close()
        assert tables() - before <= started - before  # and closing dropped them


def test_changes_given_as_frames(program, engine):
    live = maintain_on(program, engine, {"Edge": [(1, 2)]})
    if engine.dialect == "spark":
        frame = engine.spark.createDataFrame([(2, 3)], "s int, d int")
    else:
        frame = engine.con.sql("SELECT 2 AS s, 3 AS d")
    live.apply(insert={"Edge": frame})
    assert _contents(live) == _expected({(1, 2), (2, 3)})


def test_unknown_relation_is_refused(program, engine):
    live = maintain_on(program, engine, {"Edge": [(1, 2)]})
    with pytest.raises(InputError, match="unknown relation `Edges`"):
        live.apply(insert={"Edges": [(1, 2)]})
    with pytest.raises(InputError, match="not an input relation"):
        live.apply(insert={"Reach": [(1, 2)]})


FAILING = """
extern function check(n: u32): u32
input relation In(n: u32)
output relation Out(n: u32)
Out(check(n)) :- In(n).
output relation Total(t: u64)
Total(t) :- Out(n), var t = n.group_by(()).count_distinct().
"""


def _check(n: int) -> int:
    if n == 13:
        raise ValueError("13 is unlucky")
    return n


def test_failed_transaction_changes_nothing(engine):
    program = dl2sql.compile(FAILING, extern={"check": _check})
    live = maintain_on(program, engine, {"In": [(1,), (2,)]})
    with pytest.raises(RuntimeFailure, match="13 is unlucky"):
        live.apply(insert={"In": [(13,)]}, delete={"In": [(1,)]})
    assert sorted_rows(live.contents("Out")) == [(1,), (2,)]
    assert sorted_rows(live.contents("Total")) == [(2,)]
    assert sorted_rows(live.contents("In")) == [(1,), (2,)]
    changes = live.apply(insert={"In": [(3,)]})
    assert sorted_rows(changes["Out"]) == [(3, 1)]
    assert sorted_rows(live.contents("Total")) == [(3,)]


def test_large_changes_recompute_the_stratum(dred_program, decider):
    chain = [(i, i + 1) for i in range(30)]
    # by rows only (a time limit would depend on the machine's speed)
    live = maintain_on(dred_program, decider, {"Edge": chain},
                       choice=Choice(overdelete_share=0.5, overdelete_time_share=None,
                                     estimate_share=None))
    live.apply(delete={"Edge": [(0, 1)]})  # the head of the chain: few paths lost
    assert live.last.methods["Reach"] == "dred"
    # the middle of the chain: a quarter of the paths go, over-deleting most of them
    live.apply(delete={"Edge": [(15, 16)]})
    assert live.last.methods["Reach"] == "recompute (over-deletion too large)"
    # more new edges than the relations it reads have rows
    live.apply(insert={"Edge": [(100 + i, 101 + i) for i in range(60)]})
    assert live.last.methods["Reach"] == "recompute"
    edges = (set(chain) - {(0, 1), (15, 16)}) | {(100 + i, 101 + i) for i in range(60)}
    assert _contents(live) == _expected(edges)


def test_dred_gives_up_by_time_against_the_first_evaluation(dred_program, decider):
    chain = [(i, i + 1) for i in range(30)]
    # no row limit; over-deletion may take no time at all against the first evaluation
    live = maintain_on(dred_program, decider, {"Edge": chain},
                       choice=Choice(overdelete_share=None, overdelete_time_share=0.0,
                                     estimate_share=None))
    assert live.updater.history["Reach"].recompute_seconds > 0
    live.apply(insert={"Edge": [(40, 41)]})  # only inserts: no over-deletion to limit
    assert live.last.methods["Reach"] == "dred"
    live.apply(delete={"Edge": [(0, 1)]})
    assert live.last.methods["Reach"] == "recompute (over-deletion too large)"
    assert _contents(live) == _expected((set(chain) - {(0, 1)}) | {(40, 41)})


GROUPS = """
import group
input relation In(k: u32, v: u32)
output relation Count(k: u32, n: u64)
Count(k, n) :- In(k, v), var n = v.group_by(k).count_distinct().
output relation Least(k: u32, n: u32)
Least(k, n) :- In(k, v), var n = v.group_by(k).min().
"""


def test_a_group_by_touched_in_most_groups_is_recomputed(decider):
    program = dl2sql.compile(GROUPS)
    rows = {(k, v) for k in range(10) for v in range(10)}
    live = maintain_on(program, decider, {"In": sorted(rows)})
    live.apply(delete={"In": [(3, 0)]})
    # the helper relations of the group_bys, numbered in rule order
    counted, listed = "Count__group1", "Least__group2"
    assert live.last.methods[listed] == "group"
    assert live.last.methods[counted] == "group"
    # 6 rows of 99: a small change of In, but in 6 groups of 10
    gone = [(k, 1) for k in range(6)]
    changes = live.apply(delete={"In": gone})
    assert live.last.methods[listed] == "recompute (many groups touched)"
    # a group that is only counted costs the rows it loses, however many groups
    assert live.last.methods[counted] == "group"
    assert sorted_rows(changes["Count"]) == sorted(
        [(k, 9 if k == 3 else 10, -1) for k in range(6)]
        + [(k, 8 if k == 3 else 9, 1) for k in range(6)])
    # only group 3 had lost its 0 already
    assert sorted_rows(changes["Least"]) == [(3, 1, -1), (3, 2, 1)]
    rows -= {(3, 0), *gone}
    assert sorted_rows(live.contents("Count")) == sorted(
        (k, sum(1 for kk, _ in rows if kk == k)) for k in range(10))
    # a group's last row removed, a new group
    changes = live.apply(delete={"In": [(9, v) for v in range(10)]}, insert={"In": [(20, 3)]})
    assert sorted_rows(changes["Count"]) == [(9, 10, -1), (20, 1, 1)]
    assert sorted_rows(changes["Least"]) == [(9, 0, -1), (20, 3, 1)]


def test_after_giving_up_dred_waits_before_trying_again(dred_program, decider):
    chain = [(i, i + 1) for i in range(30)]
    # by rows only (a time limit would depend on the machine's speed)
    live = maintain_on(dred_program, decider, {"Edge": chain},
                       choice=Choice(overdelete_share=0.2, overdelete_time_share=None,
                                     estimate_share=None,
                                     backoff=2))
    steps = [({}, {"Edge": [(15, 16)]}, "recompute (over-deletion too large)"),
             ({}, {"Edge": [(0, 1)]}, "recompute (DRed gave up recently)"),
             ({"Edge": [(200, 201)]}, {}, "dred"),  # only inserts: not over-deletion
             ({}, {"Edge": [(1, 2)]}, "dred"),  # tried again, completes
             ({}, {"Edge": [(8, 9)]}, "recompute (over-deletion too large)"),
             ({}, {"Edge": [(2, 3)]}, "recompute (DRed gave up recently)")]
    edges = set(chain)
    for insert, delete, method in steps:
        live.apply(insert=insert, delete=delete)
        assert live.last.methods["Reach"] == method, (insert, delete)
        edges = (edges - set(delete.get("Edge", []))) | set(insert.get("Edge", []))
    assert _contents(live) == _expected(edges)


CLOSURE_CASES = [
    ([], [(1, 3)], True),  # 1 -> 2 -> 3 is left
    ([(5, 6)], [(1, 3), (3, 1)], True),  # 3 -> 4 -> 1 is left; an insertion besides
    ([], [(4, 1)], False),  # the only way from 4 back into the cycle
    ([], [(1, 3), (4, 1)], False),  # one edge kept by another path, one not
    ([(4, 2)], [(4, 1)], True),  # the inserted edge is the new way: 4 -> 2 -> 3 -> 1
]


# every case on DuckDB; on Spark, whose search is the same code planned as a loop of
# steps (test_the_closure_search_as_a_loop_of_steps runs that loop on DuckDB): one
# with an insertion besides, and one where one removed edge is still a path and one not
CLOSURE_ON_ENGINES = ([pytest.param("duckdb", *case) for case in CLOSURE_CASES]
                      + [pytest.param("spark", *CLOSURE_CASES[i]) for i in (1, 3)])


@pytest.mark.parametrize("engine, insert, delete, kept", CLOSURE_ON_ENGINES,
                         indirect=["engine"])
def test_a_closure_whose_removed_edges_are_still_paths_loses_nothing(
        program, engine, insert, delete, kept):
    _closure_case(program, engine, insert, delete, kept)


@pytest.mark.parametrize("steps", [1, 2, 3])
@pytest.mark.parametrize("insert, delete, kept", CLOSURE_CASES + [
    ([(4, 9), (9, 10), (10, 2)], [(1, 2)], True),  # 1 -> 3 -> 4 -> 9 -> 10 -> 2
])
def test_the_closure_search_as_a_loop_of_steps(monkeypatch, steps, insert, delete, kept):
    """The search Spark runs (a loop of ``steps`` edges per iteration, the earlier steps
    uncounted), run on DuckDB with no search on the driver (DuckDB's search past the
    driver's limit is one recursive query)."""
    import dataclasses
    from dl2sql.engines import ENGINES
    from dl2sql.plan.loops import LoopPolicy
    from dl2sql.runner.duckdb_runner import DuckDBRunner
    monkeypatch.setitem(ENGINES, "duckdb", dataclasses.replace(
        ENGINES["duckdb"], loops=LoopPolicy(steps_per_check=steps)))
    _closure_case(dl2sql.compile(PROGRAM), DuckDBRunner(), insert, delete, kept)


def _closure_case(program, engine, insert, delete, kept):
    # a cycle 1 -> 2 -> 3 -> 4 -> 1 with chords 1 -> 3 and 3 -> 1
    edges = {(1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (3, 1)}
    live = maintain_on(program, engine, {"Edge": sorted(edges)}, choice=Choice.never())
    changes = live.apply(insert={"Edge": insert}, delete={"Edge": delete})
    after = (edges - set(delete)) | set(insert)
    assert _contents(live) == _expected(after)
    assert sorted_rows(changes["Reach"]) == sorted(
        [(s, d, 1) for s, d in _reach(after) - _reach(edges)]
        + [(s, d, -1) for s, d in _reach(edges) - _reach(after)])
    method = live.last.methods["Reach"]
    assert method == ("closure (no path lost)" if kept else "closure"), method


KEYED = """
typedef Id = Id{n: u32, zone: string}
input relation User(id: Id, name: string, active: bool) primary key (u) u.id
output relation ActiveName(name: string)
ActiveName(n) :- User(_, n, true).
"""


def test_primary_key_relations_take_updates_and_key_deletions(engine):
    program = dl2sql.compile(KEYED)

    def uid(n, zone):
        return Record("Id", (n, zone))
    users = [(uid(1, "eu"), "ann", True), (uid(2, "eu"), "bob", True),
             (uid(3, "us"), "cy", False)]
    live = maintain_on(program, engine, {"User": users})
    changes = live.apply(insert_or_update={"User": [(uid(1, "eu"), "ann", False),
                                                    (uid(3, "us"), "cy", True),
                                                    (uid(4, "us"), "dee", True)]},
                         delete_key={"User": [uid(2, "eu")]})
    assert sorted_rows(changes["ActiveName"]) == [("ann", -1), ("bob", -1), ("cy", 1),
                                                  ("dee", 1)]
    assert sorted_rows(live.contents("ActiveName")) == [("cy",), ("dee",)]
    assert len(collected(live.contents("User"))) == 3
    # the same row again changes nothing
    changes = live.apply(insert_or_update={"User": [(uid(4, "us"), "dee", True)]})
    assert sorted_rows(changes["ActiveName"]) == []


def test_inserting_a_held_key_is_refused_and_changes_nothing(engine):
    program = dl2sql.compile(KEYED)

    def uid(n, zone):
        return Record("Id", (n, zone))
    live = maintain_on(program, engine, {"User": [(uid(1, "eu"), "ann", True),
                                                  (uid(2, "eu"), "bob", True)]})
    def users():  # struct values come as dicts or Rows: compared by their text
        return sorted(str(tuple(r)) for r in collected(live.contents("User")))
    before = users()
    for insert in ([(uid(1, "eu"), "zed", False)],  # a stored row's key
                   [(uid(7, "us"), "x", True), (uid(7, "us"), "y", True)]):  # twice
        with pytest.raises(InputError, match="primary key of another row"):
            live.apply(insert={"User": insert}, delete={"User": [(uid(2, "eu"), "bob", True)]})
        assert users() == before
        assert sorted_rows(live.contents("ActiveName")) == [("ann",), ("bob",)]
    # the key of a row deleted in the same transaction is free; the same row twice is
    # one row
    changes = live.apply(insert={"User": [(uid(2, "eu"), "bo", False),
                                          (uid(5, "eu"), "eve", True),
                                          (uid(5, "eu"), "eve", True)]},
                         delete={"User": [(uid(2, "eu"), "bob", True)]})
    assert sorted_rows(changes["ActiveName"]) == [("bob", -1), ("eve", 1)]


def test_key_operations_need_a_primary_key(program, engine):
    live = maintain_on(program, engine, {"Edge": [(1, 2)]})
    with pytest.raises(InputError, match="`delete_key` needs a primary key"):
        live.apply(delete_key={"Edge": [1]})


def test_a_run_beside_a_maintained_program_on_one_session(program, spark):
    # both runners name their temp views after the relations (Edge, Reach, ...)
    live = program.maintain(spark=spark, inputs={"Edge": [(1, 2)]})
    other = dl2sql.compile(PROGRAM)
    out = other.run(spark=spark, inputs={"Edge": [(7, 8)]})
    assert sorted_rows(out["Reach"]) == [(7, 8)]
    live.apply(insert={"Edge": [(2, 3)]})
    other.close()  # drops its views, not the maintained program's
    live.apply(insert={"Edge": [(3, 4)]})
    assert _contents(live) == _expected({(1, 2), (2, 3), (3, 4)})


def test_a_relation_named_like_a_short_alias(engine):
    """Deleting from a relation `M` (DuckDB's names ignore case: the runner's patch
    once aliased the removed rows `m`)."""
    program = dl2sql.compile("input relation In(x: u32)\n"
                             "output relation M(x: u32)\nM(x) :- In(x), x > 1.\n")
    live = maintain_on(program, engine, {"In": [(1,), (2,), (3,)]})
    changes = live.apply(delete={"In": [(2,)]})
    assert sorted_rows(changes["M"]) == [(2, -1)]
    assert sorted_rows(live.contents("M")) == [(3,)]


def test_changes_of_wide_integers_are_in_output_form(engine):
    """A transaction's changes hold wide integers as their decimal text, as the
    relation's contents and the run's outputs do (they held the stored form)."""
    program = dl2sql.compile("input relation In(x: bigint)\n"
                             "output relation Big(x: bigint, v: Vec<bigint>)\n"
                             "Big(x * x, [x, -x]) :- In(x).\n")
    huge = 10 ** 30 + 7
    live = maintain_on(program, engine, {"In": [(2,)]})
    changes = live.apply(insert={"In": [(huge,)]}, delete={"In": [(2,)]})
    rows = sorted((x, list(v), w) for x, v, w in collected(changes["Big"]))
    assert rows == sorted([(str(huge * huge), [str(huge), str(-huge)], 1),
                           ("4", ["2", "-2"], -1)])
    assert sorted((x, list(v)) for x, v in collected(live.contents("Big"))) == [
        (str(huge * huge), [str(huge), str(-huge)])]


@pytest.mark.parametrize("session_value", ["true", "false"])
def test_a_spark_transaction_plans_without_adaptive_execution(spark, session_value):
    # with it, every shuffle and broadcast of a transaction's queries is a job of its
    # own (docs/performance.md, run 24); the session's own value is put back after a
    # transaction, and after a failed one
    key = "spark.sql.adaptive.enabled"
    with session_setting(spark, key, session_value):
        program = dl2sql.compile(FAILING, extern={"check": _check})
        live = program.maintain(spark=spark, inputs={"In": [(1,), (2,)]})
        seen = []
        materialize = live.runner.materialize

        def recording(*args, **kwargs):
            seen.append(spark.conf.get(key))
            return materialize(*args, **kwargs)

        live.runner.materialize = recording
        changes = live.apply(insert={"In": [(3,)]}, delete={"In": [(1,)]})
        assert sorted_rows(changes["Out"]) == [(1, -1), (3, 1)]
        assert seen and set(seen) == {"false"}
        assert spark.conf.get(key) == session_value
        seen.clear()
        with pytest.raises(RuntimeFailure, match="13 is unlucky"):
            live.apply(insert={"In": [(13,)]})
        assert seen and set(seen) == {"false"}
        assert spark.conf.get(key) == session_value
        assert sorted_rows(live.contents("Out")) == [(2,), (3,)]
        live.close()


def test_a_patched_relation_keeps_its_number_of_partitions(program, spark):
    # a patch stores the rows that stay and the rows added as one union; without a
    # bound, every transaction that removes rows added the added rows' partitions,
    # and a long run of small transactions ended with thousands of tiny tasks
    edges = {(i, i + 1) for i in range(12)} | {(i, i + 2) for i in range(8)}
    live = program.maintain(spark=spark, inputs={"Edge": sorted(edges)})
    limit = live.runner.partitions
    for i in range(4):
        # a shortcut replaced by a longer one: no path changes, OneWay is patched
        gone, new = (i, i + 2), (i, i + 3)
        live.apply(insert={"Edge": [new]}, delete={"Edge": [gone]})
        edges = (edges - {gone}) | {new}
        assert _contents(live) == _expected(edges)
        assert live.runner.tables["OneWay"].rdd.getNumPartitions() <= limit, i
    live.close()


TWO_FUNCTIONS = ("input relation In(s: string)\noutput relation Out(s: string)\n"
                 "Out({call}) :- In(s).\n")


def _two_programs_maintained_apart(**where):
    """Two programs whose one function each runs as a Python UDF, maintained side by
    side in one session: each transaction runs its own program's function, not the one
    last registered under a shared name."""
    reverse = dl2sql.compile(TWO_FUNCTIONS.format(call="string_reverse(s)"))
    upper = dl2sql.compile(TWO_FUNCTIONS.format(call="to_uppercase(s)"))
    live_reverse = reverse.maintain(inputs={"In": [("abc",)]}, **where)
    live_upper = upper.maintain(inputs={"In": [("abc",)]}, **where)
    live_reverse.apply(insert={"In": [("hello",)]})
    live_upper.apply(insert={"In": [("world",)]})
    live_reverse.apply(insert={"In": [("again",)]})
    assert sorted(r.fields for r in live_reverse.records("Out")) == \
        [("cba",), ("niaga",), ("olleh",)]
    assert sorted(r.fields for r in live_upper.records("Out")) == [("ABC",), ("WORLD",)]


def test_two_programs_maintained_in_one_spark_session_keep_their_functions(spark):
    _two_programs_maintained_apart(spark=spark)


COMPUTED_HEADS = """
import group
input relation Sale(shop: u32, item: u32, price: u32)
function spread(g: Group<u32, u32>): u32 { g.max() - g.min() }
output relation Spread(shop: u32, spread: u32)
Spread(s, d) :- Sale(s, _, p), var d = p.group_by(s).spread().
output relation Label(shop: u32, text: string)
Label(s, "${s}:${p}") :- Sale(s, _, p), p > 5.
Label(s, "${s}:${i}") :- Sale(s, i, _).
"""


def test_rows_with_computed_heads_are_rederived_among_the_candidates(engine):
    """Heads partly computed (a function of a group, an interpolation; two rules, so
    rows that may have lost a derivation are looked up): the lookup joins the
    candidates on the column heads only, then keeps the candidates among the rows
    found (dl2sql/incremental/variants.py, narrowed)."""
    from dl2sql.incremental.variants import narrowed

    program = dl2sql.compile(COMPUTED_HEADS)
    blocks = program.compiled.blocks
    assert all(narrowed(b) for rel in ("Spread", "Label") for b in blocks[rel])
    sales = {(1, 1, 3), (1, 2, 9), (2, 1, 9), (2, 9, 4), (3, 3, 7)}
    live = maintain_on(program, engine, {"Sale": sorted(sales)})
    for insert, delete in [([(1, 3, 9)], [(1, 2, 9)]),  # a group whose spread stays
                           ([(4, 1, 1)], [(2, 9, 4)]),  # one that changes, a new one
                           ([], [(3, 3, 7)]),  # a group's last row, a label's both rules
                           ([(2, 9, 9)], [(2, 1, 9)])]:  # a label kept by another rule
        live.apply(insert={"Sale": insert}, delete={"Sale": delete})
        sales = (sales - set(delete)) | set(insert)
        spread = {}
        for s, _, p in sales:
            spread.setdefault(s, []).append(p)
        assert sorted_rows(live.contents("Spread")) == sorted(
            (s, max(ps) - min(ps)) for s, ps in spread.items()), (insert, delete)
        assert sorted_rows(live.contents("Label")) == sorted(
            {(s, f"{s}:{p}") for s, _, p in sales if p > 5}
            | {(s, f"{s}:{i}") for s, i, _ in sales}), (insert, delete)


def test_a_stratum_expected_to_cost_more_than_recomputing_is_recomputed(program, decider):
    """Choice.estimate_share: with a share of 0 any maintenance costs more than it, so
    once a stratum was maintained for as many changed rows, the next transaction
    recomputes it; the results stay exact."""
    edges = {(1, 2), (2, 3), (3, 4)}
    live = maintain_on(program, decider, {"Edge": sorted(edges)},
                       choice=Choice(estimate_share=0.0))
    live.apply(insert={"Edge": [(4, 5)]})
    assert live.last.methods["Reach"] in ("closure", "closure (no path lost)")
    assert live.updater.history["Reach"].observed
    live.apply(insert={"Edge": [(5, 6)]}, delete={"Edge": [(1, 2)]})
    assert live.last.methods["Reach"] == "recompute (cheaper by estimate)"
    assert _contents(live) == _expected((edges | {(4, 5), (5, 6)}) - {(1, 2)})


def test_the_estimate_recomputes_where_no_more_rows_took_longer():
    from dl2sql.incremental.choice import History

    past = History(recompute_seconds=1.0)
    assert not past.expects_longer(100, 1.0)  # nothing learnt yet: maintain
    past.maintained(0.5, 2)
    past.maintained(1.5, 50)
    # 50 rows took longer than a recomputation: 50 or more will; fewer may not
    assert past.expects_longer(50, 1.0) and past.expects_longer(500, 1.0)
    assert not past.expects_longer(49, 1.0) and not past.expects_longer(2, 1.0)
    assert past.expects_longer(2, 0.4)  # a smaller share
    assert not past.expects_longer(50, None) and not past.expects_longer(None, 1.0)
    # recomputations chosen so forget the oldest maintenances: it is tried again
    for _ in range(2):
        past.recomputed_by_estimate()
    assert not past.expects_longer(500, 1.0)
    for n in range(10):  # only the last few are kept
        past.maintained(2.0 if n == 0 else 0.1, 5)
    assert not past.expects_longer(5, 1.0)


SUMMARIES = """
import group
input relation Order(id: u32, tier: u32, amount: u64, who: string)
// the count, the largest (amount, id) and its amount's first field: one summary
output relation Tier(tier: u32, orders: u64, largest: u64, by: u32)
Tier(t, n, m.0, m.1) :- Order(o, t, a, _), var g = (a, o).group_by(t),
    var n = g.count_distinct(), var m = g.max().
// the least and first string, in an expression and a condition
output relation Who(tier: u32, first: string, span: string)
Who(t, f, "${f}..${l}") :- Order(_, t, _, w), var g = w.group_by(t),
    var f = g.first(), var l = g.max(), l != f.
// no key: one row over everything
output relation Cheapest(amount: u64)
Cheapest(a) :- Order(_, _, a, _), var a = a.group_by(()).min().
// arg_min by the first field is the least tuple, arg_max of the identity the greatest
output relation Early(tier: u32, amount: u64, id: u32, top: u32)
Early(t, e.0, e.1, x.1) :- Order(o, t, a, _), var g = (a, o).group_by(t),
    var e = g.arg_min(|p| p.0), var x = g.arg_max(|p| p).
// arg_max by the first field is not the greatest tuple (the least id of the largest
// amount): the group keeps its values
output relation Late(tier: u32, amount: u64, id: u32)
Late(t, l.0, l.1) :- Order(o, t, a, _), var l = (a, o).group_by(t).arg_max(|p| p.0).
"""


def _summaries(orders) -> dict:
    tiers: dict = {}
    for o, t, a, w in orders:
        tiers.setdefault(t, []).append((o, a, w))
    who = {(t, min(w for *_, w in rows), max(w for *_, w in rows)) for t, rows in tiers.items()}
    return {
        "Tier": sorted((t, len(rows), *max((a, o) for o, a, _ in rows))
                       for t, rows in tiers.items()),
        "Who": sorted((t, f, f"{f}..{l}") for t, f, l in who if f != l),
        "Cheapest": [(min(a for _, _, a, _ in orders),)] if orders else [],
        "Early": sorted((t, *min((a, o) for o, a, _ in rows), max((a, o) for o, a, _ in rows)[1])
                        for t, rows in tiers.items()),
        "Late": sorted((t, a, min(o for o, b, _ in rows if b == a))
                       for t, rows in tiers.items() for a in [max(b for _, b, _ in rows)])}


def test_groups_used_only_by_count_min_and_max_store_those(engine):
    """A group whose every use is its count, min/first or max (or an arg_min/arg_max
    that is one of them) is stored as the tuple of those (COUNT, MIN, MAX: no list of
    its values; dl2sql.passes.group_counts), in
    evaluation and in maintenance (one with another use keeps its values:
    tests/unit/test_incremental_plan.py)."""
    program = dl2sql.compile(SUMMARIES)
    aggregates = {b.relation: b.aggregate for blocks in program.compiled.blocks.values()
                  for b in blocks if hasattr(b, "aggregate")}
    assert aggregates == {"Tier__group1": ("count", "max"), "Who__group2": ("min", "max"),
                          "Cheapest__group3": ("min",), "Early__group4": ("min", "max"),
                          "Late__group5": "group"}
    orders = {(i, i % 3, (i * 37) % 50, f"w{(i * 7) % 11}") for i in range(30)}
    live = maintain_on(program, engine, {"Order": sorted(orders)})
    want = _summaries(orders)
    assert {rel: sorted_rows(live.contents(rel)) for rel in want} == want
    largest = max(((a, o), (o, t, a, w)) for o, t, a, w in orders if t == 1)[1]
    tier0 = [row for row in orders if row[1] == 0]
    # a new largest amount, twice (arg_max by the amount keeps the lesser id)
    steps = [([(100, 1, 49, "w0"), (99, 1, 49, "w1")], [(1, 1, 37, "w7")]),
             # the largest goes (found again among the rows), a tier too
             ([(101, 7, 3, "a")], [(100, 1, 49, "w0")] + tier0),
             ([(102, 7, 1, "b")], [])]  # one more row of a new tier
    if engine.dialect == "spark":  # the same in one transaction (several seconds each)
        steps = [([(101, 7, 3, "a"), (102, 7, 1, "b"), (103, 7, 3, "c")], [largest] + tier0)]
    for insert, delete in steps:
        live.apply(insert={"Order": insert}, delete={"Order": delete})
        orders = (orders - set(delete)) | set(insert)
        want = _summaries(orders)
        assert {rel: sorted_rows(live.contents(rel)) for rel in want} == want, (insert, delete)


SPREADS = """
import group
input relation Sale(shop: u32, item: u32, price: u32)
// a group function the interpreter runs: the range of a shop's prices
function spread(g: Group<u32, u32>): u32 {
    var lo: u32 = 'hFFFFFFFF;
    var hi: u32 = 0;
    for ((p, _) in g) { if (p < lo) { lo = p }; if (p > hi) { hi = p } };
    hi - lo
}
output relation Spread(shop: u32, range: u32)
Spread(s, d) :- Sale(s, _, p), var d = p.group_by(s).spread().
output relation Wide(shop: u32, range: u32)
Wide(s, d) :- Sale(s, _, p), var d = p.group_by(s).spread(), d > 10.
"""


def test_an_aggregate_whose_group_changes_but_not_its_value_changes_nothing(engine):
    """An aggregate's rule over its groups has one derivation per row, which changes
    with its group: a group that changes with the same value changes no row, one that
    changes value replaces its row, one that goes removes it (found by its key, the
    group function not run on the old groups: dl2sql.incremental.build keyed_rules)."""
    program = dl2sql.compile(SPREADS)
    update = program.compiled.update_for(engine.engine)
    stratum = next(s for s in update.strata if s.relations == ("Spread",))
    made = [t.name for t in _written(stratum.statements)]
    assert "Spread__redo" not in made and {"Spread__ins", "Spread__del"} <= set(made)
    sales = [(1, 1, 5), (1, 2, 30), (2, 3, 7), (2, 4, 9), (3, 5, 1)]
    live = maintain_on(program, engine, {"Sale": sales})
    assert sorted_rows(live.contents("Spread")) == [(1, 25), (2, 2), (3, 0)]
    steps = [  # a price within the range: shop 1's group changes, its spread does not
        ([(1, 6, 20)], [], {}),
        # shop 1's range shrinks, shop 3 goes, shop 2's widens past 10
        ([(2, 7, 40)], [(1, 2, 30), (3, 5, 1)],
         {"Spread": [(1, 25, -1), (1, 15, 1), (2, 2, -1), (2, 33, 1), (3, 0, -1)],
          "Wide": [(1, 25, -1), (1, 15, 1), (2, 33, 1)]})]
    if engine.dialect == "spark":  # seconds per transaction there: the second only
        live.apply(insert={"Sale": [(1, 6, 20)]})
        steps = steps[1:]
    for insert, delete, want in steps:
        changes = live.apply(insert={"Sale": insert}, delete={"Sale": delete})
        got = {rel: sorted_rows(frame) for rel, frame in changes.items()}
        assert {rel: rows for rel, rows in got.items() if rows} == \
            {rel: sorted(rows) for rel, rows in want.items()}, (insert, delete)
    assert sorted_rows(live.contents("Spread")) == [(1, 15), (2, 33)]


def _written(statements) -> list:
    from dl2sql.incremental.build import written

    return list(written(statements))


COLOURED = """
input relation Edge(s: u32, d: u32, colour: string)
output relation Same(s: u32, d: u32, colour: string)
Same(s, d, c) :- Edge(s, d, c).
Same(s, d, c) :- Same(s, m, c), Edge(m, d, c).
"""


def _coloured(edges) -> set:
    """``Same`` of COLOURED: the closure of each colour's edges."""
    return {(s, d, c) for c in {e[2] for e in edges}
            for s, d in _reach({(a, b) for a, b, k in edges if k == c})}


def test_a_long_insertion_into_a_linear_recursion(engine):
    """A linear recursion that is no transitive closure (DRed) whose insertion finds
    new rows many levels deep (joined chains of one colour, some rows there already):
    on DuckDB the levels past the first few are one recursive query
    (nodes.LEVELS_AS_STATEMENTS), on Spark statements; the contents and changes are the
    Python closure's after each transaction, deletions included."""
    from dl2sql.incremental.nodes import LEVELS_AS_STATEMENTS
    n = LEVELS_AS_STATEMENTS + 8
    red = {(i, i + 1, "red") for i in range(n)} | {(100 + i, 101 + i, "red")
                                                    for i in range(n)}
    blue = {(i, i + 1, "blue") for i in range(0, 2 * n, 2)}
    edges = red | blue | {(2, 100 + n - 3, "red")}  # a shortcut: some rows exist already
    live = maintain_on(dl2sql.compile(COLOURED), engine, {"Edge": sorted(edges)},
                       choice=Choice.never())
    steps = [([(n, 100, "red")], []),  # joins the two red chains
             ([(1, 50, "blue")], [(n // 2, n // 2 + 1, "red")]),  # cuts one
             ([(n // 2, n // 2 + 1, "red"), (100 + n, 0, "red")], [])]  # a cycle
    for inserted, deleted in steps:
        before = _coloured(edges)
        changes = live.apply(insert={"Edge": inserted}, delete={"Edge": deleted})
        edges = (edges - set(deleted)) | set(inserted)
        after = _coloured(edges)
        assert sorted_rows(live.contents("Same")) == sorted(after), inserted
        assert sorted_rows(changes["Same"]) == sorted(
            [(*r, 1) for r in after - before] + [(*r, -1) for r in before - after])
        assert live.last.methods["Same"] == "dred"
        if not deleted:
            at_once = "Same__iall" in live.updater.rows
            assert at_once == (engine.dialect == "duckdb"), live.updater.rows.keys()
