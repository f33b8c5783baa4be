"""Spark schemas, value conversion and size estimates of plan tables."""
from __future__ import annotations

from sqlglot import exp

from dl2sql.plan.nodes import Table
from dl2sql.runtime.spark_values import IDENTITY, ToArray, ToDecimal, ToStruct

_DT = exp.DataType.Type


def ident(name: str) -> str:
    """``name`` as a quoted Spark SQL identifier."""
    return exp.to_identifier(name, quoted=True).sql(dialect="spark")


def schema_ddl(table: Table) -> str:
    """The Spark DDL schema of ``table``: every column NOT NULL, what is nested in one
    nullable.

    No SQL NULL ever stands for a DDlog value (design.md, "Values"), and saying so of
    the columns lets the optimizer drop null checks. (It does not make Spark plan
    ``EXCEPT`` with plain keys: that still compares null-safely, which is why the
    plan's set difference is an explicit anti-join on Spark, see
    ``sqlgen/dialects.py``.) Nested fields and elements stay nullable, as every stored
    table has them (:func:`relaxed`)."""
    return ", ".join(f"{ident(c.name)} {c.type.sql(dialect='spark')} NOT NULL"
                     for c in table.columns)


def is_nested(dtype: exp.DataType) -> bool:
    """Whether values of ``dtype`` have parts (a struct, an array, a map)."""
    return dtype.this in (_DT.STRUCT, _DT.ARRAY, _DT.LIST, _DT.MAP)


def nullable_parts(t):
    """Spark type ``t`` with every field, element and map value in it nullable (what
    ``CAST`` to the type written in SQL gives)."""
    # deferred: PySpark loads only when Spark runs
    from pyspark.sql.types import ArrayType, MapType, StructField, StructType

    if isinstance(t, StructType):
        return StructType([StructField(f.name, nullable_parts(f.dataType), True)
                           for f in t.fields])
    if isinstance(t, ArrayType):
        return ArrayType(nullable_parts(t.elementType), True)
    if isinstance(t, MapType):
        return MapType(nullable_parts(t.keyType), nullable_parts(t.valueType), True)
    return t


def relaxed(df, table: Table):
    """``df``, a DataFrame to be stored as ``table``, with every part of a nested
    column nullable (the columns themselves as they are).

    Every stored table has them so. Which parts of a query's result Spark calls
    nullable depends on its expressions (``named_struct`` of columns that are NOT NULL
    has fields that are not; a ``CAST`` to a struct type, nullable ones), and a table
    is the union of pieces stored by different queries (``spark_pieces``). Where the
    first piece of a union has stricter nested types than the union itself, Spark
    (4.3, the version tested) plans a semi or anti join (``EXISTS``, ``NOT EXISTS``,
    ``IN``, ``LEFT SEMI``/``LEFT ANTI JOIN``) on a nested field of the union into a
    broken plan: it pushes the join into each branch and aliases the field
    (``_extract_...``) twice in the first, because the union's and the branch's
    attribute have one id and two types (``INTERNAL_ERROR_ATTRIBUTE_NOT_FOUND``). A piece already nullable costs one
    look at its schema; a stricter one a cast (no job)."""
    if not any(is_nested(c.type) for c in table.columns):
        return df
    fields = df.schema.fields
    loose = [nullable_parts(f.dataType) for f in fields]
    if all(t == f.dataType for t, f in zip(loose, fields)):
        return df
    from pyspark.sql import functions as F  # deferred: PySpark loads only when Spark runs

    return df.select(*[F.col(ident(f.name)) if t == f.dataType
                       else F.col(ident(f.name)).cast(t).alias(f.name)
                       for t, f in zip(loose, fields)])


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
