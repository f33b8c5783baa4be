"""Parentheses in SQL trees, decided in one place from the operators' precedence.

sqlglot prints a tree as it is: ``EQ(EQ(a, b), TRUE)`` becomes ``a = b = TRUE``, which
DuckDB rejects ("Chained comparisons are not supported") and other engines may read
differently. So the builders of SQL generation make trees without parentheses and
:func:`parenthesize` adds them, once per query, wherever an operand of an operator
would not otherwise bind to it in every dialect dl2sql prints.

The levels are those both engines agree on. Where they disagree the operators share a
level and any operator under them is parenthesized: DuckDB (like PostgreSQL) gives the
bitwise operators, the shifts and ``||`` one level between ``+``/``-`` and the
comparisons, while Spark orders them among themselves (``&`` before ``^`` before
``|``) and puts ``||`` with ``+``. Comparisons (``=``, ``<``, ``IS``, ``IN``, ``LIKE``,
...) never take a comparison as a bare operand: DuckDB refuses chains, and Spark and
DuckDB order ``IS``/``IN``/``LIKE`` differently against ``=`` and ``NOT``.
"""
from __future__ import annotations

from sqlglot import exp

UNARY, MULTIPLY, ADD, BITWISE, COMPARE, NOT, AND, OR = range(1, 9)

_LEVELS: dict[type, int] = {
    exp.Neg: UNARY, exp.BitwiseNot: UNARY,
    exp.Mul: MULTIPLY, exp.Div: MULTIPLY, exp.IntDiv: MULTIPLY, exp.Mod: MULTIPLY,
    exp.Add: ADD, exp.Sub: ADD,
    exp.BitwiseAnd: BITWISE, exp.BitwiseOr: BITWISE, exp.BitwiseXor: BITWISE,
    exp.BitwiseLeftShift: BITWISE, exp.BitwiseRightShift: BITWISE, exp.DPipe: BITWISE,
    exp.EQ: COMPARE, exp.NEQ: COMPARE, exp.LT: COMPARE, exp.LTE: COMPARE,
    exp.GT: COMPARE, exp.GTE: COMPARE, exp.NullSafeEQ: COMPARE, exp.NullSafeNEQ: COMPARE,
    exp.Is: COMPARE, exp.In: COMPARE, exp.Like: COMPARE, exp.ILike: COMPARE,
    exp.Between: COMPARE,
    exp.Not: NOT, exp.And: AND, exp.Or: OR,
}
# levels whose operators both engines associate to the left: a left operand of the
# same level needs no parentheses (``a - b + c``); a right one does (``a - (b - c)``)
_LEFT_ASSOCIATIVE = {MULTIPLY, ADD}
# levels whose operators are associative whichever way they nest (``a AND b AND c``)
_ASSOCIATIVE = {AND, OR}


def level(node: exp.Expression) -> int:
    """How loosely ``node`` binds its operands: 0 for what prints as one term (a
    column, a literal, a call, ``CASE``, ``CAST``, a parenthesized expression)."""
    return _LEVELS.get(type(node), 0)


def needs_parentheses(parent: exp.Expression, slot: str, child: exp.Expression) -> bool:
    """Whether ``child``, the operand ``slot`` (``this`` or ``expression``) of the
    operator or postfix ``parent``, must be parenthesized."""
    inner = level(child)
    if inner == 0:
        return False
    if isinstance(child, exp.BitwiseNot):
        # DuckDB (like PostgreSQL) reads a prefix ``~`` as reaching over the operators
        # after it (``~a + b`` is ``~(a + b)``), Spark as binding tightest: as an
        # operand it is one term in both only in parentheses
        return True
    if isinstance(parent, (exp.Dot, exp.Bracket)):  # postfix: the operand is one term
        return True
    outer = level(parent)
    if outer in (UNARY, BITWISE):
        return inner >= UNARY if outer == UNARY else inner >= MULTIPLY
    if outer in (COMPARE, NOT):
        return inner >= COMPARE
    if inner != outer:
        return inner > outer
    if outer in _ASSOCIATIVE:
        return False
    return not (outer in _LEFT_ASSOCIATIVE and slot == "this")


def _operand_slots(node: exp.Expression) -> tuple[str, ...]:
    if isinstance(node, (exp.Dot, exp.Bracket)):
        return ("this",)
    if isinstance(node, exp.Binary) and level(node):
        return ("this", "expression")
    if level(node):  # the prefix operators
        return ("this",)
    return ()


def parenthesize(tree: exp.Expression) -> exp.Expression:
    """``tree`` (changed in place) with every operand that would bind to a neighbouring
    operator instead of its own in some dialect wrapped in parentheses."""
    for node in list(tree.walk()):
        for slot in _operand_slots(node):
            child = node.args.get(slot)
            if isinstance(child, exp.Expression) and needs_parentheses(node, slot, child):
                node.set(slot, exp.Paren(this=child))
    return tree
