"""Spark DataFrames, catalog tables and files as the contents of input relations.

An input is validated against the relation's table schema (see
:mod:`dl2sql.sqlgen.types`) by column name; a column whose type differs only by a
lossless widening (``int`` to ``bigint``, ``bigint`` to ``decimal(38,0)``, ``float`` to
``double``) is cast, anything else is an :class:`~dl2sql.diagnostics.InputError` that
names the relation, the column, the expected and the found type. Data never goes
through the driver.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path
from typing import Optional

from dl2sql.diagnostics import InputError, first_line, overflow_failure, root_cause
from dl2sql.io.duckdb_frames import is_pandas_frame
from dl2sql.io.text_scan import file_problem, header_problem, in_file
from dl2sql.plan.nodes import Column, Table
from dl2sql.runner.spark_session import without_pandas_warning
from dl2sql.runner.spark_types import schema_ddl
from dl2sql.sqlgen.canonical import input_failure
from dl2sql.sqlgen.canonical import input_projection
from dl2sql.sqlgen.dialects import SPARK
from dl2sql.sqlgen.output_form import output_projection
from dl2sql.sqlgen.text_columns import csv_projection
from dl2sql.sqlgen.types import sql_type
from dl2sql.types.model import GROUP, MAP, SET_KINDS, VEC, TNamed, TTuple, unwrapped
from dl2sql.types.storage import is_recursive, struct_slots
from dl2sql.types.wide_ints import is_wide

_INTEGRAL = ("ByteType", "ShortType", "IntegerType", "LongType")


def expected_schema(spark, table: Table):
    """The Spark StructType of ``table`` (no job runs)."""
    return spark.createDataFrame([], schema=schema_ddl(table)).schema


def _inner(t, env) -> list:
    """The DDlog types of the parts of SQL values of ``t``: an array's element, a
    struct's fields in order (empty when ``t`` is unknown or has none)."""
    t = unwrapped(t) if t is not None else None
    if t is None or is_recursive(t, env):
        return []
    if isinstance(t, TNamed) and (t.name == VEC or t.name in SET_KINDS):
        return [t.args[0]]
    if isinstance(t, TNamed) and t.name == MAP:
        return [TTuple((t.args[0], t.args[1]))]
    if isinstance(t, TNamed) and t.name == GROUP:
        return [t.args[0], TNamed(VEC, (t.args[1],))]
    return [x.type for x in struct_slots(t, env) or ()]


def _widens(found, expected, t=None, env=None) -> bool:
    """Whether values of Spark type ``found`` fit ``expected`` exactly (after a cast);
    ``t`` is their DDlog type where known: a wide integer, read from its text, may
    come as any integer too."""
    f, e = type(found).__name__, type(expected).__name__
    if t is not None and is_wide(t):
        return f in _INTEGRAL or f == "StringType" or (
            f == "DecimalType" and found.scale == 0)
    parts = _inner(t, env)
    if f == e and f not in ("StructType", "ArrayType", "DecimalType"):
        return True
    if e == "LongType":
        return f in _INTEGRAL or (f == "DecimalType" and found.scale == 0
                                  and found.precision <= 18)
    if e == "DecimalType":
        return (f in _INTEGRAL or f == "DecimalType") and getattr(found, "scale", 0) == 0 \
            and getattr(found, "precision", 19) <= expected.precision
    if e == "DoubleType":
        return f in ("FloatType", "DoubleType")
    if e == "ArrayType" and f == "ArrayType":
        return _widens(found.elementType, expected.elementType, *(parts[:1] or [None]), env)
    if e == "StructType" and f == "StructType":
        names = [x.name for x in found.fields]
        types = parts if len(parts) == len(expected.fields) else [None] * len(expected.fields)
        return names == [x.name for x in expected.fields] and all(
            _widens(a.dataType, b.dataType, u, env)
            for a, b, u in zip(found.fields, expected.fields, types))
    return False


def _nullable(t):
    """``t`` with every nested field nullable (a cast cannot add NOT NULL)."""
    # deferred: PySpark loads only when Spark runs
    from pyspark.sql.types import ArrayType, StructField, StructType

    if isinstance(t, StructType):
        return StructType([StructField(f.name, _nullable(f.dataType), True) for f in t.fields])
    if isinstance(t, ArrayType):
        return ArrayType(_nullable(t.elementType), True)
    return t


def conform(relation: str, df, expected, declared: dict | None = None, env=None):
    """``df`` with exactly the expected columns, cast where lossless; raises
    InputError naming what does not fit, with each column's ``declared`` DDlog type
    (in type environment ``env``)."""
    from pyspark.sql.functions import col  # deferred: PySpark loads only when Spark runs

    declared = declared or {}
    found = {f.name: f.dataType for f in df.schema.fields}
    columns = []
    for field in expected.fields:
        sql = field.dataType.simpleString()
        t = declared.get(field.name)
        kind = sql if t is None else f"`{t}`, an integer or its decimal text" if is_wide(t) \
            else f"`{t}`, stored as {sql}"
        if field.name not in found:
            raise InputError(
                f"input relation `{relation}`: column `{field.name}` ({kind}) is missing "
                f"(found columns: {', '.join(found) or 'none'})")
        have = found[field.name]
        if not _widens(have, field.dataType, t, env):
            raise InputError(
                f"input relation `{relation}`: column `{field.name}` has type "
                f"{have.simpleString()}, expected {kind}")
        c = col(f"`{field.name}`")
        columns.append(c if have == field.dataType
                       else c.cast(_nullable(field.dataType)).alias(field.name))
    extra = sorted(set(found) - {f.name for f in expected.fields})
    if extra:
        raise InputError(f"input relation `{relation}`: unexpected column `{extra[0]}` "
                         f"(expected {', '.join(f.name for f in expected.fields)})")
    return df.select(*columns)


class SparkInput:
    """An input relation's contents on Spark: a DataFrame (Spark's or pandas'), a
    catalog table name, or a file path (``.parquet``, ``.json`` lines, ``.csv`` with a header). ``columns`` are
    the relation's (name, DDlog type) pairs in the type environment ``env``."""

    keep_duplicates = False  # a stream's or multiset's: copies are weights

    def __init__(self, relation: str, source, columns, env):
        self.relation, self.source = relation, source
        self.columns, self.env = columns, env

    def dataframe(self, spark, table: Table):
        """The source as a DataFrame with the table's schema, its values in canonical
        form (:mod:`dl2sql.sqlgen.canonical`; a value with none fails the first job
        that reads it)."""
        # files and frames hold wide integers as text (or as integers)
        expected = expected_schema(spark, dataclasses.replace(table, columns=tuple(
            Column(name, sql_type(t, self.env, external=True)) for name, t in self.columns)))
        src = self.source
        if isinstance(src, str) and _is_csv(src):
            src = read_csv(spark, self.relation, src, self.columns, self.env)
        elif isinstance(src, str):
            src = read_path_or_table(spark, self.relation, src, expected)
        elif is_pandas_frame(src):
            with without_pandas_warning():
                src = spark.createDataFrame(src)
        if not hasattr(src, "schema") or not hasattr(src, "select"):
            raise InputError(f"input relation `{self.relation}`: expected a DataFrame, a "
                             f"table name or a file path, found {type(src).__name__}")
        conformed = conform(self.relation, src, expected, dict(self.columns), self.env)
        projection = input_projection(self.relation, self.columns, self.env, SPARK)
        return conformed.selectExpr(*[e.sql(dialect="spark") for e in projection])

    def load_into(self, runner, table: Table) -> None:
        """Hold the source as ``table`` in a Spark runner (checkpointed, no collect)."""
        df = self.dataframe(runner.spark, table)
        try:
            runner.load_dataframe(table, df, distinct=not self.keep_duplicates)
        except InputError:
            raise
        except Exception as e:
            overflow_failure(e)  # a NARROW plan's value beyond 38 digits: the run goes WIDE
            message = (file_problem(self.relation, self.source, self.columns)
                       or in_file(self.source, input_failure(e)))
            if message is None and isinstance(self.source, str):
                message = (f"input relation `{self.relation}`: cannot read "
                           f"`{self.source}`: {root_cause(e)}")
            if message is None:
                raise
            raise InputError(message) from None


def estimated_bytes(spark, source) -> Optional[int]:
    """Spark's estimate of the bytes of ``source``, a DataFrame or a catalog table's
    name, from the statistics of its optimized plan, which no job computes: the files'
    sizes of a scan, a local relation's rows. None where Spark has none: a DataFrame
    of Python rows (an RDD), a Spark Connect session, a name that is no table, a file
    path."""
    try:
        if isinstance(source, str):
            if source.lower().endswith((".parquet", ".json", ".jsonl", ".csv")):
                return None
            source = spark.table(source)
        jdf = getattr(source, "_jdf", None)  # a classic session's; Connect has none
        if jdf is None:
            return None
        size = int(str(jdf.queryExecution().optimizedPlan().stats().sizeInBytes()))
    except Exception:  # no such table, or not a DataFrame: the run reports it
        return None
    return None if size >= 2 ** 63 - 1 else size  # Long.MaxValue: unknown


def _spark_path(path: str) -> str:
    """``path`` as Spark must be given it: a local relative path made absolute, since
    the JVM resolves it against its own working directory, which is the Python
    process's only until that changes directory (a notebook, a test)."""
    if "://" in path or not os.path.exists(path):
        return path
    return os.path.abspath(path)


def read_path_or_table(spark, relation: str, name: str, expected):
    """A file by its extension, else a table of the catalog."""
    lower = name.lower()
    try:
        if lower.endswith(".parquet"):
            return spark.read.parquet(_spark_path(name))
        # FAILFAST: a value that does not parse as its column's type (text in a number
        # column, a number beyond DECIMAL(38,0)) fails the load; Spark's default would
        # read it as NULL and the error would no longer show the value
        if lower.endswith((".json", ".jsonl")):
            return (spark.read.schema(expected).option("mode", "FAILFAST")
                    .json(_spark_path(name)))
        return spark.table(name)
    except Exception as e:  # AnalysisException: path or table not found
        raise InputError(f"input relation `{relation}`: cannot read `{name}`: "
                         f"{first_line(e)}") from None


# Spark's corrupt-record column: a line whose number of fields is not the header's.
# Not a possible DDlog field name, so never a column of the file.
_FIELD_COUNT = "dl2sql$line"
# RFC 4180 quoting, as DuckDB and Python's csv module read and write it (Spark's own
# default escapes quotes with backslashes); quoted fields may span lines.
CSV_OPTIONS = {"header": "true", "escape": '"', "multiLine": "true", "encoding": "UTF-8"}
# and written so: quotes doubled, spaces around values kept (Spark trims them by
# default), as DuckDB writes the same rows, byte for byte
CSV_WRITE_OPTIONS = {"header": "true", "quote": '"', "escape": '"', "encoding": "UTF-8",
                     "ignoreLeadingWhiteSpace": "false",
                     "ignoreTrailingWhiteSpace": "false", "lineSep": "\n"}


def _is_csv(name: str) -> bool:
    return name.lower().endswith(".csv")


def read_csv(spark, relation: str, path: str, columns, env):
    """CSV file ``path`` as a DataFrame of ``relation``'s columns: its header read
    first and checked against the fields (columns are matched by name, in any order),
    then every field read as text and checked as it is converted
    (:mod:`dl2sql.sqlgen.text_columns`); nothing runs before the first action but the
    read of the header."""
    # deferred: PySpark loads only when Spark runs
    from pyspark.sql.types import StringType, StructField, StructType

    reader = spark.read.options(**CSV_OPTIONS)
    try:
        header = list(reader.csv(_spark_path(path)).columns)
    except Exception as e:  # AnalysisException: path not found
        raise InputError(f"input relation `{relation}`: cannot read `{path}`: "
                         f"{first_line(e)}") from None
    if header:
        header[0] = header[0].lstrip("\ufeff")  # a byte-order mark is not part of a name
    problem = header_problem(path, relation, header, [name for name, _ in columns])
    if problem:  # the file's own header, where readable: engines rename repeated names
        raise InputError(file_problem(relation, path, columns) or problem)
    schema = StructType([StructField(h, StringType()) for h in header]
                        + [StructField(_FIELD_COUNT, StringType())])
    text = (reader.schema(schema).option("mode", "PERMISSIVE")
            .option("columnNameOfCorruptRecord", _FIELD_COUNT).csv(_spark_path(path)))
    projection = csv_projection(path, relation, list(columns), env, SPARK, _FIELD_COUNT)
    return text.selectExpr(*[e.sql(dialect="spark") for e in projection])


def write_table(runner, table: Table, path: str, fmt: str) -> None:
    """Write ``table`` as one ``fmt`` file at ``path`` (csv with a header, json lines,
    parquet)."""
    df = output_frame(runner, table).coalesce(1)
    parts = path + ".parts"
    writer = df.write.mode("overwrite")
    if fmt == "csv":
        writer.options(**CSV_WRITE_OPTIONS).csv(parts)
    elif fmt == "json":
        writer.json(parts)
    else:
        writer.parquet(parts)
    produced = [p for p in Path(parts).iterdir() if p.name.startswith("part-")]
    if produced:
        os.replace(produced[0], path)
    else:  # an empty relation: Spark writes no part file for some formats
        with open(path, "w", encoding="utf-8") as f:
            if fmt == "csv":
                f.write(",".join(field.name for field in df.schema.fields) + "\n")
    shutil.rmtree(parts, ignore_errors=True)


def output_frame(runner, table: Table):
    """The Spark DataFrame of ``table`` in output form
    (:mod:`dl2sql.sqlgen.output_form`)."""
    df = runner.dataframe(table)
    projection = output_projection(table.columns, SPARK)
    if projection is None:
        return df
    return df.selectExpr(*[e.sql(dialect="spark") for e in projection])


def result_frame(runner, table: Table):
    """The Spark DataFrame of ``table`` (in output form)."""
    return output_frame(runner, table)
