"""`dl2sql run`: input files in, one output file per relation, on both engines; union
and Vec values round-trip through JSON and Parquet; a failing run leaves the output
directory as it was; user errors exit 1 without a traceback."""
from __future__ import annotations

import csv
import os
import json
from pathlib import Path

import pytest

from dl2sql.cli import main

PROGRAM = """
typedef Info = Info{n: u64, via: Vec<string>} | Nothing
input relation Edge(src: string, dst: string)
output relation Reach(src: string, dst: string)
Reach(a, b) :- Edge(a, b).
Reach(a, c) :- Reach(a, b), Edge(b, c).
output relation Summary(src: string, info: Info)
Summary(s, Info{n, v}) :- Reach(s, d), var g = d.group_by(s),
                          var n = g.count_distinct(), var v = g.to_vec().
"""
# reads what PROGRAM wrote: union and Vec values come back as they were
ROUND_TRIP = """
typedef Info = Info{n: u64, via: Vec<string>} | Nothing
input relation Summary(src: string, info: Info)
output relation Far(src: string, last: string)
Far(s, v) :- Summary(s, Info{_, via}), Some{var v} = via.nth(via.len() - 1).
"""


@pytest.fixture(params=["duckdb", "spark"])
def engine_name(request):
    if request.param == "spark":
        request.getfixturevalue("spark")  # the shared session: `run` reuses it
    return request.param


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    prog = tmp_path / "reach.dl"
    prog.write_text(PROGRAM)
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "Edge.csv").write_text("src,dst\na,b\nb,c\nc,d\n")
    return prog, inp


def _json_rows(path: Path) -> list[dict]:
    return sorted((json.loads(line) for line in path.read_text().splitlines() if line),
                  key=json.dumps)


@pytest.mark.parametrize("fmt", ["json", "parquet"])
def test_run_writes_one_file_per_output_and_round_trips(tmp_path, engine_name, fmt, capsys):
    prog, inp = _setup(tmp_path)
    out = tmp_path / "out"
    assert main(["run", str(prog), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", fmt, "--quiet"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [f"Reach.{fmt}", f"Summary.{fmt}"]
    if fmt == "json":
        rows = _json_rows(out / "Reach.json")
        assert len(rows) == 6 and {"src": "a", "dst": "d"} in rows
    second = tmp_path / "second.dl"
    second.write_text(ROUND_TRIP)
    inp2 = tmp_path / "in2"
    inp2.mkdir()
    (out / f"Summary.{fmt}").rename(inp2 / f"Summary.{fmt}")
    out2 = tmp_path / "out2"
    assert main(["run", str(second), "--engine", engine_name, "--input", str(inp2),
                 "--output", str(out2), "--format", "json", "--quiet"]) == 0
    assert _json_rows(out2 / "Far.json") == [
        {"src": "a", "last": "d"}, {"src": "b", "last": "d"}, {"src": "c", "last": "d"}]


def test_csv_output_and_explain(tmp_path, engine_name, capsys):
    prog, inp = _setup(tmp_path)
    plain = tmp_path / "plain.dl"
    plain.write_text(PROGRAM.split("output relation Summary")[0].split("\n", 2)[2])
    out = tmp_path / "out"
    assert main(["run", str(plain), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", "csv", "--quiet", "--explain"]) == 0
    lines = (out / "Reach.csv").read_text().splitlines()
    assert lines[0] == "src,dst" and sorted(lines[1:])[0] == "a,b" and len(lines) == 7
    shown = capsys.readouterr().out
    assert "== strata" in shown and "== iterations" in shown
    # the thresholds of the runner that ran, as its engine declares them
    from dl2sql.engines import ENGINES
    assert f"== runner thresholds\n{ENGINES[engine_name].thresholds.text()}\n" in shown
    if engine_name == "spark":  # a closure by doubling (no keys): one step, then 4 per count
        assert "Reach: iteration 1: Reach__new=" in shown
        assert "Reach: iteration 5: Reach__new=0" in shown
        assert "converged after 5 iteration(s)" in shown
    else:  # DuckDB evaluates the linear recursion as one WITH RECURSIVE query
        assert "Reach: recursive query" in shown and "no loop ran" in shown


def test_failed_run_leaves_output_directory_untouched(tmp_path, capsys):
    prog, inp = _setup(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "Reach.csv").write_text("old\n")
    # Summary has a union column: CSV cannot hold it, so nothing may be written
    assert main(["run", str(prog), "--engine", "duckdb", "--input", str(inp),
                 "--output", str(out), "--format", "csv", "--quiet"]) == 1
    assert (out / "Reach.csv").read_text() == "old\n"
    assert sorted(p.name for p in out.iterdir()) == ["Reach.csv"]
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]
    err = capsys.readouterr().err
    assert "CSV cannot hold" in err and "Traceback" not in err


@pytest.mark.parametrize("name, content, message", [
    ("Edges.csv", "src,dst\n", "names no input relation"),
    ("Edge.txt", "", "unknown input format"),
    ("Edge.csv", "src,to\na,b\n", "`Edge`"),
])
def test_bad_inputs_are_user_errors(tmp_path, capsys, name, content, message):
    prog, inp = _setup(tmp_path)
    (inp / "Edge.csv").unlink()
    (inp / name).write_text(content)
    code = main(["run", str(prog), "--engine", "duckdb", "--input", str(inp),
                 "--output", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_csv_columns_take_the_declared_types(tmp_path, engine_name):
    """Strings that look like numbers stay strings (no type guessing), both engines."""
    prog = tmp_path / "p.dl"
    prog.write_text("input relation Edge(src: string, dst: string, w: u8)\n"
                    "output relation R(x: string, y: string, w: u8)\n"
                    "R(x, y, w) :- Edge(x, y, w).\n")
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "Edge.csv").write_text("src,dst,w\n10,20,1\n20,030,2\n")
    out = tmp_path / "out"
    assert main(["run", str(prog), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", "json", "--quiet"]) == 0
    assert _json_rows(out / "R.json") == [{"x": "10", "y": "20", "w": 1},
                                          {"x": "20", "y": "030", "w": 2}]


def test_outputs_of_an_earlier_run_in_another_format_are_replaced(tmp_path, engine_name):
    prog, inp = _setup(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "Reach.csv").write_text("src,dst\nstale,row\n")
    (out / "Notes.csv").write_text("not a relation of the program\n")
    assert main(["run", str(prog), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", "json", "--quiet"]) == 0
    # the program's relations in other formats go; a file of the user's own stays
    assert sorted(p.name for p in out.iterdir()) == ["Notes.csv", "Reach.json", "Summary.json"]


def test_an_output_format_that_cannot_hold_an_output_is_refused_before_the_run(
        tmp_path, monkeypatch, capsys):
    import dl2sql.runner.spark_session as spark_session

    def no_engine(*args, **kwargs):
        raise AssertionError("the engine was started")
    monkeypatch.setattr(spark_session, "get_spark", no_engine)
    prog, inp = _setup(tmp_path)
    assert main(["run", str(prog), "--engine", "spark", "--input", str(inp),
                 "--output", str(tmp_path / "out"), "--format", "csv", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "relation `Summary` has column `info`" in err and "CSV cannot hold" in err
    assert not (tmp_path / "out").exists()


def test_input_relations_without_a_file_are_named_in_a_warning(tmp_path, engine_name,
                                                               capsys):
    prog, inp = _setup(tmp_path)
    (inp / "Edge.csv").unlink()
    out = tmp_path / "out"
    assert main(["run", str(prog), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", "json", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert (f"warning: {inp}: no file names input relation(s) Edge; they are empty in "
            f"this run" in err)
    assert (out / "Reach.json").read_text() == ""


def test_files_are_refused_for_uuid_and_url_columns(tmp_path, capsys):
    """A file holds a column's stored form (a Uuid's hex digits, a Url's text not
    parsed), which is not DDlog's: such inputs and outputs are refused by name."""
    prog = tmp_path / "ids.dl"
    prog.write_text("import uuid\nimport url\n"
                    "input relation Id(id: Option<uuid::Uuid>)\n"
                    "output relation Seen(n: string)\nSeen(\"id\") :- Id(_).\n"
                    "output relation Home(u: url::Url)\n"
                    "Home(url::url_parse(\"http://h/\").unwrap_or_default()).\n")
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "Id.json").write_text('{"id": 5}\n')
    assert main(["run", str(prog), "--engine", "duckdb", "--input", str(inp),
                 "--output", str(tmp_path / "out"), "--format", "json", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "relation `Home` has column `u` holding `url::Url` values" in err
    prog.write_text(prog.read_text().split("output relation Home")[0])
    assert main(["run", str(prog), "--engine", "duckdb", "--input", str(inp),
                 "--output", str(tmp_path / "out"), "--format", "json", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "Id.json: relation `Id` has column `id` holding `uuid::Uuid` values" in err
    assert not (tmp_path / "out").exists()


QUOTED = """
input relation P(name: string, n: s64, ok: bool)
output relation Q(name: string, n: s64, ok: bool)
Q(name, n, ok) :- P(name, n, ok).
"""
AWKWARD = ["O'Neil", 'O"Neil, Pat', "two\nlines", "  spaced  ", "", "a,b", '"', "naïve"]


def test_csv_files_are_rfc4180_and_alike_on_both_engines(tmp_path, spark):
    """Quotes doubled (not backslash-escaped), spaces kept, the empty string quoted:
    both engines write the same bytes, which Python's csv module and dl2sql read back
    as the rows they hold."""
    prog = tmp_path / "p.dl"
    prog.write_text(QUOTED)
    inp = tmp_path / "in"
    inp.mkdir()
    rows = [(name, i - 3, i % 2 == 0) for i, name in enumerate(AWKWARD)]
    (inp / "P.json").write_text("".join(
        json.dumps({"name": s, "n": n, "ok": b}) + "\n" for s, n, b in rows))
    written = {}
    for engine in ("duckdb", "spark"):
        out = tmp_path / f"out-{engine}"
        assert main(["run", str(prog), "--engine", engine, "--input", str(inp),
                     "--output", str(out), "--format", "csv", "--quiet"]) == 0
        written[engine] = (out / "Q.csv").read_bytes()
        with open(out / "Q.csv", newline="", encoding="utf-8") as f:
            header, *body = csv.reader(f)
        assert header == ["name", "n", "ok"]
        assert sorted((s, int(n), b == "true") for s, n, b in body) == sorted(rows)
        # and dl2sql reads its own file back
        again = tmp_path / f"again-{engine}"
        again.mkdir()
        (again / "P.csv").write_bytes(written[engine])
        out2 = tmp_path / f"out2-{engine}"
        assert main(["run", str(prog), "--engine", engine, "--input", str(again),
                     "--output", str(out2), "--format", "json", "--quiet"]) == 0
        assert sorted((r["name"], r["n"], r["ok"]) for r in _json_rows(out2 / "Q.json")) \
            == sorted(rows)
    assert b'"O""Neil, Pat"' in written["duckdb"]
    assert sorted(written["spark"].splitlines()) == sorted(written["duckdb"].splitlines())


TWO_OUTPUTS = """
input relation Edge(src: string, dst: string)
output relation O1(src: string)
output relation O2(dst: string)
O1(s) :- Edge(s, _).
O2(d) :- Edge(_, d).
"""


def _two_outputs(tmp_path: Path) -> tuple[list[str], Path]:
    prog = tmp_path / "two.dl"
    prog.write_text(TWO_OUTPUTS)
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "Edge.csv").write_text("src,dst\na,b\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "O1.csv").write_text("old one\n")
    return ["run", str(prog), "--input", str(inp), "--output", str(out), "--format", "csv",
            "--quiet"], out


def _contents(folder: Path) -> dict:
    return {p.name: (p.read_bytes() if p.is_file() else sorted(os.listdir(p)))
            for p in folder.iterdir()}


def test_an_output_that_cannot_be_placed_leaves_the_folder_as_it_was(tmp_path, engine_name,
                                                                     capsys):
    args, out = _two_outputs(tmp_path)
    (out / "O2.csv").mkdir()  # in the way of the second output
    (out / "O2.csv" / "mine").write_text("kept")
    before = _contents(out)
    assert main(args + ["--engine", engine_name]) == 1
    err = capsys.readouterr().err
    assert "a directory is in the way of the output file" in err and "O2.csv" in err
    assert "Traceback" not in err
    assert _contents(out) == before
    assert not [p for p in tmp_path.iterdir() if ".tmp-" in p.name]


def test_a_move_failing_midway_puts_back_what_it_replaced(tmp_path, monkeypatch, capsys):
    args, out = _two_outputs(tmp_path)
    (out / "O2.csv").write_text("old two\n")
    before = _contents(out)
    real = os.replace
    moved = []

    def failing(src, dst):
        # the second new file fails to arrive (a full disk, a permission), after the
        # first one replaced its old file
        if Path(str(dst)).parent == out and Path(str(src)).parent.name != ".replaced":
            moved.append(dst)
            if len(moved) == 2:
                raise OSError(28, "No space left on device", str(dst))
        return real(src, dst)
    monkeypatch.setattr(os, "replace", failing)
    assert main(args + ["--engine", "duckdb"]) == 1
    monkeypatch.undo()
    assert "No space left on device" in capsys.readouterr().err
    assert len(moved) == 2
    assert _contents(out) == before
    assert main(args + ["--engine", "duckdb"]) == 0  # and a later run replaces both
    assert (out / "O1.csv").read_text() == "src\na\n"
    assert (out / "O2.csv").read_text() == "dst\nb\n"


NON_FINITE = """
input relation X(name: string, x: double)
output relation Y(name: string, y: double, v: Vec<double>)
Y(n, x, [x, 1.5]) :- X(n, x).
"""


def test_json_output_quotes_non_finite_floats_and_reads_them_back(tmp_path, engine_name):
    """NaN and the infinities are strings in JSON output (a bare NaN is no JSON), which a
    strict parser accepts and dl2sql reads back as the floats."""
    prog = tmp_path / "p.dl"
    prog.write_text(NON_FINITE)
    inp = tmp_path / "in"
    inp.mkdir()
    # the input takes the strings too; a name holding the tokens stays as it is
    (inp / "X.json").write_text("".join(json.dumps({"name": n, "x": x}) + "\n" for n, x in
                                        [("zero", "NaN"), ("pos", "Infinity"),
                                         ("neg", "-Infinity"), ('"NaN", Infinity', 2.5)]))
    out = tmp_path / "out"
    assert main(["run", str(prog), "--engine", engine_name, "--input", str(inp),
                 "--output", str(out), "--format", "json", "--quiet"]) == 0

    def strict(token):
        raise AssertionError(f"bare {token} in JSON output")
    rows = {r["name"]: r for r in (json.loads(line, parse_constant=strict)
                                   for line in (out / "Y.json").read_text().splitlines())}
    assert rows["zero"]["y"] == "NaN" and rows["pos"]["y"] == "Infinity"
    assert rows["neg"]["y"] == "-Infinity" and rows["neg"]["v"] == ["-Infinity", 1.5]
    assert rows['"NaN", Infinity']["y"] == 2.5  # the name is left as it was
    again = tmp_path / "again.dl"
    again.write_text("""
import fp
input relation Y(name: string, y: double, v: Vec<double>)
output relation Z(name: string, finite: bool, nan: bool, positive: bool)
Z(n, is_finite_d(y), is_nan_d(y), y > 0.0) :- Y(n, y, _).
""")
    inp2 = tmp_path / "in2"
    inp2.mkdir()
    (out / "Y.json").rename(inp2 / "Y.json")
    out2 = tmp_path / "out2"
    assert main(["run", str(again), "--engine", engine_name, "--input", str(inp2),
                 "--output", str(out2), "--format", "json", "--quiet"]) == 0
    assert sorted((r["name"], r["finite"], r["nan"], r["positive"])
                  for r in _json_rows(out2 / "Z.json")) == [
        ('"NaN", Infinity', True, False, True), ("neg", False, False, False),
        ("pos", False, False, True), ("zero", False, True, True)]  # DDlog's NaN is the
    # largest double (its doubles are ordered floats)


def test_a_value_out_of_range_in_a_parquet_file_names_the_file(tmp_path, engine_name, capsys):
    import duckdb
    prog = tmp_path / "p.dl"
    prog.write_text("input relation R(x: u8)\noutput relation S(x: u8)\nS(x) :- R(x).\n")
    inp = tmp_path / "in"
    inp.mkdir()
    parquet = (inp / "R.parquet").as_posix()
    duckdb.sql(f"COPY (SELECT 300::BIGINT AS x) TO '{parquet}' (FORMAT parquet)")
    args = ["run", str(prog), "--engine", engine_name, "--input", str(inp), "--output",
            str(tmp_path / "out"), "--quiet"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{parquet}: input relation `R`: column `x` holds NULL or a number out of its " \
           f"type's range in value 300" in err, err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_a_division_by_zero_names_the_rules_that_divide(tmp_path, engine_name, capsys):
    prog = tmp_path / "p.dl"
    prog.write_text("input relation R(x: u32, y: u32)\noutput relation S(z: u32)\n"
                    "S(x) :- R(x, _).\nS(z) :- R(x, y), var z = x / y.\n"
                    "S(z) :- R(x, _), var z = x / 2.\n")
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "R.csv").write_text("x,y\n1,0\n")
    args = ["run", str(prog), "--engine", engine_name, "--input", str(inp), "--output",
            str(tmp_path / "out"), "--quiet"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"error: division by zero in the rule at {prog}:4:1 (engine: " in err, err
    assert "Traceback" not in err and not (tmp_path / "out").exists()
