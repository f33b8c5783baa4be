"""Generic traversal of statements, of plans and of update plans alike: their nested
statements and their tables are found by their fields (the kinds registered with
:func:`dl2sql.plan.nodes.statement`), so that a new kind of statement is walked and
lowered by the code here; only what is particular to it (a query to make SQL of, a
line to print, what running it does) is written for it.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Iterator

from dl2sql.plan.nodes import STATEMENT_KINDS, Table


def is_statement(value) -> bool:
    """Whether ``value`` is a statement (of a registered kind)."""
    return type(value) in STATEMENT_KINDS


def children(stmt) -> Iterator:
    """The statements nested in ``stmt`` (a loop's body, a choice's branches, ...), in
    the order of its fields."""
    for f in dataclasses.fields(stmt):
        value = getattr(stmt, f.name)
        if is_statement(value):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if is_statement(v))


def every_statement(stmts) -> Iterator:
    """Every statement of ``stmts`` and nested in them, each before its own."""
    for s in stmts:
        yield s
        yield from every_statement(children(s))


def map_statement(stmt, on_statement: Callable, on_table: Callable):
    """``stmt`` with each nested statement ``s`` replaced by ``on_statement(s)`` and
    each of its tables ``t`` (a field holding a Table, an optional one or a tuple of
    them) by ``on_table(t)``; its other fields as they are."""
    def mapped(value):
        if is_statement(value):
            return on_statement(value)
        if isinstance(value, Table):
            return on_table(value)
        if isinstance(value, tuple) and value and all(
                is_statement(v) or isinstance(v, Table) for v in value):
            return tuple(mapped(v) for v in value)
        return value
    changes = {}
    for f in dataclasses.fields(stmt):
        value = getattr(stmt, f.name)
        new = mapped(value)
        if new is not value:
            changes[f.name] = new
    return dataclasses.replace(stmt, **changes) if changes else stmt
