"""Incremental maintenance agrees with evaluation from scratch, on random stratified
programs (recursion, negation, aggregation: tests/property/random_programs.py) and
random sequences of transactions.

After every transaction each non-input relation (outputs and internal ones) holds
exactly what evaluating the program from scratch on the current inputs gives, and the
change records of each output are the difference between the results before and
after. The oracle is a fresh evaluation on DuckDB for both engines.

Each program is maintained under one of four policies (drawn per example): the
default one, which recomputes strata when a transaction is large compared with the
(small) relations here; one that never recomputes, so that the delta rules,
touched-group recomputation and delete-and-rederive all run; and one that gives up
over-deletion at once, so that its undo and the recompute fallback run (recomputing a
recursive stratum with its levels, which the transactions after maintain by levels);
and one that maintains recursive strata by levels from the first transaction.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import dl2sql
from dl2sql.api.evaluate import Evaluator
from dl2sql.incremental.execute import Choice
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.values import Record
from random_programs import DOMAIN, TAGS, generate, self_test
from profiles import examples

# the recursion limit changes during examples (dl2sql raises it for its UDFs; on Spark,
# pyspark's first error-capturing call imports IPython, whose jedi lowers it to 3000):
# hypothesis warns that it cannot reset it, which is harmless here
pytestmark = pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")

POLICIES = {
    "default": Choice(),
    "never recompute": Choice.never(),
    "give up over-deletion": Choice(recompute_share=None, overdelete_share=0.0, backoff=0),
    # recursive strata by derivation levels from the start, never recomputed
    "levels": Choice(None, None, None, 0, None, levels="eager"),
}
VALUE = st.integers(0, DOMAIN - 1)
ROW = st.tuples(VALUE, VALUE)
# a row of a tagged input (random_programs.TAGGED): a u32 and a Shape
SHAPE = st.one_of(st.builds(lambda t, r: Record("Tag", (t, r)), st.sampled_from(TAGS), VALUE),
                  st.builds(lambda p: Record("Pt", (p,)), VALUE))
TAGGED_ROW = st.tuples(VALUE, SHAPE)
# derandomize: CI runs the same examples every time; no database: nothing is written
@dataclass
class History:
    """What a failure report needs to replay a run: the program, the policy, the
    initial inputs and the transactions applied so far."""

    text: str
    policy: str
    engine: str
    initial: dict
    transactions: list = field(default_factory=list)

    def report(self, problem: str) -> str:
        """A failure message: the problem, then a Python script replaying the run up
        to the failing transaction (on DuckDB; a Spark run passes ``spark=``)."""
        choice = repr(POLICIES[self.policy]).replace("inf", "float('inf')")
        steps = "".join(f"live.apply(insert={ins!r}, delete={dels!r})\n"
                        for ins, dels in self.transactions)
        return (f"{problem}\n--- engine {self.engine}, policy {self.policy!r}; replay:\n"
                f"import dl2sql\nfrom dl2sql.incremental.execute import Choice\n"
                f"from dl2sql.runtime.values import Record\n"
                f'program = dl2sql.compile("""\\\n{self.text}""")\n'
                f"live = program.maintain({self.initial!r}, engine='duckdb', "
                f"choice={choice})\n{steps}"
                f"# then compare set(live.records(R)) with a run from scratch")


def _sorted(values) -> list:
    """DDlog values in a stable order for messages (Records do not compare)."""
    return sorted(values, key=repr)


def _ordered(rows) -> list:
    """Input rows in a stable order (by repr where they hold Records, which do not
    compare)."""
    try:
        return sorted(rows)
    except TypeError:
        return sorted(rows, key=repr)


def _diff(what: str, got: set, expected: set) -> str:
    return (f"{what}: missing {_sorted(expected - got)}, "
            f"unexpected {_sorted(got - expected)}"
            f"\n  (expected {_sorted(expected)})")


class Oracle:
    """Evaluation from scratch on DuckDB, one connection per program."""

    def __init__(self, program):
        self.con = duckdb.connect(":memory:")  # ours to close: the runner leaves it open
        self.evaluator = Evaluator(program.compiled, DuckDBRunner(self.con),
                                   externs=program.extern)

    def __call__(self, state: dict[str, set]) -> dict[str, set]:
        """Every non-input relation, as sets of DDlog values, for input contents
        ``state`` (relation -> set of tuples)."""
        return self.evaluator.evaluate(
            {rel: {Record(rel, row) for row in rows} for rel, rows in state.items()})

    def close(self) -> None:
        """Free the oracle's database."""
        self.con.close()


def _check_contents(live, expected: dict, history: History) -> None:
    """Every non-input relation of ``live`` equals the oracle's, without duplicates."""
    for rel, want in expected.items():
        got = live.records(rel)
        assert len(got) == len(set(got)), history.report(
            f"{rel} holds duplicate rows: {_sorted(got)}")
        methods = f" (methods {live.last.methods})" if live.last else " (initially)"
        assert set(got) == want, history.report(
            _diff(f"contents of {rel}{methods}", set(got), want))


def _check_changes(live, outputs, before: dict, after: dict, history: History) -> None:
    """The change records of every output are the difference of the oracle's results
    before and after the transaction."""
    for rel in outputs:
        added, removed = live.change_records(rel)
        for name, got, want in (("added", added, after[rel] - before[rel]),
                                ("removed", removed, before[rel] - after[rel])):
            assert len(got) == len(set(got)), history.report(
                f"rows {name} to {rel} listed twice: {_sorted(got)}")
            what = f"rows {name} to {rel} (methods {live.last.methods})"
            assert set(got) == want, history.report(_diff(what, set(got), want))


@st.composite
def transaction(draw, state: dict[str, set], tagged=()):
    """Inserted and deleted rows per input relation (those of ``tagged`` hold Shapes):
    inserts may be present already;
    deletes are mostly present rows (now and then all of them), sometimes absent ones;
    a row may be both deleted and inserted (deletion first: it ends present); a
    relation may be left out or given empty lists."""
    insert, delete = {}, {}
    for rel, rows in state.items():
        if draw(st.integers(0, 4)) == 0:
            continue  # this relation untouched by the transaction
        row = TAGGED_ROW if rel in tagged else ROW
        ins = draw(st.lists(row, max_size=4))
        present = _ordered(rows)
        if present and draw(st.integers(0, 9)) == 0:
            dels = list(present)  # everything: the relation empties (or nearly)
        elif present:
            dels = draw(st.lists(st.sampled_from(present), max_size=4, unique=True))
        else:
            dels = []
        dels += draw(st.lists(row, max_size=1))  # quite likely absent
        if ins and draw(st.integers(0, 3)) == 0:
            dels.append(ins[0])
        if present and draw(st.integers(0, 4)) == 0:
            ins.append(draw(st.sampled_from(present)))  # an insert of a present row
        insert[rel], delete[rel] = ins, dels
    return insert, delete


def run_property(data, seed: int, policy: str, transactions: int, engine: str,
                 strata: int = 6, tagged: bool | None = None, **connection) -> int:
    """Maintain the program of ``seed`` (at most ``strata`` derived strata; ``tagged``
    as :func:`random_programs.generate` takes it) on ``engine`` through
    ``transactions`` random transactions, checking it against the oracle after each;
    the number checked."""
    generated = generate(seed, strata, tagged)
    program = dl2sql.compile(generated.text)
    rows = st.lists(ROW, min_size=4, max_size=15)
    # a tagged input starts empty half of the time: its first stored piece is then
    # not a table of literals (on Spark, made from its declared schema)
    shapes = st.one_of(st.just([]), st.lists(TAGGED_ROW, min_size=1, max_size=8))
    state = {rel: set(data.draw(shapes if rel in generated.tagged else rows,
                                label=f"initial {rel}"))
             for rel in generated.inputs}
    history = History(generated.text, policy, engine,
                      {rel: _ordered(rows) for rel, rows in state.items()})
    oracle, live = Oracle(program), None
    try:
        try:
            live = program.maintain(history.initial, engine=engine,
                                    choice=POLICIES[policy], **connection)
        except Exception as e:  # an engine error is a finding too: report it replayable
            raise AssertionError(history.report(f"initial evaluation failed: {e!r}")) from e
        before = oracle(state)
        _check_contents(live, before, history)
        for _ in range(transactions):
            insert, delete = data.draw(transaction(state, generated.tagged),
                                       label="transaction")
            history.transactions.append((insert, delete))
            try:
                live.apply(insert=insert, delete=delete)
            except Exception as e:
                raise AssertionError(history.report(f"transaction failed: {e!r}")) from e
            state = {rel: (rows - set(delete.get(rel, ()))) | set(insert.get(rel, ()))
                     for rel, rows in state.items()}  # deletions first, then insertions
            after = oracle(state)
            _check_contents(live, after, history)
            _check_changes(live, program.outputs, before, after, history)
            before = after
    finally:
        if live is not None:
            live.close()
        oracle.close()
        program.close()
    return transactions


def test_generator_compiles_and_covers_every_construct():
    """The generator's self-test: 200 seeds (and 100 of the smaller, tagged Spark
    programs) compile, and between them have every kind of stratum, negation and
    filters, and matches on a tagged union feeding a negation."""
    assert self_test(200) == []
    assert self_test(100, strata=3, tagged=True) == []
    programs = [generate(seed) for seed in range(200)]
    kinds = {k for g in programs for k in g.kinds}
    assert kinds == {"plain", "linear", "nonlinear", "mutual", "aggregate", "matched"}
    text = "".join(g.text for g in programs)
    for construct in ("not ", "group_by(())", "count_distinct", " < ", " != ", "% 8",
                      "input relation F", "input relation T", "var v = match (s)"):
        assert construct in text, construct


@settings(max_examples=examples(40))
@given(data=st.data(), seed=st.integers(0, 2**31), policy=st.sampled_from(sorted(POLICIES)))
def test_incremental_matches_recomputation_duckdb(data, seed, policy):
    con = duckdb.connect(":memory:")
    try:
        run_property(data, seed, policy, 6, "duckdb", con=con)
    finally:
        con.close()


# smaller programs and no shrinking on Spark, where every statement is a job: a
# failure's message holds all that is needed to replay it (on DuckDB too). Every
# program is tagged: a semi or anti join on the nested fields of a table stored in
# pieces is where Spark's plans went wrong (dl2sql.runner.spark_types.relaxed). Its
# last stratum has four relations more, so at most three strata before it, to keep
# the examples short. (With four, a transaction's one job filling all its lazy
# checkpoints once ran out of task memory in the test session; a transaction now
# fills them whenever spark_runner.FILL_EVERY wait; sixteen programs of up to six
# strata passed, ten before that change and six after, and the failure was never
# reproduced)
# (Not by levels, opted in and covered on DuckDB and by tests/test_levels.py on Spark:
# its loops' rounds are several jobs each, 7 s a round here.)
SPARK_POLICIES = sorted(p for p in POLICIES if p != "levels")


@settings(max_examples=examples(4), phases=(Phase.explicit, Phase.generate))
@given(data=st.data(), seed=st.integers(0, 2**31), policy=st.sampled_from(SPARK_POLICIES))
def test_incremental_matches_recomputation_spark(spark, data, seed, policy):
    run_property(data, seed, policy, 4, "spark", strata=3, tagged=True, spark=spark)
