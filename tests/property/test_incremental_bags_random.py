"""Incremental maintenance of streams, multisets and delayed relations agrees with
evaluation from scratch, on random programs (tests/property/random_bag_programs.py:
multisets, streams, groups over them that read weights, ``R-N``, DDlog's fold of a
stream) and random sequences of transactions.

After every transaction each non-input relation holds exactly what evaluating the
program from scratch gives (as a multiset: a row once per unit of weight), where the
oracle's inputs are what DDlog's would be: the multiset's copies, the stream's rows of
this transaction only, and for each ``R-N`` the oracle's own ``R`` of N transactions
ago (the first evaluation counts as a transaction). The changes of every output
(``Maintained.changes``) are what DDlog prints: a set's rows added and removed, a
multiset's change of weight, a stream's rows with their weights. The oracle is a fresh
evaluation on DuckDB for both engines.
"""
from __future__ import annotations

from collections import Counter

import duckdb
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import dl2sql
from dl2sql.api.evaluate import Evaluator
from dl2sql.incremental.execute import Choice
from dl2sql.passes.bags import is_bag
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.values import Record
from random_bag_programs import DOMAIN, INPUTS, generate, self_test
from profiles import examples

pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

POLICIES = {"default": Choice(), "never recompute": Choice.never()}
ROW = st.tuples(st.integers(0, DOMAIN - 1), st.integers(0, DOMAIN - 1))
class Oracle:
    """Evaluation from scratch on DuckDB, transaction by transaction: it keeps the
    contents of the relations read delayed."""

    def __init__(self, program):
        self.con = duckdb.connect(":memory:")
        self.program = program.compiled
        self.evaluator = Evaluator(self.program, DuckDBRunner(self.con), externs=program.extern)
        self.history: list[dict] = []

    def __call__(self, inputs: dict[str, Counter]) -> dict[str, Counter]:
        """Every non-input relation as a Counter of rows, for input contents
        ``inputs`` (relation -> Counter of tuples)."""
        given = {rel: [Record(rel, row) for row in rows.elements()]
                 for rel, rows in inputs.items()}
        for name, d in self.program.delayed.items():
            past = self.history[-d.delay] if len(self.history) >= d.delay else {}
            given[name] = list(past.get(d.relation, Counter()).elements())
        result = self.evaluator.evaluate(given)
        out = {rel: Counter(values) for rel, values in result.items()}
        self.history.append({**out, **{rel: Counter(given[rel]) for rel in inputs}})
        return {rel: c for rel, c in out.items() if rel not in INPUTS}

    def close(self) -> None:
        """Free the oracle's database."""
        self.con.close()


@st.composite
def transaction(draw, multiset: Counter, edges: set):
    """Inserted and deleted rows per input: copies of the multiset's rows (present or
    not, sometimes more than it holds), the stream's rows (a few deleted again), the
    set's rows."""
    insert, delete = {}, {}
    present = sorted(multiset)
    insert["B"] = draw(st.lists(ROW, max_size=4))
    delete["B"] = (draw(st.lists(st.sampled_from(present), max_size=4)) if present else [])
    delete["B"] += draw(st.lists(ROW, max_size=1))
    insert["S"] = draw(st.lists(ROW, max_size=4))
    delete["S"] = draw(st.lists(st.sampled_from(insert["S"]), max_size=1)) \
        if insert["S"] else []
    insert["E"] = draw(st.lists(ROW, max_size=3))
    delete["E"] = draw(st.lists(st.sampled_from(sorted(edges)), max_size=2, unique=True)) \
        if edges else []
    for rel in INPUTS:
        if draw(st.integers(0, 3)) == 0:
            insert.pop(rel), delete.pop(rel)  # this input untouched
    return insert, delete


def _expected_changes(kind: str, before: Counter, after: Counter) -> list:
    """An output's changes as DDlog prints them: (x, y, weight) rows."""
    if kind == "stream":
        return sorted((*row.fields, w) for row, w in after.items())
    if kind == "relation":
        old, new = set(before), set(after)
        return sorted([(*r.fields, 1) for r in new - old] + [(*r.fields, -1) for r in old - new])
    rows = set(before) | set(after)
    return sorted((*r.fields, after[r] - before[r]) for r in rows if after[r] != before[r])


def run_bags(data, seed: int, policy: str, transactions: int, engine: str, strata: int = 5,
             **connection) -> int:
    """Maintain the program of ``seed`` through random transactions on ``engine``,
    checking it against the oracle after each; the number checked."""
    generated = generate(seed, strata)
    program = dl2sql.compile(generated.text)
    kinds = {r.name: r.kind for r in generated.relations}
    state = {"B": Counter(data.draw(st.lists(ROW, max_size=8), label="initial B")),
             "S": Counter(data.draw(st.lists(ROW, max_size=4), label="initial S")),
             "E": Counter(set(data.draw(st.lists(ROW, max_size=8), label="initial E")))}
    log = [f"--- engine {engine}, policy {policy!r}\n{generated.text}",
           f"initial {({r: sorted(c.elements()) for r, c in state.items()})}"]
    oracle = Oracle(program)
    live = program.maintain({r: sorted(c.elements()) for r, c in state.items()},
                            engine=engine, choice=POLICIES[policy], **connection)
    try:
        before = oracle(state)
        _check(live, before, log)
        for _ in range(transactions):
            insert, delete = data.draw(transaction(state["B"], set(state["E"])),
                                       label="transaction")
            log.append(f"apply(insert={insert!r}, delete={delete!r})")
            changes = live.apply(insert=insert, delete=delete)
            state = {"B": state["B"] - Counter(delete.get("B", ())) + Counter(insert.get("B", ())),
                     "S": Counter(insert.get("S", ())) - Counter(delete.get("S", ())),
                     "E": Counter((set(state["E"]) - set(delete.get("E", ())))
                                  | set(insert.get("E", ())))}
            after = oracle(state)
            _check(live, after, log)
            for rel in program.outputs:
                got = sorted(tuple(r) for r in _collected(changes[rel]))
                want = _expected_changes(kinds[rel], before[rel], after[rel])
                assert got == want, "\n".join(log + [
                    f"changes of {rel} (methods {live.last.methods}): got {got}, want {want}"])
            before = after
    finally:
        live.close()
        oracle.close()
        program.close()
    return transactions


def _check(live, expected: dict, log: list) -> None:
    for rel, want in expected.items():
        got = Counter(live.records(rel))
        if not is_bag(live.compiled.relations[rel]):
            assert max(got.values(), default=1) == 1, "\n".join(log + [
                f"{rel} holds duplicates: {got}"])
        methods = live.last.methods if live.last else "initially"
        assert got == want, "\n".join(log + [
            f"contents of {rel} ({methods}): missing {sorted(map(repr, (want - got).elements()))}"
            f", unexpected {sorted(map(repr, (got - want).elements()))}"])


def _collected(frame) -> list:
    return frame.collect() if hasattr(frame, "collect") else frame.fetchall()


def test_generator_compiles_and_covers_every_construct():
    """200 seeds compile, and between them have every kind of stratum."""
    assert self_test(200) == []
    kinds = {k for seed in range(200) for k in generate(seed).kinds}
    assert kinds == {"multiset", "stream", "set", "group", "delay", "fold"}
    text = "".join(generate(seed).text for seed in range(200))
    for construct in ("not ", "'(x, y)", "-2(x, y)", "wcount()", "output stream G"):
        assert construct in text, construct


# no shrinking: a failure's message holds the program and transactions to replay it
@settings(max_examples=examples(40), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31), policy=st.sampled_from(sorted(POLICIES)))
def test_bags_maintained_match_recomputation_duckdb(data, seed, policy):
    con = duckdb.connect(":memory:")
    try:
        run_bags(data, seed, policy, 5, "duckdb", con=con)
    finally:
        con.close()


@settings(max_examples=examples(3), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31), policy=st.sampled_from(sorted(POLICIES)))
def test_bags_maintained_match_recomputation_spark(spark, data, seed, policy):
    run_bags(data, seed, policy, 3, "spark", strata=4, spark=spark)
