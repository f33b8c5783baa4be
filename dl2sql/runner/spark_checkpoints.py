"""Where a Spark runner keeps the tables it stores: local or reliable checkpoints.

Every stored table cuts its lineage with a checkpoint, or plans would grow with each
loop iteration. A *local* checkpoint keeps its blocks on the executors that computed
them: the fastest kind, and the only kind a local session needs (its executors live
as long as the driver), but on a cluster a lost executor takes its blocks along and
every later query that reads them fails. A *reliable* checkpoint writes files to a
directory all nodes can reach (HDFS, S3, a shared disk); Spark reads them back where
blocks are lost. :func:`checkpoints_for` chooses: reliable checkpoints on a cluster
when a directory is known (``checkpoint_dir=``, ``--checkpoint-dir``, the session's
``spark.checkpoint.dir`` or ``SparkContext.setCheckpointDir``), local ones on local
masters, and on a cluster without a directory local ones with a warning, once per
session, that a lost executor will fail the run.

Reliable checkpoints are written under a directory of their own per runner
(``<dir>/dl2sql-<id>``), set as the session's checkpoint directory only while dl2sql
checkpoints and put back after; each file set is deleted as soon as no table of the
runner is stored in it any more, and the whole directory when the runner is closed
(``Program.close()``, the CLI when its outputs are written) or the process ends.
A loop's growing relations are unions of the pieces stored at each step, written
anew as one only every ``compact_every`` appends (:mod:`dl2sql.plan.thresholds`),
with either kind of checkpoint (:mod:`dl2sql.runner.spark_pieces`).

Reliable checkpoints need ``SparkContext`` (to set the directory and delete files),
which Spark Connect sessions do not offer: those use local checkpoints.
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import shutil
import threading
import uuid
import warnings
import weakref
from typing import Optional

from dl2sql.diagnostics import Dl2sqlWarning
from dl2sql.runner.spark_session import is_connect, is_local_master

_warned: set = set()  # sessions told that they have no checkpoint directory
_lock = threading.Lock()


class LocalCheckpoints:
    """``localCheckpoint``: blocks kept by the executors; nothing to clean up."""

    reliable = False

    def checkpoint(self, df, eager: bool):
        """``df`` with its lineage cut; and the files it is stored in (none here)."""
        return with_own_attributes(df.localCheckpoint(eager=eager)), frozenset()

    def active(self):
        """Context of a runner's work with this store (nothing to set here)."""
        return contextlib.nullcontext()

    def collect(self, live: set) -> None:
        """Delete stored files no live table uses (none here)."""

    def close(self) -> None:
        """Delete everything this store wrote (nothing here)."""


class ReliableCheckpoints:
    """Reliable checkpoints in a directory of their own under ``base``."""

    reliable = True

    def __init__(self, spark, base: str):
        self.spark = spark
        self.directory = f"{base.rstrip('/')}/dl2sql-{uuid.uuid4().hex[:12]}"
        self._written: set[str] = set()  # checkpoint file sets not deleted yet
        self._depth = 0
        self._saved = None  # the session's own checkpoint directory, while ours is set
        atexit.register(self.close)  # whatever close() did not delete before

    def checkpoint(self, df, eager: bool):
        """``df`` written to files now (eager whatever ``eager`` says: a lazily written
        reliable checkpoint is computed twice, once for the query that fills it and
        once more for the files) and the files it is stored in."""
        with self.active():
            ck = df.checkpoint(eager=True)
        path = ck._jdf.queryExecution().analyzed().rdd().getCheckpointFile().get()
        self._written.add(path)
        return with_own_attributes(ck), frozenset((path,))

    def active(self):
        """Context in which the session's checkpoint directory is this store's."""
        return _Active(self)

    def _enter(self) -> None:
        self._depth += 1
        if self._depth == 1:
            sc = self.spark.sparkContext
            self._saved = sc._jsc.sc().checkpointDir()  # a Scala Option, put back as is
            sc.setCheckpointDir(self.directory)

    def _exit(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            getattr(self.spark.sparkContext._jsc.sc(), "checkpointDir_$eq")(self._saved)

    def collect(self, live: set) -> None:
        """Delete the written file sets that no table in ``live`` is stored in."""
        for path in sorted(self._written - live):
            self._delete(path)
            self._written.discard(path)

    def close(self) -> None:
        """Delete this store's directory and everything in it."""
        atexit.unregister(self.close)
        self._delete(self.directory)
        self._written.clear()

    def _delete(self, path: str) -> None:
        """Delete ``path`` through Hadoop's file system (any URI Spark reads), or, where
        the session is gone already (at exit), through Python for a local path."""
        try:
            sc = self.spark.sparkContext
            target = sc._jvm.org.apache.hadoop.fs.Path(path)
            target.getFileSystem(sc._jsc.hadoopConfiguration()).delete(target, True)
            return
        except Exception:
            pass
        local = path[len("file:"):] if path.startswith("file:") else path
        if "://" not in local:
            shutil.rmtree(local, ignore_errors=True)


class _Active:
    def __init__(self, store: ReliableCheckpoints):
        self.store = store

    def __enter__(self):
        self.store._enter()
        return self

    def __exit__(self, *exc) -> None:
        self.store._exit()


def checkpoint_directory(spark, given: Optional[str]) -> Optional[str]:
    """The directory for reliable checkpoints: ``given``, else the session's
    ``spark.checkpoint.dir``, else the directory set with ``setCheckpointDir``."""
    if given:
        return given
    try:
        configured = spark.conf.get("spark.checkpoint.dir", None)
    except Exception:  # pragma: no cover - a service that hides its settings
        configured = None
    if configured:
        return configured
    if not is_connect(spark):
        return spark.sparkContext.getCheckpointDir()
    return None


def checkpoints_for(spark, checkpoint_dir: Optional[str] = None, mode: str = "auto"):
    """The checkpoint store for a runner on ``spark`` (see the module docstring);
    ``mode`` "local" or "reliable" forces one kind ("reliable" needs a directory)."""
    if mode not in ("auto", "local", "reliable"):
        raise ValueError(f"checkpoints must be auto, local or reliable, not {mode!r}")
    if mode == "local":
        return LocalCheckpoints()
    directory = checkpoint_directory(spark, checkpoint_dir)
    if mode == "reliable":
        if directory is None or is_connect(spark):
            raise ValueError("reliable checkpoints need a classic session and a checkpoint "
                             "directory (checkpoint_dir= or spark.checkpoint.dir)")
        return ReliableCheckpoints(spark, directory)
    if is_connect(spark) or is_local_master(spark.sparkContext.master):
        return LocalCheckpoints()
    if directory is not None:
        return ReliableCheckpoints(spark, directory)
    _warn_once(spark)
    return LocalCheckpoints()


def _warn_once(spark) -> None:
    key = spark.sparkContext.applicationId
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    warnings.warn(
        f"no checkpoint directory on {spark.sparkContext.master}: dl2sql's loops keep "
        f"their tables in local checkpoints, and a lost executor will fail the run; give "
        f"a directory every node can reach (HDFS, S3, a shared disk) with --checkpoint-dir, "
        f"checkpoint_dir= or spark.checkpoint.dir", Dl2sqlWarning, stacklevel=2)


def with_own_attributes(ck):
    """The checkpoint ``ck`` with attributes of its own.

    A checkpoint's relation keeps the attribute ids of the query it stored, so a table
    computed from another (``Reachable`` passing ``Reach``'s ``b`` through) shares ids
    with it. Spark renames one side of a join apart only when it finds where the shared
    id is made, and it does not always find it: ``UNRESOLVED_COLUMN`` on a column that
    is plainly there (docs/performance.md, run 24). A new instance of the relation, over
    the same stored rows, shares nothing. On Spark Connect ``ck`` stays as it is (the
    client cannot reach the server's plans), and transactions keep adaptive execution
    (``SparkRunner.transaction``), under which the failure was not seen."""
    jdf = getattr(ck, "_jdf", None)
    if jdf is None:
        return ck
    from pyspark.sql import DataFrame  # deferred: PySpark loads only when Spark runs

    spark = ck.sparkSession
    relation = jdf.queryExecution().analyzed().newInstance()
    return DataFrame(_of_rows(spark)(spark._jsparkSession, relation), spark)


# Spark's Dataset.ofRows by session: looking it up at every checkpoint took 12 round
# trips to the JVM per checkpoint (with the releases of the objects it made), 4 with
# it kept, and a transaction makes a dozen checkpoints
_OF_ROWS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _of_rows(spark):
    member = _OF_ROWS.get(spark)
    if member is None:
        import pyspark  # deferred: PySpark loads only when Spark runs

        sql = spark._jvm.org.apache.spark.sql
        datasets = (sql.classic.Dataset if int(pyspark.__version__.split(".")[0]) >= 4
                    else sql.Dataset)
        member = _OF_ROWS[spark] = datasets.ofRows
    return member


def fill(frames: list) -> list[int]:
    """The row counts of ``frames`` (lazy checkpoints, or frames reading them), counted
    in one Spark job, which fills the checkpoints: a checkpoint's rows are stored as
    they are first computed, whatever the job then does with them."""
    union = tagged_union(frames)
    counts = {r[0]: r[1] for r in union.groupBy("dl2sql_frame").count().collect()}
    return [counts.get(i, 0) for i in range(len(frames))]


def collect_each(frames: list) -> list[list]:
    """The rows of each of ``frames`` (of one row type), collected in one Spark job."""
    out: list[list] = [[] for _ in frames]
    for r in tagged_union(frames, "*").collect():
        out[r[0]].append(r[1:])
    return out


def tagged_union(frames: list, *columns: str):
    """The union of ``frames``, each row with its frame's place first (``dl2sql_frame``)
    and then ``columns`` of it. (``selectExpr``: six round trips to the JVM per frame,
    against 26 for a select of a literal column.)"""
    tagged = [df.selectExpr(f"{i} AS dl2sql_frame", *columns) for i, df in enumerate(frames)]
    return functools.reduce(lambda a, b: a.unionAll(b), tagged)


def checkpoint_counted(runner, df):
    """``df`` checkpointed in ``runner``'s store, its row count and its files, for
    exactly one Spark action: counted as it is written (an observed metric), or where
    metrics do not arrive (Spark Connect after ``localCheckpoint``) by counting the
    lazy checkpoint, which computes and stores it."""
    if runner.count_mode == "observe":
        from pyspark.sql import Observation  # deferred: PySpark loads only when Spark runs
        from pyspark.sql import functions as F  # deferred: PySpark loads only when Spark runs

        if runner._row_count is None:  # an unresolved expression: reusable, built once
            runner._row_count = F.count(F.lit(1)).alias("n")
        obs = Observation()
        ck, files = runner.checkpoint(df.observe(obs, runner._row_count), eager=True)
        try:
            n = obs.get.get("n")
        except Exception:  # Connect: "no observe before get"
            n = None
        if n is not None:
            return ck, int(n), files
        # Metrics did not arrive. The table is materialised already, so counting it is
        # cheap; from now on use the one-action path.
        runner.count_mode = "count"
        runner.actions += 1
        return ck, ck.count(), files
    ck, files = runner.checkpoint(df, eager=False)
    if not runner.store.reliable:
        runner.actions += 1
    return ck, ck.count(), files  # the count computes and stores a lazy checkpoint
