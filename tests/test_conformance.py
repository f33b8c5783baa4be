"""DDlog's own test programs as a conformance suite.

Runs ``test/datalog_tests/NAME.dl`` with ``NAME.dat`` from a checkout of
vmware/differential-datalog whose path is in ``$DDLOG_REPO`` and compares the output
byte for byte with ``NAME.dump.expected``, as upstream does (§7.6 of the language
notes). Programs listed in ``REQUIRED`` must pass on both engines; every other program
is attempted on DuckDB by ``test_conformance_survey``, which reports the pass count.
"""
from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from dl2sql.cli import load_externs
from dl2sql.diagnostics import CompileError, RuntimeFailure
from dl2sql.compiler import compile_file, compile_source
from dl2sql.api.replaying import replay_program

REPO = os.environ.get("DDLOG_REPO")
needs_repo = pytest.mark.skipif(
    not REPO, reason="DDLOG_REPO is not set: point it at a checkout of "
                     "vmware/differential-datalog to run DDlog's conformance tests")

# program -> replay flags, as upstream's test scripts run them
FLAGS = {"three": ("--output-internal-relations",)}
# library tests run imported by a main module with --no-init-snapshot, as upstream's
# lib_test.dl runs them; their outputs carry the module prefix (`std_test::...`)
LIBRARY_TESTS = ("std_test", "vec_test", "set_test", "map_test", "group_test", "fp_test",
                 "hashset_test", "tinyset_test", "url_test", "uuid_test", "net_test",
                 "json_test", "regex_test", "internment_test", "base64_test",
                 "time_test", "ddvalue_test")
REQUIRED = ("three", "path", "bit_shift", "ovn_ftl", "std_test", "simple3", "internment_test",
            "fp_test", "set_test", "map_test", "group_test", "tutorial", "base64_test",
            "uuid_test", "url_test", "regex_test", "hashset_test", "tinyset_test",
            "streams", "vec_test", "json_test", "net_test", "time_test", "ddvalue_test",
            "modules", "simple2", "simple")
# Python implementations of a program's extern functions (upstream's are Rust):
# tests/conformance_externs/NAME.py, when the program has any
EXTERNS = Path(__file__).parent / "conformance_externs"
SURVEY_RESULTS: dict[str, str] = {}


def upstream_dir() -> Path:
    return Path(REPO) / "test" / "datalog_tests"


def _real_file(path: Path) -> bool:
    """Present with content (a Git LFS pointer or an empty stand-in does not count)."""
    if not path.is_file() or path.stat().st_size == 0:
        return False
    with open(path, "rb") as f:
        return not f.read(64).startswith(b"version https://git-lfs")


def expected_output(name: str) -> str | None:
    d = upstream_dir()
    if _real_file(d / f"{name}.dump.expected"):
        return (d / f"{name}.dump.expected").read_text(encoding="utf-8")
    if _real_file(d / f"{name}.dump.expected.gz"):
        return gzip.decompress((d / f"{name}.dump.expected.gz").read_bytes()).decode()
    return None


def run_upstream(name: str, runner) -> str:
    """Replay upstream program ``name``; returns stdout (raises on errors)."""
    d = upstream_dir()
    flags = FLAGS.get(name, ())
    libs = (str(Path(REPO) / "lib"),)
    if name in LIBRARY_TESTS:
        flags = ("--no-init-snapshot",)
        program = compile_source(f"import {name}\n", str(d / "lib_test_main.dl"),
                                 (str(d),) + libs)
    else:
        program = compile_file(str(d / f"{name}.dl"), libs,
                               output_internal="--output-internal-relations" in flags)
    dat = d / f"{name}.dat"
    commands = dat.read_text(encoding="utf-8") if dat.exists() else ""
    externs = EXTERNS / f"{name}.py"
    code, out, err = replay_program(program, runner, commands,
                                    init_snapshot="--no-init-snapshot" not in flags,
                                    filename=str(dat),
                                    externs=load_externs(str(externs)) if externs.exists()
                                    else {})
    if code != 0:
        raise RuntimeFailure(err.strip())
    return out


@needs_repo
@pytest.mark.parametrize("name", REQUIRED)
def test_conformance_required(name: str, engine) -> None:
    assert matches_expected(name, run_upstream(name, engine))


def matches_expected(name: str, out: str) -> bool:
    """Byte-exact equality with upstream's expected output."""
    return out == expected_output(name)


def survey_candidates() -> list[str]:
    d = upstream_dir()
    names = []
    for dl in sorted(d.glob("*.dl")):
        name = dl.stem
        if name.endswith(".fail") or expected_output(name) is None:
            continue
        if not _real_file(d / f"{name}.dat") and name != "bit_shift":
            continue
        names.append(name)
    return names


@needs_repo
def test_conformance_survey(record_property) -> None:
    """Attempt every upstream program on DuckDB; the required ones must pass. The
    results go into the report (conftest prints them at the end, from whichever
    process ran the test)."""
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    for name in survey_candidates():
        try:
            ok = matches_expected(name, run_upstream(name, DuckDBRunner()))
            SURVEY_RESULTS[name] = "pass" if ok else "output differs"
        except CompileError as e:
            SURVEY_RESULTS[name] = "compile error: " + e.diagnostics[0].message[:80]
        except RuntimeFailure as e:
            SURVEY_RESULTS[name] = "runtime error: " + str(e)[:80]
        except Exception as e:  # a crash is a dl2sql bug: report it, keep surveying
            SURVEY_RESULTS[name] = f"CRASH {type(e).__name__}: {str(e)[:60]}"
    record_property("ddlog_survey", dict(SURVEY_RESULTS))
    passed = sorted(n for n, r in SURVEY_RESULTS.items() if r == "pass")
    assert set(REQUIRED) <= set(passed), SURVEY_RESULTS
