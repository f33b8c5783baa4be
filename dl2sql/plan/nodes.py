"""The Plan IR: what a runner executes, statement by statement.

A plan is a sequence of statements over named tables. It is made without SQL: its
queries are relational algebra over tables (:class:`Rows`, :class:`Union`,
:class:`Subtract`, ...) and its columns have DDlog types, so that rewrites of the plan
(loop planning, :mod:`dl2sql.plan.loops`) need no dialect. SQL generation
(:mod:`dl2sql.sqlgen.plan_sql`) then gives the same statements with sqlglot queries
and SQL column types, per dialect, which the runners execute. The semi-naive fixpoint
is itself IR (:class:`Loop`), so that the Spark and DuckDB runners share one
interpreter (:mod:`dl2sql.plan.interpret`).
"""
from __future__ import annotations

from dataclasses import dataclass
import typing

# every kind of statement, of a plan and of an update plan (dl2sql.incremental.nodes):
# the generic traversal of dl2sql.plan.statements walks and maps them by their fields
STATEMENT_KINDS: set[type] = set()


def statement(cls: type) -> type:
    """Register the dataclass ``cls`` as a kind of statement: its fields that hold a
    statement or a tuple of them are its nested statements, those that hold a
    :class:`Table` (or a tuple of them) its tables."""
    STATEMENT_KINDS.add(cls)
    return cls


@dataclass(frozen=True)
class Column:
    """A column of a table: its name and type (a DDlog type in the plan, a sqlglot
    DataType once SQL is generated). Once SQL is generated, ``output`` is the SQL type
    of its values in output files and result frames where that differs (wide integers
    are decimal text there, :mod:`dl2sql.sqlgen.output_form`)."""

    name: str
    type: object
    output: object = None


@dataclass(frozen=True)
class Table:
    """A table the plan reads or writes, with its schema. ``partition_by`` names the
    columns a runner may hash-partition the table on to spare shuffles in loops (a
    physical hint, see :mod:`dl2sql.plan.partitioning`; empty for none); ``relation``
    is the DDlog relation whose rows (or delta, or new rows) it holds."""

    name: str
    columns: tuple[Column, ...]
    partition_by: tuple[str, ...] = ()
    relation: str = ""


# -- queries: relational algebra over tables -------------------------------------------
@dataclass(frozen=True)
class Rows:
    """The rows of one block (:mod:`dl2sql.ra.nodes`), each source read from the table
    of its version (full or delta)."""

    block: object


@dataclass(frozen=True)
class Scan:
    """Every row of a table."""

    table: str


@dataclass(frozen=True)
class Union:
    """The set union of ``parts``; with no parts, no rows (of ``relation``'s columns).
    With ``bag`` the union of bags: duplicates kept (:mod:`dl2sql.passes.bags`)."""

    relation: str
    parts: tuple
    bag: bool = False


@dataclass(frozen=True)
class Distribute:
    """The rows of ``query`` hash-distributed on the columns ``keys`` (a physical hint:
    engines that do not partition ignore it)."""

    query: object
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Subtract:
    """The rows of the duplicate-free ``query`` that table ``table`` does not hold
    (compared on ``columns``; ``carried``: more columns of ``query`` that the result
    keeps, which ``table`` need not have)."""

    query: object
    table: str
    columns: tuple[str, ...]
    carried: tuple[str, ...] = ()


@dataclass(frozen=True)
class Changes:
    """The rows that one of the duplicate-free tables ``new`` and ``old`` holds and
    the other does not, compared on ``columns``, with a boolean column ``side`` true
    for the rows of ``new`` (None: no such column): both set differences in one pass
    over the two tables (a full outer join, where two differences join them twice)."""

    new: str
    old: str
    columns: tuple[str, ...]
    side: typing.Optional[str] = None


@dataclass(frozen=True)
class OneAbove:
    """The rows of ``query`` with one more column ``column``: one more than the highest
    ``column`` of the tables ``tables`` (empty ones left out), computed once per query
    (where every row of those tables has the same value: a semi-naive round's rows of
    a stratum with levels, dl2sql.incremental.dred) instead of once per joined row."""

    query: object
    tables: tuple[str, ...]
    column: str


# ends the comment of a statement that runs a whole recursion as one query (its
# progress is reported as such, dl2sql.runner.heartbeat)
RECURSIVE_QUERY = ": recursive query"


@dataclass(frozen=True)
class RecursiveUnion:
    """A linear recursive relation as one query: ``base`` rows, then ``steps`` read
    the rows found so far under the name ``name`` until none is new (the engine's
    recursive union does the semi-naive evaluation)."""

    relation: str
    name: str
    base: tuple[Rows, ...]
    steps: tuple[Rows, ...]


# the column that says which relation a row of a TaggedRecursion belongs to
TAG = "dl2sql_tag"


@dataclass(frozen=True)
class TaggedRecursion:
    """Linear mutually recursive relations as one query: each row tagged with the
    index of its relation in ``relations`` (column :data:`TAG`), beside the columns
    of every relation (``r<index>_<column>``, NULL but for its own). ``base`` and
    ``steps`` are (index, rows) of one relation; the steps read each relation's rows
    found in the last round as its delta table (``R__delta``), until none is new (the
    engine's recursive union does the semi-naive evaluation). :class:`Untagged` reads
    one relation's rows back."""

    name: str
    relations: tuple[str, ...]
    base: tuple[tuple[int, Rows], ...]
    steps: tuple[tuple[int, Rows], ...]


@dataclass(frozen=True)
class Untagged:
    """The rows of ``relations[index]`` in ``table``, a :class:`TaggedRecursion`'s
    result, under that relation's own column names."""

    table: str
    relation: str
    index: int


def tagged_column(index: int, column: str) -> str:
    """The name of column ``column`` of the ``index``-th relation of a
    :class:`TaggedRecursion`."""
    return f"r{index}_{column}"


@dataclass(frozen=True)
class KeyedRecursion:
    """A lattice loop of one aggregate as one query, on an engine whose recursive
    query keeps one row per key (DuckDB's ``USING KEY``): ``base`` gives the first
    values, then ``step`` the values that improve on those held, reading the last
    round's improved rows as ``name`` and every key's value held as the query's own
    rows so far (an :class:`Improve` with ``recurring``); a key's new row replaces its
    old one, and the query ends with a round that improves none. Its rows are each
    key's best value."""

    relation: str
    name: str
    keys: tuple[str, ...]
    base: object
    step: object


@dataclass(frozen=True)
class Named:
    """``query`` read under the table name ``name`` by ``body`` (a common table
    expression: a loop's candidates of a round inside a :class:`KeyedRecursion`)."""

    name: str
    query: object
    body: object


@dataclass(frozen=True)
class EdgeProbe:
    """One row: the number of rows of ``table`` and of distinct values of its column
    ``source`` (how many edges leave each source, on average)."""

    table: str
    source: str


@dataclass(frozen=True)
class Intersect:
    """The rows of the duplicate-free ``query`` that table ``table`` also holds."""

    query: object
    table: str
    columns: tuple[str, ...]


@dataclass(frozen=True)
class Best:
    """One row per distinct ``keys`` of ``query``'s rows, with the least (``direction``
    "min") or greatest ("max") ``value`` among them. ``columns`` names the result's
    columns, in order: (result column, column of ``query``), the value's among them."""

    query: object
    keys: tuple[str, ...]
    value: str
    direction: str
    columns: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Improve:
    """The rows of ``query`` (one per ``keys``) whose ``value`` is better than that of
    every row of table ``table`` with the same keys: less for ``direction`` "min",
    greater for "max" (a lattice loop's new values, :mod:`dl2sql.plan.lattice`)."""

    query: object
    table: str
    keys: tuple[str, ...]
    value: str
    direction: str
    # ``table`` is the rows so far of the keyed recursive query it is a step of
    recurring: bool = False


@dataclass(frozen=True)
class Part:
    """One query of a :class:`Parts`: empty whenever one of the tables ``needs`` (read
    by a join, not by a negation) is empty."""

    query: object
    needs: tuple[str, ...]


@dataclass(frozen=True)
class Parts:
    """The set union of those ``parts`` whose needed tables are not empty, chosen when
    the statement runs (incremental maintenance: a transaction changes few
    relations, and a part that joins an unchanged relation's change has no rows)."""

    relation: str
    parts: tuple[Part, ...]


@statement
@dataclass(frozen=True)
class Materialize:
    """``target := query`` (the query already removes duplicates where needed).
    With ``count`` the runner returns the number of rows of the new table."""

    target: Table
    query: object  # a query of this module; a sqlglot expression once SQL is made
    count: bool = False
    comment: str = ""


@statement
@dataclass(frozen=True)
class Append:
    """``target := target ∪ source`` where the two are known to be disjoint."""

    target: Table
    source: Table


@statement
@dataclass(frozen=True)
class Rename:
    """``target := source``; ``source`` is no longer used afterwards."""

    target: Table
    source: Table


@statement
@dataclass(frozen=True)
class Patch:
    """``target := (target − minus) ∪ plus`` in place, for a table that holds no row of
    ``plus`` and every row of ``minus`` (either may be None: nothing to add or remove)."""

    target: Table
    plus: typing.Optional[Table] = None
    minus: typing.Optional[Table] = None


@statement
@dataclass(frozen=True)
class Loop:
    """Repeat ``body`` until every table in ``until_empty`` (all counted by ``body``)
    is empty. ``stratum`` names the relations for progress and error messages.

    ``steps_per_check`` bodies run per termination test, counting only in the last,
    after the first test and while no counted delta has reached ``fuse_below_rows``
    rows (one body per test otherwise); see :func:`dl2sql.plan.fixpoint.steps_for`."""

    body: tuple["Stmt", ...]
    until_empty: tuple[str, ...]
    stratum: str
    max_iterations: int = 1_000_000
    steps_per_check: int = 1
    fuse_below_rows: float = float("inf")


@statement
@dataclass(frozen=True)
class Fixpoint:
    """A recursive stratum before loop planning (:mod:`dl2sql.plan.loops`) turns it
    into statements: ``relations`` are its members, in stratum order. With
    ``group_steps`` (the recursion goes through a ``group_by``, whose helper relations
    these are) it is iterated naively, as DDlog does (:mod:`dl2sql.passes.stratify`);
    ``bags`` are those of them that keep duplicate rows (:mod:`dl2sql.passes.bags`)."""

    relations: tuple[str, ...]
    group_steps: tuple[str, ...] = ()
    bags: tuple[str, ...] = ()

@statement
@dataclass(frozen=True)
class Choose:
    """Two exactly equivalent evaluations of a transitive-closure stratum (see
    :mod:`dl2sql.passes.doubling`): ``doubling`` when the edges of ``probe_query``'s
    table leave their sources at most ``max_degree`` at a time on average (long thin
    paths), ``linear`` otherwise. ``probe_query`` (an :class:`EdgeProbe`) yields one
    row: (edge count, distinct sources)."""

    probe: Table
    probe_query: object
    max_degree: float
    doubling: tuple["Stmt", ...]
    linear: tuple["Stmt", ...]
    stratum: str


@statement
@dataclass(frozen=True)
class Transform:
    """``outputs := transformer(inputs)``: a user transformer, a Python callable given
    the input tables as DataFrames of the engine and returning one per output (the
    API binds it, :mod:`dl2sql.api.transformers`); ``origin`` locates its ``apply``."""

    transformer: str
    inputs: tuple[Table, ...]
    outputs: tuple[Table, ...]
    origin: str


@statement
@dataclass(frozen=True)
class Load:
    """``target := rows``: a relation that is a constant of the program, its rows
    (normalised, see :mod:`dl2sql.runner.base`) computed once when the plan was made
    (:mod:`dl2sql.plan.constants`). With ``failure`` that computation failed: running
    the statement raises it, where the relation's loop would have failed."""

    target: Table
    rows: tuple = ()
    failure: str = ""
    comment: str = ""


@statement
@dataclass(frozen=True)
class Refuse:
    """A check: when ``table`` (made by an earlier statement) has a row, the run or
    transaction fails with ``message`` (its first rows shown after it) and changes
    nothing. Rows of an input relation that share a primary key are refused, as DDlog
    refuses them (:mod:`dl2sql.plan.key_checks`; a transaction's,
    :mod:`dl2sql.incremental.build`)."""

    table: Table
    message: str


Stmt = typing.Union[Materialize, Append, Rename, Patch, Loop, Choose, Fixpoint, Transform,
                    Load, Refuse]


@dataclass(frozen=True)
class UdfSpec:
    """A Python UDF the plan calls: SQL name, the function it runs (``func`` with type
    arguments ``targs``, or a ``synthetic`` FunctionIR for an expression SQL cannot
    express), its DDlog parameter and result types, and ``span``, the rule that first
    called it (for failure messages)."""

    name: str
    func: str
    targs: tuple
    params: tuple
    ret: object
    synthetic: object = None
    span: object = None


@dataclass(frozen=True)
class Plan:
    """A whole program: ``inputs`` are loaded by the caller, ``outputs`` are read back.
    ``relations`` maps each DDlog relation (qualified name) to its final table."""

    inputs: tuple[Table, ...]
    statements: tuple[Stmt, ...]
    relations: dict
    functions: tuple[UdfSpec, ...] = ()
