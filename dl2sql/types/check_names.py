"""Relation names that SQL tables can keep apart.

Each relation becomes a table named after it (``m::R`` as ``m__R``), and dl2sql adds
tables of its own by appending ``__`` and a version (``R__delta``, ``R__plus``) and
relations of its own named ``R__group1``, ``R__prev1``, ``R__Edges``. Two things could
make two of these meet, and both are refused here with a located error rather than
left to merge rows silently:

- a relation whose name is another relation's followed by ``__`` and more
  (``R__plus`` beside ``R``): that is the form of ``R``'s own tables. A ``__`` alone
  is no clash (DDlog's Soufflé converter names relations ``Rbasic__MethodLookup``);
- two relations whose tables' names differ only in case (``Edge`` and ``EDGE``):
  DuckDB and Spark (by default) match table names without regard to case.
"""
from __future__ import annotations

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics
from dl2sql.types.symbols import qualify

SEPARATOR = "__"


def table_base(relation: str) -> str:
    """The table name of ``relation``'s rows (as :func:`dl2sql.plan.build.table_name`)."""
    return relation.replace("::", SEPARATOR)


def check_relation_names(modules: list[A.Module], diags: Diagnostics) -> None:
    """Refuse relation names whose tables could meet dl2sql's own or each other's."""
    decls = [(qualify(m.name, d.name), d) for m in modules for d in m.decls
             if isinstance(d, A.RelationDecl)]
    bases = {}
    for q, d in decls:
        bases.setdefault(table_base(q).lower(), (q, d))
    for q, d in decls:
        base = table_base(q)
        first, decl = bases[base.lower()]
        if first != q:
            diags.error(d.span, f"relation `{q}` differs from `{first}` (declared at "
                                f"{decl.span}) only in the case of its letters: SQL "
                                f"engines match table names regardless of case, so their "
                                f"rows would be merged; rename one of them")
            continue
        owner = _owner(base, bases)
        if owner is not None:
            other, at = bases[owner]
            diags.error(d.span, f"relation `{q}` is named as the tables dl2sql makes for "
                                f"relation `{other}` (declared at {at.span}) are: "
                                f"`{table_base(other)}{SEPARATOR}` and a version "
                                f"(`{table_base(other)}__delta`, `{table_base(other)}"
                                f"__plus`, ...); rename it")


def _owner(base: str, bases: dict) -> str | None:
    """The (lower-case) table name of the relation whose tables ``base`` would be."""
    at = base.find(SEPARATOR, 1)
    while at > 0:
        if base[:at].lower() in bases:
            return base[:at].lower()
        at = base.find(SEPARATOR, at + 1)
    return None
