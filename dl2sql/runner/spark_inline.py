"""A few rows given to Spark as a table of literals (``VALUES``), not as Python data.

``createDataFrame`` of a Python list is an RDD that a Python worker unpickles each time
a job reads it: a transaction's one changed edge, read by three queries, cost 50-100 ms
more per query than the same row as a literal, and a traced transaction that changed
no path took 1.40 s with it and 0.96 s with literals (docs/performance.md, run 24).
A ``VALUES`` table is a local relation: its rows travel inside the plan and the JVM
reads them. Making one costs more: 1,000 rows of two integers took 0.05 s to print
and plan against 0.02 s for ``createDataFrame``, and the first read of them 0.09 s
against 0.14 s (each later read saves as much again); with a cast around every
literal, printing them alone took 0.13 s, hence one cast per column.

The query casts each column to its type once, so the table is typed exactly as its
schema says, from literals that cast exactly: integers and decimals as numbers,
floating-point values as text (``repr`` round-trips, and NaN and the infinities have
no other literal), strings as escaped literals (sqlglot's Spark dialect; split where
they hold ``${``, which Spark would substitute), structs as ``named_struct`` of their
cast fields, arrays as ``array`` of their elements, cast to their type (an empty
array has no element type of its own), and maps as ``map_from_arrays`` of their keys
and values. The query is a sqlglot tree, printed for
Spark.
"""
from __future__ import annotations

from typing import Optional

from sqlglot import exp

from dl2sql.plan.nodes import Table


_DT = exp.DataType.Type
_INTEGERS = {_DT.TINYINT, _DT.SMALLINT, _DT.INT, _DT.BIGINT, _DT.DECIMAL}
_FLOATS = {_DT.FLOAT, _DT.DOUBLE}
_STRINGS = {_DT.TEXT, _DT.VARCHAR}
_ARRAYS = {_DT.ARRAY, _DT.LIST}


def inlinable(dtype: exp.DataType) -> bool:
    """Whether values of ``dtype`` can be written as literals here."""
    t = dtype.this
    if t == _DT.STRUCT:
        return all(inlinable(f.args["kind"]) for f in dtype.expressions)
    if t in _ARRAYS:
        return inlinable(dtype.expressions[0])
    if t == _DT.MAP:
        return all(inlinable(e) for e in dtype.expressions)
    return t in _INTEGERS or t in _FLOATS or t in _STRINGS or t == _DT.BOOLEAN


def inline_query(table: Table, rows: list[tuple]) -> Optional[exp.Select]:
    """``SELECT CAST(c1 AS type1) AS c1, ... FROM VALUES (...) AS t(c1, ...)`` of ``rows``
    (normalised values of ``table``'s columns, as Spark's converters take them), a
    select of typed NULLs where no row passes when there are no rows (``VALUES``
    needs one), or None where a column's type has no literal here (or there is no
    column). The caller keeps it to a few rows (its ``local_rows``,
    :mod:`dl2sql.plan.thresholds`)."""
    if not table.columns:
        return None
    if not rows:  # no VALUES: typed NULLs that no row passes (a plan's empty relation)
        return exp.select(*[exp.cast(exp.null(), c.type.copy()).as_(c.name, quoted=True)
                            for c in table.columns]).where(exp.false())
    if not all(inlinable(c.type) for c in table.columns):
        return None
    types = [c.type for c in table.columns]
    names = [c.name for c in table.columns]
    values = exp.values([tuple(_literal(v, t) for v, t in zip(row, types)) for row in rows],
                        alias="dl2sql_rows", columns=names)
    return exp.select(*[exp.cast(exp.column(n, quoted=True), t.copy()).as_(n, quoted=True)
                        for n, t in zip(names, types)]).from_(values)


def _literal(value, dtype: exp.DataType) -> exp.Expression:
    """``value`` as a literal that casts to ``dtype`` exactly (the query casts each
    column once; a value inside a struct or an array is cast where it is)."""
    if value is None:  # an unused field of a tagged union's struct, Option's None
        return exp.Null()
    t = dtype.this
    if t == _DT.BOOLEAN:
        return exp.Boolean(this=bool(value))
    if t in _STRINGS:
        return _string(value)
    if t in _INTEGERS:
        return exp.Literal.number(int(value))
    if t in _FLOATS:
        return exp.Literal.string(repr(float(value)))
    if t == _DT.STRUCT:
        fields = []
        for field, v in zip(dtype.expressions, value):
            kind = field.args["kind"]
            fields += [exp.Literal.string(field.name), _cast(_literal(v, kind), kind)]
        return exp.Anonymous(this="named_struct", expressions=fields)
    if t == _DT.MAP:  # map_from_arrays of its keys and values, in its own order
        kt, vt = dtype.expressions
        pairs = list(value.items()) if isinstance(value, dict) else list(value)
        keys = exp.Array(expressions=[_cast(_literal(k, kt), kt) for k, _ in pairs])
        vals = exp.Array(expressions=[_cast(_literal(v, vt), vt) for _, v in pairs])
        return _cast(exp.Anonymous(this="map_from_arrays", expressions=[keys, vals]), dtype)
    element = dtype.expressions[0]  # an array
    return _cast(exp.Array(expressions=[_literal(v, element) for v in value]), dtype)


def _cast(value: exp.Expression, dtype: exp.DataType) -> exp.Cast:
    """``CAST(value AS dtype)`` built directly: sqlglot's ``exp.cast`` first works out
    whether ``value`` already has the type, which costs more than the rest of a row;
    a value that is a cast to that very type already (an array's) is kept as it is."""
    if isinstance(value, exp.Cast) and value.to == dtype:
        return value
    return exp.Cast(this=value, to=dtype.copy())


def _string(value: str) -> exp.Expression:
    """``value`` as a string literal, or where it holds ``${`` a concatenation of
    literals that split it there: Spark substitutes ``${...}`` in a statement's text
    before parsing it (``spark.sql.variable.substitute``), inside literals too."""
    parts = value.split("${")
    if len(parts) == 1:
        return exp.Literal.string(value)
    pieces = [parts[0] + "$"] + ["{" + p + "$" for p in parts[1:-1]] + ["{" + parts[-1]]
    return exp.Concat(expressions=[exp.Literal.string(p) for p in pieces])
