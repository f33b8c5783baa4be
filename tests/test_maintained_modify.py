"""DDlog's ``modify`` in the Python API (``live.apply(modify=...)``) on both engines:
fields of a stored row set by key, the key itself changed, modifications in order,
and the keys and fields it refuses, changing nothing."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.diagnostics import InputError
from dl2sql.runtime.values import Record
from engines import collected, maintain_on, sorted_rows

KEYED = """
typedef Id = Id{n: u32, zone: string}
input relation User(id: Id, name: string, active: bool) primary key (u) u.id
output relation ActiveName(name: string)
ActiveName(n) :- User(_, n, true).
output relation Zone(n: u32, zone: string)
Zone(n, z) :- User(Id{n, z}, _, _).
"""


def uid(n: int, zone: str) -> Record:
    return Record("Id", (n, zone))


USERS = [(uid(1, "eu"), "ann", True), (uid(2, "eu"), "bob", True), (uid(3, "us"), "cy", False)]


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(KEYED)


def users(live) -> list:
    """The stored users as (n, zone, name, active), whatever form the engine gives a
    struct column (a Row, a dict or a tuple)."""
    out = []
    for row in collected(live.contents("User")):
        key = row[0]
        n, zone = (key["n"], key["zone"]) if hasattr(key, "keys") or hasattr(
            key, "asDict") else key
        out.append((n, zone, row[1], row[2]))
    return sorted(out)


def outputs(live) -> dict:
    return {rel: sorted_rows(live.contents(rel)) for rel in ("ActiveName", "Zone")}


def expected(rows) -> dict:
    """What the outputs hold for users ``rows`` of (n, zone, name, active)."""
    return {"ActiveName": sorted({(name,) for _, _, name, active in rows if active}),
            "Zone": sorted({(n, zone) for n, zone, _, _ in rows})}


def test_modify_sets_fields_of_the_row_of_a_key(program, engine):
    live = maintain_on(program, engine, {"User": USERS})
    changes = live.apply(modify={"User": [(uid(1, "eu"), {"active": False}),
                                          (uid(3, "us"), {"name": "cyd", "active": True})]})
    now = [(1, "eu", "ann", False), (2, "eu", "bob", True), (3, "us", "cyd", True)]
    assert users(live) == now
    assert outputs(live) == expected(now)
    assert sorted_rows(changes["ActiveName"]) == [("ann", -1), ("cyd", 1)]
    assert sorted_rows(changes["Zone"]) == []


def test_modify_may_change_the_key(program, engine):
    live = maintain_on(program, engine, {"User": USERS})
    changes = live.apply(modify={"User": [(uid(2, "eu"), {"id": uid(2, "us")})]})
    now = [(1, "eu", "ann", True), (2, "us", "bob", True), (3, "us", "cy", False)]
    assert users(live) == now
    assert sorted_rows(changes["Zone"]) == [(2, "eu", -1), (2, "us", 1)]
    assert sorted_rows(changes["ActiveName"]) == []


def test_modifications_apply_in_order(program, engine):
    live = maintain_on(program, engine, {"User": USERS})
    # the second sees the first's row; the third finds the row under its new key
    live.apply(modify={"User": [(uid(1, "eu"), {"name": "an"}),
                                (uid(1, "eu"), {"id": uid(9, "eu")}),
                                (uid(9, "eu"), {"active": False})]})
    now = [(2, "eu", "bob", True), (3, "us", "cy", False), (9, "eu", "an", False)]
    assert users(live) == now
    assert outputs(live) == expected(now)


def test_modify_beside_inserts_and_key_deletions(program, engine):
    live = maintain_on(program, engine, {"User": USERS})
    live.apply(insert={"User": [(uid(4, "us"), "dee", True)]},
               delete_key={"User": [uid(2, "eu")]},
               modify={"User": [(uid(3, "us"), {"active": True})]})
    now = [(1, "eu", "ann", True), (3, "us", "cy", True), (4, "us", "dee", True)]
    assert users(live) == now
    assert outputs(live) == expected(now)


@pytest.mark.parametrize("modify, message", [
    ([(uid(7, "eu"), {"name": "x"})], r"no row has the key Id\{\.n = 7"),
    ([(uid(1, "eu"), {"nick": "x"})], r"has no field `nick` \(its fields: id, name, active\)"),
    # the new key of another stored row: one modified in the same transaction ...
    ([(uid(1, "eu"), {"name": "x"}), (uid(2, "eu"), {"id": uid(1, "eu")})],
     "belongs to another row"),
    ([(uid(1, "eu"), "ann")], r"give \(key, \{field: new value, \.\.\.\}\) pairs"),
])
def test_refused_modifications_change_nothing(program, engine, modify, message):
    live = maintain_on(program, engine, {"User": USERS})
    before = users(live)
    with pytest.raises(InputError, match=message):
        live.apply(insert={"User": [(uid(5, "eu"), "eve", True)]}, modify={"User": modify})
    assert users(live) == before
    assert outputs(live) == expected(before)


def test_a_new_key_held_by_a_stored_row_is_refused(program, engine):
    # ... or one the transaction does not touch: the insertion's primary-key check
    live = maintain_on(program, engine, {"User": USERS})
    before = users(live)
    with pytest.raises(InputError, match="primary key of another row"):
        live.apply(modify={"User": [(uid(1, "eu"), {"id": uid(3, "us")})]})
    assert users(live) == before
    # freed by the same transaction, the key may be taken
    live.apply(modify={"User": [(uid(3, "us"), {"id": uid(8, "us")}),
                                (uid(1, "eu"), {"id": uid(3, "us")})]})
    assert users(live) == [(2, "eu", "bob", True), (3, "us", "ann", True),
                           (8, "us", "cy", False)]


UNION = """
typedef Shape = Circle{id: u32, r: u32} | Square{id: u32, side: u32}
input relation Shapes[Shape] primary key (s) s.id
output relation Big(id: u32)
Big(id) :- Shapes[Circle{id, r}], r > 10.
Big(id) :- Shapes[Square{id, side}], side > 10.
input relation Numbers[u32] primary key (x) x
"""


def test_modify_a_relation_of_union_values(engine):
    program = dl2sql.compile(UNION)
    live = maintain_on(program, engine, {
        "Shapes": [Record("Circle", (1, 5)), Record("Square", (2, 20))],
        "Numbers": [1]})
    changes = live.apply(modify={"Shapes": [(1, {"r": 50}), (2, {"side": 3})]})
    assert sorted_rows(changes["Big"]) == [(1, 1), (2, -1)]
    with pytest.raises(InputError, match="Square has no field `r`"):
        live.apply(modify={"Shapes": [(2, {"r": 1})]})
    with pytest.raises(InputError, match="its records have no fields"):
        live.apply(modify={"Numbers": [(1, {"x": 2})]})
    assert sorted_rows(live.contents("Big")) == [(1,)]


def test_modify_needs_a_primary_key(engine):
    program = dl2sql.compile("input relation E(s: u32, d: u32)\n"
                             "output relation O(s: u32)\nO(s) :- E(s, _).")
    live = maintain_on(program, engine, {"E": [(1, 2)]})
    with pytest.raises(InputError, match="`modify` needs a primary key"):
        live.apply(modify={"E": [(1, {"d": 3})]})


def test_a_modified_value_beyond_38_digits_stores_the_relations_wide(engine):
    program = dl2sql.compile("""
input relation Account(id: u32, balance: bigint) primary key (a) a.id
output relation Rich(id: u32, balance: bigint)
Rich(id, b) :- Account(id, b), b > 1000.
""")
    live = maintain_on(program, engine, {"Account": [(1, 5), (2, 2000)]})
    huge = 10 ** 40 + 7
    changes = live.apply(modify={"Account": [(1, {"balance": huge})]})
    assert live.compiled.representation == "wide"
    assert sorted((int(i), int(b), w) for i, b, w in collected(changes["Rich"])) == [
        (1, huge, 1)]
    assert sorted((int(i), int(b)) for i, b in collected(live.contents("Rich"))) == [
        (1, huge), (2, 2000)]
