"""Where a maintained program's state lives (:mod:`dl2sql.api.state`): a local or
shared POSIX directory, or a Hadoop file system URL (``hdfs://``, ``s3a://``,
``abfs://``, ``gs://``, ``file://``) reached through the Spark session's Hadoop
client.

Both keep versions in folders ``vN/`` holding one Parquet file (a directory on a URL)
per relation and ``manifest.json``, and commit a version with one atomic step:

* a POSIX directory writes the version under a staging name, renames it to ``vN``,
  then replaces the ``CURRENT`` marker naming it (``os.replace``);
* a URL writes ``vN/`` in place and commits it by renaming its manifest from a
  temporary name to ``manifest.json`` (a rename to a new name is atomic on HDFS, and
  on object stores the object appears whole); the current version is the highest
  ``vN`` with a manifest. Object stores have no atomic replace of an existing object,
  which a ``CURRENT`` marker would need.

A save that fails part-way leaves the previous version current either way.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Optional

from dl2sql.diagnostics import InputError
from dl2sql.engines import engine_of

MANIFEST = "manifest.json"
CURRENT = "CURRENT"
_VERSION = re.compile(r"v(\d+)$")


def store_for(directory: str, spark=None, engine: str = "spark"
              ) -> "LocalStore | HadoopStore":
    """The store of ``directory``: a URL (``scheme://...``) through Hadoop (``spark``,
    or the active session; only for the Spark engine), anything else a POSIX path."""
    if "://" not in directory:
        return LocalStore(directory)
    if spark is None and engine == "spark":
        from pyspark.sql import SparkSession  # deferred: PySpark is slow to import

        spark = SparkSession.getActiveSession()
    if spark is None or not hasattr(spark, "_jvm") or getattr(spark, "_jvm", None) is None:
        raise InputError(f"state directory `{directory}` is a URL: it is reached through "
                         f"Spark's Hadoop file systems, which needs the Spark engine "
                         f"(a classic session, not Spark Connect); give a local path "
                         f"for DuckDB")
    return HadoopStore(directory, spark)


def _number(name: str) -> Optional[int]:
    m = _VERSION.match(name)
    return int(m.group(1)) if m else None


class LocalStore:
    """A state in a POSIX directory, committed by replacing its ``CURRENT`` marker."""

    def __init__(self, directory: str):
        self.directory, self.root = directory, Path(directory)

    def location(self, version: str, name: str) -> str:
        """The path of file ``name`` of ``version``."""
        return str(self.root / version / name)

    @staticmethod
    def write_table(runner, table, path: str) -> None:
        """Write a relation's table as one Parquet file at ``path``."""
        engine_of(runner).writer(runner, table, path, "parquet")

    def current(self) -> Optional[str]:
        """The current version's folder name, or None when no state was saved."""
        marker = self.root / CURRENT
        if not marker.is_file():
            if self.root.is_dir() and any(self.root.iterdir()):
                raise InputError(f"state directory `{self.directory}` holds files but no "
                                 f"{CURRENT} marker: not a dl2sql state (or a save that "
                                 f"never finished); use an empty or new directory")
            return None
        version = marker.read_text(encoding="utf-8").strip()
        if not (self.root / version / MANIFEST).is_file():
            raise InputError(f"state directory `{self.directory}`: {CURRENT} names "
                             f"`{version}`, which has no {MANIFEST}")
        return version

    def read(self, version: str, name: str) -> str:
        """The text of file ``name`` of ``version``."""
        return (self.root / version / name).read_text(encoding="utf-8")

    def exists(self, version: str, name: str) -> bool:
        """Whether ``version`` has a file (or a directory of part files) ``name``."""
        return (self.root / version / name).exists()

    def save(self, write: Callable[[Callable[[str], str]], None],
             manifest: Callable[[], str]) -> str:
        """A new version: ``write(place)`` writes each relation's file ``name`` at
        ``place(name)``, then ``manifest()`` gives the manifest's text; returns the
        version made current."""
        self.root.mkdir(parents=True, exist_ok=True)
        previous = self.current()
        version = f"v{1 + (_number(previous) if previous else 0)}"
        staging = Path(tempfile.mkdtemp(prefix=".saving-", dir=self.root))
        try:
            write(lambda name: str(staging / name))
            (staging / MANIFEST).write_text(manifest(), encoding="utf-8")
            os.replace(staging, self.root / version)
            marker = self.root / f".{CURRENT}.tmp"
            marker.write_text(version + "\n", encoding="utf-8")
            os.replace(marker, self.root / CURRENT)  # the switch: one rename
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        for old in self.root.glob("v*"):
            if old.is_dir() and old.name != version:
                shutil.rmtree(old, ignore_errors=True)
        return version


class HadoopStore:
    """A state at a Hadoop file system URL, committed by its manifest's rename."""

    def __init__(self, directory: str, spark):
        self.directory, self.spark = directory.rstrip("/"), spark
        jvm = spark._jvm
        self._Path = jvm.org.apache.hadoop.fs.Path
        self.root = self._Path(self.directory)
        self.fs = self.root.getFileSystem(spark._jsc.hadoopConfiguration())
        self._io = jvm.org.apache.commons.io.IOUtils

    def location(self, version: str, name: str) -> str:
        """The URL of file ``name`` of ``version``."""
        return f"{self.directory}/{version}/{name}"

    @staticmethod
    def write_table(runner, table, url: str) -> None:
        """Write a relation's table as a Parquet directory of part files at ``url``,
        written by the executors."""
        # in output form, as the local store's files (what the input readers take)
        engine_of(runner).frame(runner, table).write.mode("overwrite").parquet(url)

    def _versions(self) -> list[tuple[int, str, bool]]:
        """(number, name, committed) of every version folder."""
        if not self.fs.exists(self.root):
            return []
        out = []
        for status in self.fs.listStatus(self.root):
            name = status.getPath().getName()
            n = _number(name)
            if n is not None and status.isDirectory():
                committed = self.fs.exists(self._Path(status.getPath(), MANIFEST))
                out.append((n, name, committed))
        return sorted(out)

    def current(self) -> Optional[str]:
        """The highest committed version, or None when no state was saved."""
        committed = [name for _, name, done in self._versions() if done]
        if committed:
            return committed[-1]
        if self.fs.exists(self.root) and any(
                _number(s.getPath().getName()) is None for s in self.fs.listStatus(self.root)):
            raise InputError(f"state directory `{self.directory}` holds files but no saved "
                             f"version: not a dl2sql state; use an empty or new directory")
        return None

    def read(self, version: str, name: str) -> str:
        """The text of file ``name`` of ``version``."""
        stream = self.fs.open(self._Path(self.location(version, name)))
        try:
            return self._io.toString(stream, "UTF-8")
        finally:
            stream.close()

    def exists(self, version: str, name: str) -> bool:
        """Whether ``version`` has a file (or a directory of part files) ``name``."""
        return bool(self.fs.exists(self._Path(self.location(version, name))))

    def save(self, write: Callable[[Callable[[str], str]], None],
             manifest: Callable[[], str]) -> str:
        """As :meth:`LocalStore.save`; a version left half-written by a failed save
        is never current and is deleted by the next save."""
        versions = self._versions()
        version = f"v{1 + (versions[-1][0] if versions else 0)}"
        folder = self._Path(self.location(version, ""))
        self.fs.mkdirs(folder)
        write(lambda name: self.location(version, name))
        pending = self._Path(self.location(version, f".{MANIFEST}.tmp"))
        out = self.fs.create(pending, True)
        try:
            out.write(bytearray(manifest().encode("utf-8")))
        finally:
            out.close()
        if not self.fs.rename(pending, self._Path(self.location(version, MANIFEST))):
            raise InputError(f"state directory `{self.directory}`: could not commit "
                             f"version {version} (renaming its manifest failed)")
        for _, name, _ in self._versions():
            if name != version:
                self.fs.delete(self._Path(self.location(name, "").rstrip("/")), True)
        return version
