"""CSV inputs are read as declared, the same way on both engines: columns matched by
header name in any order; extra, missing, misnamed and repeated columns are errors
naming the file and the column; a bad value names the file, the line, the column and
the declared type; an empty field of a string column is the empty string; RFC 4180
quoting (doubled quotes, line breaks inside quotes). The rules of
``dl2sql.types.text_values`` are checked against both engines' SQL for random text."""
from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dl2sql
from dl2sql.cli import main
from dl2sql.diagnostics import InputError
from dl2sql.types import text_values as tv
from dl2sql.types.model import TBit, TBool, TDouble, TSigned
from engines import run_on as _run, sorted_rows as _rows
from profiles import examples

PROGRAM = """
input relation Edge(src: u32, dst: u32)
output relation Path(src: u32, dst: u32)
Path(s, d) :- Edge(s, d).
Path(s, d) :- Path(s, m), Edge(m, d).
input relation W(w: string, n: bit<8>, f: double, b: bool, s: signed<8>)
output relation WO(w: string, n: bit<8>, f: double, b: bool, s: signed<8>)
WO(w, n, f, b, s) :- W(w, n, f, b, s).
"""


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def test_columns_are_matched_by_header_name(program, engine, tmp_path):
    reversed_header = _file(tmp_path, "Edge.csv", "dst,src\n2,1\n3,2\n")
    assert _rows(_run(program, engine, {"Edge": reversed_header})["Path"]) == [
        (1, 2), (1, 3), (2, 3)]


def test_strings_quotes_line_breaks_and_empty_fields(program, engine, tmp_path):
    text = ('\ufeffw,n,f,b,s\n'  # a byte-order mark before the header
            '"",1,1.5,true,-128\n'  # "" is the empty string
            ',2, inf , FALSE ,127\n'  # so is an empty field; spaces around values
            '"a ""q"", b",3,-2e3,True,0\n'  # doubled quotes and a comma inside quotes
            '"two\nlines",4,NaN,false,+5\n')
    rows = _rows(_run(program, engine, {"W": _file(tmp_path, "W.csv", text)})["WO"])
    by_n = {r[1]: r for r in rows}
    assert by_n[1] == ("", 1, 1.5, True, -128)
    assert by_n[2][:2] == ("", 2) and by_n[2][2] == float("inf") and by_n[2][3:] == (False, 127)
    assert by_n[3] == ('a "q", b', 3, -2000.0, True, 0)
    assert by_n[4][0] == "two\nlines" and by_n[4][2] != by_n[4][2]  # NaN


def test_blank_lines_hold_no_record_even_in_one_column(engine, tmp_path):
    program = dl2sql.compile("input relation W(w: string)\n"
                             "output relation O(w: string)\nO(w) :- W(w).")
    for text, expected in (("w\na\n\nb\n", [("a",), ("b",)]),
                           ("w\na\n\n\"\"\n", [("",), ("a",)])):
        path = _file(tmp_path, "W.csv", text)
        assert _rows(_run(program, engine, {"W": path})["O"]) == expected, text


HEADER_ERRORS = [
    ("src,dts\n1,2\n", "column `dts` in the header is not a field of input relation `Edge` "
                       "(did you mean `dst`?) (fields: src, dst)"),
    ("src,dst,w\n1,2,3\n", "column `w` in the header is not a field of input relation "
                           "`Edge` (fields: src, dst)"),
    ("src\n1\n", "the header has no column `dst` of input relation `Edge` (fields: src, "
                 "dst; the header has: src)"),
    ("src,dst,src\n1,2,3\n", "column `src` appears twice in the header"),
]


@pytest.mark.parametrize("text,message", HEADER_ERRORS,
                         ids=["misnamed", "extra", "missing", "twice"])
def test_header_errors_name_the_file_and_the_column(program, engine, tmp_path, text, message):
    path = _file(tmp_path, "Edge.csv", text)
    with pytest.raises(InputError) as info:
        _run(program, engine, {"Edge": path})
    assert str(info.value) == f"{path}: {message}"


VALUE_ERRORS = [
    ("a,x,1.0,true,0", "column `n` (bit<8>): `x` is not an integer"),
    ("a,300,1.0,true,0", "column `n` (bit<8>): `300` is out of range (0 to 255)"),
    ("a,-1,1.0,true,0", "column `n` (bit<8>): `-1` is out of range (0 to 255)"),
    ("a,1,1.0,true,-129", "column `s` (signed<8>): `-129` is out of range (-128 to 127)"),
    ("a,1.5,1.0,true,0", "column `n` (bit<8>): `1.5` is not an integer"),
    ("a,,1.0,true,0", "column `n` (bit<8>): is empty, and a value is required"),
    ("a,1,1.0,yes,0", "column `b` (bool): `yes` is not true or false"),
    ("a,1,1.0.0,true,0", "column `f` (double): `1.0.0` is not a number"),
]


@pytest.mark.parametrize("line,message", VALUE_ERRORS,
                         ids=["text", "above", "below", "signed", "fraction", "empty",
                              "bool", "float"])
def test_bad_values_name_file_line_column_and_type(program, engine, tmp_path, line, message):
    path = _file(tmp_path, "W.csv", f"w,n,f,b,s\nok,1,1,true,1\n\n{line}\n")
    with pytest.raises(InputError) as info:
        _run(program, engine, {"W": path})
    assert str(info.value) == f"{path}:4: input relation `W`, {message}"


@pytest.mark.parametrize("line", ["1", "1,2,3"], ids=["short", "long"])
def test_lines_with_other_field_counts_are_errors(program, engine, tmp_path, line):
    path = _file(tmp_path, "Edge.csv", f"src,dst\n1,2\n{line}\n")
    with pytest.raises(InputError) as info:
        _run(program, engine, {"Edge": path})
    fields = len(line.split(","))
    assert str(info.value) == f"{path}:3: {fields} field(s), but the header has 2 (src, dst)"


def test_cli_reports_a_bad_value_and_writes_nothing(program, tmp_path, capsys, spark):
    prog = tmp_path / "p.dl"
    prog.write_text(PROGRAM)
    inp = tmp_path / "in"
    inp.mkdir()
    (inp / "Edge.csv").write_text("src,dst\n1,2\n")
    (inp / "W.csv").write_text("w,n,f,b,s\nok,1,1,true,1\nbad,256,1,true,1\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "Path.csv").write_text("kept\n")
    for engine in ("duckdb", "spark"):
        assert main(["run", str(prog), "--engine", engine, "--input", str(inp), "--output",
                     str(out), "--format", "csv", "--quiet"]) == 1
        err = capsys.readouterr().err
        assert err == (f"error: {inp / 'W.csv'}:3: input relation `W`, column `n` (bit<8>): "
                       f"`256` is out of range (0 to 255)\n")
        assert sorted(p.name for p in out.iterdir()) == ["Path.csv"]
        assert (out / "Path.csv").read_text() == "kept\n"


# --- the rules of text_values, against each engine's SQL --------------------------------

TYPES = {"n": TBit(8), "s": TSigned(8), "f": TDouble(), "b": TBool()}
FIELD = st.one_of(
    st.sampled_from(["0", "255", "256", "-1", "-128", "+7", " 12 ", "1e3", ".5", "5.",
                     "inf", "-Infinity", "NaN", "nan", "true", "FALSE", " t", "yes", "",
                     "0x10", "1_000", "٣", "1.5e-3"]),
    st.text(alphabet="0123456789+-.eE ntrufalsNIiy", max_size=6))


ROWS = st.lists(st.tuples(FIELD, FIELD, FIELD, FIELD), min_size=1, max_size=8)


@settings(max_examples=examples(25),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=ROWS)
@pytest.mark.parametrize("engine", ["duckdb"], indirect=True)
def test_duckdb_accepts_exactly_what_the_rules_accept(program, engine, tmp_path, values):
    """Each row alone: rejected by the engine iff some field breaks the rules, and read as
    the value the rules mean when accepted."""
    _accepts_exactly_what_the_rules_accept(program, engine, tmp_path, values)


# Spark's SQL for the same rules, on fewer examples: each row is a Spark job of its own
@settings(max_examples=examples(5),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=ROWS)
@pytest.mark.parametrize("engine", ["spark"], indirect=True)
def test_spark_accepts_exactly_what_the_rules_accept(program, engine, tmp_path, values):
    """As on DuckDB."""
    _accepts_exactly_what_the_rules_accept(program, engine, tmp_path, values)


def _accepts_exactly_what_the_rules_accept(program, engine, tmp_path, values) -> None:
    for n, s, f, b in values:
        fields = {"n": n, "s": s, "f": f, "b": b}
        expected_ok = all(tv.problem(TYPES[k], v) is None for k, v in fields.items())
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows([["w", "n", "f", "b", "s"],
                                                            ["x", n, f, b, s]])
        path = _file(tmp_path, "W.csv", buffer.getvalue())
        try:
            rows = _rows(_run(program, engine, {"W": path})["WO"])
        except InputError:
            assert not expected_ok, fields
            continue
        assert expected_ok, fields
        (_, got_n, got_f, got_b, got_s), = rows
        assert got_n == int(n) and got_s == int(s)
        assert got_b == (b.strip().lower() == "true")
        want = float(f)
        assert got_f == want or (got_f != got_f and want != want)
