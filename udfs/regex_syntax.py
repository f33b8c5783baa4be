"""Rust ``regex`` crate patterns read and rewritten for the PyPI ``regex`` module.

The crate's syntax differs from Python's in ways that change results, so a pattern is
parsed here by the crate's grammar and written out again with every construct spelled
so that the ``regex`` module (version 1 mode, simple case folding) means the same:

* ``\\d \\s \\w`` and ``\\b \\B`` are Unicode (``\\p{Nd}``, ``\\p{White_Space}``, the
  crate's word class), ASCII under ``(?-u)``;
* ``^``/``$`` are the text's ends unless ``m`` is on (Python's ``$`` would also match
  before a final newline), ``.`` excludes only ``\\n`` unless ``s`` is on;
* flags (``i m s U u x``) are scoped as in the crate, ``U`` swaps greediness;
* classes nest and take ``&&``, ``--``, ``~~`` and ``[:ascii:]`` names;
* octal escapes are backreferences and look-around is unsupported: both are errors,
  as is every other pattern the crate rejects, with the crate's message
  (:class:`RustRegexError`): ``regex parse error:``, the pattern with carets under the
  faulty span, and ``error: ...``.
"""
from __future__ import annotations

from dataclasses import dataclass

# The crate's word characters (its \w): Alphabetic, marks, decimal digits, connector
# punctuation and joiners.
WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}"
_PERL = {"d": (r"\p{Nd}", "0-9"), "s": (r"\p{White_Space}", r"\t\n\x0B\f\r "),
         "w": (WORD, "0-9A-Za-z_")}
_ASCII = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": r"\x00-\x7F",
          "blank": r"\t ", "cntrl": r"\x00-\x1F\x7F", "digit": "0-9", "graph": "!-~",
          "lower": "a-z", "print": " -~", "punct": r"!-/:-@\[-`{-~",
          "space": r"\t\n\x0B\f\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
          "xdigit": "0-9A-Fa-f"}
_META = set("\\.+*?()|[]{}^$#&-~")
_SPECIAL = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
_FLAGS = "imsUux"


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
class _Flags:
    """The flags in force at one point of the pattern."""

    i: bool = False
    m: bool = False
    s: bool = False
    U: bool = False
    u: bool = True
    x: bool = False

    def copy(self) -> "_Flags":
        return _Flags(self.i, self.m, self.s, self.U, self.u, self.x)


class Translator:
    """One pattern, read once by :meth:`translate`."""

    def __init__(self, pattern: str):
        self.text = pattern
        self.i = 0  # index in characters
        self.line, self.col = 1, 1
        self.offset = 0
        self.names: dict[str, tuple[Pos, Pos]] = {}

    # ------------------------------------------------------------ reading
    def pos(self) -> Pos:
        return Pos(self.offset, self.line, self.col)

    def eof(self) -> bool:
        return self.i >= len(self.text)

    def char(self) -> str:
        return self.text[self.i]

    def peek(self, k: int = 1) -> str | None:
        return self.text[self.i + k] if self.i + k < len(self.text) else None

    def char_end(self) -> Pos:
        """The position just after the current character."""
        c = self.char()
        if c == "\n":
            return Pos(self.offset + 1, self.line + 1, 1)
        return Pos(self.offset + len(c.encode()), self.line, self.col + 1)

    def bump(self) -> bool:
        """Step over one character; whether one is left."""
        if self.eof():
            return False
        end = self.char_end()
        self.offset, self.line, self.col = end.offset, end.line, end.column
        self.i += 1
        return not self.eof()

    def bump_if(self, prefix: str) -> bool:
        if self.text.startswith(prefix, self.i):
            for _ in prefix:
                self.bump()
            return True
        return False

    def skip_space(self, flags: _Flags) -> None:
        """Whitespace and ``#`` comments, which ``x`` mode ignores."""
        while flags.x and not self.eof():
            if self.char().isspace():
                self.bump()
            elif self.char() == "#":
                while self.bump() and self.char() != "\n":
                    pass
                self.bump()
            else:
                break

    def bump_and_skip(self, flags: _Flags) -> bool:
        if not self.bump():
            return False
        self.skip_space(flags)
        return not self.eof()

    def fail(self, start: Pos, end: Pos | None, what: str) -> RustRegexError:
        return RustRegexError(self.text, start, end or start, what)

    def fail_here(self, what: str) -> RustRegexError:
        """An error on the current character."""
        return self.fail(self.pos(), self.char_end(), what)

    # ------------------------------------------------------------ structure
    def translate(self) -> str:
        """The pattern in the ``regex`` module's version-1 syntax."""
        body, closer = self.alternation(_Flags(), None)
        if closer is not None:
            raise self.fail(closer, None, "unopened group")
        return "(?V1-f)" + body

    def alternation(self, flags: _Flags, opened: tuple[Pos, Pos] | None):
        """Branches up to the ``)`` that closes ``opened`` (or the end); returns the
        text and, at a stray ``)``, its position."""
        flags = flags.copy()
        branches, items = [], []
        while True:
            self.skip_space(flags)
            if self.eof():
                if opened is not None:
                    raise self.fail(opened[0], opened[1], "unclosed group")
                break
            c = self.char()
            if c == ")":
                if opened is None:
                    raise self.fail_here("unopened group")
                self.bump()
                break
            if c == "|":
                self.bump()
                branches.append("".join(t or "" for t, _ in items))
                items = []
            elif c == "(":
                items.append(self.group(flags))
            elif c in "?*+{":
                self.repetition(items, flags)
            elif c == "[":
                start = self.pos()
                items.append((self.bracketed(flags), start))
            else:
                items.append((self.primitive(flags), self.pos()))
        branches.append("".join(t or "" for t, _ in items))
        return "|".join(branches), None

    def group(self, flags: _Flags):
        """A group, or flags set for the rest of the enclosing group (then None is
        returned and ``flags`` changed in place)."""
        start, after_paren = self.pos(), self.char_end()
        self.bump()
        self.skip_space(flags)
        for look in ("?=", "?!", "?<=", "?<!"):
            if self.bump_if(look):
                raise self.fail(start, self.pos(),
                                "look-around, including look-ahead and look-behind, "
                                "is not supported")
        inner_start = self.pos()
        opened = (start, after_paren)
        if self.bump_if("?P<"):
            self.capture_name()  # names matter to captures, which the library has not
            body, _ = self.alternation(flags, opened)
            return f"({body})", start
        if self.bump_if("?"):
            if self.eof():
                raise self.fail(start, after_paren, "unclosed group")
            new = self.read_flags(flags)
            end_char = self.char()
            self.bump()
            if end_char == ")":
                if new is None:
                    raise self.fail(inner_start, None, "repetition operator missing expression")
                flags.__dict__.update(new.__dict__)
                return None, start  # no text, and nothing a repetition may apply to
            body, _ = self.alternation(new or flags, opened)
            return f"(?:{body})", start
        body, _ = self.alternation(flags, opened)
        return f"({body})", start

    def capture_name(self) -> str:
        if self.eof():
            raise self.fail(self.pos(), None, "unclosed capture group name")
        start = self.pos()
        first = True
        while self.char() != ">":
            c = self.char()
            ok = c == "_" or ("A" <= c <= "Z") or ("a" <= c <= "z") or \
                (not first and (c.isdigit() and c.isascii() or c in ".[]"))
            if not ok:
                raise self.fail_here("invalid capture group character")
            first = False
            if not self.bump():
                break
        end = self.pos()
        if self.eof():
            raise self.fail(self.pos(), None, "unclosed capture group name")
        self.bump()
        name = self.text.encode()[start.offset:end.offset].decode()
        if not name:
            raise self.fail(start, start, "empty capture group name")
        if name in self.names:
            raise RustRegexError(self.text, start, end, "duplicate capture group name")
        self.names[name] = (start, end)
        return name

    def read_flags(self, flags: _Flags) -> _Flags | None:
        """``imsUux`` with an optional ``-`` up to ``:`` or ``)``; None if empty."""
        new, negate, seen, dash, count = flags.copy(), False, {}, None, 0
        while self.char() not in ":)":
            here = (self.pos(), self.char_end())
            if self.char() == "-":
                if dash is not None:
                    raise RustRegexError(self.text, *here, "flag negation operator repeated")
                dash, negate = here, True
                last_negation = True
            else:
                c = self.char()
                if c not in _FLAGS:
                    raise self.fail_here("unrecognized flag")
                if c in seen:
                    raise RustRegexError(self.text, *here, "duplicate flag")
                seen[c] = here
                setattr(new, c, not negate)
                last_negation = False
                count += 1
            if not self.bump():
                raise self.fail(self.pos(), None, "expected flag but got end of regex")
        if dash is not None and last_negation:
            raise RustRegexError(self.text, *dash, "dangling flag negation operator")
        return new if count or dash else None

    def repetition(self, items: list, flags: _Flags) -> None:
        """Apply ``? * + {..}`` (with a lazy ``?``) to the last item."""
        op_start = self.pos()
        if not items or items[-1][0] is None:
            raise self.fail(op_start, None, "repetition operator missing expression")
        lazy = False
        if self.char() == "{":
            low, high = self.counted(op_start, flags)
            if not self.eof() and self.char() == "?":
                lazy = True
                self.bump()
            if high is not None and low > high:
                raise self.fail(op_start, self.pos(),
                                "invalid repetition count range, the start must be <= the end")
            op = f"{{{low}}}" if high == low else f"{{{low},{'' if high is None else high}}}"
        else:
            op = self.char()
            if self.bump() and self.char() == "?":
                lazy = True
                self.bump()
        if flags.U:
            lazy = not lazy
        text, start = items.pop()
        items.append((f"(?:{text}){op}{'?' if lazy else ''}", start))

    def counted(self, start: Pos, flags: _Flags) -> tuple[int, int | None]:
        """The bounds of ``{n}``, ``{n,}`` or ``{n,m}`` (None: no upper bound)."""
        unclosed = "unclosed counted repetition"
        if not self.bump_and_skip(flags):
            raise self.fail(start, self.pos(), unclosed)
        low = self.decimal(flags)
        if self.eof():
            raise self.fail(start, self.pos(), unclosed)
        high: int | None = low
        if self.char() == ",":
            if not self.bump_and_skip(flags):
                raise self.fail(start, self.pos(), unclosed)
            high = None if self.char() == "}" else self.decimal(flags)
        if self.eof() or self.char() != "}":
            raise self.fail(start, self.pos(), unclosed)
        self.bump()
        self.skip_space(flags)
        return low, high

    def decimal(self, flags: _Flags) -> int:
        while not self.eof() and self.char().isspace():
            self.bump()
        start, digits = self.pos(), ""
        while not self.eof() and "0" <= self.char() <= "9":
            digits += self.char()
            self.bump_and_skip(flags)
        end = self.pos()
        while not self.eof() and self.char().isspace():
            self.bump_and_skip(flags)
        if not digits:
            raise self.fail(start, end, "repetition quantifier expects a valid decimal")
        if int(digits) > 0xFFFFFFFF:
            raise self.fail(start, end, "decimal literal invalid")
        return int(digits)

    # ------------------------------------------------------------ atoms
    def primitive(self, flags: _Flags) -> str:
        c = self.char()
        if c == "\\":
            return self.escape(flags, in_class=False)
        here = (self.pos(), self.char_end())
        self.bump()
        if c == ".":
            if not flags.u:
                raise RustRegexError(self.text, *here, "pattern can match invalid UTF-8")
            return r"[\s\S]" if flags.s else r"[^\n]"
        if c == "^":
            return "(?m:^)" if flags.m else r"\A"
        if c == "$":
            return "(?m:$)" if flags.m else r"\Z"
        return self.literal(c, flags, here)

    def literal(self, c: str, flags: _Flags, span: tuple[Pos, Pos]) -> str:
        if not flags.u and ord(c) > 0x7F:
            raise RustRegexError(self.text, *span, "Unicode not allowed here")
        lit = _escape_char(c)
        return f"(?i:{lit})" if flags.i else lit

    def escape(self, flags: _Flags, in_class: bool) -> str:
        """An escape after ``\\``: in a class, only what denotes characters."""
        start = self.pos()
        if not self.bump():
            raise self.fail(start, self.pos(),
                            "incomplete escape sequence, reached end of pattern prematurely")
        c = self.char()
        if c in "0123456789":
            raise self.fail(start, self.char_end(), "backreferences are not supported")
        if c in "xuU":
            return self.hex(c, start, flags)
        if c in "pP":
            return self.unicode_class(start, flags)
        if c in "dswDSW":
            end = self.char_end()
            self.bump()
            if not flags.u and c in "dswDSW":
                inner = _PERL[c.lower()][1]
            else:
                inner = _PERL[c.lower()][0]
            return self.class_item(inner, c.isupper(), in_class, (start, end))
        self.bump()
        span = (start, self.pos())
        if c in _META:
            return self.literal(c, flags, span) if not in_class else _escape_char(c)
        if c in _SPECIAL:
            return _escape_char(_SPECIAL[c])
        if c == " " and flags.x:
            return " " if in_class else r"\ "
        if not in_class and c in "AzbB":
            if c == "A":
                return r"\A"
            if c == "z":
                return r"\Z"
            word = WORD if flags.u else _PERL["w"][1]
            boundary = f"(?:(?<=[{word}])(?![{word}])|(?<![{word}])(?=[{word}]))"
            if c == "b":
                return boundary
            return f"(?:(?<=[{word}])(?=[{word}])|(?<![{word}])(?![{word}]))"
        raise RustRegexError(self.text, *span, "invalid escape sequence found in character class"
                             if in_class and c in "AzbB" else "unrecognized escape sequence")

    def class_item(self, inner: str, negated: bool, in_class: bool, span) -> str:
        """A set of characters: bracketed alone, or bare inside a class."""
        if negated:
            return f"[^{inner}]"
        return inner if in_class else f"[{inner}]"

    def hex(self, kind: str, start: Pos, flags: _Flags) -> str:
        digits = {"x": 2, "u": 4, "U": 8}[kind]
        eof = "incomplete escape sequence, reached end of pattern prematurely"
        if not self.bump_and_skip(flags):
            raise self.fail(self.pos(), None, eof)
        if self.char() == "{":
            brace, first = self.pos(), self.char_end()
            text = ""
            while self.bump_and_skip(flags) and self.char() != "}":
                if self.char() not in "0123456789abcdefABCDEF":
                    raise self.fail_here("invalid hexadecimal digit")
                text += self.char()
            if self.eof():
                raise self.fail(brace, self.pos(), eof)
            last = self.pos()
            self.bump_and_skip(flags)
            if not text:
                raise self.fail(brace, self.pos(), "hexadecimal literal empty")
            span = (first, last)
        else:
            first, text = self.pos(), ""
            for k in range(digits):
                if k and not self.bump_and_skip(flags):
                    raise self.fail(self.pos(), None, eof)
                if self.char() not in "0123456789abcdefABCDEF":
                    raise self.fail_here("invalid hexadecimal digit")
                text += self.char()
            self.bump_and_skip(flags)
            span = (first, self.pos())
        value = int(text, 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            raise RustRegexError(self.text, *span,
                                 "hexadecimal literal is not a Unicode scalar value")
        if not flags.u and value > 0x7F:
            raise RustRegexError(self.text, start, span[1], "pattern can match invalid UTF-8")
        lit = _escape_char(chr(value))
        return f"(?i:{lit})" if flags.i else lit

    def unicode_class(self, start: Pos, flags: _Flags, in_class: bool = False) -> str:
        negated = self.char() == "P"
        eof = "incomplete escape sequence, reached end of pattern prematurely"
        if not self.bump_and_skip(flags):
            raise self.fail(self.pos(), None, eof)
        if self.char() == "{":
            name = ""
            while self.bump_and_skip(flags) and self.char() != "}":
                name += self.char()
            if self.eof():
                raise self.fail(self.pos(), None, eof)
            self.bump()
        else:
            if self.char() == "\\":
                raise self.fail_here("invalid Unicode character class")
            name = self.char()
            self.bump_and_skip(flags)
        span = (start, self.pos())
        if not flags.u:
            raise RustRegexError(self.text, *span, "Unicode not allowed here")
        for op in ("!=", ":", "="):
            if op in name:
                key, value = name.split(op, 1)
                negated ^= op == "!="
                name = f"{key.strip()}={value.strip()}"
                break
        inner = _property(name, self.text, span)
        return self.class_item(inner, negated, False, span)

    # ------------------------------------------------------------ classes
    def bracketed(self, flags: _Flags) -> str:
        """``[...]``, nested classes and set operations included."""
        text = self.class_set(flags, outer=self.pos())
        return f"(?i:{text})" if flags.i else text

    def class_set(self, flags: _Flags, outer: Pos) -> str:
        start = self.pos()
        unclosed = "unclosed character class"
        if not self.bump_and_skip(flags):
            raise self.fail(start, self.pos(), unclosed)
        negated = False
        if self.char() == "^":
            negated = True
            if not self.bump_and_skip(flags):
                raise self.fail(start, self.pos(), unclosed)
        open_span = (start, self.pos())
        items: list[str] = []
        while self.char() == "-":
            items.append(r"\-")
            if not self.bump_and_skip(flags):
                raise self.fail(start, self.pos(), unclosed)
        if not items and self.char() == "]":
            items.append(r"\]")
            if not self.bump_and_skip(flags):
                raise self.fail(start, self.pos(), unclosed)
        open_span = (start, self.pos())
        parts: list[tuple[str, str]] = []  # operands, each with the operator after it
        while True:
            self.skip_space(flags)
            if self.eof():
                raise RustRegexError(self.text, *open_span, unclosed)
            c = self.char()
            if c == "[":
                ascii_class = self.ascii_class()
                if ascii_class is not None:
                    items.append(ascii_class)
                else:
                    items.append(self.class_set(flags, outer))
            elif c == "]":
                self.bump()
                body = _combine(parts, "".join(items))
                if not flags.u and negated:
                    raise RustRegexError(self.text, start, self.pos(),
                                         "pattern can match invalid UTF-8")
                return f"[{'^' if negated else ''}{body}]"
            elif c in "&-~" and self.peek() == c:
                self.bump()
                self.bump()
                parts.append(("".join(items), c * 2))
                items = []
            else:
                items.append(self.class_range(flags, open_span))

    def class_range(self, flags: _Flags, open_span) -> str:
        first_start = self.pos()
        low, low_char = self.class_atom(flags)
        self.skip_space(flags)
        if self.eof():
            raise RustRegexError(self.text, *open_span, "unclosed character class")
        if self.char() != "-" or self._peek_space(flags) in ("]", "-"):
            return low
        if not self.bump_and_skip(flags):
            raise RustRegexError(self.text, *open_span, "unclosed character class")
        second_start = self.pos()
        high, high_char = self.class_atom(flags)
        for ch, begin in ((low_char, first_start), (high_char, second_start)):
            if ch is None:
                raise self.fail(begin, self.pos() if begin is second_start else second_start,
                                "invalid range boundary, must be a literal")
        if low_char > high_char:
            raise self.fail(first_start, self.pos(),
                            "invalid character class range, the start must be <= the end")
        return f"{_escape_char(low_char)}-{_escape_char(high_char)}"

    def _peek_space(self, flags: _Flags) -> str | None:
        k = self.i + 1
        in_comment = False
        while flags.x and k < len(self.text):
            ch = self.text[k]
            if ch.isspace() or (in_comment and ch != "\n"):
                k += 1
            elif ch == "#":
                in_comment = True
                k += 1
            elif in_comment:
                in_comment = False
                k += 1
            else:
                break
        return self.text[k] if k < len(self.text) else None

    def class_atom(self, flags: _Flags) -> tuple[str, str | None]:
        """One class member: its text, and the character when it is one."""
        if self.char() != "\\":
            c = self.char()
            if not flags.u and ord(c) > 0x7F:
                raise self.fail_here("Unicode not allowed here")
            self.bump()
            return _escape_char(c), c
        before = self.i
        text = self.escape(flags, in_class=True)
        raw = self.text[before:self.i]
        if raw[1:2] in ("x", "u", "U") or raw[1:2] in _META or raw[1:2] in _SPECIAL or \
                raw[1:] == " ":
            return text, _unescape(text)
        return text, None

    def ascii_class(self) -> str | None:
        """``[:name:]`` or ``[:^name:]`` at the current ``[``, else None (unread)."""
        end = self.text.find(":]", self.i + 2)
        if not self.text.startswith("[:", self.i) or end < 0:
            return None
        name = self.text[self.i + 2:end]
        negated = name.startswith("^")
        if negated:
            name = name[1:]
        if name not in _ASCII:
            return None
        for _ in range(end + 2 - self.i):
            self.bump()
        return f"[^{_ASCII[name]}]" if negated else _ASCII[name]


def _combine(parts: list[tuple[str, str]], last: str) -> str:
    """A class's operands joined by their set operators, from the left (the crate
    gives ``&&``, ``--`` and ``~~`` one precedence, the regex module does not)."""
    if not parts:
        return last
    text = _nested(parts[0][0])
    for (_, op), (operand, _) in zip(parts, parts[1:] + [(last, "")]):
        text = f"[{text}{op}{_nested(operand)}]"
    return text


def _nested(members: str) -> str:
    """Class members as one nested class (an empty one matches nothing)."""
    return f"[{members}]" if members else r"[^\s\S]"


def _escape_char(c: str) -> str:
    """``c`` as a literal that means itself both in and out of a class."""
    if c.isalnum() or c == "_" or (ord(c) > 0x7F and c.isprintable() and not c.isspace()):
        return c
    return f"\\U{ord(c):08x}"


def _unescape(text: str) -> str:
    """The character a :func:`_escape_char` text stands for."""
    if text.startswith("\\U"):
        return chr(int(text[2:], 16))
    return text[-1]


_PROPERTY_CACHE: dict[str, str | None] = {}


def _compiles(prop: str) -> bool:
    import regex as module

    try:
        module.compile(f"\\p{{{prop}}}")
        return True
    except module.error:
        return False


def _property(name: str, pattern: str, span) -> str:
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


def translate(pattern: str) -> str:
    """``pattern`` (the crate's syntax) for the ``regex`` module, or raises
    :class:`RustRegexError` with the crate's message."""
    return Translator(pattern).translate()
