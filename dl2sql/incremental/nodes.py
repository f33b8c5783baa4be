"""The update plan: what a transaction runs, stratum by stratum, to turn the changes of
the input relations into the changes of every relation (:mod:`dl2sql.incremental.build`
makes it; :mod:`dl2sql.incremental.execute` runs it).

Every relation ``R`` is stored as a set (its ``full`` table, kept between
transactions). A transaction leaves ``R__plus`` and ``R__minus``: the rows it added to
and removed from ``R``; a stratum none of whose read relations changed is not touched.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from dl2sql.plan.nodes import Append, Loop, Materialize, Refuse, Table, statement  # noqa: F401 (Refuse: one node for both plans)


@statement
@dataclass(frozen=True)
class OverDeletion:
    """The over-deletion loop of a recursive stratum (DRed's first phase). ``deleted``
    are its relations' tables of over-deleted rows: the executor gives up on the
    incremental algorithm (and recomputes the stratum) once they hold more than a
    share of the relations' rows, as recomputing is then cheaper."""

    loop: Loop
    deleted: tuple[tuple[str, str], ...]  # (relation, table of its over-deleted rows)


@statement
@dataclass(frozen=True)
class Enough:
    """A check of a stratum's update: once ``tables`` (made by earlier statements; the
    product of their rows where there are several) hold more than the executor's
    ``share`` (a :class:`~dl2sql.incremental.execute.Choice` field) of the rows of
    ``relation``, the stratum is recomputed instead (``why`` says so in its method's
    name). A group stratum checks the keys of the groups a transaction touches (making
    most groups again costs more than making them all), a transitive closure the nodes
    that may lose paths times the nodes they may lose."""

    tables: tuple[Table, ...]
    relation: str
    why: str = "many groups touched"
    share: str = "recompute_share"


@dataclass(frozen=True)
class CountChange:
    """A query: the counts of a counted group's keys after a transaction, from their
    counts before (``prior``, the stored rows of the touched keys) and the rows the
    transaction added to (``plus``) and removed from (``minus``) the source; keys whose
    count falls to 0 have no row (DDlog's groups are never empty)."""

    block: object  # the GroupBlock (aggregate "count")
    prior: str
    plus: str
    minus: str


@statement
@dataclass(frozen=True)
class BySize:
    """``small`` when ``table`` (made by an earlier statement) holds at most ``limit``
    rows, ``large`` otherwise."""

    table: Table
    limit: int
    small: tuple
    large: tuple


# where the engine has a recursive query, a semi-naive insertion's first levels run as
# statements (each probes the stored relation) and the rest, if any, as one query
# (which hashes the stored relation once, the cost of about four probes)
LEVELS_AS_STATEMENTS = 4


def levels_then_at_once(table: Table, level: tuple, at_once: Materialize,
                        into: tuple) -> tuple:
    """The statements that run ``level`` (one level of a semi-naive loop, leaving its
    new rows in ``table``) while ``table`` has rows, at most
    :data:`LEVELS_AS_STATEMENTS` times, then, if it still has some, ``at_once`` (a
    :class:`Materialize` of every further level, one recursive query) and its rows
    appended to each table of ``into``."""
    rest = (BySize(table, 0, (), (at_once, *(Append(t, at_once.target) for t in into))),)
    for _ in range(LEVELS_AS_STATEMENTS):
        rest = (BySize(table, 0, (), (*level, *rest)),)
    return rest


@statement
@dataclass(frozen=True)
class DriverSearch:
    """The first statements of a transitive closure's update
    (:mod:`dl2sql.incremental.closure_search`), done on the driver where the edges are
    few: when the edge relation holds at most ``below`` rows, its ``edges`` (its full
    table, ``ends`` naming the columns where an edge leaves and arrives), the ``added``
    and the ``removed`` edges are fetched, and ``new_edges`` (the added edges that are no
    path yet), ``reached`` and ``pending`` loaded as the search leaves them. Otherwise
    ``first`` makes ``new_edges`` on the engine, then ``otherwise`` searches there (when
    an edge was removed). An engine that pays a job per statement (Spark) saves a probe
    of every path and one job per breadth-first level."""

    edges: Table
    ends: tuple[str, str]
    added: Table
    removed: Table
    new_edges: Table
    reached: Table
    pending: Table
    below: int
    first: tuple
    otherwise: tuple


@statement
@dataclass(frozen=True)
class InputOnDriver:
    """An input relation's rows added and removed, worked out on the driver where the
    executor holds the relation's rows (it fetched them for a closure's search,
    :class:`DriverSearch`, and keeps them up to date) and the transaction's changes
    came as rows: ``plus`` the ``inserted`` rows not stored, ``minus`` the ``deleted``
    ones stored and not inserted again. Otherwise ``otherwise`` makes them on the
    engine. On Spark this spares the job that compares the changes with the stored
    rows, and the search then needs no job to fetch the edges."""

    relation: Table
    inserted: Table
    deleted: Table
    plus: Table
    minus: Table
    otherwise: tuple


@dataclass(frozen=True)
class Absent:
    """A probe of a transitive closure ``P = E+`` by a row the driver knows: it holds
    where the row's column ``start`` reaches its column ``end`` along no path of the
    edges of held input relation ``edges`` (its full table; ``ends``: the columns where
    an edge leaves and arrives), as the transaction leaves them or, ``before``, as it
    found them."""

    edges: Table
    ends: tuple[str, str]
    start: int
    end: int
    before: bool = False


@dataclass(frozen=True)
class DriverPart:
    """A rule variant the driver can evaluate: the rows of ``source`` (an input's rows
    added or removed, worked out on the driver by :class:`InputOnDriver`) for which
    every probe of ``absent`` holds, with their columns ``outputs``, in order."""

    source: Table
    outputs: tuple[int, ...]
    absent: tuple[Absent, ...]


@statement
@dataclass(frozen=True)
class VariantsOnDriver:
    """``statement``, a Materialize of rule variants (its query a union of parts), made
    on the driver where every part a transaction leaves (the others need an empty
    table) is a :class:`DriverPart` whose source rows the driver worked out and whose
    closures' edges it holds; otherwise on the engine. ``parts`` follow the parts of
    the statement's query (None: a part only the engine makes). For ``Unreached(s, d)
    :- Edge(d, s), not Path(s, d)`` with ``Path = Edge+``: the rows a transaction
    adds are the inserted edges whose reverse is no path now, those it removes the
    deleted edges whose reverse was none, and both are searches of the held edges
    instead of probes of every path."""

    statement: Materialize
    parts: tuple[Optional[DriverPart], ...]


@dataclass(frozen=True)
class Lookup:
    """The stored rows of a primary-key input relation whose keys a caller loads into
    ``keys``: ``found`` makes them (read before a transaction that modifies them)."""

    keys: Table
    found: Materialize


@dataclass(frozen=True)
class StratumUpdate:
    """How one stratum follows a transaction.

    ``method`` names the incremental algorithm (``input``, ``rules``: delta rules
    with rederivation of the rows that lost a derivation, ``group``: the groups of the
    touched keys recomputed, ``dred``: delete and rederive for recursion, ``closure``:
    a transitive closure by its changed edges (:mod:`dl2sql.incremental.closure`);
    ``recompute``: a user transformer, run again whenever an input changed;
    ``recompute (recursive aggregation)``: recursion through a ``group_by``, evaluated
    again whenever a relation it reads changed);
    ``statements`` run it, leaving every relation's ``plus`` and ``minus`` tables and
    its full table updated. ``recompute`` evaluates the stratum from scratch into its
    full tables (after the executor renamed each to ``R__old``) and ``diff`` then makes
    ``plus`` and ``minus``. ``reads`` are the relations whose changes can change it."""

    relations: tuple[str, ...]
    method: str
    reads: tuple[str, ...]
    statements: tuple
    recompute: tuple = ()
    diff: tuple = ()
    negates: tuple[str, ...] = ()  # the relations of ``reads`` it negates
    undo: tuple = ()  # when it gives up: the stored relations back as they were
    lossless: "Table | None" = None  # a closure's removed edges not found again
    # a recursive stratum's maintenance by derivation levels (dl2sql.incremental.dred)
    levels: object = None

    @property
    def name(self) -> str:
        return ", ".join(self.relations)


@dataclass(frozen=True)
class UpdatePlan:
    """The whole update of a program.

    ``changes`` maps each input relation to the tables its caller loads with the
    transaction's inserted and deleted rows (a table not loaded holds no row);
    ``init`` runs once on a freshly evaluated program (each input's rows that come from
    facts in the program, which no deletion removes); ``tables`` has every table a
    statement may read, by name, so that one that was not made can be made empty;
    ``relations`` are the full tables."""

    changes: dict[str, tuple[Table, Table]]
    init: tuple
    strata: tuple[StratumUpdate, ...]
    tables: dict[str, Table]
    relations: dict[str, Table]
    layouts: dict  # the row shapes of helper tables (group keys), by pseudo-relation
    functions: tuple = ()  # the Python UDFs its SQL calls (UdfSpec), once SQL is made
    # streams, multisets and delayed relations (dl2sql.incremental.bag_nodes.BagPlan)
    bags: object = None
    lookups: dict = field(default_factory=dict)  # primary-key input -> its Lookup
