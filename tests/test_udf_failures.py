"""Python UDFs (DDlog functions run by dl2sql's interpreter, extern functions) on both
engines: deep recursion works in Spark's workers as on the driver (the Spark-only
failure of a Collatz-style function in a later transaction), and an exception raised
in a worker reaches the user with its Python type and message, the DDlog function and
the rule that called it — the same message on both engines."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.api.replaying import replay_program
from engines import maintain_on, run_on, sorted_rows

PROGRAM = """
function collatz(n: u64): u64 {
    if (n == 1) { 0 } else if (n % 2 == 0) { 1 + collatz(n / 2) } else { 1 + collatz(3 * n + 1) }
}
function deep(n: u64): u64 { if (n == 0) { 0 } else { 1 + deep(n - 1) } }
extern function score(name: string): u32
input relation N(n: u64)
output relation Steps(n: u64, s: u64)
Steps(n, collatz(n)) :- N(n).
input relation D(n: u64)
output relation Deep(n: u64, d: u64)
Deep(n, deep(n)) :- D(n).
input relation W(w: string)
output relation S(w: string, s: u32)
S(w, score(w)) :- W(w).
"""


def _score(name: str) -> int:
    if name == "bad":
        raise ValueError(f"cannot score {name!r}")
    return len(name)


def test_deep_recursion_in_a_later_transaction(engine):
    # 27 needs 111 levels, 837799 needs 524: past Python's default limit of 1000
    # frames, which a Spark worker had (the driver raises its own)
    program = dl2sql.compile(PROGRAM, extern={"score": _score}).compiled
    commands = ("start; insert N(27); commit dump_changes;\n"
                "start; insert N(837799); commit dump_changes;\n")
    code, out, err = replay_program(program, engine, commands, externs={"score": _score})
    assert (code, err) == (0, "")
    assert out.endswith("Steps:\nSteps{.n = 837799, .s = 524}: +1\n")


@pytest.mark.parametrize("inputs,message", [
    ({"W": [("ok",), ("bad",)]},
     "function `score` in the rule at <source>:15:1 raised ValueError: cannot score 'bad'"),
    ({"D": [(100_000,)]},
     "function `deep` in the rule at <source>:12:1 raised RecursionError: the recursion "
     "is deeper than 20000 Python frames"),
], ids=["extern", "too-deep"])
def test_worker_exceptions_name_type_message_function_and_rule(engine, inputs, message):
    program = dl2sql.compile(PROGRAM, extern={"score": _score})
    with pytest.raises(RuntimeFailure) as info:
        run_on(program, engine, inputs)
    assert str(info.value) == message


CONSTANT = """
function inverse(n: u32): u32 { if (n > 100) { 1 / (n - n) } else { inverse(n + 1) } }
relation Bad(n: u32)
Bad(0).
Bad(inverse(n)) :- Bad(n), n < 3.
input relation I(n: u32)
output relation O(n: u32)
O(n) :- I(n), Bad(n).
"""


def test_a_function_failing_in_a_constant_fails_the_run_with_its_message(engine):
    # `Bad` reads no input: Spark evaluates it when its plan is made (on the oracle,
    # dl2sql.plan.constants) and the load raises that failure; DuckDB loops
    program = dl2sql.compile(CONSTANT)
    with pytest.raises(RuntimeFailure) as info:
        run_on(program, engine, {"I": [(1,)]})
    assert str(info.value) == \
        "function `inverse` in the rule at <source>:5:1: division by zero"


def test_a_function_failing_in_a_transaction_fails_that_transaction(engine):
    # `S`'s new rows are stored uncounted: on Spark the job that computes them is the
    # one that ends the transaction, still inside it
    program = dl2sql.compile(PROGRAM, extern={"score": _score})
    live = maintain_on(program, engine, {"W": [("ok",)]})
    with pytest.raises(RuntimeFailure, match="cannot score 'bad'"):
        live.apply(insert={"W": [("fine",), ("bad",)]})
    assert sorted_rows(live.contents("S")) == [("ok", 2)]
    assert sorted_rows(live.contents("W")) == [("ok",)]
    changes = live.apply(insert={"W": [("fine",)]})
    assert sorted_rows(changes["S"]) == [("fine", 4, 1)]
    assert sorted_rows(live.contents("S")) == [("fine", 4), ("ok", 2)]
