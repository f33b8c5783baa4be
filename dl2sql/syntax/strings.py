"""Decoding of DDlog string literals.

Quoted literals use Haskell escapes (upstream lexes them with Parsec's
``stringLiteral``). Every decoded character remembers the source offset it came
from, so that ``${...}`` interpolations found *after* unescaping can still be given
(approximate) source positions.
"""
from __future__ import annotations

import re

_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
           "v": "\v", "\\": "\\", '"': '"', "'": "'"}

# Longest names first: `\SOH` must win over `\SO`.
_ASCII_NAMES = sorted(
    ["NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT",
     "FF", "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB",
     "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US", "SP", "DEL"],
    key=len, reverse=True)
_ASCII_CODES = {name: (127 if name == "DEL" else 32 if name == "SP" else i)
                for i, name in enumerate(
                    ["NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT",
                     "LF", "VT", "FF", "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3",
                     "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS",
                     "RS", "US", "SP", "DEL"])}

_NUMERIC = {"x": (16, re.compile(r"[0-9a-fA-F]+")), "o": (8, re.compile(r"[0-7]+"))}
_DECIMAL = re.compile(r"[0-9]+")


class StringError(Exception):
    """A malformed escape; ``offset`` is the absolute source offset of the backslash."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


def decode_quoted(body: str, base: int) -> tuple[str, list[int]]:
    """Unescape the text between the quotes of a ``"..."`` literal.

    ``base`` is the source offset of ``body[0]``. Returns the decoded text and, for
    each decoded character, its source offset.
    """
    out: list[str] = []
    offs: list[int] = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(c)
            offs.append(base + i)
            i += 1
            continue
        start = i
        i += 1
        if i >= n:
            raise StringError("unterminated escape sequence", base + start)
        c = body[i]
        if c in _SIMPLE:
            out.append(_SIMPLE[c])
            i += 1
        elif c == "&":
            i += 1
        elif c.isspace():
            j = i
            while j < n and body[j].isspace():
                j += 1
            if j >= n or body[j] != "\\":
                raise StringError("invalid string gap (expected `\\` to close it)",
                                  base + start)
            i = j + 1
            continue
        elif c == "^":
            if i + 1 >= n or not ("@" <= body[i + 1] <= "_"):
                raise StringError("invalid control escape", base + start)
            out.append(chr(ord(body[i + 1]) - 64))
            i += 2
        elif c.isdigit() or c in _NUMERIC:
            radix, pat = (10, _DECIMAL) if c.isdigit() else _NUMERIC[c]
            m = pat.match(body, i if c.isdigit() else i + 1)
            if m is None:
                raise StringError("invalid numeric escape", base + start)
            code = int(m.group(0), radix)
            if code > 0x10FFFF:
                raise StringError("numeric escape out of range", base + start)
            out.append(chr(code))
            i = m.end()
        else:
            for name in _ASCII_NAMES:
                if body.startswith(name, i):
                    out.append(chr(_ASCII_CODES[name]))
                    i += len(name)
                    break
            else:
                raise StringError(f"unknown escape sequence `\\{c}`", base + start)
        offs.append(base + start)
    return "".join(out), offs


def _skip_string(text: str, i: int) -> int:
    """Index after the string literal (quoted or raw) starting at ``text[i]``."""
    if text.startswith("[|", i) or text.startswith("$[|", i):
        end = text.find("|]", i + 2)
        return len(text) if end < 0 else end + 2
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == '"':
            return j + 1
        j += 1
    return j


def split_interpolation(text: str, offs: list[int]):
    """Split decoded ``text`` at ``${...}``.

    Returns ``None`` when there is no interpolation, else a list alternating literal
    pieces ``str`` and ``(expr_text, source_offset)`` pairs, starting and ending with a
    literal piece (possibly empty). Raises :class:`StringError` for an unclosed ``${``.
    """
    if "${" not in text:
        return None
    parts: list = []
    lit_start = 0
    i = 0
    while True:
        k = text.find("${", i)
        if k < 0:
            parts.append(text[lit_start:])
            return parts
        parts.append(text[lit_start:k])
        depth, j = 1, k + 2
        while j < len(text):
            ch = text[j]
            if ch == '"' or text.startswith("[|", j) or text.startswith("$[|", j):
                j = _skip_string(text, j)
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= len(text):
            where = offs[k] if k < len(offs) else (offs[-1] if offs else 0)
            raise StringError("unclosed `${` in string interpolation", where)
        inner_off = offs[k + 2] if k + 2 < len(offs) else offs[k] + 2
        parts.append((text[k + 2:j], inner_off))
        i = lit_start = j + 1
