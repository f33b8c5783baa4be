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
