"""The ``dl2sql`` command of a virtualenv, run without activating it, finds a ``python3``
on PATH that lacks dl2sql: a local Spark session dl2sql starts must still run its
Python UDFs, in the driver's own interpreter.

Simulated here with a PATH whose first ``python3`` is a bare interpreter (no
third-party packages); the replay output must be the expected one, byte for byte."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from children import run_child, without_progress

CASE = Path(__file__).parent / "programs" / "udf_fallbacks"


def test_local_spark_workers_run_the_drivers_python(bare, tmp_path, java):
    shadow = tmp_path / "bin"
    shadow.mkdir()
    (shadow / "python3").symlink_to(bare)
    (shadow / "python").symlink_to(bare)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYTHONPATH")}
    env["PATH"] = f"{shadow}{os.pathsep}{env.get('PATH', '')}"
    code, out, err = run_child("", args=[
        sys.executable, "-m", "dl2sql", "replay", str(CASE / "udf_fallbacks.dl"),
        "--engine", "spark", "--commands", str(CASE / "udf_fallbacks.dat"),
        "--externs", str(CASE / "externs.py")], env=env, timeout=300)
    assert (code, without_progress(err)) == (0, ""), err[-3000:]
    assert out == (CASE / "udf_fallbacks.dump.expected").read_text(encoding="utf-8")


def test_a_session_dl2sql_starts_runs_the_drivers_python(spark):
    from dl2sql.runner.spark_python import _runs_driver_python

    if os.environ.get("PYSPARK_PYTHON"):  # the user's choice stands
        assert spark.sparkContext.pythonExec == os.environ["PYSPARK_PYTHON"]
    else:
        assert spark.sparkContext.pythonExec == sys.executable
        assert _runs_driver_python(spark)  # nothing to ship, no probe job
