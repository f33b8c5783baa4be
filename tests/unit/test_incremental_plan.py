"""The update plan's rule variants and methods, without running them."""
from __future__ import annotations

from dl2sql.compiler import compile_source
from dl2sql.incremental.variants import (deletion_seeds, deletion_steps, insertion_seeds,
                                         insertion_steps, key_of)
from dl2sql.types import typed as T

SOURCE = """
input relation E(a: u32, b: u32)
input relation F(a: u32)
output relation P(a: u32, b: u32)
P(a, b) :- E(a, b).
P(a, c) :- P(a, b), E(b, c), not F(c).
output relation N(n: u64)
N(n) :- P(a, b), var n = a.group_by(()).count_distinct().
input relation U(id: u32, name: string) primary key (u) u.id
"""


def _program():
    return compile_source(SOURCE, "<test>")


def test_methods_follow_the_kind_of_stratum():
    plan = _program().update_for("duckdb")
    methods = {s.name: s.method for s in plan.strata}
    assert methods["E"] == methods["F"] == methods["U"] == "input"
    assert methods["P"] == "dred"
    assert methods["N"] == "rules"
    assert "group" in methods.values()
    reads = {s.name: s.reads for s in plan.strata}
    assert reads["P"] == ("E", "F")
    assert set(plan.changes["U"]) == {"insert", "delete", "insert_or_update", "delete_key"}
    assert set(plan.changes["E"]) == {"insert", "delete"}


def test_variants_read_one_change_each():
    p = _program()
    recursive = [b for b in p.blocks["P"] if any(s.relation == "P" for s in b.sources)][0]
    members = frozenset({"P"})
    seeds = deletion_seeds(recursive, members)
    # E's removed rows, and F's added rows turning the negation into a join
    assert [part.needs for part in seeds] == [("E__minus",), ("F__plus",)]
    assert all(not part.query.block.antijoins for part in seeds)
    assert [s.version for s in seeds[1].query.block.sources] == ["full", "wide", "plus"]
    assert [part.needs for part in deletion_steps(recursive, members)] == [("P__ddelta",)]
    inserted = insertion_seeds(recursive, members)
    assert [part.needs for part in inserted] == [("E__plus",), ("F__minus",)]
    # a row removed from F makes derivations that F's new state must still allow
    assert len(inserted[1].query.block.antijoins) == 1
    assert [part.needs for part in insertion_steps(recursive, members)] == [("P__idelta",)]


def test_a_primary_key_over_a_flat_record_is_its_column():
    p = _program()
    info = p.relations["U"]
    key = key_of(info.key, p.layouts["U"], "s")
    assert key == T.TCol(info.key_type, "s", "id")


def test_recursion_through_group_by_is_recomputed_by_its_naive_loop():
    from dl2sql.plan.nodes import Loop

    program = compile_source("""
input relation Tag(n: u32, t: u32)
input relation Edge(c: u32, p: u32)
output relation Span(n: u32, ts: Set<u32>)
Span(n, ts) :- Tag(n, t), var ts = t.group_by(n).to_set().
Span(p, ts) :- Edge(c, p), Span(c, s), var ts = s.group_by(p).union().
""", "<test>")
    (update,) = [s for s in program.update_for("duckdb").strata if "Span" in s.relations]
    assert update.method == "recompute (recursive aggregation)"
    assert update.statements == () and update.reads == ("Edge", "Span__group1")
    (loop,) = [s for s in update.recompute if isinstance(s, Loop)]
    assert loop.until_empty == ("Span__changed",)
    # the changes of every relation of the stratum, helpers too, against the old state
    # (both found in one table of rows added or removed, R__changes)
    assert {s.target.name for s in update.diff} == {
        f"{r}__{v}" for r in ("Span", "Span__group2", "Span__group2_rows")
        for v in ("plus", "minus", "changes")}


COUNTED = """
import group
input relation E(a: u32, b: u32)
output relation Count(a: u32, n: u64)
Count(a, n) :- E(a, b), var n = b.group_by(a).count_distinct().
output relation Big(a: u32)
Big(a) :- E(a, b), var g = b.group_by(a), g.count_distinct() > 1, g.max() > 5.
output relation Closure(a: u32, b: u32)
Closure(a, b) :- E(a, b).
Closure(a, c) :- Closure(a, b), E(b, c).
output relation Mapped(b: u32, a: u32)
Mapped(b, a) :- E(a, b).
output relation Projected(a: u32)
Projected(a) :- E(a, _).
output relation Acyclic(b: u32, a: u32)
Acyclic(b, a) :- E(a, b), not Closure(b, a).
"""


def test_methods_of_counted_groups_closures_and_one_derivation_rules():
    from dl2sql.plan.nodes import Materialize
    p = compile_source(COUNTED, "<test>")
    groups = {s.relations[0]: b.aggregate for s in p.strata for b in p.blocks.get(
        s.relations[0], []) if hasattr(b, "aggregate")}
    # only counted: COUNT(*); a group also read by max(): its count and max
    # (dl2sql.passes.group_counts.summarized)
    assert sorted(groups.values(), key=str) == [("count", "max"), "count"]
    plan = p.update_for("duckdb")
    methods = {s.name: s for s in plan.strata}
    assert methods["Closure"].method == "closure"
    counted = next(s for n, s in methods.items() if groups.get(n) == "count")
    fresh = next(st for st in counted.statements if isinstance(st, Materialize)
                 and st.target.name.endswith("__fresh"))
    # the counts before, plus one per added row and minus one per removed row
    assert "SUM(" in fresh.query.node.sql(dialect="duckdb")
    # Mapped keeps every column of E: its changes are E's, with no rederivation;
    # Projected drops one: a row may keep another derivation
    # (a statement the driver may make instead stands in a VariantsOnDriver)
    made = {s.name: {st.target.name for st in (getattr(x, "statement", x) for x in s.statements)
                     if isinstance(st, Materialize)} for s in plan.strata}
    assert made["Mapped"] == {"Mapped__plus", "Mapped__minus"}
    assert "Projected__redo" in made["Projected"]
    # a negation takes rows away but adds no derivation: still none to look for
    assert made["Acyclic"] == {"Acyclic__plus", "Acyclic__minus"}
