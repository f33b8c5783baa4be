"""Keeping a user's Spark session quiet while dl2sql works on it.

A session the user passes keeps its own log and console settings, but what dl2sql's
own queries would print there is noise to them: Spark's console progress bars (a
session with ``spark.ui.showConsoleProgress``, as PySpark's shell has, draws one for
every stage that runs longer than half a second, and a loop runs hundreds) and the
``HintErrorLogger`` warnings about join hints that a query shape cannot use (dl2sql
hints the temp views of tables whose size it counted; a view read by a query without
an equi-join draws such a warning), and the block manager's warnings about the
checkpoint blocks of dl2sql's tables (a lazily checkpointed partition that two jobs
compute at once is stored once, with a warning for the second). While :func:`quiet`
is entered, the progress bar prints into nothing and those loggers log errors only;
all are put back afterwards.

This reaches into the JVM (log4j's configuration, the progress bar's private console
stream), which only classic sessions have; on Spark Connect both live on the server
and the client sees neither, so nothing is done there. Any failure here is ignored:
being quiet must never stop a run.
"""
from __future__ import annotations

import contextlib

from dl2sql.runner.spark_session import is_connect

HINT_LOGGER = "org.apache.spark.sql.catalyst.analysis.HintErrorLogger"
MUTED_LOGGERS = (HINT_LOGGER, "org.apache.spark.storage.BlockManager")


class Quiet:
    """A reentrant context that mutes a classic session's progress bar and hint
    warnings (see the module docstring)."""

    def __init__(self, spark):
        self.spark = spark
        self._depth = 0
        self._undo: list = []

    def __enter__(self) -> "Quiet":
        self._depth += 1
        if self._depth == 1 and not is_connect(self.spark):
            mutes = [_mute_progress_bar, _mute_loggers]
            for mute in mutes:
                try:
                    undo = mute(self.spark)
                except Exception:  # a JVM without these classes: stay as it is
                    undo = None
                if undo is not None:
                    self._undo.append(undo)
        return self

    def __exit__(self, *exc) -> None:
        self._depth -= 1
        if self._depth == 0:
            while self._undo:
                with contextlib.suppress(Exception):
                    self._undo.pop()()


def _mute_progress_bar(spark):
    """Point the session's console progress bar at a null stream; returns the undo.
    The bar keeps its stream in a private field, set when the context started, and
    redraws from its own timer thread, so swapping the stream is the only switch."""
    bar = spark.sparkContext._jsc.sc().progressBar()
    if not bar.isDefined():
        return None
    bar = bar.get()
    jvm = spark.sparkContext._jvm
    field = bar.getClass().getDeclaredField("console")
    field.setAccessible(True)
    console = field.get(bar)
    field.set(bar, jvm.java.io.PrintStream(jvm.java.io.OutputStream.nullOutputStream()))
    return lambda: field.set(bar, console)


def _mute_loggers(spark):
    """Raise the loggers of :data:`MUTED_LOGGERS` to ERROR; returns the undo, which
    restores the levels they had and removes the entries they had not. One update of
    log4j's loggers each way (an update costs some milliseconds)."""
    jvm = spark.sparkContext._jvm
    log4j = jvm.org.apache.logging.log4j
    context = log4j.LogManager.getContext(False)
    loggers = context.getConfiguration().getLoggers()
    had = {}
    for name in MUTED_LOGGERS:
        entry = loggers.get(name)
        had[name] = entry.getLevel() if entry is not None else None
    log4j.core.config.Configurator.setLevel(_java_map(jvm, {
        name: log4j.Level.ERROR for name in MUTED_LOGGERS}))

    def undo():
        config = context.getConfiguration()
        for name, level in had.items():
            if level is None:
                config.removeLogger(name)
        levels = {name: level for name, level in had.items() if level is not None}
        if levels:
            log4j.core.config.Configurator.setLevel(_java_map(jvm, levels))
        else:
            context.updateLoggers()
    return undo


def _java_map(jvm, items: dict):
    out = jvm.java.util.HashMap()
    for key, value in items.items():
        out.put(key, value)
    return out
