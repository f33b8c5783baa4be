"""Small SQL trees every part of SQL generation builds (no dl2sql imports: the other
sqlgen modules import these, never the reverse)."""
from __future__ import annotations

from sqlglot import exp


def cast(e: exp.Expression, to: exp.DataType) -> exp.Cast:
    """``CAST(e AS to)``."""
    return exp.Cast(this=e, to=to)


def struct(pairs: list[tuple[str, exp.Expression]]) -> exp.Struct:
    """``STRUCT(v AS name, ...)`` printed per dialect by sqlglot."""
    return exp.Struct(expressions=[exp.PropertyEQ(this=exp.to_identifier(n), expression=v)
                                   for n, v in pairs])


def dot(e: exp.Expression, name: str) -> exp.Expression:
    """Field ``name`` of the struct-valued ``e``."""
    if isinstance(e, exp.Column):
        parts = [p for p in (e.args.get("catalog"), e.args.get("db"), e.args.get("table"))
                 if p is not None]
        if len(parts) < 3:
            return exp.Column(this=exp.to_identifier(name, quoted=True), table=e.args.get("this"),
                              db=e.args.get("table"), catalog=e.args.get("db"))
    return exp.Dot(this=e, expression=exp.to_identifier(name, quoted=True))

def table(name: str | exp.Table, alias: str | None = None) -> exp.Table:
    """The quoted table ``name`` (or a copy of the table given), aliased ``alias``
    where given."""
    t = name.copy() if isinstance(name, exp.Table) else \
        exp.Table(this=exp.to_identifier(name, quoted=True))
    if alias:
        t.set("alias", exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
    return t

def drop_table(name: str | exp.Table) -> exp.Drop:
    """``DROP TABLE IF EXISTS name`` (a name, or a table with its schema; sqlglot calls
    the dropped table ``this`` before its version 30.x and ``tables`` since)."""
    dropped = table(name) if isinstance(name, str) else name
    if "tables" in exp.Drop.arg_types:
        return exp.Drop(tables=[dropped], kind="TABLE", exists=True)
    return exp.Drop(this=dropped, kind="TABLE", exists=True)


def select_all(name: str) -> exp.Select:
    """``SELECT * FROM name``."""
    return exp.Select(expressions=[exp.Star()]).from_(table(name))


def set_operand(q: exp.Expression, alias: str) -> exp.Expression:
    """``q`` as an operand of another set operation: a set operation goes in a
    subquery named ``alias`` (SQL's INTERSECT binds tighter than UNION and EXCEPT, and
    the right side of an EXCEPT would otherwise take it apart)."""
    if isinstance(q, exp.SetOperation):
        return exp.Select(expressions=[exp.Star()]).from_(exp.Subquery(
            this=q, alias=exp.TableAlias(this=exp.to_identifier(alias))))
    return q

class InsideLambda(Exception):
    """Raised when a closure body compiled as a SQL lambda needs the interpreter."""
