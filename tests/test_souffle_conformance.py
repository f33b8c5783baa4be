"""DDlog's Soufflé-derived tests (``test/souffleN``) as a conformance suite.

As upstream's ``test/run-souffle-tests.py`` does, each ``test.dl`` from the checkout in
``$DDLOG_REPO`` is run through the C preprocessor and converted at test time by
upstream's ``tools/souffle_converter.py`` (into a temporary directory: nothing of
upstream's is kept in this repository); the resulting ``souffle.dl`` is replayed with
``souffle.dat`` and ``--no-init-snapshot``, and its output compared with
``souffle.dump.expected.gz`` after sorting the lines of both. Programs in ``REQUIRED``
must pass on both engines; ``test_souffle_survey`` attempts every test with an
expected output on DuckDB and reports the rest.
"""
from __future__ import annotations

import gzip
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dl2sql.api.replaying import replay_program
from dl2sql.compiler import compile_file
from dl2sql.diagnostics import CompileError, RuntimeFailure

REPO = os.environ.get("DDLOG_REPO")
needs_repo = pytest.mark.skipif(
    not REPO, reason="DDLOG_REPO is not set: point it at a checkout of "
                     "vmware/differential-datalog to run its Soufflé-derived tests")
REQUIRED = ("souffle2", "souffle3", "souffle4", "souffle5", "souffle6", "souffle9",
            "souffle10", "souffle11", "souffle12", "souffle13", "souffle19")
SURVEY_RESULTS: dict[str, str] = {}


def _converter():
    """Upstream's converter module (it needs parglare and a C preprocessor)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler `cc` to preprocess the Soufflé programs, as upstream does")
    try:
        importlib.import_module("parglare")
    except ImportError:
        pytest.skip("upstream's souffle_converter.py needs the `parglare` package")
    tools = str(Path(REPO) / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    return importlib.import_module("souffle_converter")


def expected_output(name: str) -> str | None:
    path = Path(REPO) / "test" / name / "souffle.dump.expected.gz"
    if not path.is_file():
        return None
    try:
        return gzip.decompress(path.read_bytes()).decode()
    except (OSError, EOFError):  # an empty stand-in for a test without outputs
        return None


def convert(name: str, workdir: Path) -> Path:
    """Preprocess and convert upstream's ``test/NAME/test.dl`` in ``workdir``; returns
    the directory holding ``souffle.dl`` and ``souffle.dat``."""
    converter = _converter()
    target = workdir / name
    shutil.copytree(Path(REPO) / "test" / name, target)
    pre = subprocess.run(["cc", "-x", "c", "-E", "-P", "-undef", "-nostdinc", "test.dl"],
                         cwd=target, capture_output=True, text=True, check=True)
    (target / "test.dl.tmp").write_text(pre.stdout)
    options = converter.ConversionOptions()
    options.toDNF = True
    cwd = os.getcwd()
    os.chdir(target)  # the converter reads .facts files and writes its outputs here
    try:
        converter.convert("test.dl.tmp", "souffle", options)
    finally:
        os.chdir(cwd)
    return target


def run_souffle(name: str, runner, workdir: Path) -> str:
    """The converted program's output on ``runner`` (raises on errors)."""
    target = convert(name, workdir)
    program = compile_file(str(target / "souffle.dl"), (str(Path(REPO) / "lib"),))
    dat = target / "souffle.dat"
    code, out, err = replay_program(program, runner, dat.read_text(encoding="utf-8"),
                                    init_snapshot=False, filename=str(dat))
    if code != 0:
        raise RuntimeFailure(err.strip())
    return out


def same_sorted(out: str, expected: str) -> bool:
    """Equal after sorting lines, as upstream's script compares."""
    return sorted(out.splitlines()) == sorted(expected.splitlines())


def candidates() -> list[str]:
    tests = Path(REPO) / "test"
    names = [d.name for d in tests.iterdir() if d.name.startswith("souffle") and d.is_dir()]
    return sorted((n for n in names if expected_output(n)), key=lambda n: int(n[7:]))


@needs_repo
@pytest.mark.parametrize("name", REQUIRED)
def test_souffle_required(name: str, engine, tmp_path) -> None:
    assert same_sorted(run_souffle(name, engine, tmp_path), expected_output(name))


@needs_repo
def test_souffle_survey(tmp_path) -> None:
    """Attempt every Soufflé test with an expected output on DuckDB; the required
    ones must pass."""
    from dl2sql.runner.duckdb_runner import DuckDBRunner

    for name in candidates():
        try:
            ok = same_sorted(run_souffle(name, DuckDBRunner(), tmp_path), expected_output(name))
            SURVEY_RESULTS[name] = "pass" if ok else "output differs"
        except CompileError as e:
            SURVEY_RESULTS[name] = "compile error: " + e.diagnostics[0].message[:80]
        except RuntimeFailure as e:
            SURVEY_RESULTS[name] = "runtime error: " + str(e)[:80]
        except Exception as e:  # a crash is a dl2sql bug (or the converter's): report it
            SURVEY_RESULTS[name] = f"CRASH {type(e).__name__}: {str(e)[:60]}"
    print("\nSoufflé survey:", ", ".join(f"{n}: {r}" for n, r in SURVEY_RESULTS.items()))
    passed = {n for n, r in SURVEY_RESULTS.items() if r == "pass"}
    assert set(REQUIRED) <= passed, SURVEY_RESULTS
