"""Test tiers, assigned from what each test uses, so that nobody has to remember a
marker (docs/testing.md).

A collected test is marked

- ``spark``: it takes the shared ``spark`` session, or an ``engine`` parameter of
  ``"spark"``;
- ``cluster``: it takes the standalone ``cluster``;
- ``subprocess``: it, a fixture it takes or a helper of ``tests/`` it calls starts a
  child process (``run_child``, ``subprocess``, the ``bare`` Python, the ``java`` of
  a child's Spark), which for most of them is a JVM;
- ``connect``: a child it starts runs a Spark Connect session (``remote(``);
- ``property``: it is one of the random-program property tests of ``tests/property/``
  (hypothesis draws whole programs and runs each on an engine: a minute or more each);
- ``duckdb``: it takes an ``engine`` parameter of ``"duckdb"``;
- ``fast``: none of ``spark``, ``cluster``, ``subprocess``, ``connect``, ``property``:
  no JVM, no child process, seconds at most. Hypothesis's own ``hypothesis`` marker is
  kept as it comes.

What a test calls is read from its code (and its fixtures' and helpers' code in
``tests/``), not from its name. A test marked ``fast`` that starts a process or talks
to a JVM all the same (through a path this reading cannot see, such as the command
line's ``--engine spark``) fails, saying so: :func:`guard` holds the tier to its word.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import subprocess
import sys
import threading
import types
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# fixture -> the tiers a test that takes it belongs to
FIXTURE_TIERS = {"spark": {"spark"}, "cluster": {"cluster", "subprocess"},
                 "bare": {"subprocess"}, "java": {"subprocess"}}
# names whose use in a test's code (or its helpers') starts a child process
CHILD_NAMES = frozenset({"run_child", "subprocess", "Popen", "check_output", "check_call",
                         "posix_spawn"})
# text of a child's code that makes it a Spark Connect session
CONNECT_TEXT = ("remote(", "sc://")
PROPERTY = TESTS / "property"
SLOW_TIERS = frozenset({"spark", "cluster", "subprocess", "connect", "property"})
MARKERS = {
    "fast": "no JVM and no child process (pytest -m fast)",
    "spark": "takes the shared local SparkSession",
    "cluster": "takes the standalone Spark cluster",
    "subprocess": "starts a child process (most of them a JVM)",
    "connect": "runs a Spark Connect session in a child process",
    "property": "a random-program property test (tests/property/)",
    "duckdb": "runs on the DuckDB engine",
}


def tiers_of(item) -> set[str]:
    """The tiers of collected test ``item`` (a subset of :data:`MARKERS`'s keys)."""
    tiers: set[str] = set()
    for name in getattr(item, "fixturenames", ()):
        tiers |= FIXTURE_TIERS.get(name, set())
    callspec = getattr(item, "callspec", None)
    for name, value in (callspec.params.items() if callspec else ()):
        if name.startswith("engine") and value in ("spark", "duckdb"):
            tiers.add(value)
    names, texts = set(), set()
    for fn in _functions_of(item):
        found_names, found_texts = _reached(fn)
        names |= found_names
        texts |= found_texts
    if names & CHILD_NAMES:
        tiers.add("subprocess")
        if any(marker in text for text in texts for marker in CONNECT_TEXT):
            tiers.add("connect")
    if Path(str(item.fspath)).resolve().is_relative_to(PROPERTY):
        tiers.add("property")
    if not tiers & SLOW_TIERS:
        tiers.add("fast")
    return tiers


def xdist_group(found: set[str]) -> str | None:
    """The pytest-xdist group of a test of tiers ``found``: ``spark`` for the tests of
    the shared session, ``cluster`` for those of the standalone cluster, else none."""
    if "spark" in found:
        return "spark"
    if "cluster" in found:
        return "cluster"
    return None


def _functions_of(item):
    """The test's own function and those of the fixtures it takes."""
    fn = getattr(item, "function", None)
    if fn is not None:
        yield _unwrapped(fn)
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for definition in (info.name2fixturedefs.get(name, ()) if info else ()):
            yield _unwrapped(definition.func)


def _unwrapped(fn):
    inner = getattr(getattr(fn, "hypothesis", None), "inner_test", None)  # @given
    return inspect.unwrap(inner or fn)


def _reached(fn) -> tuple[frozenset[str], frozenset[str]]:
    """The global names and string constants of ``fn``'s code, and of every function
    or class of ``tests/`` that it names, transitively."""
    names: set[str] = set()
    texts: set[str] = set()
    seen: set[int] = set()
    pending = [fn]
    while pending:
        f = pending.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        own_names, own_texts = _code_words(getattr(f, "__code__", None))
        names |= own_names
        texts |= own_texts
        space = getattr(f, "__globals__", {})
        for name in own_names:
            target = space.get(name)
            if isinstance(target, type) and _in_tests(target):
                pending.extend(v for v in vars(target).values() if inspect.isfunction(v))
            elif inspect.isfunction(target) and _in_tests(target):
                pending.append(target)
    return frozenset(names), frozenset(texts)


@functools.lru_cache(maxsize=None)
def _code_words(code) -> tuple[frozenset[str], frozenset[str]]:
    """Names and string constants of ``code`` and the code nested in it."""
    names: set[str] = set()
    texts: set[str] = set()
    stack = [code] if code is not None else []
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        for const in c.co_consts:
            if isinstance(const, types.CodeType):
                stack.append(const)
            elif isinstance(const, str):
                texts.add(const)
    return frozenset(names), frozenset(texts)


def _in_tests(obj) -> bool:
    try:
        return Path(inspect.getfile(obj)).resolve().is_relative_to(TESTS)
    except (TypeError, OSError):
        return False


class TierViolation(AssertionError):
    """A test of the fast tier started a process or talked to a JVM."""


@contextlib.contextmanager
def guard(nodeid: str):
    """While a ``fast`` test runs (its fixtures included), starting a child process or
    calling into a JVM from the test's thread raises :class:`TierViolation`."""
    main = threading.current_thread()

    def refuse(what: str):
        raise TierViolation(
            f"{nodeid} is in the fast tier (tests/tiers.py) but {what}: take the "
            f"fixture that says so (`spark`, `cluster`) or call the helper that does "
            f"(`run_child`), so that its tier is known")

    original_child = subprocess.Popen._execute_child

    def no_child(self, *args, **kwargs):
        if threading.current_thread() is main:
            refuse("starts a child process")
        return original_child(self, *args, **kwargs)

    patched = [(subprocess.Popen, "_execute_child", original_child)]
    subprocess.Popen._execute_child = no_child
    for module, cls in (("py4j.clientserver", "ClientServerConnection"),
                        ("py4j.java_gateway", "GatewayConnection")):
        owner = getattr(sys.modules.get(module), cls, None)
        if owner is None:
            continue
        original = owner.send_command

        def no_jvm(self, *args, _original=original, **kwargs):
            if threading.current_thread() is main:
                refuse("calls into a JVM")
            return _original(self, *args, **kwargs)
        patched.append((owner, "send_command", original))
        owner.send_command = no_jvm
    try:
        yield
    finally:
        for owner, attribute, original in patched:
            setattr(owner, attribute, original)
