"""Starting a Spark session for dl2sql, quietly.

A session dl2sql starts itself (the CLI, or the API called without ``spark=``) is
tuned for dl2sql's work and prints nothing but errors: the JVM's own start-up notice
about incubator modules (Spark's launcher always adds ``jdk.incubator.vector``) is
filtered out of the JVM's stderr, log4j logs errors only, the UI and console progress
bars are off, and pandas' version warning that PySpark's first conversion triggers
is not shown. Its Python workers run the driver's own interpreter on local masters,
so that everything installed beside dl2sql is importable in them.

Sessions the user passes are used as they are (:mod:`dl2sql.runner.spark_quiet`
mutes only what dl2sql's own work would print on them).
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
import warnings
from typing import Optional

from dl2sql.runner.interrupts import reclaim

# log4j2 configuration for sessions we start ourselves: Spark's default INFO/WARN chatter
# (native-hadoop warnings, "Using Spark's default log4j profile") would drown the output
# of a command-line tool.
_LOG4J2 = """\
rootLogger.level = fatal
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
# Same level as the root logger, so that PySpark does not announce a "default log level".
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = fatal
logger.pygw.name = org.apache.spark.api.python.PythonGatewayServer
logger.pygw.level = fatal
"""

# Printed by the JVM itself (not by log4j) when a module of jdk.incubator is resolved.
_INCUBATOR_NOTICE = b"WARNING: Using incubator modules:"


def is_connect(spark) -> bool:
    """Whether ``spark`` is a Spark Connect (remote) session."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def is_local_master(master: str) -> bool:
    """Whether ``master`` runs everything in the driver's JVM (``local``, ``local[N]``)."""
    return master.strip().startswith("local")


def local_cores(master: str) -> int:
    """Number of worker threads of a ``local[...]`` master (cores for ``local[*]``);
    0 for any other master."""
    m = re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", master.strip())
    if not m:
        return 0
    n = m.group(1)
    if n is None:
        return 1
    if n == "*":
        return os.cpu_count() or 1
    return int(n)


def _log4j_file() -> str:
    path = os.path.join(tempfile.gettempdir(), "dl2sql-log4j2.properties")
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == _LOG4J2:
                return path
    except OSError:
        pass
    # written whole under another name, then renamed: a JVM starting meanwhile (another
    # process, such as a parallel test worker) reads the old file or the new one
    fd, partial = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".dl2sql-log4j2-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(_LOG4J2)
    os.replace(partial, path)
    return path


def driver_memory(master: str) -> str:
    """The driver's heap for a session dl2sql starts: on a local master the driver is
    also the only executor and holds every table, so a quarter of the machine's memory
    (at least 1 GiB, at most 8 GiB; Spark's own default of 1 GiB ran out at 16 M
    rows, docs/performance.md); 1 GiB where executors hold the data."""
    if not is_local_master(master):
        return "1g"
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system
        return "1g"
    gib = max(1, min(8, total // 4 // 2**30))
    return f"{gib}g"


# Settings a session fixes when it starts (Spark's static settings: ``spark.conf.set``
# refuses them later) that dl2sql's loops run faster with. Spark compiles each distinct
# query stage to a Java class and keeps 100: a loop step of one rule has about ten, a
# program of many rules far more, and every class compiled again is also run
# interpreted again until the JVM's JIT has warmed it up (docs/performance.md, run 12;
# on a session built without it, the transitive closure of 1,000 nodes took 1.26x as
# long, of 2,000 as long: "A session the user passes", issue 45)
STATIC_SETTINGS = {"spark.sql.codegen.cache.maxEntries": "2000"}


def spark_settings() -> dict[str, str]:
    """The static settings dl2sql's own sessions start with, for a session the user
    builds and passes to dl2sql: ``SparkSession.builder.config(map=dl2sql.spark_settings())``.
    Settings that can change at run time dl2sql sets itself while it runs."""
    return dict(STATIC_SETTINGS)


def session_settings(master: str, checkpoint_dir: Optional[str] = None) -> dict[str, str]:
    """The Spark settings of a session dl2sql starts on ``master``."""
    settings = {
        "spark.master": master,
        "spark.app.name": "dl2sql",
        "spark.sql.adaptive.enabled": "true",
        "spark.sql.caseSensitive": "true",
        "spark.sql.constraintPropagation.enabled": "false",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        # dl2sql reports engine errors itself, in one line; Spark's JSON logs would
        # bury that line under pages of stack traces
        "spark.log.structuredLogging.enabled": "false",
        "spark.driver.memory": os.environ.get("DL2SQL_DRIVER_MEMORY") or driver_memory(master),
        "spark.driver.extraJavaOptions": f"-Dlog4j.configurationFile={_log4j_file()}",
        **STATIC_SETTINGS,
    }
    cores = local_cores(master)
    if cores:
        # Spark's default of 200 means 200 tiny tasks per join on a laptop
        settings["spark.sql.shuffle.partitions"] = str(cores)
        settings["spark.default.parallelism"] = str(cores)
    if checkpoint_dir:
        settings["spark.checkpoint.dir"] = checkpoint_dir
    return settings


def get_spark(master: Optional[str] = None, checkpoint_dir: Optional[str] = None,
              settings: Optional[dict[str, str]] = None):
    """The active SparkSession, or a new one tuned for dl2sql on ``master`` (default
    ``$DL2SQL_SPARK_MASTER`` or ``local[*]``); see the module docstring.

    A new session has as many shuffle partitions as local cores, adaptive execution,
    case-sensitive identifiers (DDlog names are case-sensitive), no UI and errors-only
    logging; ``checkpoint_dir`` becomes its ``spark.checkpoint.dir``, and ``settings``
    (Spark setting -> value) are set over dl2sql's own."""
    from pyspark import SparkConf, SparkContext  # deferred: PySpark loads only when Spark runs
    from pyspark.sql import SparkSession  # deferred: PySpark loads only when Spark runs

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    master = master or os.environ.get("DL2SQL_SPARK_MASTER") or "local[*]"
    conf = SparkConf()
    for key, value in {**session_settings(master, checkpoint_dir), **(settings or {})}.items():
        conf.set(key, value)
    with without_pandas_warning():
        gateway = None
        if SparkContext._gateway is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
            gateway = _launch_filtered(conf)
        SparkContext.getOrCreate(conf) if gateway is None else SparkContext(
            conf=conf, gateway=gateway)
        # PySpark's SparkContext took SIGINT for a handler of its own, which cancels
        # the jobs in the middle of the main thread's call to the JVM (a page of py4j
        # tracebacks): dl2sql's stops a run cleanly (dl2sql.runner.interrupts)
        reclaim()
        spark = SparkSession.builder.getOrCreate()
    if is_local_master(master) and not os.environ.get("PYSPARK_PYTHON"):
        # PySpark would start `python3` from PATH for its workers, which need not be
        # the interpreter that dl2sql (and the user's extern functions) are installed
        # in: a virtualenv's `dl2sql` command runs without the virtualenv on PATH
        spark.sparkContext.pythonExec = sys.executable

    # PySpark logs every failed query as JSON on this Python logger; dl2sql reports the
    # failure itself, once and readably
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    spark.sparkContext.setLogLevel("OFF")
    return spark


@contextlib.contextmanager
def without_pandas_warning():
    """Inside this block, PySpark's FutureWarning about the installed pandas version is
    not shown (PySpark imports its test utilities on its first Python-to-JVM value
    conversion, and they check pandas; dl2sql uses neither), nor pandas' deprecation
    warnings about how PySpark's own conversion code calls it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas",
                                category=FutureWarning)
        warnings.filterwarnings("ignore", message="The copy keyword is deprecated")
        try:
            import pyspark.testing.utils  # noqa: F401 - imported here, warning muted
        except Exception:  # pragma: no cover - absent in some PySpark builds
            pass
        yield


def _launch_filtered(conf):
    """PySpark's JVM gateway, started with its stderr piped through a filter that drops
    the JVM's incubator-module notice and passes everything else on to our stderr."""
    from pyspark.java_gateway import launch_gateway  # deferred: PySpark loads only when Spark runs

    gateway = launch_gateway(conf, popen_kwargs={"stderr": subprocess.PIPE})
    proc = getattr(gateway, "proc", None)
    if proc is not None and proc.stderr is not None:
        threading.Thread(target=_forward_stderr, args=(proc.stderr.fileno(),),
                         name="dl2sql-jvm-stderr", daemon=True).start()
    return gateway


def _forward_stderr(fd: int) -> None:
    """Copy the JVM's stderr to ours, line by line, without the incubator notice."""
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            if pending:
                _write_stderr(pending)
            return
        pending += chunk
        lines = pending.split(b"\n")
        pending = lines.pop()  # an unfinished line waits for its end...
        out = [line + b"\n" for line in lines if not line.startswith(_INCUBATOR_NOTICE)]
        if pending and not (_INCUBATOR_NOTICE.startswith(pending)
                            or pending.startswith(_INCUBATOR_NOTICE)):
            out.append(pending)  # ... unless it cannot be the notice (a prompt, a bar)
            pending = b""
        if out:
            _write_stderr(b"".join(out))


def _write_stderr(data: bytes) -> None:
    try:
        os.write(2, data)
    except OSError:  # pragma: no cover - stderr closed
        pass


def loop_partitions(spark) -> int:
    """How many hash partitions dl2sql's loops use on ``spark``: the cores the session
    can use (its default parallelism), so that a loop step runs one task per core.

    Not the session's shuffle partitions: loop queries are planned without adaptive
    execution (it would lose the tables' partitioning), so nothing would coalesce
    Spark's default of 200 partitions into fewer tasks (each step of a small loop on a
    two-node cluster measured 3.5 s with 200, docs/performance.md), and on a large
    cluster a setting tuned for few cores would leave most of them idle."""
    if not is_connect(spark):
        try:
            return max(1, int(spark.sparkContext.defaultParallelism))
        except Exception:  # pragma: no cover - a session without a usable context
            pass
    for key in ("spark.default.parallelism", "spark.sql.leafNodeDefaultParallelism"):
        try:
            value = spark.conf.get(key, None)
        except Exception:  # pragma: no cover
            value = None
        if value:
            return max(1, int(value))
    return _range_splits(spark) or 2


def _range_splits(spark) -> int:
    """The partitions Spark gives ``range`` (its default parallelism), read from the
    physical plan; 0 when the plan cannot be read (Spark Connect offers no
    ``sparkContext``: this is its way to ask, without running a job)."""
    try:
        text = spark.range(0, 1)._explain_string(mode="simple")  # type: ignore[attr-defined]
    except Exception:
        return 0
    m = re.search(r"splits=(\d+)", text)
    return int(m.group(1)) if m else 0


def _bytes(text: str) -> int:
    """A JVM memory setting (``512m``, ``4g``, ``1024``: bytes) in bytes."""
    text = text.strip().lower()
    units = {"k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
    if text and text[-1] == "b":
        text = text[:-1]
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def hash_join_budget(spark, partitions: int) -> int:
    """The largest table (dl2sql's estimate of its bytes) that a loop joins by building a
    hash table of it, on ``spark`` with ``partitions`` partitions per table.

    A task's share of the executor's unified memory, (heap - 300 MB) x
    ``spark.memory.fraction`` over its cores, halved (stored tables compete for it),
    divided by 12 (a row of Spark's hash relation, with its map slots and the copy
    while the map grows, takes several times dl2sql's estimate, and the build cannot
    spill), per partition. With a 5 GiB local[2] driver that is about 120 MB; divided
    by 4 instead (a bound three times as large), the 15.9 M-row relation of the
    N = 5000 benchmark was hashed and the run ran out of execution memory."""
    def setting(key, default):
        try:
            return spark.conf.get(key, None) or default
        except Exception:  # pragma: no cover - a service that hides its settings
            return default
    master = setting("spark.master", "local[*]")
    local = is_local_master(master)
    heap = _bytes(setting("spark.driver.memory" if local else "spark.executor.memory", "1g"))
    cores = local_cores(master) if local else int(setting("spark.executor.cores", "1"))
    fraction = float(setting("spark.memory.fraction", "0.6"))
    per_task = max(0, heap - 300 * 2**20) * fraction / max(1, cores) / 2
    return int(per_task / 12 * max(1, partitions))
