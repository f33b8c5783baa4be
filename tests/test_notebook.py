"""The ``%%datalog`` cell magic (dl2sql.api.notebook), run in IPython's own shell."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("IPython")

PROGRAM = """\
input relation Edge(src: u32, dst: u32)
input relation Extra(src: u32, dst: u32)
output relation Reach(src: u32, dst: u32)
Reach(s, d) :- Edge(s, d).
Reach(s, d) :- Extra(s, d).
Reach(s, d) :- Reach(s, m), Reach(m, d).
"""

# 1 -> 2 -> 3 from the list, 3 -> 4 from the DataFrame
EXPECTED = sorted({(1, 2), (2, 3), (1, 3), (3, 4), (2, 4), (1, 4)})

BAD = """\
input relation Edge(src: u32, dst: u32)
output relation Reach(src: u32, dst: u32)
Reach(s, d) :- Edgee(s, d).
"""


@pytest.fixture(scope="module")
def shell():
    """IPython's shell with the extension loaded."""
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "dl2sql")
    return ip


@pytest.fixture
def ns(shell, spark):
    """The shell's namespace with the two inputs; cleaned up after the test."""
    names = ("edges", "extra", "reach", "_datalog", "pdf")
    shell.user_ns["edges"] = [(1, 2), (2, 3)]
    shell.user_ns["extra"] = spark.createDataFrame([(3, 4)], "src bigint, dst bigint")
    yield shell.user_ns
    for name in names:
        shell.user_ns.pop(name, None)


def _rows(frame) -> list[tuple]:
    if hasattr(frame, "toPandas"):  # Spark
        return sorted(tuple(r) for r in frame.collect())
    return sorted(frame.fetchall())  # DuckDB


def test_both_engines_agree(shell, ns, capsys):
    results = {}
    for engine in ("spark", "duckdb"):
        shell.run_cell_magic(
            "datalog", f"--engine {engine} --input Edge=edges --input Extra=extra "
                       f"--output reach --show 3", PROGRAM)
        out = capsys.readouterr()
        assert "Traceback" not in out.out + out.err
        assert "Reach: 6 rows" in out.out
        assert set(ns["reach"]) == {"Reach"}
        results[engine] = _rows(ns["reach"]["Reach"])
    assert results["spark"] == results["duckdb"] == EXPECTED


def test_default_output_and_quiet(shell, ns, capsys):
    import pandas as pd

    # a pandas DataFrame on Spark, and the default variable `_datalog`
    ns["pdf"] = pd.DataFrame({"src": [3], "dst": [4]})
    shell.run_cell_magic("datalog", "--quiet --input Edge=edges --input Extra=pdf", PROGRAM)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    assert _rows(ns["_datalog"]["Reach"]) == EXPECTED


def test_compile_error_is_located_in_the_cell(shell, ns, capsys):
    result = shell.run_cell_magic("datalog", "--engine duckdb --output reach", BAD)
    assert result is None
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert re.search(r"^<cell>:3:\d+: error: ", out.err, re.MULTILINE), out.err
    lines = out.err.splitlines()
    at = next(i for i, s in enumerate(lines) if s.startswith("<cell>:3:"))
    assert lines[at + 1] == "Reach(s, d) :- Edgee(s, d)."
    assert lines[at + 2].lstrip().startswith("^")
    assert "reach" not in ns


def test_input_error_has_no_traceback(shell, ns, capsys):
    shell.run_cell_magic("datalog", "--engine duckdb --input Nope=edges --output reach",
                         PROGRAM)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert out.err.startswith("error: ") and "Nope" in out.err
    assert "reach" not in ns
