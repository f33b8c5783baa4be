"""The update plan's nodes for relations with weights (:mod:`dl2sql.incremental.bags`
makes them, :mod:`dl2sql.incremental.bag_execute` runs them).

A ``stream`` or ``multiset`` is stored as a bag: one row per unit of weight
(:mod:`dl2sql.passes.bags`). Its ``plus`` and ``minus`` tables are bags too, the net
change of the transaction: a row's weight grew by its copies in ``plus`` and shrank by
its copies in ``minus`` (never both). Joins of bags multiply weights as SQL joins
multiply rows, so that delta rules over these tables keep weights exact; their
queries keep duplicates (no ``DISTINCT``) and subtract copy by copy (``EXCEPT ALL``).

A source read at version ``before`` is the relation as the transaction found it:
``(R EXCEPT ALL R__plus) UNION ALL R__minus``, or ``R`` itself where the transaction
did not change it (chosen when the statement runs, like the parts of a query).
"""
from __future__ import annotations

from dataclasses import dataclass
from dl2sql.plan.nodes import Table, statement


# -- queries ----------------------------------------------------------------------------
@dataclass(frozen=True)
class BagParts:
    """The bag union of those ``parts`` (:class:`~dl2sql.plan.nodes.Part`) whose needed
    tables are not empty: each row as often as the parts give it."""

    relation: str
    parts: tuple


@dataclass(frozen=True)
class BagMinus:
    """The rows of ``query`` less, copy by copy, those of table ``table``
    (``EXCEPT ALL``; the query itself while that table is empty)."""

    query: object
    table: str


@dataclass(frozen=True)
class BagCommon:
    """The rows ``query`` and table ``table`` have in common, copy by copy
    (``INTERSECT ALL``; none while that table is empty)."""

    query: object
    table: str


@dataclass(frozen=True)
class BagHolding:
    """Every copy in table ``table`` of a row that table ``rows`` holds (a semi-join on
    ``columns``: it reads only the stored rows a small change matches); no row while
    ``rows`` is empty."""

    table: str
    rows: str
    columns: tuple[str, ...]


# -- statements -------------------------------------------------------------------------
@statement
@dataclass(frozen=True)
class BagPatch:
    """``target := (target − minus) + plus``, copy by copy, in place: every copy of a
    row of ``minus`` is removed and those that stay are put back, in ``add`` (with
    ``plus``), made by ``keep`` (the copies that stay) or ``keep_plus`` (those and
    ``plus``), the queries SQL generation fills in."""

    target: Table
    plus: Table
    minus: Table
    add: Table
    keep: object = None
    keep_plus: object = None


@statement
@dataclass(frozen=True)
class Replace:
    """``target := source``: a stored relation's new contents made whole (a stream's:
    this transaction's rows); an empty ``source`` empties it."""

    target: Table
    source: Table


# -- the plan's part ----------------------------------------------------------------------
@dataclass(frozen=True)
class Delays:
    """The changes of ``relation`` in the last transactions, which its delayed
    relations (``R-N``, the generated ``R__prevN``) receive N transactions late:
    ``tables[k - 1]`` holds (plus, minus) of ``k`` transactions ago. They are part of
    the stored state."""

    relation: str
    tables: tuple[tuple[Table, Table], ...]


@dataclass(frozen=True)
class BagPlan:
    """What the executor keeps for transactional relations: the relations stored as
    bags, the streams among them, the input streams (emptied by every transaction) and
    the history of each relation read delayed."""

    bags: frozenset
    streams: frozenset
    stream_inputs: frozenset
    delays: tuple[Delays, ...] = ()

    def history(self) -> list[tuple[Table, str]]:
        """Every history table, with the relation whose changes it holds."""
        return [(t, d.relation) for d in self.delays for pair in d.tables for t in pair]


def history_name(relation: str, ago: int) -> str:
    """The pseudo-relation of ``relation``'s changes ``ago`` transactions back, whose
    ``plus`` and ``minus`` tables (:func:`~dl2sql.plan.build.table_name`) hold them."""
    return f"{relation}__hist{ago}"


def bag_query(q) -> bool:
    """Whether ``q`` is a query of this module (kept apart from set queries when SQL
    is made)."""
    return isinstance(q, (BagParts, BagMinus, BagCommon, BagHolding))


BAG_STATEMENTS = (BagPatch, Replace)
