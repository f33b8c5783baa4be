"""FTL desugaring (§3.6): each ``for`` statement must equal the hand-written rules."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from dl2sql.ast import nodes as n
from dl2sql.diagnostics import Span
from dl2sql.syntax.ftl import desugar_ftl
from dl2sql.syntax.parser import parse_module

_NOWHERE = Span("", 0, 0, 0, 0)


def strip(x):
    """``x`` with every span replaced by one fixed span, so that trees parsed from
    different text compare equal when only their positions differ."""
    if isinstance(x, Span):
        return _NOWHERE
    if isinstance(x, tuple):
        return tuple(strip(e) for e in x)
    if isinstance(x, list):
        return [strip(e) for e in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return dataclasses.replace(x, **{f.name: strip(getattr(x, f.name))
                                         for f in dataclasses.fields(x) if f.init})
    return x


def desugared(src: str) -> tuple:
    return strip(desugar_ftl(parse_module(src, "ftl.dl")).decls)


def rules(src: str) -> tuple:
    return strip(parse_module(src, "rules.dl").decls)


@pytest.mark.parametrize("ftl,expected", [
    pytest.param("for (p in P(x, _)) Q(x)",
                 "Q(x) :- p in P(x, _).", id="simple"),
    pytest.param("for (p in P) Q(p.a)",
                 "Q(p.a) :- p in P().", id="bare-atom"),
    pytest.param("for (p in P(.c = \"NZ\") if p.age > 17) Q(p.a)",
                 "Q(p.a) :- p in P(.c = \"NZ\"), p.age > 17.", id="for-if"),
    pytest.param("for (P[P{a}]) Q(a)",
                 "Q(a) :- P[P{a}].", id="no-binder-whole"),
    pytest.param("for (P(a, b)) Q(a)",
                 "Q(a) :- P(a, b).", id="no-binder-args"),
    pytest.param("for (a in A) { for (b in B(.id = a.id) if b.ok) { AB(a.x, b.y); O(b.y) } }",
                 "AB(a.x, b.y) :- a in A(), b in B(.id = a.id), b.ok.\n"
                 "O(b.y) :- a in A(), b in B(.id = a.id), b.ok.", id="nested-for-block"),
    pytest.param("for (x in X) if (x.a > 1) Y(1) else { Z(2); W(3) }",
                 "Y(1) :- x in X(), x.a > 1.\n"
                 "Z(2) :- x in X(), not (x.a > 1).\n"
                 "W(3) :- x in X(), not (x.a > 1).", id="if-else"),
    pytest.param("for (x in X) if (x.a) Y(1)",
                 "Y(1) :- x in X(), x.a.", id="if-no-else"),
    pytest.param("for (x in X) var t = x.a + 1 in (var b, _) = f(t) in (b > 2) in Y(b)",
                 "Y(b) :- x in X(), var t = x.a + 1, (var b, _) = f(t), b > 2.", id="var-in"),
    pytest.param("for (x in X) var t: bigint = x.a in Y(t)",
                 "Y(t) :- x in X(), var t: bigint = x.a.", id="typed-var-in"),
    pytest.param("for (x in X) match (x.s) { A -> Y(1), B{v} -> skip, (_, w) -> Y(2), _ -> Z(3) }",
                 "Y(1) :- x in X(), match (x.s) {A -> true, B{_} -> false, (_, _) -> false,"
                 " _ -> false}.\n"
                 "Y(2) :- x in X(), match (x.s) {A -> false, B{_} -> false, (_, _) -> true,"
                 " _ -> false}.\n"
                 "Z(3) :- x in X(), match (x.s) {A -> false, B{_} -> false, (_, _) -> false,"
                 " _ -> true}.", id="match-skip"),
    pytest.param("for (x in X) match (x.o) { Some{var v} -> Y(x.a), None -> skip }",
                 "Y(x.a) :- x in X(), match (x.o) {Some{_} -> true, None -> false}.",
                 id="match-var-forgotten"),
    pytest.param("for (x in X) match (x.o) { Some{_} -> { Y(1); skip }, None -> {} }",
                 "Y(1) :- x in X(), match (x.o) {Some{_} -> true, None -> false}.",
                 id="match-empty-block"),
    pytest.param("for (x in X) match (x.r) { &Some{v} -> Y(1), _ -> skip }",
                 "Y(1) :- x in X(), match (x.r) {&Some{_} -> true, _ -> false}.",
                 id="match-ref-pattern"),
    pytest.param("for (x in X) skip",
                 "", id="only-skip"),
])
def test_desugar_matches_hand_written_rules(ftl, expected):
    assert desugared(ftl) == rules(expected)


def test_rules_keep_their_place_among_other_declarations():
    src = "input relation X(a: u8)\nfor (x in X) Y(x.a)\noutput relation Y(a: u8)"
    ds = desugar_ftl(parse_module(src, "ftl.dl")).decls
    assert [type(d).__name__ for d in ds] == ["RelationDecl", "Rule", "RelationDecl"]


def test_spans_point_at_the_ftl_text():
    src = "for (x in X(_) if x.a > 1)\n  if (x.b) Y(x.a)"
    (rule,) = desugar_ftl(parse_module(src, "ftl.dl")).decls
    lit, cond, then = rule.body
    assert (rule.span.line, rule.span.col) == (2, 12)        # the insert statement
    assert (lit.span.line, lit.span.col) == (1, 11)          # `X(_)`
    assert (cond.span.line, cond.span.col) == (1, 19)        # `x.a > 1`
    assert (then.span.line, then.span.col) == (2, 7)         # `x.b`


def test_module_without_for_is_returned_unchanged():
    m = parse_module("R(1).", "ftl.dl")
    assert desugar_ftl(m) is m


def test_upstream_ovn_ftl_desugars_to_rules_only():
    repo = os.environ.get("DDLOG_REPO")
    if not repo:
        pytest.skip("set DDLOG_REPO to an upstream differential-datalog checkout")
    path = Path(repo, "test", "datalog_tests", "ovn_ftl.dl")
    m = desugar_ftl(parse_module(path.read_text(), str(path)))
    assert not any(isinstance(d, n.ForStatement) for d in m.decls)
    assert sum(isinstance(d, n.Rule) for d in m.decls) > 0
