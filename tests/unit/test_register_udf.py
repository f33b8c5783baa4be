"""Runner.register_function on both engines: normalised values in and out (STRUCT ↔
tuple, DECIMAL ↔ int), and a Python exception surfacing as an engine error."""
from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp

from dl2sql.plan.nodes import Column, Table


def dt(sql: str) -> exp.DataType:
    return exp.DataType.build(sql, dialect="spark")


def table(name: str, *cols: tuple[str, str]) -> Table:
    return Table(name, tuple(Column(n, dt(t)) for n, t in cols))


BIG = 10**37 + 12345  # beyond BIGINT, exact only as DECIMAL(38,0)


def test_udf_with_structs_and_decimals(engine) -> None:
    # defined here, not at module level: Spark workers cannot import test modules, and
    # cloudpickle ships nested functions by value
    def combine(i: int, s: str, d: int, st: tuple) -> tuple:
        """Normalised values only: ints for DECIMAL, tuples for STRUCT."""
        assert type(d) is int and type(st) is tuple, (type(d), type(st))
        n, (flag, name) = st
        return (i + n, f"{s}-{name}", d - 1 if flag else d, (len(s), [s, name]))

    arg_types = [dt("BIGINT"), dt("STRING"), dt("DECIMAL(38,0)"),
                 dt("STRUCT<n: BIGINT, inner: STRUCT<flag: BOOLEAN, name: STRING>>")]
    ret = dt("STRUCT<a: BIGINT, b: STRING, c: DECIMAL(38,0), "
             "d: STRUCT<len: BIGINT, parts: ARRAY<STRING>>>")
    engine.register_function("dl2sql_test_combine", combine, arg_types, ret)
    src = table("Src", ("i", "BIGINT"), ("s", "STRING"), ("d", "DECIMAL(38,0)"),
                ("st", "STRUCT<n: BIGINT, inner: STRUCT<flag: BOOLEAN, name: STRING>>"))
    engine.load(src, [(1, "x", BIG, (10, (True, "p"))), (2, "Δ", 5, (20, (False, "q")))])
    out = table("Out", ("r", "STRUCT<a: BIGINT, b: STRING, c: DECIMAL(38,0), "
                             "d: STRUCT<len: BIGINT, parts: ARRAY<STRING>>>"))
    query = sqlglot.parse_one('SELECT dl2sql_test_combine(i, s, d, st) AS r FROM "Src"',
                              read="duckdb")
    engine.materialize(out, query, count=False)
    rows = sorted(engine.fetch(out), key=lambda r: r[0][0])
    assert rows == [((11, "x-p", BIG - 1, (1, ["x", "p"])),),
                    ((22, "Δ-q", 5, (1, ["Δ", "q"])),)]


def test_udf_exception_surfaces(engine) -> None:
    def fails(x: int) -> int:
        raise ValueError(f"boom at {x}")

    engine.register_function("dl2sql_test_fails", fails, [dt("BIGINT")], dt("BIGINT"))
    src = table("Src2", ("i", "BIGINT"))
    engine.load(src, [(7,)])
    out = table("Out2", ("r", "BIGINT"))
    query = sqlglot.parse_one('SELECT dl2sql_test_fails(i) AS r FROM "Src2"', read="duckdb")
    with pytest.raises(Exception, match="boom at 7"):
        engine.materialize(out, query, count=True)
        engine.fetch(out)
