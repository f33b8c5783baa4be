"""Shared fixtures: one SparkSession per test run, and an ``engine`` fixture that runs a
test once on DuckDB and once on Spark."""
from __future__ import annotations

import importlib.util
import shutil

import pytest


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
    import os

    home = os.environ.get("JAVA_HOME")
    return bool(home) and os.path.exists(os.path.join(home, "bin", "java"))


@pytest.fixture(scope="session")
def spark():
    """The SparkSession shared by the whole test run (local[2])."""
    reason = _spark_unavailable()
    if reason:
        pytest.skip(f"Spark tests skipped: {reason}")
    from dl2sql.runner.spark_session import get_spark

    session = get_spark("local[2]")
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


def pytest_collection_modifyitems(config, items) -> None:
    """Every test on the standalone cluster in one group: pytest-xdist runs a group in
    one worker, so that one cluster serves the whole run."""
    for item in items:
        if {"cluster", "bare"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("cluster"))


# the DDlog conformance survey's results, from the report of the process that ran it
# (with pytest-xdist, a worker; the summary is printed by the controller)
SURVEY: dict[str, str] = {}


def pytest_runtest_logreport(report) -> None:
    """Keep the survey's results when its report arrives."""
    for name, value in getattr(report, "user_properties", ()):
        if name == "ddlog_survey":
            SURVEY.update(value)


def pytest_terminal_summary(terminalreporter) -> None:
    """Print the DDlog conformance pass count when the survey ran."""
    if not SURVEY:
        return
    passed = sorted(n for n, r in SURVEY.items() if r == "pass")
    terminalreporter.write_sep("-", "DDlog conformance (DuckDB)")
    terminalreporter.write_line(f"{len(passed)}/{len(SURVEY)} upstream programs "
                                f"replay byte-exact: {', '.join(passed)}")
    for name, result in sorted(SURVEY.items()):
        if result != "pass":
            terminalreporter.write_line(f"  {name}: {result}")
