"""The Python API on both engines: inputs from Python rows, DataFrames / relations,
catalog tables, files and `#[source]`; outputs as DataFrames and temp views; schema
errors that name the relation, the column and the types."""
from __future__ import annotations

import pytest

import dl2sql
from engines import run_on as _run, sorted_rows as _rows

PROGRAM = """
typedef Kind = Table | View{sql: string}
input relation Edge(src: string, dst: string, w: u32)
#[source = "api_test_nodes"]
input relation Node(name: string, kind: Kind)
output relation Reach(src: string, dst: string)
Reach(a, b) :- Edge(a, b, _).
Reach(a, c) :- Reach(a, b), Edge(b, c, _).
output relation Views(name: string, sql: string)
Views(n, s) :- Node(n, View{s}).
"""
EDGES = [("a", "b", 1), ("b", "c", 2), ("c", "a", 3)]
REACH = sorted((x, y) for x in "abc" for y in "abc")


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _frame(engine, rows, schema: str, columns: list[str]):
    """A DataFrame (Spark) or relation (DuckDB) holding ``rows``."""
    if engine.dialect == "spark":
        return engine.spark.createDataFrame(rows, schema)
    values = ", ".join("(" + ", ".join(repr(v) for v in r) + ")" for r in rows)
    return engine.con.sql(f"SELECT * FROM (VALUES {values}) t({', '.join(columns)})")


def test_python_rows_in_frames_out(program, engine):
    out = _run(program, engine, {"Edge": EDGES, "Node": []})
    assert _rows(out["Reach"]) == REACH
    assert _rows(out["Views"]) == []


def test_frame_in_with_lossless_widening(program, engine):
    edges = _frame(engine, EDGES, "src string, dst string, w int", ["src", "dst", "w"])
    out = _run(program, engine, {"Edge": edges, "Node": []})
    assert _rows(out["Reach"]) == REACH


def test_pandas_frames_on_both_engines_and_spark_frames_on_duckdb(program, engine, spark):
    import pandas as pd

    pandas_edges = pd.DataFrame(EDGES, columns=["src", "dst", "w"])
    assert _rows(_run(program, engine, {"Edge": pandas_edges, "Node": []})["Reach"]) == REACH
    if engine.dialect == "duckdb":  # a notebook's Spark DataFrame, collected
        spark_edges = spark.createDataFrame(EDGES, "src string, dst string, w int")
        assert _rows(_run(program, engine, {"Edge": spark_edges, "Node": []})["Reach"]) \
            == REACH


def test_source_attribute_reads_a_catalog_table(program, engine):
    nodes = _frame(engine, [("t", {"tag": 0, "View_sql": ""}), ("v", {"tag": 1, "View_sql": "q"})]
                   if engine.dialect == "duckdb" else [("t", (0, "")), ("v", (1, "q"))],
                   "name string, kind struct<tag: bigint, View_sql: string>",
                   ["name", "kind"])
    if engine.dialect == "spark":
        nodes.createOrReplaceTempView("api_test_nodes")
    else:
        engine.con.register("api_test_nodes", nodes)
    out = _run(program, engine, {"Edge": []})
    assert _rows(out["Views"]) == [("v", "q")]


def test_parquet_file_in(program, engine, tmp_path):
    path = str(tmp_path / "edges.parquet")
    if engine.dialect == "spark":
        engine.spark.createDataFrame(EDGES, "src string, dst string, w bigint") \
            .coalesce(1).write.parquet(path)
    else:
        engine.con.execute(f"COPY (SELECT * FROM (VALUES ('a','b',1), ('b','c',2), "
                           f"('c','a',3)) t(src, dst, w)) TO '{path}' (FORMAT PARQUET)")
    out = _run(program, engine, {"Edge": path, "Node": []})
    assert _rows(out["Reach"]) == REACH


def test_wrong_column_type_names_relation_column_and_types(program, engine):
    bad = _frame(engine, [("a", 1, 1)], "src string, dst int, w int", ["src", "dst", "w"])
    with pytest.raises(dl2sql.InputError) as e:
        _run(program, engine, {"Edge": bad, "Node": []})
    msg = str(e.value)
    assert "`Edge`" in msg and "`dst`" in msg and "int" in msg.lower()


def test_missing_column_and_unknown_relation(program, engine):
    bad = _frame(engine, [("a", "b")], "src string, dest string", ["src", "dest"])
    with pytest.raises(dl2sql.InputError, match=r"column `dst` \(`string`, stored as (string|VARCHAR|TEXT)\) is missing \(found columns: src, dest\)"):
        _run(program, engine, {"Edge": bad, "Node": []})
    with pytest.raises(dl2sql.InputError, match="did you mean `Edge`"):
        _run(program, engine, {"Edg": []})
    with pytest.raises(dl2sql.InputError, match="not an input relation"):
        _run(program, engine, {"Reach": []})


def test_register_views_for_later_spark_sql(program, spark):
    views = program.register_views(spark, prefix="api_", inputs={"Edge": EDGES, "Node": []})
    assert views == {"Reach": "api_Reach", "Views": "api_Views"}
    n = spark.sql("SELECT count(*) AS n FROM api_Reach WHERE src = 'a'").collect()[0].n
    assert n == 3


def test_register_views_after_run_reuses_its_results(spark):
    program = dl2sql.compile(PROGRAM)
    inputs = {"Edge": EDGES, "Node": []}
    out = program.run(spark=spark, inputs=inputs)
    runner, actions = program.last_runner, program.last_runner.actions
    views = program.register_views(spark, prefix="reuse_", inputs=inputs)
    assert program.last_runner is runner and runner.actions == actions  # nothing ran
    assert sorted(map(tuple, spark.table(views["Reach"]).collect())) == REACH
    assert out["Reach"].count() == len(REACH)
    # other inputs, or a closed run, evaluate again
    program.register_views(spark, prefix="reuse_", inputs={"Edge": EDGES[:1], "Node": []})
    assert program.last_runner is not runner
    assert spark.table("reuse_Reach").count() == 1
    program.close()
    program.register_views(spark, prefix="reuse_", inputs=inputs)
    assert spark.table("reuse_Reach").count() == len(REACH)
    program.close()


def test_sql_statements_per_dialect(program):
    spark_sql, duck_sql = program.sql("spark"), program.sql("duckdb")
    assert any("`Edge`" in s for s in spark_sql)
    assert any('"Edge"' in s for s in duck_sql)
    assert any(s.startswith("-- repeat until") for s in spark_sql)


def test_compile_errors_and_extern_bindings(tmp_path):
    src = tmp_path / "p.dl"
    src.write_text("extern function f(x: u32): u32\n"
                   "output relation O(x: u32)\nO(f(1)).\n")
    with pytest.raises(dl2sql.CompileError, match="has no implementation"):
        dl2sql.compile(str(src))
    program = dl2sql.compile(str(src), extern={"f": lambda x: x + 41})
    out = program.run(engine="duckdb")
    assert out["O"].fetchall() == [(42,)]


def test_python_rows_with_collections(engine):
    """Rows given in Python whose values are vectors, sets or maps (stored as arrays:
    lists, which a row's duplicates were once found by hashing)."""
    program = dl2sql.compile("input relation In(k: u32, v: Vec<string>, m: Map<u32, string>)\n"
                             "output relation Out(k: u32, n: usize)\n"
                             "Out(k, v.len() + m.size()) :- In(k, v, m).\n")
    rows = [(1, ("a", "b"), ((2, "x"),)), (1, ("a", "b"), ((2, "x"),)), (2, (), ())]
    assert _rows(_run(program, engine, {"In": rows})["Out"]) == [(1, 3), (2, 0)]
