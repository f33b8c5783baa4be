"""Python child processes for tests that need a Spark session of their own (one
process holds one SparkContext, and the test run's shared local session is taken).

A child runs in its own process group, so that everything it starts (a JVM, a local
Spark Connect server) is killed with it; it is bounded by a timeout, after which the
whole group is killed and the test fails with the child's output."""
from __future__ import annotations

import os
import signal
import subprocess
import sys


def run_child(code: str, stdin: str = "", timeout: float = 300, env: dict | None = None,
              args: list[str] | None = None) -> tuple[int, str, str]:
    """Run ``python -c code`` (or ``args`` as the command) with ``stdin``; returns
    (exit code, stdout, stderr). Raises AssertionError, with the child's output, when it
    is still running after ``timeout`` seconds (its process group is killed first)."""
    command = args if args is not None else [sys.executable, "-c", code]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=env)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        raise AssertionError(f"child still running after {timeout:g} s, killed\n"
                             f"--- stdout\n{out[-3000:]}\n--- stderr\n{err[-3000:]}") from None
    finally:
        _kill_group(proc)  # whatever it started and left behind
    return proc.returncode, out, err


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def without_progress(err: str) -> str:
    """``err`` without dl2sql's progress lines, which a run that takes more than 10 s
    prints off a terminal too (docs/cli.md, "Long runs"): a busy machine's are legit."""
    return "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith("dl2sql: running for "))
