"""Typed columns from the text fields of a CSV file, checked as they are read.

Both engines read a CSV input as text columns named by its header; the projection
built here turns each into the declared column type by the rules of
:mod:`dl2sql.types.text_values`, and fails the query where a field breaks them, with
a message (behind :data:`~dl2sql.sqlgen.canonical.MARKER`) naming the file, the
relation, the column, its declared type and the text found. Only the line is missing
from it; :mod:`dl2sql.io.text_scan` finds that in the file when the error surfaces.
"""
from __future__ import annotations

from sqlglot import exp

from dl2sql.sqlgen.canonical import MARKER
from dl2sql.sqlgen.precedence import parenthesize
from dl2sql.sqlgen.types import sql_type
from dl2sql.types import text_values as tv
from dl2sql.sqlgen import wide_ints as sql_wide
from dl2sql.types.model import TBigInt, TBit, TBool, TSigned, TString, Type, TypeEnv
from dl2sql.types.wide_ints import is_wide


def csv_projection(path: str, relation: str, columns: list[tuple[str, Type]], env: TypeEnv,
                   dialect, field_count: str | None = None) -> list[exp.Expression]:
    """``expr AS column`` per declared column, from text columns of the same names.
    ``field_count``, where the engine gives one, names a column that holds a line whose
    number of fields differs from the header's (Spark's corrupt-record column): such a
    line fails the query too."""
    out = []
    for i, (name, t) in enumerate(columns):
        where = f"{MARKER} {path}: input relation `{relation}`, column `{name}` ({t}): "
        value = _typed(exp.column(name, quoted=True), t, env, dialect, where)
        if field_count is not None and i == 0:
            line = exp.column(field_count, quoted=True)
            value = exp.Case(ifs=[exp.If(
                this=exp.Not(this=exp.Is(this=line, expression=exp.Null())),
                true=dialect.fail(_message(
                    f"{MARKER} {path}: a line has not as many fields as the header "
                    f"({len(columns)}): `", line.copy(), "`")))], default=value)
        out.append(parenthesize(exp.alias_(value, name, quoted=True)))
    return out


def _typed(col: exp.Expression, t: Type, env: TypeEnv, dialect, where: str) -> exp.Expression:
    if isinstance(t, TString):
        return exp.Coalesce(this=col, expressions=[exp.Literal.string("")])
    trimmed = exp.Trim(this=col.copy())
    pattern = tv.BOOLEAN if isinstance(t, TBool) else tv.INTEGER if isinstance(
        t, (TBit, TSigned, TBigInt)) else tv.FLOAT
    checks = [
        (exp.Is(this=col.copy(), expression=exp.Null()),
         _message(where + "is empty, and a value is required")),
        (exp.Not(this=exp.RegexpLike(this=col.copy(), expression=exp.Literal.string(tv.sql_pattern(pattern)))),
         _message(where + "`", col.copy(), f"` is not {tv.kind(t)}")),
    ]
    if isinstance(t, TBool):
        value = exp.EQ(this=exp.Lower(this=trimmed), expression=exp.Literal.string("true"))
    elif is_wide(t):  # stays text, which the input projection reads (canonical.py)
        value = col.copy()
        bounds = tv.integer_range(t)
        if bounds is not None:
            low, high = bounds
            checks.append((exp.Not(this=sql_wide.Text(col.copy()).in_range(low, high)),
                           _message(where + "`", col.copy(),
                                    f"` is out of range ({low} to {high})")))
    else:
        value = exp.TryCast(this=trimmed, to=sql_type(t, env))
        if isinstance(t, (TBit, TSigned, TBigInt)):
            low, high = tv.integer_range(t)
            out_of_range = exp.or_(
                exp.Is(this=value.copy(), expression=exp.Null()),
                exp.Not(this=exp.Between(
                    this=value.copy(), low=exp.Literal.number(low),
                    high=exp.Literal.number(high))))
            checks.append((out_of_range, _message(
                where + "`", col.copy(), f"` is out of range ({low} to {high})")))
    return exp.Case(ifs=[exp.If(this=test, true=dialect.fail(message))
                         for test, message in checks], default=value)


def _message(*parts) -> exp.Expression:
    """The concatenation of literal texts and text expressions."""
    items = [exp.Literal.string(p) if isinstance(p, str) else p for p in parts]
    out = items[0]
    for item in items[1:]:
        out = exp.DPipe(this=out, expression=item, safe=True)
    return out
