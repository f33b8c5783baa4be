"""Stored columns in the form output files and result DataFrames hold.

Values are written as they are stored (docs/sql-mapping.md), but for wide integers:
their (num, big) pairs (:mod:`dl2sql.types.wide_ints`) become decimal text, at any
depth of a value, which input files and DataFrames read back. The stored pair is
recognised by its SQL type, whose field names no DDlog type has; a NARROW one (a
DECIMAL(38,0), like a ``bit<64>``) by the column's output type, which the plan's
tables carry (:class:`~dl2sql.plan.nodes.Column`): the output's form is the same
whichever representation the run used.
"""
from __future__ import annotations

from itertools import count

from sqlglot import exp

from dl2sql.sqlgen import wide_ints as sql_wide
from dl2sql.sqlgen.precedence import parenthesize
from dl2sql.sqlgen.trees import dot, struct
from dl2sql.types.wide_ints import BIG, NUM

_T = exp.DataType.Type


def _fields(dtype: exp.DataType) -> list[tuple[str, exp.DataType]]:
    return [(e.name, e.args["kind"]) for e in dtype.expressions]


def is_pair(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is the stored type of wide integers."""
    return dtype.this == _T.STRUCT and [n for n, _ in _fields(dtype)] == [NUM, BIG]


def holds_pairs(dtype: exp.DataType) -> bool:
    """Whether values of ``dtype`` contain wide integers."""
    if is_pair(dtype):
        return True
    if dtype.this == _T.STRUCT:
        return any(holds_pairs(t) for _, t in _fields(dtype))
    if dtype.this in (_T.ARRAY, _T.LIST):
        return holds_pairs(dtype.expressions[0])
    return False


def _differs(stored: exp.DataType, output: exp.DataType) -> bool:
    return holds_pairs(stored) or stored != output


def output_projection(columns, dialect) -> list[exp.Expression] | None:
    """``expr AS name`` per column (plan :class:`~dl2sql.plan.nodes.Column` with SQL
    types) in output form, or None when the stored columns are that already. A
    column's ``output`` type says where a wide integer is a NARROW DECIMAL (written
    as text too, so that the output's form does not depend on the representation)."""
    targets = [c.type if c.output is None else c.output for c in columns]
    if not any(_differs(c.type, t) for c, t in zip(columns, targets)):
        return None
    names = count()

    def convert(e: exp.Expression, dtype: exp.DataType, out: exp.DataType) -> exp.Expression:
        if not _differs(dtype, out):
            return e
        if is_pair(dtype):
            return sql_wide.to_text(e)
        if dtype.this == _T.STRUCT:
            outs = [t for _, t in _fields(out)] if out.this == _T.STRUCT else \
                [t for _, t in _fields(dtype)]
            return struct([(n, convert(dot(e.copy(), n), t, o))
                           for (n, t), o in zip(_fields(dtype), outs)])
        if dtype.this in (_T.ARRAY, _T.LIST):
            var = exp.to_identifier(f"__out{next(names)}")
            inner = out.expressions[0] if out.this in (_T.ARRAY, _T.LIST) else \
                dtype.expressions[0]
            body = convert(var.copy(), dtype.expressions[0], inner)
            return dialect.hof.transform(e, exp.Lambda(this=body, expressions=[var]))
        return exp.Cast(this=e, to=out.copy())  # a NARROW DECIMAL as its text

    return [parenthesize(exp.alias_(convert(exp.column(c.name, quoted=True), c.type, t),
                                    c.name, quoted=True)) for c, t in zip(columns, targets)]
