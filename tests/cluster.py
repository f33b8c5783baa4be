"""A throwaway Spark standalone cluster on 127.0.0.1 for tests: one master and a few
one-core workers, launched from pyspark's own ``bin/spark-class``.

Every daemon runs in its own process group with its output in a log file under a
temporary directory, which is also the workers' work dir, so every process the cluster
spawns (executor JVMs, their Python daemons and workers) runs with its working
directory under it. ``stop()`` uses that to find and kill whatever the daemons started,
then deletes the directory. Linux only: processes are found through ``/proc``."""
from __future__ import annotations

import atexit
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

EXECUTOR_CLASS = "org.apache.spark.executor.CoarseGrainedExecutorBackend"
# JVM flags for short-lived test JVMs: C1 only and the serial collector start the
# daemons, drivers and executors seconds faster on a small machine
FAST_JVM_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
# the environment a real cluster node would not share with the test run; PYTHONPATH in
# particular would reach the executors' Python workers (they inherit the worker's env)
_SCRUBBED_ENV = ("PYTHONPATH", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV",
                 "SPARK_CONF_DIR", "SPARK_ENV_LOADED", "PYTHONSTARTUP", "PYTHONHOME")


class ClusterError(RuntimeError):
    """The cluster did not come up, or an operation on it found nothing to act on."""


def cluster_unavailable() -> str | None:
    """Why a standalone cluster cannot be started here, or None."""
    if not sys.platform.startswith("linux"):
        return f"the test cluster finds its processes in /proc (Linux only, not {sys.platform})"
    if importlib.util.find_spec("pyspark") is None:
        return "pyspark is not installed"
    java_home = os.environ.get("JAVA_HOME")
    if not shutil.which("java") and not (java_home and os.path.exists(f"{java_home}/bin/java")):
        return "no Java runtime found (java not on PATH and JAVA_HOME unset)"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie awaiting its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            # the state follows the parenthesised command name, which may hold spaces
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def processes() -> dict[int, tuple[str, str]]:
    """Every live process as pid -> (command line with spaces for NULs, working dir)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:  # exited meanwhile, or not ours to inspect
            continue
        if cmdline:  # zombies and kernel threads have none
            found[int(entry)] = (cmdline, cwd)
    return found


def die_with_parent(command: list[str]) -> list[str]:
    """``command`` wrapped so that the kernel SIGKILLs it when the thread that starts it
    dies (``setpriv --pdeathsig``, where installed): a safety net for a test run that is
    killed outright and runs no cleanup."""
    if shutil.which("setpriv") is None:
        return list(command)
    return ["setpriv", "--pdeathsig", "KILL", "--", *command]


def bare_python(tmpdir) -> str:
    """A venv interpreter of this Python's version with no third-party packages, made in
    ``tmpdir``; raises if pyspark or dl2sql can still be imported from it."""
    target = os.path.join(os.fspath(tmpdir), "bare-python")
    python = os.path.join(target, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", target], check=True,
                       capture_output=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
    for module in ("pyspark", "dl2sql", "sqlglot"):
        # run from the venv dir: "-c" puts the working dir (maybe the repo) on sys.path
        probe = subprocess.run([python, "-c", f"import {module}"], cwd=target, env=env,
                               capture_output=True, timeout=60)
        if probe.returncode == 0:
            raise ClusterError(f"{python} is not bare: it imports {module}")
    return python


class StandaloneCluster:
    """A Spark standalone master and ``workers`` workers on 127.0.0.1; ``start()`` blocks
    until all workers registered, ``stop()`` (idempotent, also run at exit) kills them,
    their executors and Python workers, and removes the temporary directory."""

    def __init__(self, workers: int = 2, cores: int = 1, memory: str = "1g",
                 timeout: float = 60.0) -> None:
        import pyspark

        self.spark_home = os.path.dirname(pyspark.__file__)
        self.workers, self.cores, self.memory, self.timeout = workers, cores, memory, timeout
        self.tmp = tempfile.mkdtemp(prefix="dl2sql-cluster-")
        self.work_dir = os.path.join(self.tmp, "work")
        os.makedirs(self.work_dir)
        os.makedirs(os.path.join(self.tmp, "conf"))
        self.port = free_port()
        self.worker_ports: list[int] = []
        self.procs: dict[str, subprocess.Popen] = {}
        self._stopped = False
        atexit.register(self.stop)

    @property
    def master_url(self) -> str:
        """The URL drivers connect to: ``spark://127.0.0.1:<port>``."""
        return f"spark://127.0.0.1:{self.port}"

    def driver_conf(self, python: str | None = None,
                    executors: int | None = None) -> dict[str, str]:
        """Spark settings for a driver of this cluster: ``executors`` one-worker-sized
        executors (all workers by default) running ``python`` if given.

        A driver started by plain ``python`` picks its executors' Python from the
        ``PYSPARK_PYTHON`` of its own environment (default ``python3``, resolved on the
        worker's PATH); ``spark.pyspark.python`` alone is only honoured by spark-submit.
        PySpark 4 also turns Python UDFs into Arrow ones, which need pyarrow on the
        executors: off here, so that a bare interpreter can run them."""
        count = self.workers if executors is None else executors
        conf = {"spark.master": self.master_url, "spark.executor.cores": str(self.cores),
                "spark.executor.memory": "512m", "spark.cores.max": str(count * self.cores),
                "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
                "spark.driver.extraJavaOptions": FAST_JVM_OPTS,
                "spark.executor.extraJavaOptions": FAST_JVM_OPTS,
                "spark.ui.enabled": "false", "spark.sql.shuffle.partitions": "2",
                "spark.sql.execution.pythonUDF.arrow.enabled": "false"}
        if python:
            conf["spark.pyspark.python"] = python
        return conf

    def _log(self, name: str) -> str:
        return os.path.join(self.tmp, f"{name}.log")

    def _spawn(self, name: str, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED_ENV}
        # an empty conf dir: no spark-env.sh or spark-defaults.conf of this machine applies
        env.update(SPARK_HOME=self.spark_home, SPARK_CONF_DIR=os.path.join(self.tmp, "conf"),
                   SPARK_LOCAL_IP="127.0.0.1", SPARK_DAEMON_MEMORY="512m",
                   SPARK_DAEMON_JAVA_OPTS=FAST_JVM_OPTS,
                   # the master's REST submission server would take the fixed port 6066
                   SPARK_MASTER_OPTS="-Dspark.master.rest.enabled=false")
        # if the test run dies without running stop(), the daemons die with it; the
        # executors then exit on their own when they lose their worker
        command = die_with_parent([os.path.join(self.spark_home, "bin", "spark-class"), *args])
        with open(self._log(name), "wb") as log:
            self.procs[name] = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=env, cwd=self.tmp, start_new_session=True)

    def start(self) -> StandaloneCluster:
        """Launch the master and the workers; wait (``timeout`` seconds in all) until every
        worker registered."""
        deadline = time.monotonic() + self.timeout
        try:
            self._spawn("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                        "--port", str(self.port), "--webui-port", str(free_port()))
            self._wait_for(lambda: "New state: ALIVE" in self._read("master"), "the master",
                           deadline)
            # Spark moves to the next port if the chosen one was taken meanwhile
            bound = re.search(r"Starting Spark master at spark://127\.0\.0\.1:(\d+)",
                              self._read("master"))
            self.port = int(bound.group(1)) if bound else self.port
            for i in range(self.workers):
                port = free_port()
                self.worker_ports.append(port)
                self._spawn(f"worker{i}", "org.apache.spark.deploy.worker.Worker",
                            "--host", "127.0.0.1", "--port", str(port),
                            "--cores", str(self.cores), "--memory", self.memory,
                            "--webui-port", str(free_port()), "--work-dir", self.work_dir,
                            self.master_url)
            self._wait_for(lambda: all("Successfully registered with master" in self._read(name)
                                       for name in self.procs if name != "master"),
                           f"{self.workers} workers to register", deadline)
        except BaseException:
            self.stop()
            raise
        return self

    def _read(self, name: str) -> str:
        try:
            with open(self._log(name), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def _wait_for(self, ready, what: str, deadline: float) -> None:
        while not ready():
            dead = ", ".join(n for n, p in self.procs.items() if p.poll() is not None)
            if dead:
                raise ClusterError(f"{dead} exited while waiting for {what}\n{self.logs()}")
            if time.monotonic() > deadline:
                raise ClusterError(f"timed out after {self.timeout:g}s waiting for {what}\n"
                                   f"{self.logs()}")
            time.sleep(0.2)

    def logs(self, lines: int = 30) -> str:
        """The last ``lines`` lines of every daemon's log, for error messages."""
        parts = []
        for name in self.procs:
            tail = self._read(name).splitlines()[-lines:]
            parts.append(f"--- {name} ({self._log(name)}) ---\n" + "\n".join(tail))
        return "\n".join(parts)

    def pids(self) -> set[int]:
        """Every live process of the cluster: the daemons it started and whatever runs in
        its work dir (executors, Python daemons and workers) or names one of its workers."""
        ours = {p.pid for p in self.procs.values() if alive(p.pid)}
        worker_urls = [f"Worker@127.0.0.1:{port}" for port in self.worker_ports]
        for pid, (cmdline, cwd) in processes().items():
            if (cwd == self.tmp or cwd.startswith(self.tmp + os.sep)
                    or any(url in cmdline for url in worker_urls)):
                ours.add(pid)
        ours.discard(os.getpid())
        return ours

    def executor_pids(self, app_id: str | None = None) -> list[int]:
        """Pids of this cluster's live executor JVMs (of ``app_id`` only, if given)."""
        ours = self.pids()
        table = processes()
        return sorted(pid for pid in ours if pid in table
                      and EXECUTOR_CLASS in table[pid][0]
                      and (app_id is None or f" --app-id {app_id} " in table[pid][0] + " "))

    def kill_executor(self, app_id: str | None = None) -> int:
        """SIGKILL the first live executor JVM of ``app_id`` (of any app if None); its pid."""
        pids = self.executor_pids(app_id)
        if not pids:
            raise ClusterError(f"no live executor of {app_id or 'any app'} on {self.master_url}")
        os.kill(pids[0], signal.SIGKILL)
        return pids[0]

    def stop(self, grace: float = 5.0) -> None:
        """Kill every process of the cluster (SIGTERM, SIGKILL after ``grace`` seconds)
        and delete its temporary directory. Safe to call more than once."""
        if self._stopped:
            return
        self._stopped = True
        atexit.unregister(self.stop)
        try:
            # again and again: processes can appear during the shutdown (see _signal_all)
            deadline = time.monotonic() + grace
            while self._signal_all(signal.SIGTERM) and time.monotonic() < deadline:
                time.sleep(0.2)
            for _ in range(50):
                if not self._signal_all(signal.SIGKILL):
                    break
                time.sleep(0.1)
            for proc in self.procs.values():
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            survivors = self.pids()
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        if survivors:
            raise ClusterError(f"processes of {self.master_url} survived SIGKILL: "
                               f"{sorted(survivors)}")

    def _signal_all(self, sig: int) -> bool:
        """Send ``sig`` to every daemon's group and every other live cluster process;
        whether anything was still alive."""
        live = self.pids()
        for proc in self.procs.values():
            # while unreaped, the leader's pid names its group and cannot be reused; the
            # group can outlive the leader: a worker dying of SIGTERM may still launch a
            # replacement executor, orphaned but in the worker's group
            if proc.returncode is None:
                try:
                    os.killpg(proc.pid, sig)  # its own group: start_new_session
                except ProcessLookupError:
                    pass
        for pid in live:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        return bool(live)

    def __enter__(self) -> StandaloneCluster:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
