"""DDlog's negative tests as a conformance suite: every program DDlog refuses, dl2sql
refuses too, with a located error.

Upstream keeps them in ``test/datalog_tests/*.fail.dl`` of a checkout of
vmware/differential-datalog (its path in ``$DDLOG_REPO``, as for
:mod:`test_conformance`), several programs to a file separated by ``//---``, each
compiled on its own (upstream's ``test/Spec.hs`` splits them so). Nothing of them is
kept in this repository: the fragments are read from the checkout.

Each fragment must be refused with a :class:`CompileError` whose every diagnostic is
located (``file:line:col: error:``) inside the fragment, and nothing else may escape
the compiler. The fragments in :data:`ACCEPTED` are restrictions of DDlog that dl2sql
lifts on purpose (docs/language.md lists them): they must still compile, so that the
list stays honest. ``test_negative_survey`` reports how many are refused.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dl2sql.compiler import compile_source
from dl2sql.diagnostics import CompileError
from test_conformance import REPO, needs_repo, upstream_dir

# fragment (file#n, n counting from 1) -> why dl2sql accepts it
ACCEPTED = {
    "rules.fail.dl#18": "a join of two streams: dl2sql joins the rows both streams hold in "
                        "the current transaction (DDlog: not supported yet)",
    "rules.fail.dl#21": "an antijoin after a stream: the stream's rows of the current "
                        "transaction whose key the relation does not hold (DDlog: not "
                        "supported yet)",
}
SEPARATOR = "//---"  # as upstream's Spec.hs splits a file (anywhere in it)
NEGATIVE_RESULTS: dict[str, str] = {}


def fail_files() -> list[Path]:
    return sorted(upstream_dir().glob("*.fail.dl"))


def fragments(path: Path) -> list[tuple[str, str, int, int]]:
    """(id, text, first line, last line) of each program in ``path``; the text keeps
    its position in the file (what precedes it blanked), so that diagnostics give the
    file's own lines and columns."""
    text = path.read_text(encoding="utf-8")
    out, start = [], 0
    pieces = text.split(SEPARATOR)
    for n, piece in enumerate(pieces, 1):
        before = re.sub(r"[^\n]", " ", text[:start])
        first = text.count("\n", 0, start) + 1
        out.append((f"{path.name}#{n}", before + piece, first, first + piece.count("\n")))
        start += len(piece) + len(SEPARATOR)
    return out


def all_fragments() -> list:
    if not REPO:
        return [pytest.param(None, id="no-DDLOG_REPO")]
    return [pytest.param((path, *frag), id=frag[0])
            for path in fail_files() for frag in fragments(path) if frag[1].strip()]


def outcome(path: Path, text: str, first: int, last: int) -> str:
    """"refused", "accepted", or what is wrong with the refusal."""
    try:
        compile_source(text, str(path))
    except CompileError as e:
        for d in e.diagnostics:
            rendered = d.render().splitlines()[0]
            if not re.match(rf"{re.escape(str(path))}:\d+:\d+: error: ", rendered) or \
                    not first <= d.span.line <= last:
                return f"refused, but not located in the fragment: {rendered}"
        return "refused"
    except Exception as e:  # a crash is a dl2sql bug: say which
        return f"CRASH {type(e).__name__}: {e}"
    return "accepted"


@needs_repo
@pytest.mark.parametrize("fragment", all_fragments())
def test_ddlog_refuses_dl2sql_refuses(fragment) -> None:
    path, fid, text, first, last = fragment
    got = outcome(path, text, first, last)
    if fid in ACCEPTED:
        assert got == "accepted", f"{fid} is listed as accepted on purpose ({ACCEPTED[fid]})"\
                                  f", but is {got}: take it off ACCEPTED and docs/language.md"
    else:
        assert got == "refused", f"{path}:{first}: DDlog refuses this program; dl2sql: {got}"


@needs_repo
def test_accepted_list_names_fragments() -> None:
    """Every fragment ACCEPTED names exists upstream (a renumbering shows here)."""
    ids = {frag[0] for path in fail_files() for frag in fragments(path)}
    assert set(ACCEPTED) <= ids


@needs_repo
def test_negative_survey(record_property) -> None:
    """Compile every fragment; the count refused goes into the report (conftest prints
    it at the end)."""
    for path in fail_files():
        for fid, text, first, last in fragments(path):
            if text.strip():
                NEGATIVE_RESULTS[fid] = outcome(path, text, first, last)
    record_property("ddlog_negative_survey", dict(NEGATIVE_RESULTS))
    refused = sum(r == "refused" for r in NEGATIVE_RESULTS.values())
    print(f"{refused}/{len(NEGATIVE_RESULTS)} DDlog negative fragments refused")
    assert refused + len(ACCEPTED) == len(NEGATIVE_RESULTS), {
        f: r for f, r in NEGATIVE_RESULTS.items() if r != "refused" and f not in ACCEPTED}
