"""Stopping a run on Ctrl-C (SIGINT) and SIGTERM, on every engine, within a second or
two, with the usual clean-up (``finally`` blocks: temporary files, output files put
back, runners closed).

Python runs a signal's handler in the main thread, between bytecodes; while that thread
waits in an engine's own code it does not run Python at all: a long DuckDB query never
returns to Python on its own, and a Spark job holds the main thread in a socket read of
the JVM's answer. So :func:`interruptible` also has the signal written to a socket
(:func:`signal.set_wakeup_fd`, done by CPython's C-level handler, whatever the main
thread is doing) that a watcher thread reads: it interrupts every live DuckDB
connection and cancels the Spark jobs, the engine call returns with an error, and the
main thread then raises :class:`KeyboardInterrupt` (:class:`Terminated` for SIGTERM)
from the handler. Engine errors met after the signal are that interrupt too
(:func:`dl2sql.runner.errors.engine_errors`).

PySpark installs a SIGINT handler of its own when it starts a SparkContext (it cancels
the jobs from inside the handler, in the middle of the main thread's call to the JVM);
:func:`reclaim` puts ours back.
"""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
import weakref
from typing import Iterator, Optional

# runners whose running statement interrupt() stops (DuckDB's), while they are alive
_engines: "weakref.WeakSet" = weakref.WeakSet()
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# after the first signal, clean-up gets this long before the process exits regardless
# (a JVM that does not answer must not keep a stopped run alive)
CLEANUP_SECONDS = 20.0


class Terminated(KeyboardInterrupt):
    """Raised in the main thread on SIGTERM (a KeyboardInterrupt, so that everything
    that cleans up after Ctrl-C, PySpark's and py4j's included, does so for it too)."""


class _Guard:
    """The state of the active :func:`interruptible` block."""

    def __init__(self, hard: bool):
        self.hard = hard
        self.signum: Optional[int] = None  # the first signal received
        self.count = 0  # signals received
        self.raised = False  # the main thread raised for the first
        self.handled = threading.Event()  # the main thread's handler ran


_guard: Optional[_Guard] = None


def watch(runner) -> None:
    """Interrupt ``runner`` (an object with ``interrupt()``, stopping the statement it
    runs from another thread) when a signal stops the run."""
    _engines.add(runner)


def stopping() -> Optional[int]:
    """The signal that is stopping the run in the active :func:`interruptible` block,
    or None."""
    return _guard.signum if _guard is not None else None


def interrupt_for(error: BaseException) -> Optional[KeyboardInterrupt]:
    """The KeyboardInterrupt (:class:`Terminated`) to raise instead of engine error
    ``error`` when a signal is stopping the run (the engine failed because it was
    interrupted), else None. The main thread's handler then raises no second one in
    the middle of the clean-up."""
    guard = _guard
    if guard is None or guard.signum is None:
        return None
    guard.raised = True
    if guard.hard:
        _mute_logging()
    return Terminated() if guard.signum == signal.SIGTERM else KeyboardInterrupt()


def message(signum: int) -> str:
    """The one line a stopped command prints."""
    return "dl2sql: terminated" if signum == signal.SIGTERM else "dl2sql: interrupted"


def exit_code(signum: int) -> int:
    """The exit status of a command stopped by ``signum``: 128 + its number, as shells
    report it (130 for Ctrl-C)."""
    return 128 + int(signum)


@contextlib.contextmanager
def interruptible(hard: bool = False) -> Iterator[None]:
    """Inside this block SIGINT and SIGTERM stop the engines' running statements and
    raise KeyboardInterrupt (:class:`Terminated`) in the main thread. With ``hard``
    (the command line, which owns its process) a second signal, or clean-up taking
    longer than :data:`CLEANUP_SECONDS`, ends the process at once (exit 130/143), and
    the engines' log records of the interrupt are not printed. Outside the main thread,
    or inside another such block, it changes nothing."""
    global _guard
    if _guard is not None or threading.current_thread() is not threading.main_thread():
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)  # the C handler must never block
    previous = {s: signal.getsignal(s) for s in _SIGNALS}
    try:
        old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # pragma: no cover - not the main interpreter
        reader.close()
        writer.close()
        yield
        return
    guard = _guard = _Guard(hard)
    for s in _SIGNALS:
        signal.signal(s, _handler)
    watcher = threading.Thread(target=_watch, args=(reader, guard), name="dl2sql-signals",
                               daemon=True)
    watcher.start()
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)
        signal.set_wakeup_fd(old_fd)
        _guard = None
        writer.close()  # the watcher reads the end of the stream and returns


def reclaim() -> None:
    """Put this module's handler back on SIGINT inside an :func:`interruptible` block
    (call after starting a SparkContext, which replaces it)."""
    if _guard is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _handler)


def _handler(signum: int, frame) -> None:
    """The main thread's handler: raise once; later signals are the watcher's."""
    guard = _guard
    if guard is None:  # pragma: no cover - a signal racing the end of the block
        raise KeyboardInterrupt
    guard.signum = guard.signum or signum
    guard.handled.set()
    if guard.raised:
        return  # clean-up is under way: it must not be broken off half done
    guard.raised = True
    if guard.hard:
        _mute_logging()
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _watch(reader: socket.socket, guard: _Guard) -> None:
    """The watcher thread: stop the engines at each signal written to ``reader``."""
    with reader:
        while True:
            try:
                data = reader.recv(64)
            except OSError:  # pragma: no cover
                return
            if not data:
                return
            for signum in data:
                if signum in _SIGNALS:
                    _on_signal(guard, signum)


def _on_signal(guard: _Guard, signum: int) -> None:
    guard.signum = guard.signum or signum
    guard.count += 1
    if guard.count > 1 and guard.hard:
        _exit_now(guard.signum)
    if guard.count > 1:
        return
    stop_engines()
    # in a thread of its own: the watcher must go on reading (a second signal)
    threading.Thread(target=_follow_up, args=(guard,), name="dl2sql-stopping",
                     daemon=True).start()


def _follow_up(guard: _Guard) -> None:
    """After the first signal: a statement that started between the signal and the
    main thread's handler would run on, so the engines are interrupted again until the
    handler ran; then, on the command line, the clean-up's deadline."""
    started = time.monotonic()
    for _ in range(20):
        if guard.handled.wait(0.5):
            break
        stop_engines()
    if guard.hard:
        time.sleep(max(0.0, CLEANUP_SECONDS - (time.monotonic() - started)))
        if _guard is guard:  # still cleaning up (a finished command has left the block)
            _exit_now(guard.signum or signal.SIGINT)


def _exit_now(signum: int) -> None:
    try:
        os.write(2, (message(signum) + "\n").encode())
    except OSError:  # pragma: no cover - stderr closed
        pass
    os._exit(exit_code(signum))


def stop_engines() -> None:
    """Stop what every engine runs now: DuckDB statements are interrupted, Spark jobs
    cancelled (from any thread)."""
    for runner in list(_engines):
        try:
            runner.interrupt()
        except Exception:  # a closed connection: nothing runs there
            pass
    pyspark = sys.modules.get("pyspark")
    context = getattr(getattr(pyspark, "SparkContext", None), "_active_spark_context", None)
    if context is not None:
        try:
            context.cancelAllJobs()
        except Exception:  # a JVM going down: its jobs go with it
            pass


def _mute_logging() -> None:
    """py4j logs an interrupted call with its traceback on the root logger, which
    Python prints when nothing is configured; the command prints one line instead."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    logging.getLogger("py4j").setLevel(logging.CRITICAL + 1)
