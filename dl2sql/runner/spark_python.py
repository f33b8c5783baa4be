"""dl2sql's runtime on Spark's Python workers.

A program whose rules need a Python UDF runs dl2sql's interpreter on the workers, so
they must import :mod:`dl2sql.runtime` (and the modules it uses). Where the workers
run the driver's own interpreter (local sessions dl2sql starts) they already can.
Anywhere else (a cluster, another Python chosen with ``PYSPARK_PYTHON`` or
``spark.pyspark.python``, a Spark Connect server) nothing says they can: dl2sql
ships its own files to the session once, as a Python artifact (a zip of the
``dl2sql`` package, ``dl2sql.udfs`` included; they need only the standard library there), and
runs one small probe job that imports the runtime on a worker. If the probe fails,
the run stops before its first job with a message saying what the workers lack,
instead of a Python traceback from deep inside the first query that calls a UDF.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import shutil
import sys
import sysconfig
import tempfile
import threading
import zipfile
from pathlib import Path

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.runner.errors import python_worker_exception
from dl2sql.runner.spark_session import is_connect, is_local_master

_PACKAGES = ("dl2sql",)
_ready: set = set()  # sessions whose workers import the runtime
_lock = threading.Lock()
_zip_path: str | None = None


def ensure_runtime(spark) -> None:
    """Make dl2sql's runtime importable by ``spark``'s Python workers (once per
    session); raise :class:`RuntimeFailure` saying what to install where it cannot."""
    key = _session_key(spark)
    with _lock:
        if key in _ready:
            return
        if not _runs_driver_python(spark):
            _ship(spark)
            _probe(spark)
        _ready.add(key)


def send_by_value(callables) -> None:
    """Have the user's ``callables`` (extern functions) pickled with their code, not by
    module name, where their module is the user's own (a script's sibling, a test
    file): the workers' ``sys.path`` is not the driver's, so they could not import it.
    Modules installed in the driver's Python (standard library, site-packages) are
    still sent by name; the workers need them installed too."""
    from pyspark import cloudpickle  # deferred: PySpark loads only when Spark runs

    for fn in callables:
        name = getattr(fn, "__module__", None)
        module = sys.modules.get(name or "")
        if module is None or name == "__main__" or name.split(".")[0] in _PACKAGES:
            continue  # __main__ is pickled by value anyway; dl2sql's own is shipped
        if not _installed(module):
            cloudpickle.register_pickle_by_value(module)


def _installed(module) -> bool:
    path = getattr(module, "__file__", None)
    if path is None:
        return True  # built into the interpreter
    roots = {sysconfig.get_path(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    path = os.path.realpath(path)
    return any(root and path.startswith(os.path.realpath(root) + os.sep) for root in roots)


def _session_key(spark):
    if is_connect(spark):
        return ("connect", spark.session_id)
    return ("classic", spark.sparkContext.applicationId)


def _runs_driver_python(spark) -> bool:
    """Whether the workers are this very interpreter (a local classic session whose
    workers run ``sys.executable``): they import what the driver imports."""
    if is_connect(spark):
        return False
    sc = spark.sparkContext
    if not is_local_master(sc.master):
        return False
    worker = shutil.which(sc.pythonExec) or sc.pythonExec
    # not realpath: a virtualenv's python is a link to the base interpreter, which
    # does not see the virtualenv's packages
    return os.path.abspath(worker) == os.path.abspath(sys.executable)


# the url library's international domain names (UTS #46)
SHIPPED_PACKAGES = ("idna",)


def runtime_zip() -> str:
    """A zip of dl2sql's Python files (``dl2sql.udfs`` included), named by its content
    so that a session is given one file per dl2sql version."""
    global _zip_path
    if _zip_path is not None and os.path.exists(_zip_path):
        return _zip_path
    files: dict[str, bytes] = {}
    # dl2sql.udfs is installed inside dl2sql, but an editable install maps it from the
    # repository's top-level udfs/ folder, outside dl2sql's own
    udfs_root = importlib.util.find_spec("dl2sql.udfs").submodule_search_locations[0]
    roots = [(Path(__file__).parents[1], "dl2sql"), (Path(udfs_root), "dl2sql/udfs")]
    # pure-Python packages that dl2sql.udfs imports travel with it
    roots += [(Path(importlib.util.find_spec(name).submodule_search_locations[0]), name)
              for name in SHIPPED_PACKAGES]
    for root, prefix in roots:
        for path in sorted(root.rglob("*.py")):
            files[f"{prefix}/{path.relative_to(root).as_posix()}"] = path.read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, files[name])
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f"dl2sql-runtime-{digest}.zip")
    if not os.path.exists(path):
        partial = f"{path}.{os.getpid()}.part"
        with open(partial, "wb") as f:
            f.write(data)
        os.replace(partial, path)
    _zip_path = path
    return path


def _ship(spark) -> None:
    path = runtime_zip()
    try:
        if hasattr(spark, "addArtifacts"):
            spark.addArtifacts(path, pyfile=True)
        else:  # PySpark before 4.0, classic sessions
            spark.sparkContext.addPyFile(path)
    except Exception as e:
        if "DUPLICATED_ARTIFACT" in str(e) or "already exists" in str(e):
            return  # shipped before (same content, same name)
        raise RuntimeFailure(
            f"cannot send dl2sql's runtime to the Spark session's Python workers "
            f"({_first(e)}); install dl2sql in the Python that the workers run "
            f"(pip install dl2sql on every worker node)") from None


def _probe(spark) -> None:
    """Import the runtime on a worker; raise with what is missing if that fails."""
    from pyspark.sql.functions import udf  # deferred: PySpark loads only when Spark runs

    def probe(_):  # nested: pickled by value, so it runs even where dl2sql is absent
        import sys as worker_sys  # on the worker: its own interpreter's

        try:
            import dl2sql.runtime.spark_values  # noqa: F401 (what a UDF needs on a worker)
            import dl2sql.runtime.udf  # noqa: F401 (what a UDF needs on a worker)
            return "ok " + worker_sys.executable
        except BaseException as e:  # report, do not fail: the driver explains
            return f"{type(e).__name__}: {e} | {worker_sys.executable}"

    try:
        # not Arrow-optimised (PySpark 4 makes plain UDFs Arrow UDFs by default), so
        # that workers need no pyarrow; the program's UDFs are registered the same way
        result = spark.range(1).select(udf(probe, useArrow=False)("id")).collect()[0][0]
    except Exception as e:
        detail = python_worker_exception(str(e)) or _first(e)
        raise RuntimeFailure(
            f"Spark's Python workers cannot run dl2sql's Python functions: {detail}; "
            f"the workers need a Python {sys.version_info[0]}.{sys.version_info[1]} "
            f"(the driver's version), set with spark.pyspark.python or PYSPARK_PYTHON"
        ) from None
    if not result.startswith("ok "):
        problem, _, python = result.rpartition(" | ")
        raise RuntimeFailure(
            f"Spark's Python workers ({python}) cannot import dl2sql's runtime, which "
            f"dl2sql sent to them: {problem}; install dl2sql in that Python, or choose "
            f"another with spark.pyspark.python")


def _first(e: BaseException) -> str:
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    return lines[0][:300] if lines else type(e).__name__
