"""The parentheses SQL generation prints: added by the operators' precedence
(dl2sql/sqlgen/precedence.py), and what they print means the tree on DuckDB."""
from __future__ import annotations

import duckdb
import pytest
from sqlglot import exp

from dl2sql.sqlgen.precedence import parenthesize

A, B, C = (exp.Literal.number(n) for n in (6, 3, 5))
TRUE = exp.Boolean(this=True)


def _printed(tree: exp.Expression, dialect: str) -> str:
    return parenthesize(tree.copy()).sql(dialect=dialect)


@pytest.mark.parametrize("dialect", ["duckdb", "spark"])
@pytest.mark.parametrize("tree, text", [
    # a comparison as the operand of a comparison (DuckDB rejects chains)
    (exp.EQ(this=exp.LT(this=A, expression=B), expression=TRUE), "(6 < 3) = TRUE"),
    (exp.NEQ(this=TRUE, expression=exp.EQ(this=A, expression=B)), "TRUE <> (6 = 3)"),
    # left-associative levels: only a right operand of the same level is wrapped
    (exp.Sub(this=exp.Sub(this=A, expression=B), expression=C), "6 - 3 - 5"),
    (exp.Sub(this=A, expression=exp.Sub(this=B, expression=C)), "6 - (3 - 5)"),
    (exp.Mul(this=exp.Add(this=A, expression=B), expression=C), "(6 + 3) * 5"),
    (exp.Add(this=exp.Mul(this=A, expression=B), expression=C), "6 * 3 + 5"),
    # the engines order bitwise operators differently: any operator under one is wrapped
    (exp.BitwiseAnd(this=exp.BitwiseOr(this=A, expression=B), expression=C), "(6 | 3) & 5"),
    (exp.BitwiseOr(this=exp.Add(this=A, expression=B), expression=C), "(6 + 3) | 5"),
    # NOT binds looser than a comparison in SQL (tighter in DDlog): always explicit
    (exp.Not(this=exp.EQ(this=A, expression=B)), "NOT (6 = 3)"),
    (exp.EQ(this=exp.Not(this=TRUE), expression=TRUE), "(NOT TRUE) = TRUE"),
    (exp.Or(this=exp.And(this=TRUE, expression=TRUE), expression=TRUE), "TRUE AND TRUE OR TRUE"),
    (exp.And(this=exp.Or(this=TRUE, expression=TRUE), expression=TRUE), "(TRUE OR TRUE) AND TRUE"),
    (exp.Neg(this=exp.Sub(this=A, expression=B)), "-(6 - 3)"),
    # DuckDB reads ``~6 + 3`` as ``~(6 + 3)``, Spark as ``(~6) + 3``
    (exp.Add(this=exp.BitwiseNot(this=A), expression=B), "(~6) + 3"),
    (exp.Mul(this=B, expression=exp.BitwiseNot(this=A)), "3 * (~6)"),
])
def test_parentheses_where_precedence_needs_them(tree, text, dialect) -> None:
    assert _printed(tree, dialect) == text


def test_a_bitwise_not_then_a_sum_means_the_tree_on_duckdb() -> None:
    # the operand of ``*`` followed by ``+``: unparenthesized, DuckDB computed
    # 3 * ~(6 + 5) = -36 where the tree means 3 * ~6 + 5 = -16
    tree = exp.Add(this=exp.Mul(this=B, expression=exp.BitwiseNot(this=A)), expression=C)
    assert duckdb.sql(f"SELECT {_printed(tree, 'duckdb')}").fetchall() == [(3 * ~6 + 5,)]


def test_postfix_field_access_of_an_operator() -> None:
    tree = exp.Dot(this=exp.Add(this=A, expression=B), expression=exp.to_identifier("f"))
    assert _printed(tree, "duckdb") == "(6 + 3).f"


def test_parenthesize_is_idempotent() -> None:
    tree = parenthesize(exp.EQ(this=exp.EQ(this=A, expression=B), expression=TRUE))
    once = tree.sql(dialect="duckdb")
    assert parenthesize(tree).sql(dialect="duckdb") == once


def _nested(depth: int, i: int = 0) -> exp.Expression:
    """A tree mixing every level: what each printed form computes on DuckDB must be
    what the tree means (checked against Python's evaluation of the same tree)."""
    if depth == 0:
        return exp.Literal.number(i % 7 + 1)
    ops = [exp.Add, exp.Sub, exp.Mul, exp.BitwiseAnd, exp.BitwiseOr, exp.BitwiseXor]
    node = ops[(depth + i) % len(ops)]
    return node(this=_nested(depth - 1, 2 * i + 1), expression=_nested(depth - 1, 2 * i + 2))


def _python(tree: exp.Expression) -> int:
    if isinstance(tree, exp.Literal):
        return int(tree.this)
    a, b = _python(tree.this), _python(tree.expression)
    return {exp.Add: a + b, exp.Sub: a - b, exp.Mul: a * b, exp.BitwiseAnd: a & b,
            exp.BitwiseOr: a | b, exp.BitwiseXor: a ^ b}[type(tree)]


def test_printed_arithmetic_computes_the_tree_on_duckdb() -> None:
    con = duckdb.connect()
    for shift in range(6):
        tree = _nested(4, shift)
        text = _printed(tree, "duckdb")
        assert con.execute(f"SELECT {text}").fetchall() == [(_python(tree),)], text
