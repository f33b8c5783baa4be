"""The DuckDB runner: executes plan statements on a DuckDB connection.

Every plan table is a real DuckDB table. DuckDB is the oracle that Spark results are
checked against, so this runner favours plainness over cleverness: each statement is
one SQL statement printed by sqlglot for the ``duckdb`` dialect. The one exception is
for a maintained program's small transactions: a table of a few rows made on the
driver, and the changes of a stored table given as such rows, wait on the driver until
a statement reads the table (``duckdb_held.py``), so that a transaction whose changes
the driver works out runs no statement.
"""
from __future__ import annotations

import contextlib
import decimal
import functools
import math
from typing import Any, Callable, Optional

from sqlglot import exp

from dl2sql.engines import ENGINES
from dl2sql.plan.nodes import Table
from dl2sql.plan.thresholds import DuckDBThresholds, chosen
from dl2sql.runner.duckdb_held import HeldRows
from dl2sql.runner.duckdb_namespace import (attach_own_database, detach, in_database,
                                           tables_of)
from dl2sql.runner import interrupts
from dl2sql.sqlgen.trees import drop_table, select_all, table as table_ref


_DT = exp.DataType.Type
# the alias of the rows a patch removes: no relation's table is named so (DuckDB's
# names ignore case, so a short alias like "m" clashed with a relation named `M`)
REMOVED = "dl2sql_removed"


def _struct_fields(dtype: exp.DataType) -> list[tuple[str, exp.DataType]]:
    """Field names and types of a STRUCT data type, in declaration order."""
    fields = []
    for e in dtype.expressions:
        if isinstance(e, exp.ColumnDef):
            fields.append((e.name, e.args["kind"]))
        else:  # pragma: no cover - sqlglot variants without names
            raise ValueError(f"STRUCT field without a name in {dtype.sql()}")
    return fields


def _identity(v: Any) -> Any:
    return v


def _to_duckdb(dtype: exp.DataType) -> Callable[[Any], Any]:
    """A converter from a normalised value of ``dtype`` to what DuckDB's Python API
    binds to that type. Built once per column so that loading stays a tight loop."""
    t = dtype.this
    if t == _DT.STRUCT:
        fields = [(name, _to_duckdb(ft)) for name, ft in _struct_fields(dtype)]
        return lambda v: {name: conv(x) for (name, conv), x in zip(fields, v)}
    if t in (_DT.ARRAY, _DT.LIST):
        elem = _to_duckdb(dtype.expressions[0])
        if elem is _identity:
            return list
        return lambda v: [elem(x) for x in v]
    if t == _DT.DECIMAL:
        # Python ints beyond HUGEINT would fail type inference; Decimal binds exactly.
        return decimal.Decimal
    return _identity


def _needs_conversion(dtype: exp.DataType) -> bool:
    return dtype.this in (_DT.STRUCT, _DT.ARRAY, _DT.LIST, _DT.DECIMAL)


def normalize(value: Any) -> Any:
    """DuckDB's Python value → the normalised form of :mod:`dl2sql.runner.base`."""
    if isinstance(value, dict):
        return tuple(normalize(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    if isinstance(value, decimal.Decimal):
        return int(value)
    return value


_FLOATS = (_DT.FLOAT, _DT.DOUBLE)


def _normalizer(dtype: exp.DataType) -> Optional[Callable[[Any], Any]]:
    """A per-column normaliser, or None when DuckDB's value is already normalised.

    A floating-point value inside a struct or a list that a Python UDF made is NULL
    where the UDF gave NaN (DuckDB's UDFs cannot return NaN; a float that is a UDF's
    whole result is read back as NaN in SQL, :mod:`dl2sql.sqlgen.calls`): no DDlog
    value is NULL, so such a NULL is NaN."""
    if not _needs_conversion(dtype):
        return None
    if not any(t.this in _FLOATS for t in dtype.find_all(exp.DataType)):
        return normalize
    return _with_nan(dtype)


def _with_nan(dtype: exp.DataType) -> Callable[[Any], Any]:
    """:func:`normalize` for values of ``dtype``, a NULL floating-point value NaN."""
    t = dtype.this
    if t in _FLOATS:
        return lambda v: math.nan if v is None else v
    if t == _DT.STRUCT:
        fields = [_with_nan(ft) for _, ft in _struct_fields(dtype)]
        return lambda v: tuple(f(x) for f, x in zip(fields, v.values()))
    if t in (_DT.ARRAY, _DT.LIST):
        elem = _with_nan(dtype.expressions[0])
        return lambda v: [elem(x) for x in v]
    return normalize


class DuckDBRunner:
    """Runs plans on DuckDB; ``con`` defaults to a fresh in-memory database. On a
    connection given, its tables live in an in-memory database of its own attached
    there (duckdb_namespace.py), detached by :meth:`close`."""

    engine = "duckdb"
    dialect = "duckdb"
    counting_costs = False  # a CREATE TABLE AS answers with its number of rows

    def __init__(self, con=None, thresholds: Optional[DuckDBThresholds] = None):
        # how rows are loaded, held and patched (dl2sql.plan.thresholds)
        self.thresholds = chosen(thresholds, ENGINES["duckdb"].thresholds)
        self.database: Optional[str] = None  # where its tables are, on a con given
        # detaches that database: the program of the run keeps it for its close()
        self.release: Optional[Callable[[], None]] = None
        if con is None:
            import duckdb  # deferred: DuckDB loads only when it runs

            con = duckdb.connect(":memory:")
        else:
            self.database = attach_own_database(con)
            self.release = functools.partial(detach, con, self.database)
        self._con = con
        # printed CREATE ... AS statements by (table, query identity): an update plan
        # runs the same queries at every transaction, and printing one costs about as
        # much as DuckDB takes to run it on a few rows
        self._created: dict[tuple[str, int], tuple[exp.Expression, str]] = {}
        self._statements: dict[tuple, str] = {}
        self._kept = HeldRows()  # held tables and deferred patches (duckdb_held.py)
        self._begin_due = False  # inside transaction(), before its first statement
        self._names: dict[int, tuple[exp.Expression, frozenset]] = {}  # see _reads
        interrupts.watch(self)  # Ctrl-C stops its running statement

    def interrupt(self) -> None:
        """Stop the statement running now (called from another thread); it fails."""
        self._con.interrupt()

    @property
    def con(self):
        """The DuckDB connection. Inside :meth:`transaction`, the first use sends its
        BEGIN: a transaction whose changes the driver works out runs no statement."""
        if self._begin_due:
            self._begin_due = False
            self._con.execute(self._text(("begin",), exp.Transaction))
        return self._con

    # -- helpers -----------------------------------------------------------------
    def sql(self, query: exp.Expression) -> str:
        """``query`` printed for DuckDB (its tables in the runner's own database)."""
        if self.database is not None:
            query = in_database(query, self.database)
        return query.sql(dialect=self.dialect)

    def _schema_sql(self, table: Table) -> str:
        return self.sql(exp.Create(this=exp.Schema(this=table_ref(table.name), expressions=[
            exp.ColumnDef(this=exp.to_identifier(c.name, quoted=True), kind=c.type)
            for c in table.columns]), kind="TABLE", replace=True))

    # -- Runner protocol ---------------------------------------------------------
    def running(self):
        """Context of one evaluation (nothing to set up on DuckDB)."""
        return contextlib.nullcontext()

    def load(self, table: Table, rows: list[tuple]) -> None:
        """Create ``table`` from its schema and insert ``rows``.

        Rows are transposed into one list per column and inserted with a single
        ``SELECT unnest($1::T[]), unnest($2::U[]), ...`` per chunk: two orders of
        magnitude faster than ``executemany`` and needs no pyarrow. The first chunk
        makes the table (``CREATE TABLE ... AS``, typed by the casts): a transaction
        loads its changes in one statement each instead of two.
        """
        self._kept.forget(table.name)
        if not rows or not table.columns:
            self.con.execute(self._schema_sql(table))
            return
        _check_arity(table, rows)
        chunk = self.thresholds.load_chunk
        for start in range(0, len(rows), chunk):
            create = start == 0
            self.con.execute(self._text(("load", table, create),
                                        lambda: self._load_sql(table, create)),
                             _params(table, rows[start:start + chunk]))

    def hold(self, table: Table, rows: list[tuple]) -> None:
        """:meth:`load` for a temporary table of a few rows made on the driver: it is
        made when a statement first reads it, and a patch or an append that takes its
        rows reads them as parameters instead (a CREATE costs about as much as the
        DELETE or INSERT that then reads the table)."""
        if len(rows) > self.thresholds.held_rows or not table.columns:
            self.load(table, rows)
            return
        _check_arity(table, rows)
        self._kept.hold(table, rows)

    def current(self, tables: list[Table]) -> None:
        """Bring ``tables`` up to date for a reader outside the runner (a file written,
        a frame of a relation's contents)."""
        self._current([t.name for t in tables])

    def _current(self, names) -> None:
        """The tables among ``names`` as a statement that reads them must see them: the
        held ones made, the deferred patches applied (duckdb_held.py)."""
        for name in names:
            held = self._kept.tables.get(name)
            if held is not None:
                self.load(*held)
            patch = self._kept.take_patch(name)
            if patch is not None:
                self._delete_rows(patch.table, patch.touched())
                inserted = patch.inserted()
                if inserted:
                    self._insert_rows(patch.table, inserted)

    def _delete_rows(self, target: Table, rows: list) -> None:
        """Delete ``rows`` from ``target``: a lookup in one list parameter (1.0 ms, a
        join of a table of the rows 2.3 ms)."""
        def delete() -> exp.Delete:
            row = exp.Struct(expressions=[exp.PropertyEQ(
                this=exp.to_identifier(c.name, quoted=True),
                expression=exp.column(c.name, quoted=True)) for c in target.columns])
            return exp.Delete(this=table_ref(target.name), where=exp.Where(
                this=exp.ArrayContains(this=exp.Cast(
                    this=exp.Placeholder(this="1"), to=exp.DataType(
                        this=_DT.ARRAY, expressions=[_row_type(target)], nested=True)),
                    expression=row)))
        to_row = _row_converter(target)
        self.con.execute(self._text(("delete rows", target), delete),
                         [[to_row(r) for r in rows]])

    def _insert_rows(self, target: Table, rows: list) -> None:
        """Insert ``rows`` into ``target`` (one array parameter per column)."""
        self.con.execute(self._text(("load", target, False),
                                    lambda: self._load_sql(target, False)),
                         _params(target, rows))

    def _reads(self, query: exp.Expression) -> frozenset:
        """The tables ``query`` reads (by query identity, checked)."""
        hit = self._names.get(id(query))
        if hit is None or hit[0] is not query:
            hit = self._names[id(query)] = (query, frozenset(
                t.name for t in query.find_all(exp.Table)))
        return hit[1]

    def _rows_sql(self, table: Table, first: int = 1) -> exp.Select:
        """``SELECT unnest($1::T[]) AS c1, ...``: ``table``'s rows from one array
        parameter per column (numbered from ``first``)."""
        return exp.select(*(
            exp.alias_(exp.Explode(this=exp.Cast(
                this=exp.Placeholder(this=str(first + i)),
                to=exp.DataType(this=exp.DataType.Type.ARRAY, expressions=[c.type],
                                nested=True))), c.name, quoted=True)
            for i, c in enumerate(table.columns)))

    def _load_sql(self, table: Table, create: bool) -> exp.Expression:
        """The statement that makes (``create``) or extends ``table`` from one array
        parameter per column."""
        values = self._rows_sql(table)
        if create:
            return exp.Create(this=table_ref(table.name), kind="TABLE", replace=True,
                              expression=values)
        return exp.insert(values, table_ref(table.name))

    def materialize(self, table: Table, query: exp.Expression, count: bool) -> Optional[int]:
        """``CREATE OR REPLACE TABLE table AS query``; with ``count`` also its size."""
        # DuckDB answers a CREATE TABLE AS with the number of rows it stored: no second
        # statement to count them (a transaction's update runs dozens of small ones)
        self._current(self._reads(query))
        self._kept.forget(table.name)
        made = self.con.execute(self._create_sql(table, query)).fetchall()
        if not count:
            return None
        if len(made) == 1 and len(made[0]) == 1 and isinstance(made[0][0], int):
            return made[0][0]
        return self.count(table)

    def materialize_counted(self, items: list[tuple[Table, exp.Expression]]) -> list[int]:
        """Each of ``items`` made and counted by its own statement (counting is free)."""
        return [self.materialize(table, query, True) for table, query in items]

    def _text(self, key: tuple, build: Callable[[], exp.Expression]) -> str:
        """A statement over named tables printed once (``key`` names the statement and
        its tables; an update runs the same few hundred at every transaction)."""
        text = self._statements.get(key)
        if text is None:
            text = self._statements[key] = self.sql(build())
        return text

    def _create_sql(self, table: Table, query: exp.Expression) -> str:
        """``CREATE OR REPLACE TABLE table AS query`` printed, once per query object
        (plan queries are immutable and live as long as their plan)."""
        return self._once((table.name, id(query)), query, lambda: exp.Create(
            this=table_ref(table.name), kind="TABLE", replace=True, expression=query))

    def _once(self, key: tuple, query: exp.Expression,
              build: Callable[[], exp.Expression]) -> str:
        """The statement ``build()`` around ``query`` printed once per ``key`` (which
        holds ``query``'s identity, checked: an id outlives its object)."""
        hit = self._created.get(key)
        if hit is not None and hit[0] is query:
            return hit[1]
        text = self.sql(build())
        self._created[key] = (query, text)
        return text

    def append(self, target: Table, source: Table) -> None:
        """``INSERT INTO target SELECT * FROM source`` (of the rows, where ``source`` is
        held)."""
        rows = self._kept.rows(source.name)
        if rows is not None:
            self._current((target.name,))
            self._insert_rows(target, rows)
            return
        self._current((target.name, source.name))
        self.con.execute(self._text(("append", target.name, source.name), lambda: exp.insert(
            select_all(source.name), table_ref(target.name))))

    def rename(self, target: Table, source: Table) -> None:
        """Drop ``target`` and rename ``source`` to it (no data is copied)."""
        if target.name == source.name:
            return
        self._current((source.name,))
        self.drop(target)
        self.con.execute(self._text(("rename", target.name, source.name), lambda: exp.Alter(
            this=table_ref(source.name), kind="TABLE",
            actions=[exp.AlterRename(this=table_ref(target.name))])))

    def patch(self, target: Table, plus: Optional[Table], minus: Optional[Table]) -> None:
        """``target := (target − minus) ∪ plus`` in place: a ``DELETE`` and an
        ``INSERT`` (no copy of the rows that stay). Where both are held rows, the patch
        is deferred until a statement reads ``target`` (duckdb_held.py)."""
        plus_rows = None if plus is None else self._kept.rows(plus.name)
        minus_rows = None if minus is None else self._kept.rows(minus.name)
        if (plus is None) == (plus_rows is None) and (minus is None) == (minus_rows is None) \
                and self._kept.rows(target.name) is None \
                and self._kept.defer(target, plus_rows, minus_rows):
            if self._kept.touched(target.name) > self.thresholds.defer_rows:
                self._current((target.name,))
            return
        self._current((target.name,))
        if minus_rows is not None:
            self._delete_rows(target, minus_rows)
        elif minus is not None:
            def col(alias: str, c: str) -> exp.Column:
                return exp.column(c, table=alias, quoted=True)

            def delete() -> exp.Delete:
                same = exp.and_(*[exp.EQ(this=col(target.name, c.name),
                                         expression=col(REMOVED, c.name)) for c in target.columns])
                return exp.Delete(this=table_ref(target.name),
                                  using=[table_ref(minus.name, REMOVED)],
                                  where=exp.Where(this=same))
            self._current((minus.name,))
            self.con.execute(self._text(("delete", target.name, minus.name), delete))
        if plus is not None:
            self.append(target, plus)

    @contextlib.contextmanager
    def transaction(self):
        """A DuckDB transaction: what fails inside it leaves every table as it was."""
        mark = self._kept.mark()
        self._begin_due = True  # sent with the first statement (see con)
        try:
            yield
        except BaseException:
            if not self._begin_due:
                self._con.execute(self._text(("rollback",), exp.Rollback))
            self._begin_due = False
            self._kept.restore(mark)  # what it held is gone with the rest
            raise
        if self._begin_due:  # no statement ran
            self._begin_due = False
        else:
            self._con.execute(self._text(("commit",), exp.Commit))

    def retain(self, tables: list[Table]) -> None:
        """Drop every table but ``tables`` from the runner's own database; on a
        connection of its own, nothing (it goes with the runner). The held tables go
        either way: nothing reads them any more; deferred patches stay."""
        self._kept.forget_tables()
        if self.database is not None:
            keep = {t.name for t in tables}
            self.drop_all([Table(name, ()) for name in tables_of(self._con, self.database)
                           if name not in keep])

    def close(self) -> None:
        """On a connection given, detach the runner's own database (its tables go);
        else nothing (the connection is the runner's, and goes with it)."""
        if self.release is not None:
            self._kept = HeldRows()
            self.release()

    def compute(self, tables: list[Table]) -> None:
        """Nothing to do: every table is computed when it is created."""

    def fetch(self, table: Table) -> list[tuple]:
        """All rows of ``table`` in normalised form (STRUCT → tuple, DECIMAL → int)."""
        self._current((table.name,))
        rows = self.con.execute(self.sql(select_all(table.name))).fetchall()
        norms = [_normalizer(c.type) for c in table.columns]
        if not any(norms):
            return [tuple(r) for r in rows]
        return [
            tuple(v if f is None else f(v) for f, v in zip(norms, r)) for r in rows
        ]

    def fetch_all(self, tables: list[Table]) -> list[list[tuple]]:
        """The rows of each of ``tables`` (a query each: DuckDB has no job to share)."""
        return [self.fetch(t) for t in tables]

    def frame_of(self, query: exp.Expression):
        """A DuckDB relation of ``query``, evaluated when it is read (printed once per
        query object: a maintained program reads the same few at every transaction);
        the rows of the held tables it reads are its parameters."""
        reads = self._reads(query)
        held = tuple(sorted(n for n in reads if n in self._kept.tables))
        self._current([n for n in reads if n not in held])
        if not held:
            return self.con.sql(self._once(("frame", id(query)), query, lambda: query))
        # the held tables' rows as parameters: no table made to be read once
        text = self._once(("frame", id(query), held), query,
                          lambda: self._with_rows(query, held))
        return self.con.sql(text, params=[
            column for name in held for column in _params(*self._kept.tables[name])])

    def _with_rows(self, query: exp.Expression, names: tuple[str, ...]) -> exp.Expression:
        """``query`` reading each held table of ``names`` from its parameters, in order."""
        tables = {n: self._kept.tables[n][0] for n in names}
        first, at = {}, 1
        for n in names:
            first[n], at = at, at + len(tables[n].columns)

        def rows(node: exp.Expression) -> exp.Expression:
            if isinstance(node, exp.Table) and node.name in tables:
                return exp.Subquery(this=self._rows_sql(tables[node.name], first[node.name]),
                                    alias=exp.TableAlias(this=exp.to_identifier(
                                        node.alias or node.name, quoted=True)))
            return node
        return query.transform(rows)

    def drop(self, table: Table) -> None:
        """``DROP TABLE IF EXISTS table``."""
        self._kept.forget(table.name)
        self.con.execute(self._text(("drop", table.name), lambda: drop_table(table.name)))

    def drop_all(self, tables: list[Table]) -> None:
        """``DROP TABLE IF EXISTS`` each of ``tables``, in one call (a transaction drops
        the dozens of tables of the one before)."""
        for t in tables:
            self._kept.forget(t.name)
        if tables:
            self.con.execute(";\n".join(self._text(("drop", t.name), lambda t=t: drop_table(
                t.name)) for t in tables))

    def size(self, table: Table) -> int:
        """Number of rows of ``table`` (counted: DuckDB keeps no sizes apart)."""
        return self.count(table)

    def count(self, table: Table) -> int:
        """Number of rows of ``table``."""
        held = self._kept.rows(table.name)
        if held is not None:
            return len(held)
        self._current((table.name,))
        # fetchall: a result left unfinished (fetchone) blocks DuckDB's relation API
        (n,), = self.con.execute(self._text(("count", table.name), lambda: exp.select(
            exp.Count(this=exp.Star())).from_(table_ref(table.name)))).fetchall()
        return n

    def register_function(self, name: str, fn, arg_types, ret_type) -> None:
        """Register ``fn`` (normalised values in and out) as DuckDB scalar function ``name``;
        an exception inside ``fn`` fails the query with its message."""
        import duckdb  # deferred: DuckDB loads only when it runs

        to_db = _to_duckdb(ret_type)

        def call(*args):
            return to_db(fn(*[normalize(a) for a in args]))
        # DuckDB checks the Python signature's arity against the parameter list
        params = ", ".join(f"a{i}" for i in range(len(arg_types)))
        namespace = {"call": call}
        exec(f"def wrapped({params}):\n    return call({params})\n", namespace)
        wrapped = namespace["wrapped"]
        try:
            self.con.remove_function(name)
        except Exception:  # not registered yet
            pass
        self.con.create_function(
            name, wrapped, [duckdb.sqltype(t.sql(dialect="duckdb")) for t in arg_types],
            duckdb.sqltype(ret_type.sql(dialect="duckdb")),
            exception_handling=duckdb.PythonExceptionHandling.DEFAULT, side_effects=False,
            # DuckDB hands NaN to Python UDFs as NULL: they must still be called
            null_handling="special")


def _row_type(table: Table) -> exp.DataType:
    """A STRUCT of ``table``'s columns: one of its rows as one value."""
    return exp.DataType(this=_DT.STRUCT, nested=True, expressions=[
        exp.ColumnDef(this=exp.to_identifier(c.name, quoted=True), kind=c.type)
        for c in table.columns])


def _check_arity(table: Table, rows: list[tuple]) -> None:
    n = len(table.columns)
    for i, row in enumerate(rows):
        if len(row) != n:
            raise ValueError(
                f"relation {table.name}: row {i} has {len(row)} columns, expected {n}: {row!r}")


def _params(table: Table, rows: list[tuple]) -> list[list]:
    """``rows`` as one list per column, of the values DuckDB binds to its type."""
    params = []
    for j, conv in enumerate(_converters(table)):
        col = [r[j] for r in rows]
        params.append(col if conv is _identity else [conv(v) for v in col])
    return params


@functools.lru_cache(maxsize=4096)
def _converters(table: Table) -> tuple[Callable[[Any], Any], ...]:
    """Per column of ``table``, its values' converter to what DuckDB binds (a
    transaction converts a few rows of the same tables again and again)."""
    return tuple(_to_duckdb(c.type) for c in table.columns)


@functools.lru_cache(maxsize=1024)
def _row_converter(table: Table) -> Callable[[Any], Any]:
    """A converter of ``table``'s rows to the STRUCT values of :func:`_row_type`."""
    return _to_duckdb(_row_type(table))


def open_runner(settings) -> DuckDBRunner:
    """A runner on ``settings.con``, or on a new in-memory database, with
    ``settings.thresholds`` or the engine's."""
    return DuckDBRunner(settings.con, settings.thresholds)
