"""The update plan of streams, multisets and delayed relations, without running it:
methods per stratum, the variants of a multiset's rules and their SQL, and the history
kept for ``R-N``."""
from __future__ import annotations

from dl2sql.compiler import compile_source
from dl2sql.incremental.bag_nodes import BagPatch, Replace, history_name
from dl2sql.plan.nodes import Materialize

SOURCE = """
import group
input multiset Sale(item: u32, qty: u32)
input relation Shelf(item: u32, aisle: u32)
input stream Scan(item: u32)
output multiset SaleAisle(aisle: u32, qty: u32)
SaleAisle(a, q) :- Sale(i, q), Shelf(i, a), not Shelf(q, _).
output stream Scanned(item: u32, aisle: u32)
Scanned(i, a) :- Scan(i), Shelf(i, a).
output relation Total(aisle: u32, n: u32)
Total(a, n) :- SaleAisle(a, q), var n = q.group_by(a).max().
output relation Before(aisle: u32, qty: u32)
Before(a, q) :- SaleAisle-2(a, q).
"""


def _plan(dialect: str = "duckdb"):
    return compile_source(SOURCE, "<test>").update_for(dialect)


def test_methods_follow_the_kind_of_each_relation():
    plan = _plan()
    methods = {s.name: s.method for s in plan.strata}
    assert methods["Sale"] == methods["Scan"] == methods["Shelf"] == "input"
    assert methods["SaleAisle"] == "weights"
    assert methods["Scanned"] == "stream"
    assert methods["SaleAisle__prev2"] == "delayed"
    assert methods["Total"] == "rules"  # a set, read from a group over a multiset
    assert plan.bags.bags >= {"Sale", "Scan", "SaleAisle", "Scanned"}
    assert plan.bags.stream_inputs == {"Scan"}
    delayed = next(s for s in plan.strata if s.name == "SaleAisle__prev2")
    assert delayed.reads == (history_name("SaleAisle", 2),)


def test_a_multiset_keeps_copies_and_patches_them():
    plan = _plan()
    stratum = next(s for s in plan.strata if s.name == "SaleAisle")
    made = {s.target.name: s for s in stratum.statements if isinstance(s, Materialize)}
    # two positive sources: a variant over each one's added and removed copies, and
    # the rows a change of Shelf (negated) may switch, counted again
    assert set(made) == {"SaleAisle__flip", "SaleAisle__wplus", "SaleAisle__wminus",
                         "SaleAisle__plus", "SaleAisle__minus"}
    wplus = made["SaleAisle__wplus"].query
    sql = wplus.choose(set()).sql(dialect="duckdb")
    assert "DISTINCT" not in sql  # one row per derivation
    # the source after the changed one is read as the transaction found it, or
    # stored where the transaction did not change it
    assert '"Shelf" EXCEPT ALL SELECT * FROM "Shelf__plus"' in sql
    unchanged = wplus.choose({"Shelf__plus", "Shelf__minus"}).sql(dialect="duckdb")
    assert "Shelf__plus" not in unchanged and "EXCEPT ALL" not in unchanged
    net = made["SaleAisle__plus"].query.choose(set()).sql(dialect="duckdb")
    assert "EXCEPT ALL" in net
    assert isinstance(stratum.statements[-1], BagPatch)
    # recomputed, it is compared with its old rows copy by copy
    assert all("EXCEPT ALL" in s.query.choose(set()).sql(dialect="duckdb")
               for s in stratum.diff)


def test_a_derived_stream_is_replaced_by_what_this_transaction_derives():
    stratum = next(s for s in _plan("spark").strata if s.name == "Scanned")
    fresh, plus, minus, replace = stratum.statements
    assert fresh.target.name == "Scanned__fresh" and isinstance(replace, Replace)
    assert replace.source.name == "Scanned__fresh" and replace.target.name == "Scanned"


def test_history_tables_per_delay():
    plan = _plan()
    (delays,) = plan.bags.delays
    assert delays.relation == "SaleAisle"
    assert [(p.name, m.name) for p, m in delays.tables] == [
        ("SaleAisle__hist1__plus", "SaleAisle__hist1__minus"),
        ("SaleAisle__hist2__plus", "SaleAisle__hist2__minus")]
