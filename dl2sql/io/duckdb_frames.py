"""pandas DataFrames, DuckDB relations and files as the contents of input relations
on DuckDB. Validation is by column name, like on Spark; values are cast to the
relation's column types, and a value that does not fit fails with an InputError."""
from __future__ import annotations

import functools
import importlib.util

from sqlglot import exp

from dl2sql.diagnostics import InputError, first_line, overflow_failure
from dl2sql.io.text_scan import file_problem, header_problem, in_file
from dl2sql.plan.nodes import Table
from dl2sql.runner.spark_session import without_pandas_warning
from dl2sql.sqlgen.canonical import input_failure, input_projection
from dl2sql.sqlgen.dialects import DUCKDB
from dl2sql.sqlgen.output_form import output_projection
from dl2sql.sqlgen.text_columns import csv_projection
from dl2sql.sqlgen.types import sql_type
from dl2sql.types.wide_ints import is_wide
from dl2sql.sqlgen.trees import select_all, table as table_ref


def is_spark_frame(value) -> bool:
    """A PySpark DataFrame (without importing PySpark)."""
    return type(value).__module__.startswith("pyspark.sql") and hasattr(value, "toPandas")


def is_pandas_frame(value) -> bool:
    """A pandas DataFrame (without importing pandas)."""
    return type(value).__module__.startswith("pandas") and hasattr(value, "dtypes")


def _relation(con, relation: str, src, json_columns=None):
    """``src`` as a DuckDB relation (a JSON file read with ``json_columns``' types
    when given, else with guessed ones)."""
    try:
        if isinstance(src, str):
            lower = src.lower()
            if lower.endswith(".parquet"):
                return con.read_parquet(src)
            if lower.endswith((".json", ".jsonl")):
                return con.read_json(src, format="newline_delimited", columns=json_columns)
            if lower.endswith(".csv"):
                # CSV has no types: read text and convert it by dl2sql's rules (DuckDB's
                # guesses would turn a string column "030" into the number 30); RFC
                # 4180 quoting, as on Spark
                # `""` is the empty string (not NULL): a NULL is then a blank line
                return con.read_csv(src, header=True, all_varchar=True, sep=",",
                                    quotechar='"', escapechar='"', allow_quoted_nulls=False)
            return con.table(src)
        if is_spark_frame(src):  # small data (a notebook's): collected to the driver
            return _collected(con, src)
        if is_pandas_frame(src):
            return con.from_df(src)
        if hasattr(src, "types") and hasattr(src, "columns"):
            return src  # a DuckDB relation
    except InputError:
        raise
    except Exception as e:
        raise InputError(f"input relation `{relation}`: cannot read `{src}`: "
                         f"{first_line(e)}") from None
    raise InputError(f"input relation `{relation}`: expected a pandas DataFrame, a DuckDB "
                     f"relation, a table name or a file path, found {type(src).__name__}")


def can_collect() -> bool:
    """Whether this process can collect a Spark DataFrame to the driver (the small runs
    evaluated there): through Arrow (:func:`_collected`) or pandas."""
    from pyspark.sql import DataFrame  # deferred: Spark's side
    return _by_arrow(DataFrame) or importlib.util.find_spec("pandas") is not None


def _by_arrow(frame) -> bool:
    """Whether ``frame`` (a DataFrame, or its class) is collected through Arrow: PySpark
    has ``DataFrame.toArrow`` (4.0) and pyarrow is installed."""
    return hasattr(frame, "toArrow") and importlib.util.find_spec("pyarrow") is not None


def _collected(con, frame):
    """Spark DataFrame ``frame`` collected to the driver as a DuckDB relation: through
    Arrow where it can (:func:`_by_arrow`), which keeps every column's type (an empty
    frame's, a list of structs, a 32-bit float); else through pandas, whose object
    columns lose them."""
    with without_pandas_warning():
        if _by_arrow(frame):
            return con.from_arrow(frame.toArrow())
        return con.from_df(frame.toPandas())


_INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
             "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT")


def _kind(t: str) -> str:
    """A DuckDB type's family, for deciding what may be cast without loss."""
    t = t.upper()
    if t.endswith("[]"):
        return "list"
    if t.startswith("STRUCT"):
        return "struct"
    if t in _INTEGERS or (t.startswith("DECIMAL") and t.replace(" ", "").endswith(",0)")):
        return "integer"
    if t in ("FLOAT", "REAL"):
        return "float"
    if t == "DOUBLE":
        return "double"
    if t in ("VARCHAR", "TEXT", "STRING"):
        return "string"
    return t


def _fits(found: str, expected: str, wide: bool = False) -> bool:
    """Whether a column of DuckDB type ``found`` may be cast to ``expected``; a wide
    integer (read from its text) may come as any integer too."""
    f, e = _kind(found), _kind(expected)
    return f == e or (e == "double" and f == "float") or (wide and f == "integer")


class DuckDBInput:
    """An input relation's contents on DuckDB; ``columns`` are the relation's (name,
    DDlog type) pairs in the type environment ``env``."""

    keep_duplicates = False  # a stream's or multiset's: copies are weights

    def __init__(self, relation: str, source, columns, env):
        self.relation, self.source = relation, source
        self.columns, self.env = columns, env

    def load_into(self, runner, table: Table) -> None:
        """Create ``table`` from the source: each column converted to its type (CSV
        text by :mod:`dl2sql.sqlgen.text_columns`, anything else cast where lossless),
        then put in canonical form (:mod:`dl2sql.sqlgen.canonical`), duplicates
        dropped (unless ``keep_duplicates``)."""
        con = runner.con
        try:
            rel = _relation(con, self.relation, self.source)
        except InputError as e:
            raise InputError(self._located() or str(e)) from None
        found = dict(zip(rel.columns, (str(t) for t in rel.types)))
        path = self.source.lower() if isinstance(self.source, str) else ""
        view = f"dl2sql__input__{table.name}"  # `__` inside: never a user relation's
        if path.endswith(".csv"):
            typed = self._csv_columns(list(found)).from_(exp.to_identifier(view, quoted=True))
        else:
            typed = self._cast_columns(table, found, path).from_(
                exp.to_identifier(view, quoted=True))
        if path.endswith((".json", ".jsonl")):
            # JSON numbers have no type: DuckDB would guess DOUBLE for one beyond HUGEINT
            # (losing digits of a bit<128>). The guess only served to check the column
            # names; the values are read again as the declared types (a wide integer as
            # its text, every digit).
            rel = _relation(con, self.relation, self.source,
                            {c: t.sql(dialect="duckdb") for c, t in self._external().items()})
        canonical = exp.select(*input_projection(self.relation, self.columns, self.env,
                                                 DUCKDB)).from_(typed.subquery("typed"))
        if not self.keep_duplicates:
            canonical.set("distinct", exp.Distinct())
        create = exp.Create(this=exp.Table(this=exp.to_identifier(table.name, quoted=True)),
                            kind="TABLE", replace=True, expression=canonical)
        con.register(view, rel)
        try:
            con.execute(runner.sql(create))
        except Exception as e:
            overflow_failure(e)  # a NARROW plan's value beyond 38 digits: the run goes WIDE
            message = self._located() or in_file(self.source, input_failure(e))
            if message is not None:
                raise InputError(message) from None
            raise InputError(f"input relation `{self.relation}`: its values do not fit the "
                             f"declared column types: {first_line(e)}") from None
        finally:
            con.unregister(view)

    def _external(self) -> dict:
        """Column name -> the SQL type files and frames hold it in (wide integers as
        text, :func:`dl2sql.sqlgen.types.sql_type`)."""
        return {name: sql_type(t, self.env, external=True) for name, t in self.columns}

    def _located(self) -> str | None:
        """The source file's first problem with its line (local files)."""
        return file_problem(self.relation, self.source, self.columns)

    def _csv_columns(self, header: list[str]) -> exp.Select:
        problem = header_problem(self.source, self.relation, header,
                                 [name for name, _ in self.columns])
        if problem:  # the file's own header, where readable: DuckDB renames repeated names
            raise InputError(self._located() or problem)
        select = exp.select(*csv_projection(self.source, self.relation, list(self.columns),
                                            self.env, DUCKDB))
        if len(header) == 1:  # DuckDB reads a blank line as one empty field; Spark skips it
            select = select.where(exp.Not(this=exp.Is(
                this=exp.column(header[0], quoted=True), expression=exp.Null())))
        return select

    def _cast_columns(self, table: Table, found: dict, path: str) -> exp.Select:
        """The columns cast to their SQL types where that loses nothing."""
        from_json = path.endswith((".json", ".jsonl"))
        casts = []
        declared = dict(self.columns)
        external = self._external()
        located = functools.cache(self._located)  # scans the file: at most once
        for c in table.columns:
            to = external.get(c.name, c.type)
            expected = to.sql(dialect="duckdb")
            wide = c.name in declared and is_wide(declared[c.name])
            kind = (f"`{declared[c.name]}`, " + ("an integer or its decimal text" if wide
                                                 else f"stored as {expected}")
                    if c.name in declared else expected)
            if c.name not in found:  # the file's own first problem, located, if a file
                raise InputError(located() or (
                    f"input relation `{self.relation}`: column `{c.name}` ({kind}) is "
                    f"missing (found columns: {', '.join(found) or 'none'})"))
            if from_json and found[c.name] == "VARCHAR" and _kind(expected) != _kind("VARCHAR"):
                # text where the declared type is not: DuckDB's cast would take `"yes"`
                # as true and `"12"` as 12, which Spark (and JSON) do not
                if located():
                    raise InputError(located())
            if not from_json and not _fits(found[c.name], expected, wide):
                raise InputError(f"input relation `{self.relation}`: column `{c.name}` has "
                                 f"type {found[c.name]}, expected {kind}")
            casts.append(exp.alias_(exp.Cast(this=exp.column(c.name, quoted=True), to=to),
                                    c.name, quoted=True))
        extra = sorted(set(found) - {c.name for c in table.columns})
        if extra:
            raise InputError(f"input relation `{self.relation}`: unexpected column "
                             f"`{extra[0]}` (expected "
                             f"{', '.join(c.name for c in table.columns)})")
        return exp.select(*casts)


def write_table(runner, table: Table, path: str, fmt: str) -> None:
    """Write ``table`` as one ``fmt`` file at ``path`` (csv with a header, json lines,
    parquet)."""
    options = {"csv": ("CSV", True), "json": ("JSON", False), "parquet": ("PARQUET", False)}
    form, header = options[fmt]
    params = [exp.CopyParameter(this=exp.var("FORMAT"), expression=exp.var(form))]
    if header:
        params.append(exp.CopyParameter(this=exp.var("HEADER")))
    copy = exp.Copy(this=exp.Subquery(this=_output_query(table)), kind=False,
                    files=[exp.Literal.string(path)], params=params)
    runner.current([table])
    runner.con.execute(runner.sql(copy))


def _output_query(table: Table) -> exp.Select:
    """``table``'s rows in output form (:mod:`dl2sql.sqlgen.output_form`)."""
    projection = output_projection(table.columns, DUCKDB)
    if projection is None:
        return select_all(table.name)
    return exp.select(*projection).from_(table_ref(table.name))


def result_frame(runner, table: Table):
    """The DuckDB relation of ``table`` in output form (``.df()`` gives pandas)."""
    runner.current([table])
    return runner.con.sql(runner.sql(_output_query(table)))
