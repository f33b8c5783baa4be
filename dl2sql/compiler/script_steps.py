"""The steps of a program's script, and the two forms they are printed in.

:mod:`dl2sql.compiler.spark_script` turns a plan into these steps once: SQL statements
to run in order, comments, loops of semi-naive steps that go on while a round made
rows, and checks that fail the run. :func:`sql_script` prints them as one Spark SQL
script (``BEGIN ... END``, Spark 4's SQL scripting); :func:`pyspark_script` prints
them as a standalone Python program that passes each statement to ``spark.sql`` and
runs the loops in Python, for Spark 3.5, which has no SQL scripting.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass

from sqlglot import exp


@dataclass(frozen=True)
class Statement:
    """One SQL statement (no semicolon)."""

    sql: str


@dataclass(frozen=True)
class Note:
    """A comment for the reader."""

    text: str


@dataclass(frozen=True)
class CountRows:
    """Add to the loop's counter ``var`` whether ``table`` has rows (after it is made:
    a later rename takes its name)."""

    var: str
    table: str


@dataclass(frozen=True)
class Repeat:
    """Run ``body`` while a round of it made rows (counted by its :class:`CountRows`)."""

    var: str
    body: tuple


@dataclass(frozen=True)
class FailIfRows:
    """Fail the run with ``message`` when ``table`` has a row."""

    table: str
    message: str


@dataclass(frozen=True)
class Fail:
    """Fail the run with ``message`` (a constant of the program that failed to
    evaluate when the script was made)."""

    message: str


@dataclass(frozen=True)
class Script:
    """A program's steps, the header lines that say what it needs, reads and writes,
    and the Python functions it calls (registered first, by
    ``dl2sql.register_functions``)."""

    path: str
    about: tuple  # lines: what it reads and writes, how it evaluates
    functions: tuple
    counters: tuple
    steps: tuple


SPARK_SQL_VERSION = "4.0"
PYSPARK_VERSION = "3.5"


def _registration(script: Script) -> list[str]:
    if not script.functions:
        return ["Needs nothing but Spark: no Python functions."]
    return [f"Calls Python functions ({', '.join(script.functions)}): register them in "
            f"the session that runs it first, with",
            f"  dl2sql.register_functions(spark, \"{script.path}\")  "
            f"(extern functions: extern={{name: callable}})"]


# -- Spark SQL ---------------------------------------------------------------------------
def sql_script(script: Script) -> str:
    """``script`` as one Spark SQL script: ``spark.sql(text)``, ``spark-sql -f``, JDBC."""
    header = [f"{script.path}: a Spark SQL script made by dl2sql",
              f"Needs Spark {SPARK_SQL_VERSION} or later (SQL scripting; on 4.0 set "
              f"spark.sql.scripting.enabled=true). Run it with spark.sql(script), "
              f"spark-sql -f, or a JDBC client.",
              *script.about, *_registration(script)]
    lines = ["-- " + line for line in header] + ["BEGIN"]
    lines += [f"  DECLARE {v} BIGINT DEFAULT 1;" for v in script.counters]
    _sql_steps(script.steps, 1, lines)
    return "\n".join(lines + ["END;"]) + "\n"


def _sql_steps(steps, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    for s in steps:
        if isinstance(s, Statement):
            lines += [pad + line for line in s.sql.splitlines()]
            lines[-1] += ";"
        elif isinstance(s, Note):
            lines.append(f"{pad}-- {s.text}")
        elif isinstance(s, CountRows):
            lines.append(f"{pad}SET {s.var} = {s.var} + {_count(s.table)};")
        elif isinstance(s, Repeat):
            lines += [f"{pad}SET {s.var} = 1;", f"{pad}WHILE {s.var} > 0 DO",
                      f"{pad}  SET {s.var} = 0;"]
            _sql_steps(s.body, depth + 1, lines)
            lines.append(f"{pad}END WHILE;")
        elif isinstance(s, FailIfRows):
            # an IF of the script: a query that reads raise_error's rows without using
            # their column (a COUNT of them) has the call pruned away, and never fails
            lines += [f"{pad}IF {_count(s.table)} > 0 THEN",
                      f"{pad}  {_raise(s.message)};", f"{pad}END IF;"]
        elif isinstance(s, Fail):
            lines.append(f"{pad}{_raise(s.message)};")
        else:
            raise TypeError(f"not a script step: {s!r}")


# the queries inside the scripting statements (which sqlglot does not model)
def _count(table: str) -> str:
    """``(SELECT COUNT(*) FROM table)``, a scalar subquery."""
    return exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
        exp.to_table(table, dialect="spark"))).sql(dialect="spark")


def _raise(message: str) -> str:
    """``SELECT RAISE_ERROR('message')``: a statement that fails the script."""
    return exp.select(exp.func("raise_error", exp.Literal.string(message))).sql(
        dialect="spark")


def _first_row(table: str) -> str:
    """``SELECT 1 FROM table LIMIT 1``: whether the table has a row."""
    return exp.select("1").from_(exp.to_table(table, dialect="spark")).limit(1).sql(
        dialect="spark")


# -- PySpark -----------------------------------------------------------------------------
def pyspark_script(script: Script) -> str:
    """``script`` as a standalone PySpark program: ``python prog.py``,
    ``spark-submit prog.py``, or ``run(spark)`` from a pipeline."""
    header = [f"{script.path}: a PySpark script made by dl2sql.", "",
              f"Needs PySpark {PYSPARK_VERSION} or later: each statement goes to spark.sql, "
              f"the loops run in Python. Run it with `python` or `spark-submit`, or "
              f"import it and call run(spark) in a pipeline.",
              *script.about, *_registration(script)]
    lines = ['"""' + header[0]]
    for line in header[1:]:  # an indented line is code, kept whole
        line = line.replace('"""', "'''")
        lines += [line] if line[:1] in ("", " ") else textwrap.wrap(
            line, 88, subsequent_indent="  ", break_on_hyphens=False)
    lines += ['"""', "from pyspark.sql import SparkSession", "", "",
              "def run(spark):",
              '    """Evaluate the program in ``spark``: see the top of this file."""',
              "    def sql(text):",
              "        return spark.sql(text).collect()", "",
              "    def has_rows(first_row):",
              "        return bool(sql(first_row))", ""]
    _python_steps(script.steps, 1, lines)
    main = ["", "", 'if __name__ == "__main__":',
            "    session = SparkSession.builder.getOrCreate()"]
    if script.functions:
        main += ["    import dl2sql  # the program's Python functions",
                 f"    dl2sql.register_functions(session, {script.path!r})"]
    return "\n".join(lines + main + ["    run(session)"]) + "\n"


def _python_steps(steps, depth: int, lines: list[str]) -> None:
    pad = "    " * depth
    for s in steps:
        if isinstance(s, Statement):
            lines.append(f"{pad}sql({_python_string(s.sql, pad)})")
        elif isinstance(s, Note):
            lines.append(f"{pad}# {s.text}")
        elif isinstance(s, CountRows):
            lines.append(f"{pad}{s.var} = {s.var} or has_rows({_first_row(s.table)!r})")
        elif isinstance(s, Repeat):
            lines += [f"{pad}{s.var} = True", f"{pad}while {s.var}:",
                      f"{pad}    {s.var} = False"]
            _python_steps(s.body, depth + 1, lines)
        elif isinstance(s, FailIfRows):
            lines += [f"{pad}if has_rows({_first_row(s.table)!r}):",
                      f"{pad}    raise RuntimeError({s.message!r})"]
        elif isinstance(s, Fail):
            lines.append(f"{pad}raise RuntimeError({s.message!r})")
        else:
            raise TypeError(f"not a script step: {s!r}")


def _python_string(text: str, pad: str) -> str:
    """``text`` as a Python literal: a raw triple-quoted block when it can be one (Spark
    SQL string literals never span lines, so the block's indentation changes no value)."""
    if '"""' in text:
        return repr(text)
    if "\n" not in text and not text.endswith(('"', "\\")):
        return f'r"""{text}"""'
    inner = text.replace("\n", "\n" + pad + "    ")
    return f'r"""\n{pad}    {inner}\n{pad}"""'
