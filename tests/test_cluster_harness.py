"""The standalone-cluster harness (``tests/cluster.py``): executors run a bare Python,
a killed executor is replaced without failing the job, and ``stop()`` leaves nothing.

One Python process holds one SparkContext and the test run already has a local one, so
every driver of the cluster runs in a child process in its own process group, which is
killed whole when the child is done or runs late."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cluster import (ClusterError, StandaloneCluster, alive, cluster_unavailable,
                     die_with_parent, processes)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# every child driver opens a session with the settings given as JSON in argv[1]
PROLOGUE = textwrap.dedent("""
    import json, os, sys, time
    from pyspark.sql import SparkSession, functions as F

    builder = SparkSession.builder.appName("harness")
    for key, value in json.loads(sys.argv[1]).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    app_id = spark.sparkContext.applicationId

    def executors():
        return spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1  # - driver

    def wait_for_executors(n, seconds=90):
        deadline = time.monotonic() + seconds
        while executors() < n and time.monotonic() < deadline:
            time.sleep(0.1)
        return executors()
""")


def start_driver(code: str, conf: dict, args: list[str], logdir) -> subprocess.Popen:
    """A child driver with settings ``conf`` running PROLOGUE + ``code``, its stderr in a
    file in ``logdir``. The repo is on its PYTHONPATH, to show that the driver's path
    does not reach the executors."""
    env = dict(os.environ, PYSPARK_PYTHON=conf["spark.pyspark.python"], PYTHONPATH=REPO,
               SPARK_LOCAL_IP="127.0.0.1")
    command = [sys.executable, "-c", PROLOGUE + textwrap.dedent(code), json.dumps(conf), *args]
    with open(os.path.join(logdir, "driver.log"), "wb") as log:
        return subprocess.Popen(die_with_parent(command), stdout=subprocess.PIPE, stderr=log,
                                stdin=subprocess.DEVNULL, env=env, cwd=logdir, text=True,
                                start_new_session=True)


def driver_log(logdir) -> str:
    """The end of the child driver's stderr."""
    with open(os.path.join(logdir, "driver.log"), errors="replace") as f:
        return f.read()[-4000:]


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the child's whole group: its driver JVM and anything else it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def finish_driver(proc: subprocess.Popen, logdir, timeout: float = 180) -> dict:
    """The JSON the child printed last; fails the test with its log if it did not."""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        out = ""
    finally:
        kill_group(proc)
    lines = out.strip().splitlines()
    assert proc.returncode == 0 and lines, \
        f"driver failed (rc {proc.returncode}):\n{driver_log(logdir)}"
    return json.loads(lines[-1])


def wait_until(condition, seconds: float, what: str, cluster=None, proc=None, logdir=None):
    """Poll ``condition`` until it returns something truthy; fail after ``seconds``, or
    as soon as the driver ``proc`` exits, quoting the cluster's and the driver's logs."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            break
        time.sleep(0.1)
    logs = [cluster.logs() if cluster else "", driver_log(logdir) if logdir else ""]
    pytest.fail(f"gave up waiting for {what}\n" + "\n".join(logs))


def test_bare_python_has_no_packages(bare):
    for module in ("pyspark", "dl2sql"):
        probe = subprocess.run([bare, "-c", f"import {module}"], capture_output=True,
                               cwd=os.path.dirname(bare), env={"PATH": os.environ["PATH"]})
        assert probe.returncode != 0 and b"ModuleNotFoundError" in probe.stderr
    same = subprocess.run([bare, "-c", "import sys; print(sys.version)"], capture_output=True,
                          text=True, check=True)
    assert same.stdout.strip() == sys.version


UDF_PROBE = """
def probe(_):
    import os, sys
    try:
        import dl2sql  # noqa: F401
        found = True
    except ImportError:
        found = False
    return json.dumps([sys.executable, found, os.getcwd(), os.environ.get("PYTHONPATH", "")])

n = wait_for_executors(2)
rows = spark.range(0, 100, 1, 4).select(F.udf(probe)("id").alias("p")).distinct().collect()
print(json.dumps({"app": app_id, "executors": n, "probes": [json.loads(r.p) for r in rows]}))
spark.stop()
"""


def test_udfs_run_on_the_bare_python_of_two_executors(cluster, bare, tmp_path):
    proc = start_driver(UDF_PROBE, cluster.driver_conf(bare), [], tmp_path)
    report = finish_driver(proc, tmp_path)
    assert report["executors"] == 2, cluster.logs()
    assert report["probes"]
    for executable, found, cwd, pythonpath in report["probes"]:
        assert executable == bare
        assert not found, "dl2sql was importable on an executor"
        # the task ran in an executor of this cluster, for this application
        assert cwd.startswith(os.path.join(cluster.work_dir, report["app"]) + os.sep)
        # the executors' Python sees pyspark.zip, never the driver's PYTHONPATH
        assert "pyspark.zip" in pythonpath and REPO not in pythonpath.split(os.pathsep)


JOB_LOOP = """
app_file, stop_file = sys.argv[2], sys.argv[3]
slow = F.udf(lambda x: (time.sleep(0.03), x)[1], "bigint")

def job():
    return spark.range(0, 40, 1, 4).select(slow("id").alias("x")).agg(F.sum("x")).first()[0]

wait_for_executors(2)
totals, failures = [job()], []
with open(app_file, "w") as f:  # announced once both executors ran Python
    f.write(app_id)
deadline = time.monotonic() + 120
while not os.path.exists(stop_file) and time.monotonic() < deadline:
    try:
        totals.append(job())
    except Exception as e:  # noqa: BLE001 - reported to the test
        failures.append(repr(e)[:300])
after = wait_for_executors(2)
totals.append(job())  # once more with the replacement executor registered
print(json.dumps({"totals": totals, "failures": failures, "executors_after": after,
                  "stopped": os.path.exists(stop_file)}))
spark.stop()
"""


def test_a_killed_executor_is_replaced_and_the_jobs_finish(cluster, bare, tmp_path):
    app_file, stop_file = tmp_path / "app", tmp_path / "stop"
    proc = start_driver(JOB_LOOP, cluster.driver_conf(bare), [str(app_file), str(stop_file)],
                        tmp_path)
    try:
        app_id = wait_until(lambda: app_file.exists() and app_file.read_text(), 120,
                            "the driver's app id", cluster, proc, tmp_path)
        before = set(wait_until(lambda: cluster.executor_pids(app_id), 30, "executors", cluster))
        killed = cluster.kill_executor(app_id)
        assert killed in before
        wait_until(lambda: not alive(killed), 10, f"executor {killed} to die")
        replaced = wait_until(lambda: set(cluster.executor_pids(app_id)) - before, 60,
                              "a replacement executor", cluster)
        assert killed not in replaced
    finally:
        stop_file.touch()
    report = finish_driver(proc, tmp_path)
    assert report["stopped"] and report["failures"] == []
    assert len(report["totals"]) >= 3 and set(report["totals"]) == {sum(range(40))}
    assert report["executors_after"] == 2


def test_a_failed_start_quotes_the_logs_and_leaves_nothing():
    reason = cluster_unavailable()
    if reason:
        pytest.skip(reason)
    doomed = StandaloneCluster(workers=1, timeout=0.5)
    with pytest.raises(ClusterError, match="timed out .* waiting for the master") as error:
        doomed.start()
    assert "--- master (" in str(error.value)
    assert not any(alive(p.pid) for p in doomed.procs.values())
    assert not doomed.pids() and not os.path.exists(doomed.tmp)


LONG_JOB = """
wait_for_executors(1)
slow = F.udf(lambda x: (time.sleep(1), x)[1], "bigint")
with open(sys.argv[2], "w") as f:
    f.write(app_id)
spark.range(0, 1000, 1, 2).select(slow("id")).collect()  # outlives the cluster
"""


def test_stop_leaves_no_process_behind(bare, tmp_path):
    reason = cluster_unavailable()
    if reason:
        pytest.skip(reason)
    own = StandaloneCluster(workers=1).start()
    app_file = tmp_path / "app"
    proc = start_driver(LONG_JOB, own.driver_conf(bare), [str(app_file)], tmp_path)
    try:
        app_id = wait_until(lambda: app_file.exists() and app_file.read_text(), 120,
                            "the driver's app id", own, proc, tmp_path)

        def python_workers():
            # the executors fork Python daemons and workers: these must go too
            return [pid for pid in own.pids() if pid not in own.executor_pids()
                    and pid not in {p.pid for p in own.procs.values()}]

        wait_until(lambda: own.executor_pids(app_id) and python_workers(), 60,
                   "an executor running Python", own)
        started = own.pids()
        assert len(started) >= 4  # master, worker, executor, python daemon
        own.stop()
        assert not [pid for pid in started if alive(pid)]
        assert not own.pids() and not own.executor_pids() and not os.path.exists(own.tmp)
        # and by a scan of its own: no executor of the app, nothing in or naming the dir
        assert not [pid for pid, (cmdline, cwd) in processes().items()
                    if f"--app-id {app_id}" in cmdline or own.tmp in cwd or own.tmp in cmdline]
        own.stop()  # again: a no-op
    finally:
        own.stop()
        kill_group(proc)
