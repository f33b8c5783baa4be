"""The pieces the translation of Rust regex patterns (:mod:`dl2sql.udfs.regex_syntax`)
is made of: the crate's classes and escapes, positions and the crate's error text,
flags, literal characters, and Unicode property names for the ``regex`` module."""
from __future__ import annotations

import functools
from dataclasses import dataclass

WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}"
PERL = {"d": (r"\p{Nd}", "0-9"), "s": (r"\p{White_Space}", r"\t\n\x0B\f\r "),
         "w": (WORD, "0-9A-Za-z_")}
ASCII_CLASSES = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": r"\x00-\x7F",
          "blank": r"\t ", "cntrl": r"\x00-\x1F\x7F", "digit": "0-9", "graph": "!-~",
          "lower": "a-z", "print": " -~", "punct": r"!-/:-@\[-`{-~",
          "space": r"\t\n\x0B\f\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
          "xdigit": "0-9A-Fa-f"}
META = set("\\.+*?()|[]{}^$#&-~")
SPECIAL = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
FLAG_LETTERS = "imsUux"


@dataclass(frozen=True)
class Pos:
    """A place in the pattern: byte offset, line and (character) column from 1."""

    offset: int
    line: int
    column: int


class RustRegexError(ValueError):
    """An invalid pattern; ``str()`` is the crate's message for it."""

    def __init__(self, pattern: str, start: Pos, end: Pos, what: str):
        super().__init__(_render(pattern, start, end, what))


def _render(pattern: str, start: Pos, end: Pos, what: str) -> str:
    """The crate's error text: the pattern, carets under the span, the error."""
    lines = pattern.split("\n")
    if lines[-1] == "" and len(lines) > 1 and not pattern.endswith("\n"):
        lines.pop()
    if pattern.endswith("\n"):
        lines.pop()
    count = len(lines) + (1 if pattern.endswith("\n") else 0)
    width = 0 if count <= 1 else len(str(count))
    out = ["regex parse error:"]
    if "\n" in pattern:
        out.append("~" * 79)
    for i, line in enumerate(lines, 1):
        out.append((f"{i:>{width}}: " if width else "    ") + line)
        if start.line == end.line == i:
            pad = 4 if not width else width + 2
            out.append(" " * (pad + start.column - 1)
                       + "^" * max(1, end.column - start.column))
    if "\n" in pattern:
        out.append("~" * 79)
        if start.line != end.line:
            out.append(f"on line {start.line} (column {start.column}) through line "
                       f"{end.line} (column {end.column - 1})")
    return "\n".join(out) + f"\nerror: {what}"


@dataclass
class Flags:
    """The flags in force at one point of the pattern."""

    i: bool = False
    m: bool = False
    s: bool = False
    U: bool = False
    u: bool = True
    x: bool = False

    def copy(self) -> "Flags":
        return Flags(self.i, self.m, self.s, self.U, self.u, self.x)


def complement(members: str) -> str:
    """The class of every character but ``members``, spelled as a set difference: the
    regex module mistakes some negated sets (``[^\\p{L}\\P{L}]`` matches everything,
    a negated set nested in a negated set may not compile)."""
    return f"[\\p{{Any}}--[{members}]]"


def escape_char(c: str) -> str:
    """``c`` as a literal that means itself both in and out of a class."""
    if c.isalnum() or c == "_" or (ord(c) > 0x7F and c.isprintable() and not c.isspace()):
        return c
    return f"\\U{ord(c):08x}"


def unescape(text: str) -> str:
    """The character a :func:`escape_char` text stands for."""
    if text.startswith("\\U"):
        return chr(int(text[2:], 16))
    return text[-1]


_PROPERTY_CACHE: dict[str, str | None] = {}


def _compiles(prop: str) -> bool:
    """Whether the regex module knows the property ``prop``."""
    # a Spark worker needs the regex package only for the programs that use the regex
    # library: its import is deferred to the first pattern
    import regex as regex_module
    try:
        regex_module.compile(f"\\p{{{prop}}}")
        return True
    except regex_module.error:
        return False


def unicode_property(name: str, pattern: str, span) -> str:
    """The class members of ``\\p{name}`` for the ``regex`` module. Names match
    loosely (case, spaces, ``_`` and ``-`` ignored) in both; a bare script name means
    its Script_Extensions in the crate (the regex module would take its Script)."""
    name = name.replace(" ", "")
    loose = "".join(ch for ch in name if ch not in "_-").lower()
    if loose == "any":
        return r"\s\S"
    if loose == "ascii":
        return r"\x00-\x7F"
    if loose not in _PROPERTY_CACHE:
        found = None
        if "=" in name:
            found = name if _compiles(name) else None
        elif _compiles(f"gc={name}") or (_compiles(name) and not _compiles(f"scx={name}")):
            found = name
        elif _compiles(f"scx={name}"):
            found = f"scx={name}"
        _PROPERTY_CACHE[loose] = None if found is None else f"\\p{{{found}}}"
    found = _PROPERTY_CACHE[loose]
    if found is None:
        what = "Unicode property value not found" if "=" in name else \
            "Unicode property not found"
        raise RustRegexError(pattern, *span, what)
    return found


@functools.lru_cache(maxsize=1)
def _every_character() -> str:
    """Every Unicode scalar value, once."""
    return "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))


def is_empty_class(text: str) -> bool:
    """Whether the class ``text`` (the regex module's version-1 syntax) has no member,
    which the crate rejects (set operations and negation can empty a class)."""
    # a Spark worker needs the regex package only for the programs that use the regex
    # library: its import is deferred to the first pattern
    import regex as regex_module

    return regex_module.compile("(?V1)" + text).search(_every_character()) is None
