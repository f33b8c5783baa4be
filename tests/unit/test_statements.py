"""Generic traversal of plan and update statements (dl2sql/plan/statements.py)."""
from __future__ import annotations

import dataclasses

import pytest

from dl2sql.incremental.nodes import BySize, Enough, OverDeletion
from dl2sql.plan.nodes import Append, Loop, Materialize, Patch, Rename, Table, statement
from dl2sql.plan.statements import children, every_statement, is_statement, map_statement

A, B, C = Table("A", ()), Table("B", ()), Table("C", ())


def test_children_are_the_statements_in_any_field():
    inner = Append(A, B)
    loop = Loop((inner, Rename(B, C)), ("B",), "s")
    over = OverDeletion(loop, (("R", "R__del"),))
    size = BySize(C, 10, (over,), (Patch(A, B, None),))
    assert list(children(size)) == [over, size.large[0]]
    assert list(children(over)) == [loop]
    assert list(children(inner)) == []
    assert list(every_statement([size])) == [size, over, loop, inner, loop.body[1],
                                             size.large[0]]


def test_map_statement_maps_tables_and_nested_statements_only():
    renamed = {}

    def on_table(t):
        renamed[t.name] = renamed.get(t.name, 0) + 1
        return dataclasses.replace(t, name=t.name.lower())
    loop = Loop((Append(A, B),), ("B",), "s")
    check = Enough((A, B), "R", "why")
    mapped = map_statement(BySize(C, 10, (loop, check), ()), lambda s: map_statement(
        s, lambda x: map_statement(x, None, on_table), on_table), on_table)
    assert mapped.table.name == "c" and mapped.limit == 10 and mapped.large == ()
    assert mapped.small[0].body[0] == Append(Table("a", ()), Table("b", ()))
    assert mapped.small[0].until_empty == ("B",)  # names, not tables: as they were
    assert [t.name for t in mapped.small[1].tables] == ["a", "b"]
    assert mapped.small[1].relation == "R"
    # Patch's optional table left None
    assert map_statement(Patch(A, None, B), None, on_table) == Patch(
        Table("a", ()), None, Table("b", ()))


def test_a_new_kind_of_statement_is_walked_once_registered():
    @dataclasses.dataclass(frozen=True)
    class Twice:
        target: Table
        body: tuple

    stmt = Twice(A, (Append(A, B),))
    loop = Loop((stmt,), (), "s")
    assert not is_statement(stmt) and list(every_statement([loop])) == [loop]
    registered = statement(Twice)
    try:
        assert is_statement(stmt)
        assert list(every_statement([loop])) == [loop, stmt, stmt.body[0]]
        lowered = map_statement(stmt, lambda s: s, lambda t: Table(t.name + "!", ()))
        assert lowered.target.name == "A!"
    finally:
        from dl2sql.plan.nodes import STATEMENT_KINDS
        STATEMENT_KINDS.discard(registered)


def test_materialize_queries_are_not_tables():
    m = Materialize(A, "a query", count=True)
    assert map_statement(m, None, lambda t: B) == Materialize(B, "a query", count=True)
    with pytest.raises(TypeError):
        map_statement("not a dataclass", None, None)
