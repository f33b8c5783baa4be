"""Where a transformer's outputs are evaluated: one stratum after all its inputs (those
derived by rules included), before the rules that read them; the plan runs it as one
statement, and the update plan recomputes it."""
from __future__ import annotations

from dl2sql.compiler import compile_source
from dl2sql.plan.nodes import Transform

PROGRAM = """
input relation A(x: u32)
relation B(x: u32)
B(x) :- A(x).
B(x + 1) :- A(x).
extern transformer Split(In: relation[B], Other: relation[A])
    -> (Low: relation[B], High: relation[B])
relation L[B]
relation H[B]
apply Split(B, A) -> (L, H)
output relation Both(x: u32)
Both(x) :- L[B{x}], H[B{x}].
"""


def test_outputs_form_one_stratum_between_inputs_and_readers():
    p = compile_source(PROGRAM)
    order = [s.relations for s in p.strata]
    at = order.index(("L", "H"))
    assert order.index(("B",)) < at < order.index(("Both",))
    assert p.strata[at].transform.transformer == "Split"
    assert not p.strata[at].recursive and p.strata[at].rules == ()
    assert ("L",) not in order and ("H",) not in order


def test_the_plan_runs_it_once_and_the_update_plan_recomputes_it():
    p = compile_source(PROGRAM)
    plan = p.plan_for("duckdb")
    transforms = [s for s in plan.statements if isinstance(s, Transform)]
    assert len(transforms) == 1
    t = transforms[0]
    assert [x.name for x in t.inputs] == ["B", "A"] and [x.name for x in t.outputs] == ["L", "H"]
    assert t.origin.endswith(":10:1")
    stratum = next(s for s in p.update_for("duckdb").strata if s.relations == ("L", "H"))
    assert stratum.method == "recompute" and stratum.statements == ()
    assert set(stratum.reads) == {"A", "B"}
    assert [type(x) for x in stratum.recompute] == [Transform]
