"""What a Spark worker needs to run a program's Python UDFs: dl2sql's own files (the
zip dl2sql ships) and PySpark, nothing else.

The UDFs of a program are pickled here exactly as Spark pickles them and run in a
child interpreter that sees only the standard library, that zip and PySpark's own
zip (as a worker does): no site-packages, so neither sqlglot, lark nor duckdb."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import dl2sql
from dl2sql.api.evaluate import Evaluator
from dl2sql.runner.spark_python import runtime_zip
from dl2sql.types.model import WIDE

PROGRAM = """
function collatz(n: u64): u64 {
    if (n == 1) { 0 } else if (n % 2 == 0) { 1 + collatz(n / 2) } else { 1 + collatz(3 * n + 1) }
}
typedef Shape = Circle{r: u64} | Rect{w: u64, h: u64}
function area(s: Shape): bit<128> {
    var a: bit<128> = 0;
    for (i in range_vec(0: u64, 3, 1)) { a = a + match (s) { Circle{r} -> (r * r) as bit<128>,
                                                         Rect{w, h} -> (w * h) as bit<128> } };
    a
}
extern function shout(s: string): string
input relation N(n: u64, s: Shape, w: string)
output relation R(n: u64, c: u64, a: bit<128>, w: string)
R(n, collatz(n), area(s), shout(w)) :- N(n, s, w).
"""


class _Recorder:
    """A runner that only records the UDFs it is given, wrapped as Spark wraps them."""

    engine = dialect = "spark"

    def __init__(self):
        self.udfs = {}

    def register_function(self, name, fn, arg_types, ret_type):
        from dl2sql.runner.spark_types import to_spark
        from dl2sql.runtime.spark_values import SparkUdf

        self.udfs[name] = SparkUdf(fn, to_spark(ret_type))


def _pyspark_zips() -> list[str]:
    """PySpark's and py4j's zips, which Spark puts on its Python workers' path."""
    import glob

    import pyspark

    lib = os.path.join(os.path.dirname(pyspark.__file__), "python", "lib")
    zips = sorted(glob.glob(os.path.join(lib, "*.zip")))
    if not any(z.endswith("pyspark.zip") for z in zips):
        pytest.skip("this PySpark install has no python/lib/pyspark.zip")
    return zips


def test_udfs_run_with_only_dl2sql_and_pyspark_on_the_path(tmp_path) -> None:
    from pyspark import cloudpickle
    from pyspark.sql import Row

    def shout(s):  # nested: pickled by value, as a user's extern from a script is
        return s.upper() + "!"

    program = dl2sql.compile(PROGRAM, extern={"shout": shout})
    recorder = _Recorder()
    # the program in both representations of wide integers (their UDFs named apart)
    for compiled in (program.compiled, program.compiled.represented(WIDE)):
        Evaluator(compiled, recorder, externs={"shout": shout}).register_udfs(
            compiled.plan_for("spark"))
    assert len(recorder.udfs) == 6
    # arguments as Spark hands them over: Rows for structs, ints for BIGINT
    calls = {name: [837799] if "collatz" in fn.fn.where else
             [Row(tag=1, Circle_r=0, Rect_w=3, Rect_h=4)] if "area" in fn.fn.where else ["hi"]
             for name, fn in recorder.udfs.items()}
    expected = {name: str(fn(*calls[name])) for name, fn in recorder.udfs.items()}
    # a bit<128> goes to Spark as a DECIMAL, or WIDE as its (num, big) pair
    # (dl2sql.types.wide_ints)
    assert sorted(expected.values()) == ["(Decimal('36'), '')", "36", "524", "524", "HI!",
                                         "HI!"]
    pickled = tmp_path / "udfs.pickle"
    pickled.write_bytes(cloudpickle.dumps((recorder.udfs, calls)))

    child = textwrap.dedent(f"""
        import json, pickle, sys
        sys.path[:] = [p for p in sys.path if "site-packages" not in p]
        sys.path[:0] = {[runtime_zip(), *_pyspark_zips()]!r}
        udfs, calls = pickle.loads(open({str(pickled)!r}, "rb").read())
        out = {{name: str(fn(*calls[name])) for name, fn in udfs.items()}}
        heavy = sorted(m for m in ("sqlglot", "lark", "duckdb", "dl2sql.compiler",
                                   "dl2sql.api.program") if m in sys.modules)
        print(json.dumps({{"out": out, "heavy": heavy,
                          "from": sys.modules["dl2sql"].__file__}}))
    """)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", child], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["out"] == expected
    assert report["heavy"] == []
    assert report["from"].startswith(runtime_zip())


def test_runtime_zip_holds_dl2sql_with_its_udfs_and_is_named_by_content() -> None:
    import zipfile

    path = runtime_zip()
    names = zipfile.ZipFile(path).namelist()
    assert "dl2sql/runtime/udf.py" in names and "dl2sql/udfs/std.py" in names
    assert not [n for n in names if n.startswith("udfs/")]  # no top-level package
    assert all(n.endswith(".py") for n in names)
    assert runtime_zip() == path  # built once per process, same name for same content


def test_runtime_zip_ships_the_pure_python_packages_the_udfs_import(tmp_path) -> None:
    """The url library's international domain names work on a worker that has only
    the zip (idna travels in it)."""
    child = textwrap.dedent(f"""
        import sys
        sys.path[:] = [p for p in sys.path if "site-packages" not in p]
        sys.path.insert(0, {runtime_zip()!r})
        from dl2sql.udfs.lib_url import url_parse
        print(url_parse("http://bücher.de/").fields[0], sys.modules["idna"].__file__)
    """)
    done = subprocess.run([sys.executable, "-I", "-S", "-c", child], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    url, idna_file = done.stdout.split()
    assert url == "http://xn--bcher-kva.de/" and idna_file.startswith(runtime_zip())
