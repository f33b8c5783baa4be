"""Shared fixtures: one SparkSession per test run, and an ``engine`` fixture that runs a
test once on DuckDB and once on Spark."""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil

import pytest

import profiles
import tiers

HYPOTHESIS_PROFILE = profiles.register()

# Spark runs of small inputs are evaluated on the driver by DuckDB by default
# (dl2sql.plan.placement): nearly every test's inputs are small, so without this the
# Spark half of the suite would test DuckDB twice. The suite's Spark runs are Spark's,
# child processes included; tests/test_on_driver.py tests the driver's runs, setting
# the policy itself.
os.environ["DL2SQL_ON_DRIVER_BELOW"] = "0"


def pytest_addoption(parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/programs/*/*.sql from the compiler's output")


def _spark_unavailable() -> str | None:
    """Why Spark cannot run here, or None."""
    if importlib.util.find_spec("pyspark") is None:
        return "pyspark is not installed"
    if shutil.which("java") is None and not _java_home_ok():
        return "no Java runtime found (java not on PATH and JAVA_HOME unset)"
    return None


def _java_home_ok() -> bool:
    home = os.environ.get("JAVA_HOME")
    return bool(home) and os.path.exists(os.path.join(home, "bin", "java"))


# Settings of the shared session that make the test run cheaper without changing what
# a query computes (docs/testing.md). The tests' tables are tiny and their plans many
# and different, so a job costs what Spark does per stage and per task, not what it
# does per row:
# - each query stage is compiled to Java, whose source every task receives and
#   compiles: interpreted instead, Spark replays of tests/programs took 0.70x the time;
# - one task per loop table and per table of Python rows instead of one per core: 0.76x.
#   The tests of partitioning give their runners two partitions, and the cluster,
#   Spark Connect and child-process tests run with Spark's defaults.
TEST_SESSION_SETTINGS = {"spark.default.parallelism": "1"}
TEST_SQL_SETTINGS = {
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
}


@pytest.fixture(scope="session")
def java():
    """For tests that start Spark in a child process: skips them, saying why, where
    Spark cannot run; starts nothing in this process."""
    reason = _spark_unavailable()
    if reason:
        pytest.skip(f"Spark tests skipped: {reason}")


@pytest.fixture(scope="session")
def spark():
    """The SparkSession shared by the whole test run (local[2]), with
    :data:`TEST_SESSION_SETTINGS` and :data:`TEST_SQL_SETTINGS`."""
    reason = _spark_unavailable()
    if reason:
        pytest.skip(f"Spark tests skipped: {reason}")
    from dl2sql.runner.spark_session import get_spark

    session = get_spark("local[2]", settings=TEST_SESSION_SETTINGS)
    for key, value in TEST_SQL_SETTINGS.items():
        session.conf.set(key, value)
    yield session
    session.stop()


@pytest.fixture(scope="session")
def cluster():
    """A Spark standalone master with two one-core workers on 127.0.0.1, started from
    pyspark's own ``bin/spark-class`` when a test first asks for it and shared by the
    whole test run; everything it started is stopped at the end, failures or not."""
    from cluster import StandaloneCluster, cluster_unavailable

    reason = cluster_unavailable()
    if reason:
        pytest.skip(f"cluster tests skipped: {reason}")
    standalone = StandaloneCluster(workers=2)
    try:
        yield standalone.start()
    finally:
        standalone.stop()


@pytest.fixture(scope="session")
def bare(tmp_path_factory):
    """A Python interpreter of this version without pyspark, dl2sql or any other
    third-party package: what the cluster's workers run."""
    from cluster import bare_python, cluster_unavailable

    reason = cluster_unavailable()
    if reason:
        pytest.skip(f"cluster tests skipped: {reason}")
    return bare_python(tmp_path_factory.mktemp("bare"))


@pytest.fixture(params=["duckdb", "spark"])
def engine(request):
    """A fresh runner per test: in-memory DuckDB, or a SparkRunner on the shared session."""
    if request.param == "duckdb":
        import duckdb

        from dl2sql.runner.duckdb_runner import DuckDBRunner

        con = duckdb.connect(":memory:")
        yield DuckDBRunner(con)
        con.close()
    else:
        from dl2sql.runner.spark_runner import SparkRunner

        runner = SparkRunner(request.getfixturevalue("spark"))
        yield runner
        from dl2sql.plan.nodes import Table

        for name in list(runner.tables):
            runner.drop(Table(name, ()))


@pytest.fixture(params=["duckdb", "counting-little"])
def decider(request):
    """A DuckDB runner for tests of the maintenance executor's choices, which are the
    same code on both engines: counting every table as DuckDB does, and counting only
    where asked, as on Spark, where a count is a job (engines.costly_counts_duckdb).
    Spark's SQL for what these choices run is checked by the program cases."""
    if request.param == "duckdb":
        import duckdb

        from dl2sql.runner.duckdb_runner import DuckDBRunner

        con = duckdb.connect(":memory:")
        yield DuckDBRunner(con)
        con.close()
    else:
        from engines import costly_counts_duckdb

        runner = costly_counts_duckdb()
        yield runner
        runner.con.close()


def pytest_configure(config) -> None:
    for name, meaning in tiers.MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")
    # pytest-xdist registers it too, but a run with `-p no:xdist` should not warn
    config.addinivalue_line("markers", "xdist_group(name): run in one xdist worker")


def pytest_report_header(config) -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (HYPOTHESIS_PROFILE)"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items) -> None:
    """Each test marked with its tiers (tests/tiers.py), and put in its group for
    pytest-xdist (``--dist loadgroup`` runs a group in one worker): every test of the
    shared Spark session in one, so that one JVM serves them, every test of the
    standalone cluster in another, so that one cluster does; the rest go wherever a
    worker is free (docs/testing.md)."""
    for item in items:
        found = tiers.tiers_of(item)
        for tier in sorted(found):
            item.add_marker(tier)
        group = tiers.xdist_group(found)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))
            if getattr(config.option, "loadgroup", False):  # an xdist worker
                _suffix_group(item, group)


def _suffix_group(item, group: str) -> None:
    """The ``@group`` suffix by which pytest-xdist's scheduler reads a test's group.
    pytest-xdist 3.8 writes it to ``item._nodeid``, which pytest 9 no longer reads (it
    keeps the id as a structured ``_id``): there, the groups were silently ignored and
    each worker started a Spark session of its own. Written here where that is so;
    tests/unit/test_tiers.py checks that the groups arrive."""
    if hasattr(item, "_id") and not item.nodeid.endswith(f"@{group}"):
        from _pytest.nodeid import coerce_node_id

        item._id = coerce_node_id(f"{item.nodeid}@{group}")


def _guarded(item):
    """A fast test may neither start a process nor call into a JVM (tiers.guard), in
    its fixtures' setup or in its call. (Not in teardown: a fast test that ends a
    module or the run tears down the fixtures of the tests before it, the shared
    Spark session among them.)"""
    if item.get_closest_marker("fast") is None:
        return contextlib.nullcontext()
    return tiers.guard(item.nodeid)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with _guarded(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _guarded(item):
        return (yield)


# seconds per test (setup, call and teardown), written to $DL2SQL_TEST_TIMES at the end
# for .ci/run's budget line
TIMES: dict[str, float] = {}


def pytest_sessionfinish(session) -> None:
    path = os.environ.get("DL2SQL_TEST_TIMES")
    if not path or not TIMES or hasattr(session.config, "workerinput"):  # xdist: the controller
        return
    with open(path, "w", encoding="utf-8") as f:
        for test, seconds in TIMES.items():
            f.write(json.dumps({"test": test, "seconds": round(seconds, 3)}) + "\n")


# the DDlog conformance survey's results, from the report of the process that ran it
# (with pytest-xdist, a worker; the summary is printed by the controller)
SURVEY: dict[str, str] = {}
NEGATIVE_SURVEY: dict[str, str] = {}  # DDlog's negative tests: fragment -> outcome


def pytest_runtest_logreport(report) -> None:
    """Keep each test's time, and the survey's results when its report arrives."""
    test = report.nodeid
    for group in ("spark", "cluster"):  # the suffix pytest-xdist gives a group's tests
        test = test.removesuffix(f"@{group}")
    TIMES[test] = TIMES.get(test, 0.0) + report.duration
    for name, value in getattr(report, "user_properties", ()):
        if name == "ddlog_survey":
            SURVEY.update(value)
        elif name == "ddlog_negative_survey":
            NEGATIVE_SURVEY.update(value)


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the DDlog conformance pass count when the survey ran (and the count of
    DDlog's negative tests refused, when that survey ran)."""
    if NEGATIVE_SURVEY:
        refused = sum(r == "refused" for r in NEGATIVE_SURVEY.values())
        terminalreporter.write_sep("-", "DDlog negative tests")
        terminalreporter.write_line(f"{refused}/{len(NEGATIVE_SURVEY)} fragments refused")
        for fragment, result in sorted(NEGATIVE_SURVEY.items()):
            if result != "refused":
                terminalreporter.write_line(f"  {fragment}: {result}")
    if not SURVEY:
        return
    passed = sorted(n for n, r in SURVEY.items() if r == "pass")
    terminalreporter.write_sep("-", "DDlog conformance (DuckDB)")
    terminalreporter.write_line(f"{len(passed)}/{len(SURVEY)} upstream programs "
                                f"replay byte-exact: {', '.join(passed)}")
    for name, result in sorted(SURVEY.items()):
        if result != "pass":
            terminalreporter.write_line(f"  {name}: {result}")
