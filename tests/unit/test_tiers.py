"""The test tiers (tests/tiers.py): marks read from what a test uses, and the guard
that fails a fast test starting a process or calling into a JVM."""
from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

import tiers
from children import run_child

HERE = __file__


def _item(function, fixturenames=(), params=None, fixtures=None, path=HERE):
    """What tiers_of reads of a collected test."""
    defs = {name: [SimpleNamespace(func=f)] for name, f in (fixtures or {}).items()}
    return SimpleNamespace(
        function=function, fixturenames=tuple(fixturenames) + tuple(defs),
        callspec=SimpleNamespace(params=params) if params else None,
        _fixtureinfo=SimpleNamespace(name2fixturedefs=defs), fspath=path)


def _plain():
    return sorted([3, 1, 2])


def _helper_starting_a_child():
    return run_child("print(1)")


def _through_a_helper():
    return _helper_starting_a_child()


def _connect_child():
    return run_child("from pyspark.sql import SparkSession\n"
                     "SparkSession.builder.remote('local[2]').getOrCreate()")


def test_a_plain_test_is_fast():
    assert tiers.tiers_of(_item(_plain)) == {"fast"}


def test_fixtures_and_engine_parameters_name_the_tiers():
    assert tiers.tiers_of(_item(_plain, ["spark", "tmp_path"])) == {"spark"}
    assert tiers.tiers_of(_item(_plain, ["cluster"])) == {"cluster", "subprocess"}
    assert tiers.tiers_of(_item(_plain, ["java"])) == {"subprocess"}
    assert tiers.tiers_of(_item(_plain, params={"engine": "spark"})) == {"spark"}
    assert tiers.tiers_of(_item(_plain, params={"engine": "duckdb"})) == {"duckdb", "fast"}
    assert tiers.tiers_of(_item(_plain, params={"engine_name": "spark"})) == {"spark"}
    # a dialect is only compiled to: no engine runs
    assert tiers.tiers_of(_item(_plain, params={"dialect": "spark"})) == {"fast"}


def test_children_are_found_through_helpers_and_fixtures():
    assert tiers.tiers_of(_item(_helper_starting_a_child)) == {"subprocess"}
    assert tiers.tiers_of(_item(_through_a_helper)) == {"subprocess"}
    assert tiers.tiers_of(_item(_plain, fixtures={"venv": _through_a_helper})) \
        == {"subprocess"}
    assert tiers.tiers_of(_item(_connect_child)) == {"subprocess", "connect"}


def test_the_shared_session_and_the_cluster_are_groups_of_their_own():
    assert tiers.xdist_group({"spark", "subprocess"}) == "spark"
    assert tiers.xdist_group({"cluster", "subprocess"}) == "cluster"
    assert tiers.xdist_group({"subprocess"}) is None
    assert tiers.xdist_group({"fast", "duckdb"}) is None


def test_the_random_program_tests_are_their_own_tier():
    path = tiers.PROPERTY / "test_some_random_programs.py"
    assert tiers.tiers_of(_item(_plain, path=path)) == {"property"}


def test_the_guard_refuses_a_child_process_and_puts_everything_back():
    before = subprocess.Popen._execute_child
    with tiers.guard("tests/x.py::test_x"):
        with pytest.raises(tiers.TierViolation, match="test_x is in the fast tier"):
            subprocess.run([sys.executable, "-c", "pass"])
    assert subprocess.Popen._execute_child is before
    assert subprocess.run([sys.executable, "-c", "pass"]).returncode == 0


def test_every_test_of_the_run_has_its_tiers(request):
    items = request.session.items
    assert all(item.get_closest_marker("fast") is not None
               or any(item.get_closest_marker(t) for t in tiers.SLOW_TIERS)
               for item in items)
    if getattr(request.config.option, "loadgroup", False):  # a worker of --dist loadgroup
        # the scheduler sees the groups: it reads them as the node ids' `@group`
        # suffixes (conftest.py's _suffix_group)
        grouped = [item for item in items if item.get_closest_marker("xdist_group")]
        lost = [item.nodeid for item in grouped
                if not item.nodeid.endswith("@" + item.get_closest_marker("xdist_group").args[0])]
        assert not lost, lost[:3]
    here = {item.name: item for item in items if item.path == request.node.path}
    plain = here.get("test_a_plain_test_is_fast")  # absent when -k leaves it out
    assert plain is None or plain.get_closest_marker("fast")
    # it runs `subprocess` itself: not fast (so `-m fast` deselects it), and so not under
    # the guard it tests
    guard_test = here.get("test_the_guard_refuses_a_child_process_and_puts_everything_back")
    if guard_test is not None:  # absent under `-m fast`
        assert guard_test.get_closest_marker("subprocess")
        assert not guard_test.get_closest_marker("fast")


def test_the_guard_refuses_a_call_into_a_jvm():
    clientserver = pytest.importorskip("py4j.clientserver")
    before = clientserver.ClientServerConnection.send_command
    with tiers.guard("tests/x.py::test_x"):
        with pytest.raises(tiers.TierViolation, match="calls into a JVM"):
            clientserver.ClientServerConnection.send_command(None, "c\n")
    assert clientserver.ClientServerConnection.send_command is before
