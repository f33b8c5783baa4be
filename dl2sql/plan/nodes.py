"""The Plan IR: what a runner executes, statement by statement.

A plan is a sequence of statements over named tables. Queries are sqlglot expressions
(already built for the runner's dialect-independent tree; runners print them in their
own dialect). The semi-naive fixpoint is itself IR (:class:`Loop`), so that the Spark
and DuckDB runners share one interpreter (:mod:`dl2sql.plan.interpret`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from sqlglot import exp


@dataclass(frozen=True)
class Column:
    """A column of a table: SQL name and SQL type (sqlglot DataType)."""

    name: str
    type: exp.DataType


@dataclass(frozen=True)
class Table:
    """A table the plan reads or writes, with its schema. ``partition_by`` names the
    columns a runner may hash-partition the table on to spare shuffles in loops (a
    physical hint, see :mod:`dl2sql.plan.partitioning`; empty for none)."""

    name: str
    columns: tuple[Column, ...]
    partition_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Materialize:
    """``target := query`` (the query already removes duplicates where needed).
    With ``count`` the runner returns the number of rows of the new table."""

    target: Table
    query: exp.Expression
    count: bool = False
    comment: str = ""


@dataclass(frozen=True)
class Append:
    """``target := target ∪ source`` where the two are known to be disjoint."""

    target: Table
    source: Table


@dataclass(frozen=True)
class Rename:
    """``target := source``; ``source`` is no longer used afterwards."""

    target: Table
    source: Table


@dataclass(frozen=True)
class Loop:
    """Repeat ``body`` until every table in ``until_empty`` (all counted by ``body``)
    is empty. ``stratum`` names the relations for progress and error messages."""

    body: tuple["Stmt", ...]
    until_empty: tuple[str, ...]
    stratum: str
    max_iterations: int = 1_000_000

@dataclass(frozen=True)
class Choose:
    """Two exactly equivalent evaluations of a transitive-closure stratum (see
    :mod:`dl2sql.passes.doubling`): ``doubling`` when the runner wants it
    (``closure_by_doubling``) and the edges of ``probe_query``'s table leave their
    sources at most ``max_degree`` at a time on average (long thin paths), ``linear``
    otherwise. ``probe_query`` yields one row: (edge count, distinct sources)."""

    probe: Table
    probe_query: exp.Expression
    max_degree: float
    doubling: tuple["Stmt", ...]
    linear: tuple["Stmt", ...]
    stratum: str


Stmt = Union[Materialize, Append, Rename, Loop, Choose]


@dataclass(frozen=True)
class UdfSpec:
    """A Python UDF the plan calls: SQL name, the function it runs (``func`` with type
    arguments ``targs``, or a ``synthetic`` FunctionIR for an expression SQL cannot
    express), its DDlog parameter and result types, and ``span``, the rule that first
    called it (for failure messages)."""

    name: str
    func: str
    targs: tuple
    params: tuple
    ret: object
    synthetic: object = None
    span: object = None


@dataclass(frozen=True)
class Plan:
    """A whole program: ``inputs`` are loaded by the caller, ``outputs`` are read back.
    ``relations`` maps each DDlog relation (qualified name) to its final table."""

    inputs: tuple[Table, ...]
    statements: tuple[Stmt, ...]
    relations: dict
    functions: tuple[UdfSpec, ...] = ()
