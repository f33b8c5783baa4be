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

Savepoints (``dl2sql run --state DIR --savepoint NAME``) name versions in
``savepoints.json`` (a list of names and versions, oldest first, replaced whole): a
save deletes every version but the current one and the named ones. Making a named
version current again (:meth:`LocalStore.restore`) replaces the ``CURRENT`` marker; at
a URL, where the highest version is the current one, the named version is copied as a
new version, committed by its manifest's rename as a save is.
"""
from __future__ import annotations

import json
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
SAVEPOINTS = "savepoints.json"
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


def _named(directory: str, text: Optional[str]) -> list[tuple[str, str]]:
    """The savepoints of ``savepoints.json``'s ``text`` (None: no file): (name, version)
    pairs, oldest first."""
    if text is None:
        return []
    try:
        entries = json.loads(text)
        return [(str(e["name"]), str(e["version"])) for e in entries]
    except (ValueError, TypeError, KeyError) as e:
        raise InputError(f"state directory `{directory}` is damaged: {SAVEPOINTS} is not "
                         f"a list of savepoints ({e}); restore it from a copy") from None


def _named_text(entries: list[tuple[str, str]]) -> str:
    return json.dumps([{"name": n, "version": v} for n, v in entries], indent=1)


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
        # above every version kept (a savepoint's may be newer than the current one)
        names = [p.name for p in self.root.glob("v*") if p.is_dir()] + [previous or "v0"]
        version = f"v{1 + max(n for n in map(_number, names) if n is not None)}"
        staging = Path(tempfile.mkdtemp(prefix=".saving-", dir=self.root))
        try:
            write(lambda name: str(staging / name))
            (staging / MANIFEST).write_text(manifest(), encoding="utf-8")
            os.replace(staging, self.root / version)
            self._switch(version)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        self.prune()
        return version

    def _switch(self, version: str) -> None:
        """Make ``version`` current: one rename of the marker."""
        marker = self.root / f".{CURRENT}.tmp"
        marker.write_text(version + "\n", encoding="utf-8")
        os.replace(marker, self.root / CURRENT)

    def savepoints(self) -> list[tuple[str, str]]:
        """The named versions: (name, version) pairs, oldest first."""
        path = self.root / SAVEPOINTS
        return _named(self.directory, path.read_text(encoding="utf-8")
                      if path.is_file() else None)

    def set_savepoints(self, entries: list[tuple[str, str]]) -> None:
        """Name these versions, and no others (replaced in one rename)."""
        pending = self.root / f".{SAVEPOINTS}.tmp"
        pending.write_text(_named_text(entries), encoding="utf-8")
        os.replace(pending, self.root / SAVEPOINTS)

    def restore(self, version: str) -> str:
        """Make saved ``version`` current again (the marker's rename); returns it."""
        self._switch(version)
        return version

    def prune(self) -> None:
        """Delete every version but the current one and the named ones."""
        keep = {self.current()} | {v for _, v in self.savepoints()}
        for old in self.root.glob("v*"):
            if old.is_dir() and old.name not in keep:
                shutil.rmtree(old, ignore_errors=True)


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
        self._commit(version, pending)
        self.prune()
        return version

    def _commit(self, version: str, pending) -> None:
        """Commit ``version``: its manifest written at ``pending``, renamed."""
        if not self.fs.rename(pending, self._Path(self.location(version, MANIFEST))):
            raise InputError(f"state directory `{self.directory}`: could not commit "
                             f"version {version} (renaming its manifest failed)")

    def _file(self, name: str):
        return self._Path(f"{self.directory}/{name}")

    def savepoints(self) -> list[tuple[str, str]]:
        """As :meth:`LocalStore.savepoints`."""
        path = self._file(SAVEPOINTS)
        if not self.fs.exists(path):
            return []
        stream = self.fs.open(path)
        try:
            return _named(self.directory, self._io.toString(stream, "UTF-8"))
        finally:
            stream.close()

    def set_savepoints(self, entries: list[tuple[str, str]]) -> None:
        """As :meth:`LocalStore.set_savepoints`, written beside and renamed (a rename
        does not replace a file on HDFS: the old one is deleted first, so a process
        that dies between the two leaves no names, and the next save keeps only the
        current version)."""
        pending = self._file(f".{SAVEPOINTS}.tmp")
        out = self.fs.create(pending, True)
        try:
            out.write(bytearray(_named_text(entries).encode("utf-8")))
        finally:
            out.close()
        self.fs.delete(self._file(SAVEPOINTS), False)
        if not self.fs.rename(pending, self._file(SAVEPOINTS)):
            raise InputError(f"state directory `{self.directory}`: could not write "
                             f"{SAVEPOINTS}")

    def restore(self, version: str) -> str:
        """Make saved ``version`` current again: the current version is the highest, so
        its files are copied as a new version, committed as a save is; returns it."""
        versions = self._versions()
        new = f"v{1 + (versions[-1][0] if versions else 0)}"
        conf = self.spark._jsc.hadoopConfiguration()
        copy = self.spark._jvm.org.apache.hadoop.fs.FileUtil.copy
        self.fs.mkdirs(self._Path(self.location(new, "")))
        for status in self.fs.listStatus(self._Path(self.location(version, ""))):
            name = status.getPath().getName()
            to = f".{MANIFEST}.tmp" if name == MANIFEST else name
            copy(self.fs, status.getPath(), self.fs, self._Path(self.location(new, to)),
                 False, conf)
        self._commit(new, self._Path(self.location(new, f".{MANIFEST}.tmp")))
        return new

    def prune(self) -> None:
        """Delete every version but the current one and the named ones (and those left
        half-written)."""
        keep = {self.current()} | {v for _, v in self.savepoints()}
        for _, name, _ in self._versions():
            if name not in keep:
                self.fs.delete(self._Path(self.location(name, "").rstrip("/")), True)
