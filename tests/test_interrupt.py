"""Ctrl-C (SIGINT) and SIGTERM stop `dl2sql run` on a program that never ends, on both
engines: within seconds, with exit status 130 (143), one line on stderr and no
traceback; the output folder as it was, no temporary files left, no JVM left running.

Each test starts the command line in a child process of its own (a new process
group, killed at the end whatever happens), waits until the run reports that it is
in the recursion, and sends the signal."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

ENDLESS = """input relation Start(x: bigint)
output relation R(x: bigint)
R(x) :- Start(x).
R(x + 1) :- R(x).
"""
# what a run leaves in the temporary directory on purpose: caches kept between runs
# (lark's parser tables, the log4j settings and the runtime zip of Spark sessions)
CACHES = (".lark_cache", "dl2sql-log4j2", ".dl2sql-log4j2", "dl2sql-runtime-")
# the line that says the run is in the recursion, by engine: DuckDB evaluates the
# counter by one recursive query, Spark by a loop
IN_THE_LOOP = {"duckdb": "by one recursive query", "spark": "recursive stratum R, iteration"}


def _descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (Linux's /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                kids = []
            out += kids
            todo += kids
    return out


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _lines(stream, into: queue.Queue) -> None:
    for line in stream:
        into.put(line.rstrip("\n"))
    into.put(None)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads Linux's /proc")
@pytest.mark.parametrize("engine, signum", [("duckdb", signal.SIGINT),
                                            ("duckdb", signal.SIGTERM),
                                            ("spark", signal.SIGINT)])
def test_a_signal_stops_a_run_without_end(engine, signum, tmp_path, request):
    if engine == "spark":
        request.getfixturevalue("java")  # skipped, saying why, where Spark cannot run
    (tmp_path / "p.dl").write_text(ENDLESS)
    for name in ("in", "out", "tmp", "cwd"):
        (tmp_path / name).mkdir()
    (tmp_path / "in" / "Start.csv").write_text("x\n0\n")
    (tmp_path / "out" / "R.csv").write_text("x\nearlier\n")  # a file of an earlier run
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), SPARK_LOCAL_DIRS=str(tmp_path / "tmp"),
               DL2SQL_PROGRESS_AFTER="0.5")  # progress lines from half a second on
    proc = subprocess.Popen(
        [sys.executable, "-m", "dl2sql", "run", str(tmp_path / "p.dl"), "--engine", engine,
         "--input", str(tmp_path / "in"), "--output", str(tmp_path / "out"), "--format",
         "csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path / "cwd", env=env, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stderr, lines), daemon=True).start()
    before, after = [], []
    try:
        end = time.monotonic() + 300  # a JVM on a loaded machine starts slowly
        while not any(IN_THE_LOOP[engine] in line for line in before):
            line = lines.get(timeout=max(0.1, end - time.monotonic()))
            assert line is not None, f"the run ended: {before}"
            before.append(line)
        children = _descendants(proc.pid)
        sent = time.monotonic()
        proc.send_signal(signum)
        proc.wait(timeout=60)
        seconds = time.monotonic() - sent
        while (line := lines.get(timeout=10)) is not None:
            after.append(line)
        gone = time.monotonic() + 30  # a JVM goes once its driver has gone
        while any(_running(c) for c in children) and time.monotonic() < gone:
            time.sleep(0.2)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    stopped = "interrupted" if signum == signal.SIGINT else "terminated"
    assert proc.returncode == 128 + signum, (before, after)
    assert seconds < 5, seconds  # measured: 0.3 s on DuckDB, 0.8 s on Spark
    assert [line for line in after if not line.startswith("dl2sql: running for ")] == [
        f"dl2sql: {stopped}"], after
    assert not any("Traceback" in line for line in before + after)
    assert not [c for c in children if _running(c)]  # the JVM, on Spark
    assert sorted(os.listdir(tmp_path / "out")) == ["R.csv"]
    assert (tmp_path / "out" / "R.csv").read_text() == "x\nearlier\n"
    assert sorted(os.listdir(tmp_path)) == ["cwd", "in", "out", "p.dl", "tmp"]  # no staging
    assert os.listdir(tmp_path / "cwd") == []
    assert [f for f in os.listdir(tmp_path / "tmp") if not f.startswith(CACHES)] == []
