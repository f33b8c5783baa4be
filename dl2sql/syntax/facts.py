"""Facts read without the grammar: the lines of a module that are one ground atom of
literals each (``Edge(1, 2).``, ``Name(3, "x").``, ``Has(4, Circle{5}).``), taken out
of the text before lark parses it.

Lark's LALR parser and the tree builder cost about half a millisecond per fact, and
every later stage another few: a program of 200,000 facts took minutes. Here a fact
line costs a regular-expression match and a few tokens; the facts of one relation
become one :class:`~dl2sql.ast.decls.FactTable`, which type checking turns into the
relation's rows (:mod:`dl2sql.types.check_facts`) and the plan loads as data.

Only relations written with at least :data:`MIN_FACTS` such lines are taken (a
program's few facts stay rules, and print as SQL as before). A line is taken only
where a statement may start: outside brackets and raw strings, after a statement that
is complete (the code before it ends in ``.``, ``)``, ``}``, ``>``, a name or a
string; not ``,``, ``:-``, an operator, or the ``]`` of an attribute, which belongs to
the rule after it). Its text is blanked (offsets kept, for spans), so lark sees the
rest of the module as written. A fact the checker cannot take as data is parsed by
lark after all (:func:`FactTable.rules`), so its diagnostics are the grammar's.
"""
from __future__ import annotations

import re
from collections import Counter

# Relations with fewer candidate lines keep their facts as rules.
MIN_FACTS = 64

_NAME = r"(?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Z][A-Za-z0-9_]*"
# a whole line `Rel(...).`; the arguments are tokenized by _TOKEN afterwards
_LINE = re.compile(r"^[ \r]*(" + _NAME + r")\(([^\n]*)\)\.[ \r]*$", re.M)
# one token of a fact's arguments, as groups: int, string, name, true/false,
# punctuation, and anything else (which makes the line the grammar's)
_TOKEN = re.compile(r"""\s*(?:
    (-?[0-9]+)(?![0-9A-Za-z_.'])
  | ("(?:[^"\\\n$]|\\[\\"nt])*")
  | (""" + _NAME + r""")
  | (true|false)(?![A-Za-z0-9_])
  | ([(){},])
  | (\S)
)""", re.X)
_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t"}
_ESCAPE = re.compile(r"\\[\\\"nt]")
# what the code before a fact line may end with (see the module docs)
_ENDS_STATEMENT = re.compile(r"[.)}>\"A-Za-z0-9_]")
# what changes the bracket depth, skipping string literals (raw ones may span lines)
_SCAN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\[\||[(){}\[\]]')


class Ctor:
    """A constructor application read from a fact: ``name{args}`` or a bare ``name``."""

    __slots__ = ("name", "args")

    def __init__(self, name: str, args: tuple):
        self.name, self.args = name, args

    def __eq__(self, other) -> bool:
        return isinstance(other, Ctor) and (self.name, self.args) == (other.name, other.args)

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __repr__(self) -> str:
        return f"{self.name}{{{', '.join(map(repr, self.args))}}}"


class Tup(tuple):
    """A tuple literal ``(a, b)`` read from a fact (apart from a row's own tuple)."""

    __slots__ = ()


def extract_facts(text: str) -> tuple[str, dict[str, list[tuple[tuple, int, int]]]]:
    """``text`` (comments blanked) with its fact lines blanked, and those facts by
    relation name as written: ``(values, start offset, end offset)`` in source order.
    Values are ints, strs, bools, :class:`Ctor` and :class:`Tup`."""
    lines = list(_LINE.finditer(text))
    counts = Counter(m.group(1) for m in lines)
    wanted = {name for name, k in counts.items() if k >= MIN_FACTS}
    if not wanted:
        return text, {}
    return _extract(text, lines, wanted)


def _extract(text: str, lines: list, wanted: set[str]):
    """:func:`extract_facts` past the count of candidate lines by relation."""
    found: dict[str, list] = {}
    pieces: list[str] = []
    depth, last, pos, kept = 0, "", 0, 0  # scanned up to pos; text copied up to kept
    for m in lines:
        if m.start() < pos:  # inside a raw string scanned past
            continue
        depth, last, pos = _scan(text, pos, m.start(), depth, last)
        if pos > m.start() or m.group(1) not in wanted or depth != 0 or \
                (last and not _ENDS_STATEMENT.match(last)):
            continue
        values = _values(m.group(2))
        if values is None:
            continue
        found.setdefault(m.group(1), []).append((values, m.start(1), m.end()))
        pieces += [text[kept:m.start()], " " * (m.end() - m.start())]
        kept = pos = m.end()
        last = "."
    pieces.append(text[kept:])
    return "".join(pieces), found


def _scan(text: str, start: int, end: int, depth: int, last: str) -> tuple[int, str, int]:
    """Bracket depth and last significant character after ``text[start:end]``, and
    where scanning stopped (past ``end`` when a raw string ``[| ... |]`` spans it)."""
    chunk = text[start:end]
    stripped = chunk.rstrip()
    if not stripped:  # between two fact lines: a newline
        return depth, last, end
    last = stripped[-1]
    if _SCAN.search(chunk) is None:
        return depth, last, end
    for m in _SCAN.finditer(text, start, end):
        tok = m.group(0)
        if tok == "[|":
            close = text.find("|]", m.end())
            stop = len(text) if close < 0 else close + 2
            if stop > end:  # the raw string goes on past the fact line
                return depth, "\"", stop
            # the rest of the chunk after the raw string
            return _scan(text, stop, end, depth, "\"")
        if tok in "({[":
            depth += 1
        elif tok in ")}]":
            depth -= 1
    return depth, last, end


def _values(args: str):
    """The literal values of a fact's argument text, or None if it is anything else.

    One loop over the tokens with a stack of the open constructors and tuples (a
    recursive descent cost several times as much per fact)."""
    frames: list = []  # (values so far, constructor name or None for a tuple, closer)
    out: list = []
    want_value, bare = True, False  # bare: the last value is a name `{` may follow
    for num, text, name, word, punct, bad in _TOKEN.findall(args):
        if want_value and not punct:
            if num:
                out.append(int(num))
            elif text:
                out.append(_string(text))
            elif word:
                out.append(word == "true")
            elif name:
                out.append(Ctor(name, ()))
            else:  # something that is no literal
                return None
            want_value, bare = False, bool(name)
        elif punct == ",":
            if want_value:
                return None
            want_value, bare = True, False
        elif punct == "{" and bare:
            frames.append((out, out.pop().name, "}"))
            out, want_value, bare = [], True, False
        elif punct == "(" and want_value:
            frames.append((out, None, ")"))
            out, bare = [], False
        elif frames and punct == frames[-1][2]:
            outer, ctor, _ = frames.pop()
            if ctor is None and len(out) < 2:  # `(x)` is x, `()` the unit: the grammar's
                return None
            outer.append(Ctor(ctor, tuple(out)) if ctor is not None else Tup(out))
            out, want_value, bare = outer, False, False
        else:
            return None
    return None if frames else tuple(out)


def _string(text: str) -> str:
    body = text[1:-1]
    return _ESCAPE.sub(lambda e: _ESCAPES[e.group(0)], body) if "\\" in body else body
