"""Facts read as data (issue 41: compile time linear in the program's size): which fact
lines dl2sql.syntax.facts takes, their rows against the rules' (the same results, the
same stored values as dl2sql.runtime.convert's), the grammar's diagnostics for facts
that are not data, and — without timing anything — that compiling does work
proportional to the facts: the SQL, the parser's input and sqlglot's copies do not
grow faster than the program."""
from __future__ import annotations

import pytest
from sqlglot import exp

from benchmarks.generators import facts_program
from dl2sql.compiler import compile_source
from dl2sql.compiler.emit import emit
from dl2sql.diagnostics import CompileError
from dl2sql.plan.nodes import Load
from dl2sql.runner.duckdb_runner import DuckDBRunner
from dl2sql.runtime.convert import to_sql
from dl2sql.runtime.values import Record
from dl2sql.syntax import facts as fact_lines
from dl2sql.syntax import parser
from dl2sql.syntax.facts import Ctor, Tup, extract_facts
from dl2sql.plan.interpret import execute, fetch_relation

K = fact_lines.MIN_FACTS


def _lines(template: str, k: int = K) -> str:
    return "".join(template.format(i=i) + "\n" for i in range(k))


def test_fact_lines_are_taken_and_blanked_keeping_offsets():
    text = "relation R(x: u32)\n" + _lines("R({i}).") + "R(x) :- S(x).\n"
    blanked, found = extract_facts(text)
    assert len(blanked) == len(text) and blanked.count("\n") == text.count("\n")
    assert blanked.strip().splitlines()[0] == "relation R(x: u32)"
    assert [v for v, _, _ in found["R"]] == [(i,) for i in range(K)]
    _, start, end = found["R"][3]
    assert text[start:end] == "R(3)."


def test_a_rule_ends_before_the_next_fact_starts():
    text = "R(x) :-\n" + _lines("R({i}).")  # `R(x) :- R(0).`, then facts
    blanked, found = extract_facts(text)
    assert [v for v, _, _ in found["R"]] == [(i,) for i in range(1, K)]
    assert blanked.split() == ["R(x)", ":-", "R(0)."]


def test_values_of_every_literal_kind():
    text = _lines('T({i}, -{i}, "a\\"b\\n", true, C{{1, D}}, (2, "x"), q::E{{}}).')
    _, found = extract_facts(text)
    assert found["T"][0][0] == (0, 0, 'a"b\n', True, Ctor("C", (1, Ctor("D", ()))),
                                Tup((2, "x")), Ctor("q::E", ()))


@pytest.mark.parametrize("lines", [
    _lines("R({i}).", K - 1),                              # too few: rules
    "R(x) :- S(x),\n" + _lines("R({i}),"),                 # inside a rule
    _lines('#[attr]\nR({i}).'),                           # an attribute's rule
    "function f(): u32 {\n" + _lines("R({i}).") + "}\n",   # inside braces
    'const = [|\n' + _lines("R({i}).") + '|]\n',           # inside a raw string
    _lines("R({i}) :- S({i})."),                           # not facts
    _lines("R({i}.5)."), _lines("R(x{i})."), _lines('R("${{x}}{i}").'),
    _lines("R({i}, ).R(1)."), _lines("R(({i}))."), _lines("R(32'd{i})."),
])
def test_lines_that_are_not_taken(lines):
    blanked, found = extract_facts(lines)
    assert found.get("R", []) == [] and blanked == lines


def test_rows_are_the_stored_values_runtime_conversion_gives():
    program = compile_source(
        "typedef U = A{x: u8, s: string} | B{t: (bool, s16)} | C\n"
        "typedef P = P{n: s64, u: U}\n"
        "output relation R(p: P, u: U, b: bit<64>)\n"
        + _lines('R(P{{-{i}, B{{(true, -3)}}}}, A{{{i}, "s{i}"}}, 18446744073709551615).')
        + _lines("R(P{{{i}, C}}, C, {i}).") + "R(P{0, C}, C, 0).\n")
    assert not program.rules or all(h.relation != "R" for r in program.rules
                                    for h in r.heads)
    env = program.type_env
    rows = set(program.facts["R"])
    for i in range(K):
        p = Record("P", (-i, Record("B", ((True, -3),))))
        expected = tuple(to_sql(t, v, env) for (_, t), v in zip(
            program.layouts["R"].columns, (p, Record("A", (i, f"s{i}")),
                                           18446744073709551615)))
        assert expected in rows
    assert len(rows) == 2 * K  # `R(P{0, C}, C, 0)` written twice: one row


def _outputs(text: str) -> dict:
    program = compile_source(text)
    runner = DuckDBRunner()
    plan = program.plan_for("duckdb")
    execute(plan, runner, {})
    return {r: sorted(map(repr, fetch_relation(plan, runner, r)))
            for r in program.output_relations()}


def test_results_are_those_of_the_facts_as_rules(monkeypatch):
    text = facts_program(8 * K)
    with_data = _outputs(text)
    plan = compile_source(text).plan_for("duckdb")
    assert {s.target.relation for s in plan.statements if isinstance(s, Load)} == \
        {"Edge", "Name", "Has", "Who"}
    monkeypatch.setattr(fact_lines, "MIN_FACTS", 10**9)
    assert not compile_source(text).facts
    assert _outputs(text) == with_data


@pytest.mark.parametrize("why, text", [
    ("an input", "input relation R(x: u32)\noutput relation O(x: u32)\nO(x) :- R(x).\n"),
    ("derived too", "output relation R(x: u32)\nR(x) :- R(x), x < 3.\n"),
    ("a stream", "output stream R(x: u32)\n"),
    ("a wide integer", "output relation R(x: bigint)\n"),
])
def test_relations_whose_facts_stay_rules(why, text, monkeypatch):
    source = text + _lines("R({i}).")
    assert not compile_source(source).facts, why
    got = _outputs(source)
    monkeypatch.setattr(fact_lines, "MIN_FACTS", 10**9)
    assert got == _outputs(source)


@pytest.mark.parametrize("line, message", [
    ('R(3, "x").', "expected"),   # a string for an integer
    ("R(1, 300).", "300"),        # out of range for u8
    ("Q(1, 2).", "unknown relation"),
    ("R(1, 2, 3).", "R"),
    ("R(Nope{1}, 2).", "Nope"),
])
def test_facts_that_are_wrong_get_the_grammars_diagnostics(line, message, monkeypatch):
    relation = "output relation R(x: s64, y: u8)\n" + _lines("R({i}, 1).")
    source = relation + line + "\n" + _lines("Q({i}, 1).")

    def diagnostics():
        with pytest.raises(CompileError) as e:
            compile_source(source, "p.dl")
        return [(d.message, d.span) for d in e.value.diagnostics]

    got = diagnostics()
    monkeypatch.setattr(fact_lines, "MIN_FACTS", 10**9)
    assert got == diagnostics()
    assert message in " ".join(m for m, _ in got)


def test_compiling_facts_does_constant_work_beyond_reading_them():
    """Grows with N only where it must: the printed SQL (a line per relation), the text
    lark parses and the SQL's nodes are the same for 4K and 40K facts."""
    small, large = _counts(4 * K), _counts(40 * K)
    assert small == large


def _counts(k: int) -> tuple[int, int, int]:
    seen: list[int] = []
    lark = parser._lark()
    real = lark.parse

    def counting(text, start):
        seen.append(len("".join(text.split())))
        return real(text, start=start)

    lark.parse = counting
    try:
        program = compile_source(facts_program(k))
    finally:
        del lark.parse
    # the counts of rows in the load comments differ: compare the SQL without them
    printed = sum(len(line) for d in ("duckdb", "spark")
                  for line in emit(program, "sql", d).splitlines() if "facts of" not in line)
    nodes = sum(1 for s in program.plan_for("duckdb").statements
                if isinstance(getattr(s, "query", None), exp.Expression)
                for _ in s.query.walk())
    return printed, sum(seen), nodes


def _nodes_made(monkeypatch, k: int) -> int:
    """sqlglot nodes made while planning an input relation with ``k`` facts (which stay
    rules) for Spark."""
    made = []
    real = exp.Expression.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(exp.Expression, "__init__", counting)
        compile_source("input relation R(x: s64, y: string)\n"
                       + "".join(f'R({i}, "{i}").\n' for i in range(k))).plan_for("spark")
    return len(made)


def test_unions_of_many_rules_are_built_in_linear_work(monkeypatch):
    """Facts that stay rules (an input relation's) are one part each of a UNION: the
    SQL is built without copying the union so far at every part (quadratic: 2,000
    facts took minutes); the nodes sqlglot makes grow with the parts, not their
    square."""
    small, large = _nodes_made(monkeypatch, 20), _nodes_made(monkeypatch, 80)
    assert large <= 4.5 * small, (small, large)
