"""JSON text as Rust's serde_json reads and writes it: a parser whose syntax errors
carry serde_json's messages and ``line L column C`` positions, and the printer of a
plain tree (compact, serde_json's string escapes, floats printed the way its ``ryu``
does). The typed mapping between DDlog values and trees is :mod:`dl2sql.udfs.lib_json`.

Trees: ``None``, ``bool``, ``int``, :class:`Float`, ``str``, ``list`` and :class:`Obj`
(entries in order). Parsed trees are :class:`Node` s, which also remember where the
value ends in the text, for the positions of errors found later while typing them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from dl2sql.runtime.printing import format_double, format_float


@dataclass(frozen=True, slots=True)
class Float:
    """A floating-point number; ``single`` for an ``f32`` (printed with f32 digits)."""

    value: float
    single: bool = False


@dataclass(frozen=True, slots=True)
class Obj:
    """A JSON object: ``(key, value)`` entries in order."""

    entries: tuple


@dataclass(frozen=True, slots=True)
class Node:
    """A parsed value: ``kind`` (``null bool int float str arr obj``), its content
    (``arr``: a tuple of nodes; ``obj``: a tuple of ``(key, node)``) and the index
    just after it in the text (``None`` for values not read from text)."""

    kind: str
    value: object
    end: int | None = None


class JsonError(Exception):
    """A serde_json error: its message and the text index it is reported at."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.message = message
        self.index = index

    def render(self, text: str | None) -> str:
        """The message as serde_json prints it (``... at line 1 column 5``)."""
        if self.index is None or text is None:
            return self.message
        # serde_json counts bytes: the column is the byte count up to the index
        before = text[:self.index]
        line = before.count("\n") + 1
        column = len(before[before.rfind("\n") + 1:].encode("utf-8"))
        return f"{self.message} at line {line} column {column}"


_WS = " \t\n\r"
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
            "r": "\r", "t": "\t"}


class _Parser:
    """Recursive descent over the text; ``i`` is the index of the next character."""

    def __init__(self, text: str):
        self.s = text
        self.i = 0

    def peek_error(self, message: str) -> JsonError:
        # serde_json reports most syntax errors at the character it looked at
        return JsonError(message, min(self.i + 1, len(self.s)))

    def skip_ws(self) -> str | None:
        s, i = self.s, self.i
        while i < len(s) and s[i] in _WS:
            i += 1
        self.i = i
        return s[i] if i < len(s) else None

    def value(self) -> Node:
        c = self.skip_ws()
        if c is None:
            raise self.peek_error("EOF while parsing a value")
        if c == "n":
            return self.ident("null", Node("null", None))
        if c == "t":
            return self.ident("true", Node("bool", True))
        if c == "f":
            return self.ident("false", Node("bool", False))
        if c == '"':
            self.i += 1
            text = self.string()
            return Node("str", text, self.i)
        if c == "-" or c.isdigit() and c.isascii():
            return self.number()
        if c == "[":
            return self.array()
        if c == "{":
            return self.object()
        raise self.peek_error("expected value")

    def ident(self, word: str, node: Node) -> Node:
        self.i += 1
        for ch in word[1:]:
            if self.i >= len(self.s):
                raise self.peek_error("EOF while parsing a value")
            if self.s[self.i] != ch:
                raise self.peek_error("expected ident")
            self.i += 1
        return Node(node.kind, node.value, self.i)

    def number(self) -> Node:
        s, start = self.s, self.i
        i = start + (s[start] == "-")
        digits = i
        while i < len(s) and "0" <= s[i] <= "9":
            i += 1
        if i == digits:
            self.i = i
            raise self.peek_error("EOF while parsing a value" if i >= len(s)
                                  else "invalid number")
        if s[digits] == "0" and i - digits > 1:
            self.i = digits + 1
            raise self.peek_error("invalid number")
        is_float = False
        if i < len(s) and s[i] == ".":
            is_float, j = True, i + 1
            while j < len(s) and "0" <= s[j] <= "9":
                j += 1
            if j == i + 1:
                self.i = j
                raise self.peek_error("EOF while parsing a value" if j >= len(s)
                                      else "invalid number")
            i = j
        if i < len(s) and s[i] in "eE":
            is_float, j = True, i + 1
            if j < len(s) and s[j] in "+-":
                j += 1
            k = j
            while k < len(s) and "0" <= s[k] <= "9":
                k += 1
            if k == j:
                self.i = k
                raise self.peek_error("EOF while parsing a value" if k >= len(s)
                                      else "invalid number")
            i = k
        self.i = i
        text = s[start:i]
        if not is_float:
            n = int(text)
            # integers beyond u64/i64 are read as floats, as serde_json does
            if -(1 << 63) <= n < (1 << 64):
                return Node("int", n, i)
        x = float(text)
        if math.isinf(x):
            raise JsonError("number out of range", i)
        return Node("float", x, i)

    def string(self) -> str:
        s, out = self.s, []
        while True:
            j = self.i
            while j < len(s) and s[j] not in '"\\' and s[j] >= " ":
                j += 1
            out.append(s[self.i:j])
            self.i = j
            if j >= len(s):
                raise self.peek_error("EOF while parsing a string")
            c = s[j]
            if c == '"':
                self.i = j + 1
                return "".join(out)
            if c != "\\":
                raise JsonError("control character (\\u0000-\\u001F) found while "
                                "parsing a string", j + 1)
            self.i = j + 1
            if self.i >= len(s):
                raise self.peek_error("EOF while parsing a string")
            e = s[self.i]
            self.i += 1
            if e in _ESCAPES:
                out.append(_ESCAPES[e])
            elif e == "u":
                out.append(self.unicode_escape())
            else:
                raise JsonError("invalid escape", self.i)

    def hex4(self) -> int:
        h = self.s[self.i:self.i + 4]
        for k, ch in enumerate(h):
            if ch not in "0123456789abcdefABCDEF":
                self.i += k + 1
                raise JsonError("invalid escape", self.i)
        if len(h) < 4:
            self.i = len(self.s)
            raise self.peek_error("EOF while parsing a string")
        self.i += 4
        return int(h, 16)

    def unicode_escape(self) -> str:
        n = self.hex4()
        if 0xDC00 <= n <= 0xDFFF:
            raise JsonError("lone leading surrogate in hex escape", self.i)
        if not 0xD800 <= n <= 0xDBFF:
            return chr(n)
        if self.s[self.i:self.i + 2] != "\\u":
            raise JsonError("unexpected end of hex escape", min(self.i + 1, len(self.s)))
        self.i += 2
        low = self.hex4()
        if not 0xDC00 <= low <= 0xDFFF:
            raise JsonError("lone leading surrogate in hex escape", self.i)
        return chr(0x10000 + ((n - 0xD800) << 10) + (low - 0xDC00))

    def array(self) -> Node:
        self.i += 1
        items = []
        if self.skip_ws() == "]":
            self.i += 1
            return Node("arr", (), self.i)
        while True:
            items.append(self.value())
            c = self.skip_ws()
            if c == ",":
                self.i += 1
                if self.skip_ws() == "]":
                    raise self.peek_error("trailing comma")
            elif c == "]":
                self.i += 1
                return Node("arr", tuple(items), self.i)
            elif c is None:
                raise self.peek_error("EOF while parsing a list")
            else:
                raise self.peek_error("expected `,` or `]`")

    def object(self) -> Node:
        self.i += 1
        entries = []
        c = self.skip_ws()
        if c == "}":
            self.i += 1
            return Node("obj", (), self.i)
        while True:
            if c is None:
                raise self.peek_error("EOF while parsing an object")
            if c != '"':
                raise self.peek_error("key must be a string")
            self.i += 1
            key = self.string()
            c = self.skip_ws()
            if c != ":":
                raise self.peek_error("EOF while parsing an object" if c is None
                                      else "expected `:`")
            self.i += 1
            entries.append((key, self.value()))
            c = self.skip_ws()
            if c == ",":
                self.i += 1
                c = self.skip_ws()
                if c == "}":
                    raise self.peek_error("trailing comma")
            elif c == "}":
                self.i += 1
                return Node("obj", tuple(entries), self.i)
            elif c is None:
                raise self.peek_error("EOF while parsing an object")
            else:
                raise self.peek_error("expected `,` or `}`")


def parse(text: str) -> Node:
    """The JSON value of ``text`` (raises :class:`JsonError`, serde_json's syntax
    errors, including characters after the value)."""
    p = _Parser(text)
    node = p.value()
    if p.skip_ws() is not None:
        raise p.peek_error("trailing characters")
    return node


# ------------------------------------------------------------------ printing
def quote(s: str) -> str:
    """A JSON string literal with serde_json's escapes: ``\\"``, ``\\\\``, the short
    escapes of ``\\b \\f \\n \\r \\t``, ``\\u00XX`` (lower-case hex) for other control
    characters; everything else, non-ASCII included, is written as is."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch < " ":
            short = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
            out.append(short.get(ch) or f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def format_ryu(x: float, single: bool = False) -> str:
    """A finite float as serde_json prints it (the ``ryu`` crate): the shortest
    round-trip digits, as a plain decimal with at least one fractional digit while
    the number has at most 16 integer digits and is at least 1e-5, else in scientific
    notation without ``+`` (``1e16``, ``1.5e-7``)."""
    plain = format_float(x) if single else format_double(x)
    d = Decimal(plain)
    sign, digits, exp = d.as_tuple()
    prefix = "-" if sign else ""
    if not any(digits):
        return prefix + "0.0"
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    exp += len("".join(map(str, digits))) - len(ds)
    kk = len(ds) + exp  # 10^(kk-1) <= |x| < 10^kk
    if 0 <= exp and kk <= 16:
        return f"{prefix}{ds}{'0' * exp}.0"
    if 0 < kk <= 16:
        return f"{prefix}{ds[:kk]}.{ds[kk:]}"
    if -5 < kk <= 0:
        return f"{prefix}0.{'0' * -kk}{ds}"
    mantissa = ds if len(ds) == 1 else f"{ds[0]}.{ds[1:]}"
    return f"{prefix}{mantissa}e{kk - 1}"


def dump(tree) -> str:
    """The compact JSON text of a tree (non-finite floats print as ``null``, as
    serde_json writes them)."""
    out: list[str] = []
    _dump(tree, out)
    return "".join(out)


def _dump(t, out: list) -> None:
    if t is None:
        out.append("null")
    elif t is True or t is False:
        out.append("true" if t else "false")
    elif isinstance(t, int):
        out.append(str(t))
    elif isinstance(t, Float):
        finite = not (math.isnan(t.value) or math.isinf(t.value))
        out.append(format_ryu(t.value, t.single) if finite else "null")
    elif isinstance(t, str):
        out.append(quote(t))
    elif isinstance(t, list):
        out.append("[")
        for k, x in enumerate(t):
            if k:
                out.append(",")
            _dump(x, out)
        out.append("]")
    else:
        out.append("{")
        for k, (key, x) in enumerate(t.entries):
            if k:
                out.append(",")
            out.append(quote(key))
            out.append(":")
            _dump(x, out)
        out.append("}")
