"""The interface every engine runner implements.

Rows cross this interface in one normalised Python form, the same for every engine:
a row is a tuple of column values; a SQL STRUCT value is a tuple of its fields in
declaration order; an ARRAY is a list; DECIMAL values are ``int``; BIGINT ``int``;
DOUBLE/FLOAT ``float``; BOOLEAN ``bool``; STRING ``str``.
"""
from __future__ import annotations

from typing import ContextManager, Optional, Protocol

from sqlglot import exp

from dl2sql.plan.nodes import Table


class Runner(Protocol):
    """Executes plan statements on one engine."""

    dialect: str  # sqlglot dialect name: "spark" or "duckdb"

    def running(self) -> ContextManager:
        """A context around one evaluation (statements run and results fetched), for
        engine settings that hold while dl2sql works; reentrant."""

    def load(self, table: Table, rows: list[tuple]) -> None:
        """Create (or replace) ``table`` holding exactly ``rows`` (normalised form)."""

    def hold(self, table: Table, rows: list[tuple]) -> None:
        """:meth:`load` for a temporary table of rows made on the driver, which the
        engine may make only when a statement first reads it."""

    def materialize(self, table: Table, query: exp.Expression, count: bool) -> Optional[int]:
        """Create or replace ``table`` as the result of ``query``; with ``count``, return
        its number of rows (computed with at most one engine action)."""

    def materialize_counted(self, items: list[tuple[Table, exp.Expression]]) -> list[int]:
        """:meth:`materialize` each ``(table, query)`` of ``items`` with its count, the
        counts taken together where that saves engine actions; no query reads
        another's table."""

    def append(self, target: Table, source: Table) -> None:
        """``target := target UNION ALL source``."""

    def rename(self, target: Table, source: Table) -> None:
        """Make ``target`` refer to the contents of ``source``."""

    def patch(self, target: Table, plus: Optional[Table], minus: Optional[Table]) -> None:
        """``target := (target − minus) ∪ plus``, where ``target`` holds no row of
        ``plus`` and every row of ``minus`` (incremental maintenance)."""

    def transaction(self) -> ContextManager:
        """A context whose failure leaves every table as it was before it."""

    def size(self, table: Table) -> int:
        """Number of rows of ``table`` (known sizes are not counted again)."""

    def compute(self, tables: list[Table]) -> None:
        """Make sure ``tables`` are computed (an engine may store results lazily, to be
        computed by the first query that reads them)."""

    def retain(self, tables: list[Table]) -> None:
        """Forget every table but ``tables`` (where the runner owns its tables)."""

    def close(self) -> None:
        """Forget every table and free what the runner holds, files included."""

    def fetch(self, table: Table) -> list[tuple]:
        """All rows of ``table`` in normalised form."""

    def fetch_all(self, tables: list[Table]) -> list[list[tuple]]:
        """The rows of each of ``tables``, as :meth:`fetch` gives them (in one engine
        action where that saves some)."""

    def drop(self, table: Table) -> None:
        """Forget ``table`` and free what it holds."""

    def drop_all(self, tables: list[Table]) -> None:
        """Forget every table of ``tables`` (as one request to the engine, where it can
        take several statements at once)."""

    def frame_of(self, query: exp.Expression):
        """The engine's frame (DataFrame, relation) of ``query``, computed when it is
        read: it reads the tables as they are until they change."""

    def register_function(self, name: str, fn, arg_types: list[exp.DataType],
                          ret_type: exp.DataType) -> None:
        """Make Python function ``fn`` callable in queries as scalar function ``name``.
        ``fn`` takes and returns normalised values (STRUCT as tuple, DECIMAL as int;
        never NULL) of the SQL types ``arg_types`` / ``ret_type``; an exception raised by
        ``fn`` fails the query with an engine error that contains its message."""
