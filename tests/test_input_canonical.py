"""Inputs from files and DataFrames are put in canonical form on both engines: sets
sorted without duplicates, maps sorted by key, unused union fields defaulted (JSON
lines omit them), so that equal DDlog values are equal rows; and values with no
canonical form (NULLs, unknown tags, a key twice in a map) are InputErrors that name
the relation and column and show the value."""
from __future__ import annotations

import json

import pytest

import dl2sql
from dl2sql.diagnostics import InputError
from engines import collected, run_on as _run

PROGRAM = """
typedef Shape = Circle{r: s64} | Rect{w: s64, h: s64} | Dot
input relation S(id: s64, s: Shape, tags: Set<string>, m: Map<string, s64>,
                 v: Vec<Option<s64>>, u: ())
output relation O(id: s64, s: Shape, tags: Set<string>, m: Map<string, s64>,
                  v: Vec<Option<s64>>)
O(id, s, t, m, v) :- S(id, s, t, m, v, _).
// equality of whole values: each id's shape equals every other row's with that shape
output relation SameShape(a: s64, b: s64)
SameShape(a, b) :- S(a, s, _, _, _, _), S(b, s, _, _, _, _), a < b.
output relation HasTag(id: s64, t: string)
HasTag(id, t) :- S(id, _, tags, _, _, _), var t = FlatMap(tags).
"""

GOOD = [
    # unused fields omitted, a set unsorted with a duplicate, a map unsorted
    {"id": 1, "s": {"tag": 0, "Circle_r": 5}, "tags": ["b", "a", "b"],
     "m": [{"_0": "z", "_1": 1}, {"_0": "a", "_1": 2}],
     "v": [{"tag": 1, "Some_x": 3}, {"tag": 0}], "u": True},
    # the same value in canonical form: must collapse with the first row
    {"id": 1, "s": {"tag": 0, "Circle_r": 5, "Rect_w": 0, "Rect_h": 0}, "tags": ["a", "b"],
     "m": [{"_0": "a", "_1": 2}, {"_0": "z", "_1": 1}],
     "v": [{"tag": 1, "Some_x": 3}, {"tag": 0, "Some_x": 0}], "u": True},
    # unused fields present but not defaults: still the same Circle{5}
    {"id": 2, "s": {"tag": 0, "Circle_r": 5, "Rect_w": 9, "Rect_h": 9}, "tags": [],
     "m": [], "v": [], "u": True},
    {"id": 3, "s": {"tag": 2}, "tags": ["c"], "m": [], "v": [], "u": True},
]

CIRCLE = {"tag": 0, "Circle_r": 5, "Rect_w": 0, "Rect_h": 0}


@pytest.fixture(scope="module")
def program():
    return dl2sql.compile(PROGRAM)


def _write(tmp_path, rows) -> str:
    path = tmp_path / "S.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


def _plain(v):
    """Collected values of either engine as plain Python (Row/dict/list/tuple)."""
    if hasattr(v, "asDict"):
        return {k: _plain(x) for k, x in v.asDict().items()}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _rows(frame) -> list:
    return sorted((_plain(list(r)) for r in collected(frame)), key=repr)


def test_values_are_canonical_and_equal_values_collapse(program, engine, tmp_path):
    out = _run(program, engine, {"S": _write(tmp_path, GOOD)})
    rows = _rows(out["O"])
    assert [r[0] for r in rows] == [1, 2, 3]  # the two spellings of row 1 are one row
    one = rows[0]
    assert one[1] == CIRCLE
    assert one[2] == ["a", "b"]
    assert one[3] == [{"_0": "a", "_1": 2}, {"_0": "z", "_1": 1}]
    assert one[4] == [{"tag": 1, "Some_x": 3}, {"tag": 0, "Some_x": 0}]
    assert rows[1][1] == CIRCLE
    assert rows[2][1] == {"tag": 2, "Circle_r": 0, "Rect_w": 0, "Rect_h": 0}
    assert _rows(out["SameShape"]) == [[1, 2]]
    assert _rows(out["HasTag"]) == [[1, "a"], [1, "b"], [3, "c"]]


BAD = [
    # a scalar column: the file's line is found (dl2sql.io.text_scan)
    ({"id": None}, "S.jsonl:2: input relation `S`, column `id` (signed<64>): is null"),
    ({"s": {"tag": 1, "Rect_w": 5}}, "column `s` holds NULL or a tag that names no constructor"),
    ({"s": {"tag": 7}}, "column `s` holds NULL or a tag"),
    ({"tags": ["a", None]}, "column `tags` holds NULL"),
    ({"m": [{"_0": "a", "_1": 1}, {"_0": "a", "_1": 2}]}, "two entries for one key"),
    ({"v": [{"tag": 1}]}, "column `v` holds NULL"),
]


@pytest.mark.parametrize("change,message", BAD, ids=[f"{next(iter(c))}-{i}"
                                                     for i, (c, _) in enumerate(BAD)])
def test_values_without_canonical_form_are_input_errors(program, engine, tmp_path, change,
                                                         message):
    row = dict(GOOD[3], **change)
    with pytest.raises(InputError) as info:
        _run(program, engine, {"S": _write(tmp_path, [GOOD[0], row])})
    text = str(info.value)
    assert message in text
    if "S.jsonl:" not in message:  # structured values: the engines' checks
        assert text.startswith(f"{tmp_path / 'S.jsonl'}: input relation `S`: ")
        assert " in value " in text  # the value is shown


def test_identical_map_entries_are_one_entry(program, engine, tmp_path):
    row = dict(GOOD[3], m=[{"_0": "k", "_1": 1}, {"_0": "k", "_1": 1}])
    out = _run(program, engine, {"S": _write(tmp_path, [row])})
    assert _rows(out["O"])[0][3] == [{"_0": "k", "_1": 1}]
