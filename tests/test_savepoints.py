"""Savepoints of a maintained program (``live.savepoint()``, ``live.rollback_to``,
``live.release``: dl2sql.api.savepoints) and of a state directory (``dl2sql run --state
DIR --savepoint NAME``, ``--rollback-to NAME``, ``--release NAME``).

A rollback restores every relation (inputs, derived ones, the compiler's helpers,
multisets' weights, streams, delayed relations and the history they read) to its state
at the savepoint, and returns the rows it changed as ``apply`` does. The property tests
draw random programs of the incremental property tests (tests/property/: recursion,
negation and group_by over sets; multisets, streams and delays) and random sequences
of transactions, savepoints, rollbacks and releases, and compare every relation after
each step with an evaluation from scratch of the inputs as they should be.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import dl2sql
from dl2sql.api.state_store import store_for
from dl2sql.cli.main import main
from dl2sql.diagnostics import InputError, RuntimeFailure
from dl2sql.passes.bags import is_bag
from dl2sql.runtime.convert import row_to_record
from dl2sql.runtime.values import Record
from engines import collected, maintain_on, sorted_rows
from profiles import examples

# the generators and oracles of the incremental property tests (not a package)
sys.path.insert(0, str(Path(__file__).resolve().parent / "property"))
import random_bag_programs
import random_programs
from test_incremental_bags_random import Oracle as BagOracle
from test_incremental_bags_random import transaction as bag_transaction
from test_incremental_random import POLICIES, ROW, TAGGED_ROW, Oracle, _ordered, transaction

pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

# recursion, negation, group_by, a multiset input and a delayed relation
PROGRAM = """
input relation Edge(s: u32, d: u32)
input multiset Vote(s: u32, d: u32)
output relation Reach(s: u32, d: u32)
Reach(s, d) :- Edge(s, d).
Reach(s, d) :- Reach(s, m), Edge(m, d).
output relation Lonely(s: u32)
Lonely(s) :- Edge(s, _), not Reach(s, s).
output relation Fanout(s: u32, n: u64)
Fanout(s, n) :- Reach(s, d), var n = d.group_by(s).count_distinct().
output multiset Backed(s: u32, d: u32)
Backed(s, d) :- Vote(s, d), Reach(s, d).
output relation Was(s: u32, d: u32)
Was(s, d) :- Edge-1(s, d).
"""


# the part of PROGRAM that both engines run (Spark costs per stratum and per job)
SPARK_SIZED = PROGRAM.split("output relation Lonely")[0] + """\
output multiset Backed(s: u32, d: u32)
Backed(s, d) :- Vote(s, d), Reach(s, d).
output relation Was(s: u32, d: u32)
Was(s, d) :- Edge-1(s, d).
"""


def snapshot(live) -> dict:
    """Every stored table's rows (with their copies) as DDlog values: every
    relation's and every history table's, by name (the tables of one row type fetched
    together: on Spark, in one job)."""
    tables = list(live.updater.plan.relations.values())
    bags = live.updater.bags
    tables += [t for t, _ in (bags.plan.history() if bags is not None else ())]
    by_type: dict = {}
    for t in tables:
        by_type.setdefault(repr([c.type for c in t.columns]), []).append(t)
    out, env = {}, live.compiled.type_env
    for group in by_type.values():
        for t, rows in zip(group, live.runner.fetch_all(group)):
            layout = live.compiled.layouts[t.relation]  # as DDlog values: wide or not
            out[t.name] = Counter(row_to_record(layout, r, env) for r in rows)
    return out


def changes(frames: dict) -> dict:
    """The output frames of ``apply`` or ``rollback_to`` as sorted rows."""
    return {rel: sorted_rows(frame) for rel, frame in frames.items()}


def test_nested_savepoints_restore_every_relation(engine):
    program = dl2sql.compile(SPARK_SIZED)
    live = maintain_on(program, engine, {"Edge": [(1, 2), (2, 3)], "Vote": [(1, 2), (1, 2)]})
    at_first = snapshot(live)
    first = live.savepoint()
    live.apply(insert={"Edge": [(3, 1)], "Vote": [(1, 3)]})
    at_second = snapshot(live)
    second = live.savepoint()
    live.apply(delete={"Edge": [(1, 2)]}, insert={"Vote": [(1, 2)]})
    assert live.savepoints == (first, second)
    undone = changes(live.rollback_to(second))
    assert snapshot(live) == at_second
    # the rows the rollback put back (1) and took away (-1), weights for a multiset
    assert undone["Reach"] == [(1, 1, 1), (1, 2, 1), (1, 3, 1), (2, 2, 1), (3, 2, 1),
                               (3, 3, 1)]
    assert undone["Backed"] == [(1, 2, 2), (1, 3, 1)]  # (1, 2) twice, (1, 3) once
    assert undone["Was"] == [(3, 1, -1)]
    assert live.savepoints == (first, second)  # the token rolled back to stays open
    undone = changes(live.rollback_to(first))  # the first transaction is undone
    assert snapshot(live) == at_first
    assert undone["Reach"] == [(1, 1, -1), (2, 1, -1), (2, 2, -1), (3, 1, -1), (3, 2, -1),
                               (3, 3, -1)]
    assert undone["Backed"] == [(1, 3, -1)] and undone["Was"] == [(1, 2, -1), (2, 3, -1)]
    assert live.savepoints == (first,)
    live.close()


def test_a_savepoint_rolled_back_to_stays_open():
    program = dl2sql.compile(PROGRAM)
    live = program.maintain({"Edge": [(1, 2), (2, 3)], "Vote": [(1, 2)]}, engine="duckdb")
    at_first = snapshot(live)
    first = live.savepoint()
    nothing = changes(live.rollback_to(first))  # nothing happened since
    assert set(nothing) == set(program.outputs) and not any(nothing.values())
    live.apply(insert={"Edge": [(4, 5)]})
    live.rollback_to(first)
    after = changes(live.apply(insert={"Edge": [(2, 1)]}))
    assert after["Reach"] == [(1, 1, 1), (2, 1, 1), (2, 2, 1)]
    # Edge-1: Edge as the first evaluation left it (the history as at `first`)
    assert after["Was"] == [(1, 2, 1), (2, 3, 1)]
    undone = changes(live.rollback_to(first))
    assert undone["Reach"] == [(1, 1, -1), (2, 1, -1), (2, 2, -1)]
    assert undone["Was"] == [(1, 2, -1), (2, 3, -1)]
    assert snapshot(live) == at_first
    live.close()


def test_a_rollback_costs_the_changes_not_the_relations():
    # the log holds each transaction's changes: a few rows beside thousands
    program = dl2sql.compile(PROGRAM)
    chain = [(i, i + 1) for i in range(60)]
    live = program.maintain({"Edge": chain}, engine="duckdb")
    assert len(live.records("Reach")) == 60 * 61 // 2
    token = live.savepoint()
    live.apply(delete={"Edge": [(59, 60)]})
    logged = {t.name: live.runner.count(t) for t in live._savepoints.open[0].logged.values()}
    # Reach loses the paths to 60; each source's Fanout changes, 59's goes; 59 is no
    # longer Lonely; Edge-1 takes the 60 edges of the first evaluation
    assert logged == {"Edge__sp1_minus": 1, "Reach__sp1_minus": 60, "Fanout__sp1_plus": 59,
                      "Fanout__sp1_minus": 60, "Fanout__group1__sp1_plus": 59,
                      "Fanout__group1__sp1_minus": 60, "Fanout__group1_rows__sp1_minus": 60,
                      "Lonely__sp1_minus": 1, "Was__sp1_plus": 60, "Edge__prev1__sp1_plus": 60}
    assert live.rollback_to(token) and live.last.added["Reach"] == 60
    assert live.last.removed == {"Fanout": 59, "Fanout__group1": 59, "Was": 60,
                                 "Edge__prev1": 60}
    assert len(live.records("Reach")) == 60 * 61 // 2
    live.release(token)
    # no savepoint open: transactions keep no log, and the log's tables are gone
    live.apply(delete={"Edge": [(0, 1)]})
    tables = {n for (n,) in live.runner.con.execute("select table_name from duckdb_tables()"
                                                    ).fetchall()}
    assert not {n for n in tables if "__sp" in n}
    live.close()


def test_release_keeps_the_changes_for_the_savepoints_before():
    program = dl2sql.compile(PROGRAM)
    live = program.maintain({"Edge": [(1, 2)], "Vote": [(1, 2)]}, engine="duckdb")
    at_outer = snapshot(live)
    outer = live.savepoint()
    live.apply(insert={"Edge": [(2, 3)]})
    inner = live.savepoint()
    innermost = live.savepoint()
    live.apply(insert={"Vote": [(1, 3)]}, delete={"Edge": [(1, 2)]})
    live.release(inner)  # and innermost: their changes now belong to outer's log
    assert live.savepoints == (outer,)
    for token, why in ((inner, "released"), (innermost, "released with savepoint 2")):
        with pytest.raises(InputError, match=f"savepoint {token.number}: it is no longer "
                                             f"open \\({why}\\)"):
            live.rollback_to(token)
    live.apply(insert={"Edge": [(3, 1)]})
    live.rollback_to(outer)
    assert snapshot(live) == at_outer
    live.close()


def test_tokens_of_another_program_or_not_tokens_are_refused():
    program = dl2sql.compile(PROGRAM)
    live = program.maintain({"Edge": [(1, 2)]}, engine="duckdb")
    other = program.maintain({"Edge": [(1, 2)]}, engine="duckdb")
    theirs = other.savepoint()
    with pytest.raises(InputError, match="savepoint 1: it is a savepoint of another maintained"):
        live.rollback_to(theirs)
    with pytest.raises(InputError, match="cannot release 1: not a savepoint"):
        live.release(1)
    assert live.savepoints == () and other.savepoints == (theirs,)
    live.close()
    other.close()


DIVIDES = """
input relation Part(x: u32, y: u32)
output relation Ratio(x: u32, r: u32)
Ratio(x, 100 / y) :- Part(x, y).
output relation Reach(s: u32, d: u32)
Reach(s, d) :- Part(s, d).
Reach(s, d) :- Reach(s, m), Part(m, d).
"""


def test_a_failed_transaction_leaves_the_log_as_it_was():
    program = dl2sql.compile(DIVIDES)
    live = program.maintain({"Part": [(1, 2), (2, 4)]}, engine="duckdb")
    at_start = snapshot(live)
    token = live.savepoint()
    live.apply(insert={"Part": [(4, 5)]})
    logged = dict(live._savepoints.open[0].logged)
    with pytest.raises(RuntimeFailure, match="division by zero"):
        live.apply(insert={"Part": [(5, 0)]}, delete={"Part": [(1, 2)]})
    assert live._savepoints.open[0].logged == logged
    assert {t.name: live.runner.count(t) for t in logged.values()} == {
        "Part__sp1_plus": 1, "Ratio__sp1_plus": 1, "Reach__sp1_plus": 3}
    live.apply(insert={"Part": [(5, 1)]})
    live.rollback_to(token)
    assert snapshot(live) == at_start
    live.close()


def test_a_failed_rollback_leaves_the_relations_and_savepoints_as_they_were(monkeypatch):
    program = dl2sql.compile(PROGRAM)
    live = program.maintain({"Edge": [(1, 2)], "Vote": [(1, 2)]}, engine="duckdb")
    at_start = snapshot(live)
    token = live.savepoint()
    live.apply(insert={"Edge": [(2, 3)], "Vote": [(2, 3)]})
    inner = live.savepoint()
    live.apply(delete={"Edge": [(1, 2)]})
    now = snapshot(live)
    patch = type(live.runner).patch
    patched = []

    def failing(runner, target, plus, minus):
        patched.append(target.name)
        if len(patched) == 3:  # part-way: two relations patched already
            raise RuntimeError("disk full")
        return patch(runner, target, plus, minus)
    monkeypatch.setattr(type(live.runner), "patch", failing)
    with pytest.raises(RuntimeFailure, match="disk full"):
        live.rollback_to(token)
    monkeypatch.undo()
    assert snapshot(live) == now and live.savepoints == (token, inner)
    live.rollback_to(token)
    assert snapshot(live) == at_start
    live.close()


GROWTH = """
input relation Seed(x: bigint)
input relation Limit(n: u32)
output relation Twice(i: u32, x: bigint)
Twice(0, x) :- Seed(x).
Twice(i + 1, x * 1000) :- Twice(i, x), Limit(n), i < n.
"""


def test_the_switch_to_wide_integers_keeps_the_savepoints():
    program = dl2sql.compile(GROWTH)
    live = program.maintain({"Seed": [(1,)], "Limit": [(3,)]}, engine="duckdb")
    assert live.compiled.representation == "narrow"
    at_start = snapshot(live)
    token = live.savepoint()
    live.apply(insert={"Seed": [(7,)]})  # logged narrow
    live.apply(insert={"Limit": [(20,)]})  # 10**60: stored wide from here
    assert live.compiled.representation == "wide" and live.savepoints == (token,)
    undone = sorted((i, int(x), w) for i, x, w in collected(live.rollback_to(token)["Twice"]))
    assert snapshot(live) == at_start
    assert undone[:2] == [(0, 7, -1), (1, 7000, -1)] and len(undone) == 4 + 2 * 17
    live.close()


STREAMS = """
input stream Click(x: u32, y: u32)
output stream Seen(x: u32, y: u32)
Seen(x, y) :- Click(x, y), x != y.
output relation Now(x: u32, y: u32)
Now(x, y) :- Seen'(x, y).
output stream Before(x: u32, y: u32)
Before(x, y) :- Click-1(x, y).
"""


def test_a_stream_is_restored_and_a_rollback_emits_none_of_its_rows():
    program = dl2sql.compile(STREAMS)
    live = program.maintain({"Click": [(1, 2)]}, engine="duckdb")
    live.apply(insert={"Click": [(2, 3), (3, 3)]})
    at_token = snapshot(live)
    token = live.savepoint()
    live.apply(insert={"Click": [(4, 5)]})
    live.apply(insert={})  # the stream empties
    undone = changes(live.rollback_to(token))
    assert snapshot(live) == at_token
    # Seen' (this transaction's rows of Seen, as a relation) as at the savepoint
    assert undone["Now"] == [(2, 3, 1)]
    assert undone["Seen"] == [] and undone["Before"] == []
    # the next transaction goes on from the savepoint: Click-1 is the savepoint's Click
    after = changes(live.apply(insert={"Click": [(6, 7)]}))
    assert after["Seen"] == [(6, 7, 1)] and after["Now"] == [(2, 3, -1), (6, 7, 1)]
    assert after["Before"] == [(2, 3, 1), (3, 3, 1)]
    live.close()


def test_state_the_log_does_not_know_is_refused():
    program = dl2sql.compile(PROGRAM)
    live = program.maintain({"Edge": [(1, 2)]}, engine="duckdb")
    live.updater.state.add("Reach__index")  # what a future method might keep
    with pytest.raises(InputError, match="cannot restore this program's state tables "
                                         "Reach__index"):
        live.savepoint()
    live.close()


# -- property tests ----------------------------------------------------------------------
# what a drawn step is (an example starts with a savepoint and ends with a rollback)
STEPS = ("apply", "savepoint", "apply", "rollback", "apply", "release", "savepoint",
         "rollback")


def _drawn_step(data, schedule, at: int, steps: int, open_count: int) -> str:
    """The step ``at`` of ``steps``: ``schedule``'s, else drawn; a rollback or a
    release with no savepoint open is a savepoint."""
    if schedule is not None:
        step = schedule[at]
    elif at == 0 or at == steps - 1:
        step = "savepoint" if at == 0 else "rollback"
    else:
        step = data.draw(st.sampled_from(STEPS), label="step")
    return step if open_count or step in ("apply", "savepoint") else "savepoint"


def run_sets(data, seed: int, policy: str, steps: int, engine: str, strata: int = 5,
             schedule=None, **connection) -> None:
    """A random program of sets (recursion, negation, group_by) maintained through
    random steps; after each, every relation is what evaluating the program from
    scratch on the inputs as they should be gives, and a rollback's changes are the
    difference."""
    generated = random_programs.generate(seed, strata, None if engine == "duckdb" else False)
    program = dl2sql.compile(generated.text)
    rows, shapes = st.lists(ROW, min_size=3, max_size=12), st.lists(TAGGED_ROW, max_size=6)
    state = {rel: set(data.draw(shapes if rel in generated.tagged else rows,
                                label=f"initial {rel}")) for rel in generated.inputs}
    log = [f"--- engine {engine}, policy {policy!r}\n{generated.text}", f"initial {state}"]
    oracle = Oracle(program)
    live = program.maintain({r: _ordered(rows) for r, rows in state.items()}, engine=engine,
                            choice=POLICIES[policy], **connection)
    opened: list = []  # (token, inputs then)
    try:
        expected = oracle(state)
        for at in range(steps):
            step = _drawn_step(data, schedule, at, steps, len(opened))
            if step == "apply":
                insert, delete = data.draw(transaction(state, generated.tagged),
                                           label="transaction")
                log.append(f"apply(insert={insert!r}, delete={delete!r})")
                live.apply(insert=insert, delete=delete)
                state = {rel: (rows - set(delete.get(rel, ()))) | set(insert.get(rel, ()))
                         for rel, rows in state.items()}
            elif step == "savepoint":
                opened.append((live.savepoint(), state))
                log.append(f"s{len(opened)} = savepoint()")
                continue
            else:
                i = data.draw(st.integers(0, len(opened) - 1), label=step)
                log.append(f"{step}(s{i + 1})")
                if step == "release":
                    live.release(opened[i][0])
                    del opened[i:]
                    continue
                frames = live.rollback_to(opened[i][0])
                state = opened[i][1]
                del opened[i + 1:]
            before, expected = expected, oracle(state)
            for rel, rows in state.items():  # the inputs too
                assert set(live.records(rel)) == {Record(rel, r) for r in rows}, \
                    "\n".join(log + [f"input {rel}"])
            for rel, want in expected.items():
                got = live.records(rel)
                assert len(got) == len(set(got)) and set(got) == want, "\n".join(log + [
                    f"{rel}: missing {want - set(got)}, unexpected {set(got) - want}"])
            if engine == "duckdb":  # the same Python on Spark, where a count is a job
                _check_sizes(live, log)
            if step == "rollback":  # its changes: what the outputs gained and lost
                for rel in program.outputs:
                    assert collected(frames[rel]) is not None  # a frame of each output
                    added, removed = live.change_records(rel)
                    assert (sorted(map(repr, added)), sorted(map(repr, removed))) == (
                        sorted(map(repr, expected[rel] - before[rel])),
                        sorted(map(repr, before[rel] - expected[rel]))), \
                        "\n".join(log + [f"changes of {rel}: +{added} -{removed}"])
    finally:
        live.close()
        oracle.close()
        program.close()


def run_bags(data, seed: int, steps: int, **connection) -> None:
    """A random program of multisets, streams and delays (DuckDB) through random
    steps: after each transaction every relation is what the bag oracle evaluates from
    scratch (its own history of the delayed relations cut back at a rollback), after a
    rollback what it evaluated at the savepoint."""
    generated = random_bag_programs.generate(seed)
    program = dl2sql.compile(generated.text)
    row = st.tuples(st.integers(0, 3), st.integers(0, 3))
    state = {"B": Counter(data.draw(st.lists(row, max_size=8), label="initial B")),
             "S": Counter(data.draw(st.lists(row, max_size=4), label="initial S")),
             "E": Counter(set(data.draw(st.lists(row, max_size=8), label="initial E")))}
    log = [generated.text, f"initial {state}"]
    oracle = BagOracle(program)
    live = program.maintain({r: sorted(c.elements()) for r, c in state.items()},
                            engine="duckdb", **connection)
    opened: list = []  # (token, inputs, expected, length of the oracle's history)
    try:
        expected = oracle(state)
        for at in range(steps):
            step = _drawn_step(data, None, at, steps, len(opened))
            if step == "apply":
                insert, delete = data.draw(bag_transaction(state["B"], set(state["E"])),
                                           label="transaction")
                log.append(f"apply(insert={insert!r}, delete={delete!r})")
                live.apply(insert=insert, delete=delete)
                state = {"B": state["B"] - Counter(delete.get("B", ()))
                         + Counter(insert.get("B", ())),
                         "S": Counter(insert.get("S", ())) - Counter(delete.get("S", ())),
                         "E": Counter((set(state["E"]) - set(delete.get("E", ())))
                                      | set(insert.get("E", ())))}
                expected = oracle(state)
            elif step == "savepoint":
                opened.append((live.savepoint(), state, expected, len(oracle.history)))
                log.append(f"s{len(opened)} = savepoint()")
            elif step == "release":
                i = data.draw(st.integers(0, len(opened) - 1), label=step)
                log.append(f"release(s{i + 1})")
                live.release(opened[i][0])
                del opened[i:]
            else:
                i = data.draw(st.integers(0, len(opened) - 1), label=step)
                log.append(f"rollback(s{i + 1})")
                live.rollback_to(opened[i][0])
                _, state, expected, length = opened[i]
                del oracle.history[length:]
                del opened[i + 1:]
            for rel, want in expected.items():
                got = Counter(live.records(rel))
                assert got == want, "\n".join(log + [f"{rel}: got {got}, want {want}"])
            for rel in ("B", "E"):
                assert Counter(tuple(r.fields) for r in live.records(rel)) == state[rel], \
                    "\n".join(log + [f"input {rel}"])
            assert all(is_bag(live.compiled.relations[r]) or max(Counter(
                live.records(r)).values(), default=1) == 1 for r in expected)
            _check_sizes(live, log)
    finally:
        live.close()
        oracle.close()
        program.close()


def _check_sizes(live, log: list) -> None:
    """The sizes the executor knows (which choose its methods) are the relations'."""
    for rel, n in live.updater.sizes.items():
        if n is not None:
            table = live.updater.plan.relations[rel]
            assert n == live.runner.count(table), "\n".join(log + [f"size of {rel}"])


# no shrinking: a failure's message holds the program and the steps to replay it
@settings(max_examples=examples(6), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31), policy=st.sampled_from(sorted(POLICIES)))
def test_savepoints_match_recomputation_duckdb(data, seed, policy):
    con = duckdb.connect(":memory:")
    try:
        run_sets(data, seed, policy, 10, "duckdb", strata=4, con=con)
    finally:
        con.close()


@settings(max_examples=examples(8), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_savepoints_of_bags_match_recomputation_duckdb(data, seed):
    con = duckdb.connect(":memory:")
    try:
        run_bags(data, seed, 10, con=con)
    finally:
        con.close()


# Spark: one small program through a fixed shape of steps (every step is a few jobs)
@settings(max_examples=examples(1), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31))
def test_savepoints_match_recomputation_spark(spark, data, seed):
    run_sets(data, seed, "default", 6, "spark", strata=2, spark=spark,
             schedule=("savepoint", "apply", "savepoint", "apply", "rollback", "rollback"))


# -- state directories -------------------------------------------------------------------
REACH = """
input relation Edge(s: u32, d: u32)
output relation Reach(s: u32, d: u32)
Reach(s, d) :- Edge(s, d).
Reach(s, d) :- Reach(s, m), Edge(m, d).
"""


def _csv(path: Path) -> list[str]:
    return sorted(path.read_text().splitlines()[1:])


def test_cli_savepoints_of_a_state_directory(tmp_path, capsys):
    program = tmp_path / "reach.dl"
    program.write_text(REACH)
    state, out = tmp_path / "state", tmp_path / "out"
    for name, rows in (("day0", "1,2\n2,3\n"), ("guess", "3,4\n"), ("other", "3,5\n")):
        (tmp_path / name).mkdir()
        kind = "" if name == "day0" else ".insert"
        (tmp_path / name / f"Edge{kind}.csv").write_text("s,d\n" + rows)
    run = ["run", str(program), "--engine", "duckdb", "--state", str(state), "--format",
           "csv", "--quiet"]

    def ok(*args) -> None:
        assert main(run + list(args)) == 0, capsys.readouterr().err
    assert main(run + ["--savepoint", "start"]) == 1
    err = capsys.readouterr().err
    assert "holds no state yet: there is no version for savepoint `start`" in err
    assert "Traceback" not in err
    ok("--input", str(tmp_path / "day0"), "--output", str(out))
    ok("--savepoint", "start")
    ok("--savepoint", "guess", "--input", str(tmp_path / "guess"), "--output", str(out))
    assert _csv(out / "Reach.csv") == ["1,4,1", "2,4,1", "3,4,1"]
    ok("--input", str(tmp_path / "other"), "--output", str(out))
    names = json.loads((state / "savepoints.json").read_text())
    assert [(e["name"], e["version"]) for e in names] == [("start", "v1"), ("guess", "v1")]
    # every named version is kept beside the current one
    assert sorted(p.name for p in state.iterdir()) == ["CURRENT", "savepoints.json", "v1",
                                                       "v3"]
    ok("--rollback-to", "start", "--output", str(out))
    assert _csv(out / "Reach.csv") == ["1,4,-1", "1,5,-1", "2,4,-1", "2,5,-1", "3,4,-1",
                                       "3,5,-1"]
    assert (state / "CURRENT").read_text().strip() == "v1"
    assert [e["name"] for e in json.loads((state / "savepoints.json").read_text())] == [
        "start"]
    assert sorted(p.name for p in state.iterdir()) == ["CURRENT", "savepoints.json", "v1"]
    ok("--input", str(tmp_path / "other"), "--output", str(out))  # goes on from v1
    assert _csv(out / "Reach.csv") == ["1,5,1", "2,5,1", "3,5,1"]
    assert (state / "CURRENT").read_text().strip() == "v2"  # v2 and v3 went at the rollback
    assert main(run + ["--rollback-to", "guess", "--output", str(out)]) == 1
    assert "has no savepoint `guess` (its savepoints: `start`)" in capsys.readouterr().err
    ok("--release", "start")
    assert sorted(p.name for p in state.iterdir()) == ["CURRENT", "savepoints.json", "v2"]
    assert main(run + ["--rollback-to", "start", "--output", str(out)]) == 1
    err = capsys.readouterr().err
    assert "has no savepoint `start` (its savepoints: none)" in err and "Traceback" not in err


@pytest.mark.parametrize("args, message", [
    (["--savepoint", "x"], "argument --savepoint: needs --state DIR"),
    (["--state", "s", "--rollback-to", "x", "--input", "i", "--output", "o"],
     "argument --rollback-to: not allowed with --input"),
    (["--state", "s", "--rollback-to", "x"], "the following arguments are required: --output"),
    (["--state", "s", "--release", "x", "--output", "o"],
     "argument --release: not allowed with --output"),
    (["--state", "s", "--savepoint", "x", "--release", "y"],
     "argument --release: not allowed with argument --savepoint"),
    (["--state", "s", "--savepoint", "x", "--input", "i"],
     "the following arguments are required: --output"),
])
def test_cli_savepoint_flags_are_checked(args, message, capsys):
    with pytest.raises(SystemExit) as done:
        main(["run", "prog.dl"] + args)
    assert done.value.code == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_savepoints_of_a_state_at_a_hadoop_url(spark, tmp_path):
    url = (tmp_path / "state").as_uri()  # file:///...: through Hadoop's file systems
    program = dl2sql.compile(REACH)
    live = program.maintain(spark=spark, inputs={"Edge": [(1, 2)]})
    live.save(url)
    store = store_for(url, spark)
    store.set_savepoints([("start", "v1")])
    live.apply(insert={"Edge": [(2, 3)]})
    live.save(url)  # v2: v1 is named, so kept
    live.close()
    def listed() -> list[str]:  # Hadoop's local file system writes .crc files beside
        return sorted(p.name for p in (tmp_path / "state").iterdir()
                      if not p.name.startswith("."))
    assert listed() == ["savepoints.json", "v1", "v2"]
    assert store.restore("v1") == "v3"  # the highest version is the current one: a copy
    store.prune()  # v2 is neither current nor named
    assert listed() == ["savepoints.json", "v1", "v3"]
    assert store.savepoints() == [("start", "v1")]
    again = program.maintain(spark=spark, state=url)
    assert sorted_rows(again.contents("Reach")) == [(1, 2)]
    again.close()
