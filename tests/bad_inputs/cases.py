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
    _run("csv-union-column", [("Flag.csv", "on,c\ntrue,Red\n")], "CSV cannot hold"),
    _run("json-syntax", [("Edge.json", '{"src": "a", "dst": "b", "w": 1\n')], "Edge.json:1"),
    _run("json-missing-key", [("Edge.json", '{"src": "a", "dst": "b"}\n')], "`w`"),
    _run("json-wrong-type", [("Edge.json", '{"src": "a", "dst": "b", "w": "x"}\n')],
         "Edge.json:1"),
    _run("input-dir-missing", [], "does not exist", extra=()),
    # --- command lines -----------------------------------------------------------
    Case("cli-missing-option", ("run", "prog.dl", "--input", "in"), "--output"),
    Case("cli-unknown-engine", ("replay", "prog.dl", "--engine", "oracle"), "invalid choice"),
    Case("cli-unknown-command", ("frobnicate",), "invalid choice"),
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
