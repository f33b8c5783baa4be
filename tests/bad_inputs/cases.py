"""The bad-input corpus: what a user can get wrong, and what dl2sql must say.

Each case is a command line run from a fresh directory holding ``prog.dl`` (PROGRAM
unless the case gives its own), ``cmds.dat`` and ``in/`` (files by name); ``{engine}``
in the arguments is each engine where the case reads data. ``message`` must appear in
stderr; the exit status must be 1, with no Python traceback and nothing written.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

PROGRAM = """typedef Color = Red | Green{shade: u8}
input relation Edge(src: string, dst: string, w: u32)
input relation Flag(on: bool, c: Color)
output relation Reach(src: string, dst: string)
Reach(a, b) :- Edge(a, b, _).
Reach(a, c) :- Reach(a, b), Edge(b, c, _).
output relation Light(on: bool)
Light(o) :- Flag(o, _).
"""
EDGE_OK = "src,dst,w\na,b,1\n"


class Case(NamedTuple):
    id: str
    argv: tuple
    message: str
    program: Optional[str | bytes] = None  # bytes: a file that is not UTF-8
    files: tuple = ()  # (name under in/, text)
    commands: str | bytes = ""
    engines: tuple = ("duckdb",)  # where the case reads data: both engines


def _compile(id, program, message):
    return Case(id, ("compile", "prog.dl"), message, program=program)


def _run(id, files, message, extra=()):
    return Case(id, ("run", "prog.dl", "--engine", "{engine}", "--input", "in",
                     "--output", "out", "--quiet", *extra), message, files=tuple(files),
                engines=("duckdb", "spark"))


def _replay(id, commands, message):
    return Case(id, ("replay", "prog.dl", "--engine", "{engine}", "--commands", "cmds.dat"),
                message, commands=commands, engines=("duckdb", "spark"))


R = "input relation R(x: u32)\noutput relation S(x: u32)\n"

CASES = [
    # --- programs ------------------------------------------------------------------
    _compile("syntax", R + "S(x) :- R(x)\n", "syntax error: unexpected end of input"),
    _compile("unknown-relation", R + "S(x) :- Q(x).\n", "unknown relation `Q`"),
    _compile("unknown-type", "input relation R(x: u33x)\n", "unknown type `u33x`"),
    _compile("type-mismatch", R + 'S(x) :- R(x), x == "a".\n', "type mismatch"),
    _compile("unbound-head-variable", R + "S(y) :- R(x).\n", "`y`"),
    _compile("unknown-function", R + "S(f(x)) :- R(x).\n", "unknown function `f`"),
    _compile("library-function", R + "output relation T(x: u32, n: u32)\n"
             "T(x, n) :- R(x), var g = x.group_by(x), var n = g.fold(|a, v| a + v, 0).\n",
             "`import group`"),
    _compile("arity", R + "S(x) :- R(x, x).\n", "R"),
    _compile("negation-cycle", R + "output relation A(x: u32)\n"
             "A(x) :- R(x), not A(x).\n", "negation"),
    _compile("duplicate-relation", R + "input relation R(y: u32)\n", "`R`"),
    _compile("unknown-module", "import no_such_module\n" + R, "no_such_module"),
    _compile("unknown-field", "typedef P = P{a: u32}\ninput relation R(p: P)\n"
             "output relation S(x: u32)\nS(x) :- R(p), var x = p.b.\n", "`b`"),
    _compile("non-exhaustive-match", "typedef T = A | B\ninput relation R(t: T)\n"
             "output relation S(x: u32)\nS(x) :- R(t), var x = match (t) { A -> 1 }.\n",
             "match"),
    # table names: SQL engines ignore case, and `R__plus` is one of R's own tables
    _compile("relation-names-differ-in-case", R + "output relation Out(x: u32)\n"
             "output relation OUT(x: u32)\nOut(x) :- R(x).\nOUT(x) :- R(x).\n",
             "prog.dl:4:1: error: relation `OUT` differs from `Out` (declared at "
             "prog.dl:3:1) only in the case of its letters"),
    _compile("relation-name-of-internal-form", R + "output relation R__plus(x: u32)\n"
             "R__plus(x) :- R(x).\n",
             "prog.dl:3:1: error: relation `R__plus` is named as the tables dl2sql makes "
             "for relation `R` (declared at prog.dl:1:1)"),
    # --- the whole program is checked, as DDlog does: unused declarations too ---------
    _compile("duplicate-constructor", "typedef T = A | B | A\n" + R,
             "prog.dl:1:21: error: constructor `A` is defined more than once in `T`"),
    _compile("duplicate-closure-parameter",
             R + "function f(): u64 { var c = |x: bool, x: bool|: u64 { 0 }; 0 }\n",
             "prog.dl:3:39: error: closure parameter `x` is declared twice"),
    _compile("redundant-match-arm", "typedef T = A | B\n" + R +
             "function f(t: T): u32 { match (t) { A -> 1, B -> 2, A -> 3 } }\n",
             "prog.dl:4:53: error: redundant match arm"),
    _compile("extern-function-twice", R + "extern function g(x: u32): u32\n"
             "extern function g(x: string): u32\n",
             "prog.dl:4:1: error: extern function `g` clashes with the function of the same "
             "name at prog.dl:3:1"),
    _compile("unused-type-parameter", "typedef Pair<'A, 'B> = Pair{a: 'A}\n" + R,
             "prog.dl:1:1: error: type parameter 'B of `Pair` is not used in its definition"),
    _compile("inspect-not-unit", R + "S(x) :- R(x), Inspect x + 1.\n",
             "prog.dl:3:23: error: `Inspect` takes an expression of type `()`"),
    _compile("vector-changed-while-iterated",
             R + "function f() { var v: Vec<u32> = [1]; for (x in v) { v.push(x) } }\n",
             "prog.dl:3:54: error: `push` changes its argument `v`: `v` cannot change inside "
             "a loop over it"),
    _compile("assignment-in-if-condition",
             R + "function f() { var v: Vec<u32> = [1]; if ({ v.push(3); v.len() } > 2) {} }\n",
             "prog.dl:3:45: error: `push` changes its argument `v`: an `if` condition cannot "
             "change a variable"),
    _compile("recursive-alias", "typedef t = t\n" + R,
             "prog.dl:1:1: error: recursive type alias: t -> t"),
    _compile("recursive-alias-inside", "typedef L = Option<(u32, L)>\n" + R,
             "prog.dl:1:1: error: recursive type alias: L -> L"),
    _compile("continue-outside-loop", R + "function f() { continue }\n",
             "prog.dl:3:16: error: `continue` outside of a loop"),
    _compile("break-outside-loop", R + "S(x) :- R(x), var y = { break; 1 }, x == y.\n",
             "prog.dl:3:25: error: `break` outside of a loop"),
    _compile("unused-function-error", R + "function unused(x: u32): string { x + 1 }\n",
             "prog.dl:3:35: error: type mismatch: expected `string`, found `bit<32>`"),
    # --- command files -----------------------------------------------------------
    _compile("relation-as-boolean", R + "S(x) :- R(x), if (R(x + 1)) true else false.\n",
             "prog.dl:3:19: error: `R` is a relation: an expression cannot test whether it "
             "holds a row"),
    _compile("too-deep", "input relation R(x: string)\noutput relation S(x: string)\n"
             "S(y) :- R(x), var y = " + " ++ ".join(["x"] * 20000) + ".\n",
             "prog.dl:3:23: error: expression nesting is too deep to compile"),
    # a Latin-1 é: the byte is located, the line quoted
    _compile("program-not-utf8", R.encode() + b'S(x) :- R(x), "caf\xe9" != "".\n',
             "prog.dl:3:19: error: the file is not UTF-8: byte 0xe9"),
    _replay("commands-not-utf8", b"start;\ninsert Edge(\"\xe9\", \"b\", 1);\ncommit;\n",
            "cmds.dat:2:14: error: the file is not UTF-8: byte 0xe9"),
    _replay("cmd-unknown-relation", "start;\ninsert Egde(\"a\", \"b\", 1);\ncommit;\n", "Egde"),
    _replay("cmd-arity", "start;\ninsert Edge(\"a\", \"b\");\ncommit;\n", "cmds.dat:2:"),
    _replay("cmd-type", "start;\ninsert Edge(\"a\", \"b\", \"w\");\ncommit;\n", "cmds.dat:2:"),
    _replay("cmd-commit-without-start", "commit;\n", "cmds.dat:1:"),
    _replay("cmd-syntax", "start;\ninsert Edge(\"a\" \"b\", 1);\ncommit;\n", "cmds.dat:2:"),
    _replay("cmd-insert-output", "start;\ninsert Reach(\"a\", \"b\");\ncommit;\n", "Reach"),
    _replay("cmd-unknown-command", "start;\nfrobnicate;\ncommit;\n", "cmds.dat:2:"),
    _replay("cmd-out-of-range", "start;\ninsert Edge(\"a\", \"b\", 4294967296);\ncommit;\n",
            "cmds.dat:2:"),
    _replay("cmd-unknown-constructor",
            "start;\ninsert Flag(true, Blue);\ncommit;\n", "Blue"),
    # --- input files -------------------------------------------------------------
    _run("file-misnamed", [("Edges.csv", EDGE_OK)], "names no input relation"),
    _run("file-extension", [("Edge.txt", EDGE_OK)], "unknown input format"),
    _run("file-twice", [("Edge.csv", EDGE_OK), ("Edge.json", "")], "two input files"),
    _run("csv-missing-column", [("Edge.csv", "src,dst\na,b\n")], "`w`"),
    _run("csv-extra-column", [("Edge.csv", "src,dst,w,x\na,b,1,2\n")], "`x`"),
    _run("csv-misnamed-column", [("Edge.csv", "src,to,w\na,b,1\n")], "`to`"),
    _run("csv-field-count", [("Edge.csv", "src,dst,w\na,b,1,9\n")], "Edge.csv:2"),
    _run("csv-not-an-integer", [("Edge.csv", "src,dst,w\na,b,x\n")],
         "Edge.csv:2: input relation `Edge`, column `w` (bit<32>)"),
    _run("csv-negative-unsigned", [("Edge.csv", "src,dst,w\na,b,-1\n")], "Edge.csv:2"),
    _run("csv-out-of-range", [("Edge.csv", "src,dst,w\na,b,4294967296\n")], "Edge.csv:2"),
    _run("json-missing-union-column", [("Edge.csv", EDGE_OK), ("Flag.json", '{"on": true}\n')],
         "Flag.json:1: the object has no column `c` of input relation `Flag`"),
    _run("json-not-a-bool", [("Flag.json", '{"on": "yes", "c": {"tag": 0}}\n')], "Flag"),
    Case("missing-extern", ("run", "prog.dl", "--engine", "{engine}", "--input", "in",
                            "--output", "out", "--quiet"),
         "extern function `f` has no implementation",
         program="extern function f(x: u32): u32\n" + R + "S(f(x)) :- R(x).\n",
         engines=("duckdb", "spark")),
    # as `replay` refuses them: one row per key (identical rows are one row)
    Case("primary-key-clash", ("run", "prog.dl", "--engine", "{engine}", "--input", "in",
                               "--output", "out", "--quiet"),
         "relation `K`: two rows have the same primary key (DDlog keeps one row per key): "
         "(1, 'a'), (1, 'b')",
         program="input relation K(k: u32, v: string) primary key (x) x.k\n"
                 "output relation O(k: u32, v: string)\nO(k, v) :- K(k, v).\n",
         files=(("K.csv", "k,v\n2,c\n1,b\n2,c\n1,a\n"),), engines=("duckdb", "spark")),
    _run("csv-union-column", [("Flag.csv", "on,c\ntrue,Red\n")], "CSV cannot hold"),
    _run("json-syntax", [("Edge.json", '{"src": "a", "dst": "b", "w": 1\n')], "Edge.json:1"),
    _run("json-missing-key", [("Edge.json", '{"src": "a", "dst": "b"}\n')], "`w`"),
    _run("json-wrong-type", [("Edge.json", '{"src": "a", "dst": "b", "w": "x"}\n')],
         "Edge.json:1"),
    _run("input-dir-missing", [], "does not exist", extra=()),
    # a counter without bound never converges: --max-iterations names it
    Case("recursion-without-end", ("run", "prog.dl", "--engine", "{engine}", "--input", "in",
                                   "--output", "out", "--quiet", "--max-iterations", "5"),
         "error: stratum R did not converge within 5 iterations (rows added by its last "
         "iteration: R ",
         program="input relation Start(x: bigint)\noutput relation R(x: bigint)\n"
                 "R(x) :- Start(x).\nR(x + 1) :- R(x).\n",
         files=(("Start.csv", "x\n0\n"),), engines=("duckdb", "spark")),
    # --- command lines -----------------------------------------------------------
    Case("cli-missing-option", ("run", "prog.dl", "--input", "in"), "--output"),
    Case("cli-unknown-engine", ("replay", "prog.dl", "--engine", "oracle"), "invalid choice"),
    Case("cli-unknown-command", ("frobnicate",), "invalid choice"),
    Case("cli-bad-max-iterations", ("run", "prog.dl", "--input", "in", "--output", "out",
                                    "--max-iterations", "0"),
         "--max-iterations: expected a positive integer, not '0'"),
    Case("cli-missing-program", ("compile", "nope.dl"), "nope.dl"),
    Case("cli-bad-partitions", ("run", "prog.dl", "--input", "in", "--output", "out",
                                "--partitions", "many"), "--partitions"),
    Case("cli-missing-commands-file", ("replay", "prog.dl", "--commands", "nope.dat"),
         "nope.dat"),
    Case("cli-missing-externs", ("replay", "prog.dl", "--externs", "nope.py", "--commands",
                                 "cmds.dat"), "nope.py"),
    Case("cli-unknown-format", ("run", "prog.dl", "--input", "in", "--output", "out",
                                "--format", "xlsx"), "invalid choice"),
]
