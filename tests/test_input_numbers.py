"""Integers wider than a double's 53 bits, read from JSON lines on both engines: every
digit survives (JSON numbers are read as the declared column type, never guessed as
DOUBLE), and a value that does not fit its column, or is not a number, is an
InputError naming the relation and the file instead of a NULL or a rounded number."""
from __future__ import annotations

import json

import pytest

import dl2sql
from dl2sql.diagnostics import InputError
from engines import collected, run_on as _run

PROGRAM = """
input relation R(x: u64, y: s64, z: bit<128>)
output relation O(x: u64, y: s64, z: bit<128>)
O(x, y, z) :- R(x, y, z).
output relation Next(x: u64)
Next(x + 1) :- R(x, _, _), x < 18446744073709551615.
"""

WIDE = [
    {"x": 2**64 - 1, "y": -2**63, "z": 2**128 - 1},  # the extremes of the types
    {"x": 1, "y": 1, "z": 10**38 - 1},  # the smallest bit<128> stored as a huge pair
    {"x": 2**53 + 1, "y": 2**53 + 1, "z": 2**100 + 1},  # beyond a double's precision
    {"x": 0, "y": 2**63 - 1, "z": 0},
]


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _write(tmp_path, lines) -> str:
    path = tmp_path / "R.json"
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def _rows(frame) -> list:
    return sorted(tuple(int(v) for v in r) for r in collected(frame))


def test_wide_integers_keep_every_digit(program, engine, tmp_path):
    out = _run(program, engine, {"R": _write(tmp_path, [json.dumps(r) for r in WIDE])})
    assert _rows(out["O"]) == sorted((r["x"], r["y"], r["z"]) for r in WIDE)
    assert _rows(out["Next"]) == [(1,), (2,), (2**53 + 2,)]


BAD = [  # the line, the column and its declared type are named, and the value shown
    ('{"x": 1, "y": 1, "z": %d}' % 2**128,  # beyond bit<128>
     f"input relation `R`, column `z` (bit<128>): `{2**128}` is out of range "
     f"(0 to {2**128 - 1})"),
    ('{"x": 1, "y": "abc", "z": 1}',  # text in a number column
     'input relation `R`, column `y` (signed<64>): `"abc"` is not an integer'),
]


@pytest.mark.parametrize("line,message", BAD, ids=["too-wide", "text"])
def test_values_that_do_not_fit_are_input_errors(program, engine, tmp_path, line, message):
    path = _write(tmp_path, [json.dumps(WIDE[2]), line])
    with pytest.raises(InputError) as info:
        _run(program, engine, {"R": path})
    assert str(info.value) == f"{path}:2: {message}"


def test_csv_keeps_wide_integers_and_rejects_text(program, engine, tmp_path):
    good = tmp_path / "R.csv"
    good.write_text(f"x,y,z\n{2**64 - 1},{2**53 + 1},{2**128 - 1}\n1,2, 007 \n")
    assert _rows(_run(program, engine, {"R": str(good)})["O"]) == [
        (1, 2, 7), (2**64 - 1, 2**53 + 1, 2**128 - 1)]
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,z\n1,abc,1\n")
    with pytest.raises(InputError) as info:
        _run(program, engine, {"R": str(bad)})
    assert str(info.value) == (f"{bad}:2: input relation `R`, column `y` (signed<64>): "
                               f"`abc` is not an integer")


# bigint of any size and the 128-bit types, at any depth of a value: files and
# DataFrames hold them as integers or as their decimal text, outputs as the text
NESTED = """
typedef Pair = Pair{lo: signed<128>, all: Vec<bigint>}
input relation B(k: bigint, p: Pair)
output relation O(k: bigint, p: Pair, sq: bigint)
O(k, p, k * k) :- B(k, p).
"""
HUGE = 10 ** 60 + 7
VALUES = [  # (k, lo, all)
    (HUGE, -2 ** 127, [1, -10 ** 38, 10 ** 38 - 1, HUGE]),
    (-10 ** 38 + 1, 2 ** 127 - 1, []),
    (5, 0, [-HUGE]),
]


def _expected() -> list:
    return sorted((k, (lo, tuple(xs)), k * k) for k, lo, xs in VALUES)


def _wide_rows(frame) -> list:
    """Output rows with text read back as ints: (k, (lo, all), sq)."""
    def pair(p):
        lo, xs = (p["lo"], p["all"]) if isinstance(p, dict) else (p.lo, p.all)
        return int(lo), tuple(int(x) for x in xs)
    rows = [tuple(r) for r in collected(frame)]
    assert all(isinstance(r[0], str) and isinstance(r[2], str) for r in rows)  # text
    return sorted((int(k), pair(p), int(sq)) for k, p, sq in rows)


def test_wide_integers_at_any_depth_from_json(engine, tmp_path):
    path = tmp_path / "B.json"
    path.write_text("".join(json.dumps({"k": k, "p": {"lo": lo, "all": xs}}) + "\n"
                            for k, lo, xs in VALUES))
    out = _run(dl2sql.compile(NESTED), engine, {"B": str(path)})
    assert _wide_rows(out["O"]) == _expected()


def test_wide_integers_from_parquet_as_decimals_and_text(engine, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    from decimal import Decimal

    path = tmp_path / "B.parquet"
    small = [v for v in VALUES if abs(v[0]) < 10 ** 38]  # DECIMAL(38,0) holds these
    pair = pa.struct([("lo", pa.string()), ("all", pa.list_(pa.string()))])
    pq.write_table(pa.table({
        "k": pa.array([Decimal(k) for k, _, _ in small], pa.decimal128(38, 0)),
        "p": pa.array([{"lo": str(lo), "all": [str(x) for x in xs]} for _, lo, xs in small],
                      pair)}), path)
    out = _run(dl2sql.compile(NESTED), engine, {"B": str(path)})
    assert _wide_rows(out["O"]) == [r for r in _expected() if abs(r[0]) < 10 ** 38]


def test_wide_integers_from_dataframes_as_integers_or_text(engine):
    import pandas as pd

    frame = pd.DataFrame({"k": [str(k) for k, _, _ in VALUES],
                          "p": [{"lo": str(lo), "all": [str(x) for x in xs]}
                                for _, lo, xs in VALUES]})
    if engine.dialect == "spark":
        frame = engine.spark.createDataFrame(
            frame, "k string, p struct<lo: string, all: array<string>>")
    out = _run(dl2sql.compile(NESTED), engine, {"B": frame})
    assert _wide_rows(out["O"]) == _expected()
    # integers of the engine's own types, where they hold the values
    ints = pd.DataFrame({"k": [5, -7], "p": [{"lo": 1, "all": [2, 3]}, {"lo": -1, "all": []}]})
    if engine.dialect == "spark":
        ints = engine.spark.createDataFrame(ints, "k bigint, p struct<lo: bigint, all: "
                                                  "array<decimal(38,0)>>")
    out = _run(dl2sql.compile(NESTED), engine, {"B": ints})
    assert _wide_rows(out["O"]) == [(-7, (-1, ()), 49), (5, (1, (2, 3)), 25)]


@pytest.mark.parametrize("fmt", ["csv", "json", "parquet"])
def test_wide_integers_round_trip_through_output_files(engine, tmp_path, fmt):
    from dl2sql.cli import main

    program = tmp_path / "p.dl"
    program.write_text("input relation R(k: bigint, u: bit<128>)\n"
                       "output relation O(k: bigint, u: bit<128>)\n"
                       "O(k * k, u) :- R(k, u).\n")
    inputs, outputs = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    rows = [(HUGE, 2 ** 128 - 1), (-10 ** 19, 10 ** 38 - 1), (3, 0)]
    (inputs / "R.csv").write_text("k,u\n" + "".join(f"{k},{u}\n" for k, u in rows))
    engine_name = "spark" if engine.dialect == "spark" else "duckdb"
    assert main(["run", str(program), "--engine", engine_name, "--input", str(inputs),
                 "--output", str(outputs), "--format", fmt, "--quiet"]) == 0
    again = tmp_path / "again"
    again.mkdir()
    (outputs / f"O.{fmt}").rename(again / f"R.{fmt}")
    out = _run(dl2sql.compile(program.read_text()), engine, {"R": str(again / f"R.{fmt}")})
    assert sorted((int(k), int(u)) for k, u in collected(out["O"])) == sorted(
        (k ** 4, u) for k, u in rows)
