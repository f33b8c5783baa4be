"""The interface every engine runner implements.

Rows cross this interface in one normalised Python form, the same for every engine:
a row is a tuple of column values; a SQL STRUCT value is a tuple of its fields in
declaration order; an ARRAY is a list; DECIMAL values are ``int``; BIGINT ``int``;
DOUBLE/FLOAT ``float``; BOOLEAN ``bool``; STRING ``str``.
"""
from __future__ import annotations

from typing import Optional, Protocol

from sqlglot import exp

from dl2sql.plan.nodes import Table


class Runner(Protocol):
    """Executes plan statements on one engine."""

    dialect: str  # sqlglot dialect name: "spark" or "duckdb"

    def load(self, table: Table, rows: list[tuple]) -> None:
        """Create (or replace) ``table`` holding exactly ``rows`` (normalised form)."""

    def materialize(self, table: Table, query: exp.Expression, count: bool) -> Optional[int]:
        """Create or replace ``table`` as the result of ``query``; with ``count``, return
        its number of rows (computed with at most one engine action)."""

    def append(self, target: Table, source: Table) -> None:
        """``target := target UNION ALL source``."""

    def rename(self, target: Table, source: Table) -> None:
        """Make ``target`` refer to the contents of ``source``."""

    def fetch(self, table: Table) -> list[tuple]:
        """All rows of ``table`` in normalised form."""

    def drop(self, table: Table) -> None:
        """Forget ``table`` and free what it holds."""

    def register_function(self, name: str, fn, arg_types: list[exp.DataType],
                          ret_type: exp.DataType) -> None:
        """Make Python function ``fn`` callable in queries as scalar function ``name``.
        ``fn`` takes and returns normalised values (STRUCT as tuple, DECIMAL as int;
        never NULL) of the SQL types ``arg_types`` / ``ret_type``; an exception raised by
        ``fn`` fails the query with an engine error that contains its message."""
