"""Spark schemas, value conversion and size estimates of plan tables."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.plan.nodes import Table
from dl2sql.runtime.spark_values import IDENTITY, ToArray, ToDecimal, ToStruct

_DT = exp.DataType.Type


def ident(name: str) -> str:
    """``name`` as a quoted Spark SQL identifier."""
    return exp.to_identifier(name, quoted=True).sql(dialect="spark")


def _not_null(dtype: exp.DataType) -> str:
    """``dtype`` in Spark DDL with every STRUCT field declared NOT NULL."""
    if dtype.this == _DT.STRUCT:
        fields = ", ".join(
            f"{ident(e.name)}: {_not_null(e.args['kind'])} NOT NULL" for e in dtype.expressions
        )
        return f"STRUCT<{fields}>"
    if dtype.this in (_DT.ARRAY, _DT.LIST):
        return f"ARRAY<{_not_null(dtype.expressions[0])}>"
    return dtype.sql(dialect="spark")


def schema_ddl(table: Table) -> str:
    """The Spark DDL schema of ``table``, every column and struct field NOT NULL.

    No SQL NULL ever stands for a DDlog value (design.md, "Values"), and saying so lets
    the optimizer drop null checks. (It does not make Spark plan ``EXCEPT`` with plain
    keys: that still compares null-safely, which is why the plan's set difference is
    an explicit anti-join on Spark, see ``sqlgen/dialects.py``.)"""
    return ", ".join(f"{ident(c.name)} {_not_null(c.type)} NOT NULL" for c in table.columns)


# Spark's own per-value size estimates (DataType.defaultSize), used to decide which
# tables are small enough to broadcast.
_WIDTH = {
    _DT.BOOLEAN: 1, _DT.TINYINT: 1, _DT.SMALLINT: 2, _DT.INT: 4, _DT.FLOAT: 4,
    _DT.BIGINT: 8, _DT.DOUBLE: 8, _DT.DECIMAL: 16, _DT.DATE: 4, _DT.TIMESTAMP: 8,
}


def _width(dtype: exp.DataType) -> int:
    if dtype.this == _DT.STRUCT:
        return sum(_width(e.args["kind"]) for e in dtype.expressions)
    if dtype.this in (_DT.ARRAY, _DT.LIST):
        return 4 * _width(dtype.expressions[0])
    return _WIDTH.get(dtype.this, 20)


def row_width(table: Table) -> int:
    """Estimated bytes per row of ``table`` (8 bytes of row overhead included)."""
    return 8 + sum(_width(c.type) for c in table.columns) if table.columns else 64


def to_spark(dtype: exp.DataType):
    """Converter from a normalised value to what ``createDataFrame`` accepts for
    ``dtype``: Spark wants ``Decimal`` for DECIMAL; tuples and lists pass as they are."""
    t = dtype.this
    if t == _DT.DECIMAL:
        return ToDecimal()
    if t == _DT.STRUCT:
        convs = [to_spark(e.args["kind"]) for e in dtype.expressions]
        return IDENTITY if all(c is IDENTITY for c in convs) else ToStruct(convs)
    if t in (_DT.ARRAY, _DT.LIST):
        elem = to_spark(dtype.expressions[0])
        return IDENTITY if elem is IDENTITY else ToArray(elem)
    return IDENTITY


def spark_rows(table: Table, rows: list[tuple]) -> list[tuple]:
    """Normalised ``rows`` of ``table`` as ``createDataFrame`` takes them (checked to
    have as many values as it has columns)."""
    n = len(table.columns)
    for i, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(
                f"relation {table.name}: row {i} has {len(row)} columns, expected {n}: {row!r}")
    convs = [to_spark(c.type) for c in table.columns]
    if any(c is not IDENTITY for c in convs):
        rows = [tuple(c(v) for c, v in zip(convs, r)) for r in rows]
    return rows
