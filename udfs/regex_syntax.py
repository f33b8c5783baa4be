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


# The crate's word characters (its \w): Alphabetic, marks, decimal digits, connector
# punctuation and joiners.

from dl2sql.udfs.regex_classes import ClassReader
from dl2sql.udfs.regex_text import (FLAG_LETTERS, META, PERL, SPECIAL, WORD, Flags, Pos,
                                    RustRegexError, complement, escape_char,
                                    unicode_property)


class Translator(ClassReader):
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

    def skip_space(self, flags: Flags) -> None:
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

    def bump_and_skip(self, flags: Flags) -> bool:
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
        return "(?V1-f)" + self.alternation(Flags(), None)

    def alternation(self, flags: Flags, opened: tuple[Pos, Pos] | None) -> str:
        """Branches up to the ``)`` that closes the group ``opened`` (None: up to the
        end of the pattern, where a ``)`` is an error)."""
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
        return "|".join(branches)

    def group(self, flags: Flags):
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
            body = self.alternation(flags, opened)
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
            body = self.alternation(new or flags, opened)
            return f"(?:{body})", start
        body = self.alternation(flags, opened)
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

    def read_flags(self, flags: Flags) -> Flags | None:
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
                if c not in FLAG_LETTERS:
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

    def repetition(self, items: list, flags: Flags) -> None:
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

    def counted(self, start: Pos, flags: Flags) -> tuple[int, int | None]:
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

    def decimal(self, flags: Flags) -> int:
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
    def primitive(self, flags: Flags) -> str:
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

    def literal(self, c: str, flags: Flags, span: tuple[Pos, Pos]) -> str:
        if not flags.u and ord(c) > 0x7F:
            raise RustRegexError(self.text, *span, "Unicode not allowed here")
        lit = escape_char(c)
        return f"(?i:{lit})" if flags.i else lit

    def escape(self, flags: Flags, in_class: bool) -> str:
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
            inner = PERL[c.lower()][0 if flags.u else 1]
            return self.class_item(inner, c.isupper(), in_class, (start, end))
        self.bump()
        span = (start, self.pos())
        if c in META:
            return self.literal(c, flags, span) if not in_class else escape_char(c)
        if c in SPECIAL:
            return escape_char(SPECIAL[c])
        if c == " " and flags.x:
            return " " if in_class else r"\ "
        if not in_class and c in "AzbB":
            if c == "A":
                return r"\A"
            if c == "z":
                return r"\Z"
            word = WORD if flags.u else PERL["w"][1]
            boundary = f"(?:(?<=[{word}])(?![{word}])|(?<![{word}])(?=[{word}]))"
            if c == "b":
                return boundary
            return f"(?:(?<=[{word}])(?=[{word}])|(?<![{word}])(?![{word}]))"
        raise RustRegexError(self.text, *span, "invalid escape sequence found in character class"
                             if in_class and c in "AzbB" else "unrecognized escape sequence")

    def class_item(self, inner: str, negated: bool, in_class: bool, span) -> str:
        """A set of characters: bracketed alone, or bare inside a class."""
        if negated:
            return complement(inner)
        return inner if in_class else f"[{inner}]"

    def hex(self, kind: str, start: Pos, flags: Flags) -> str:
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
        lit = escape_char(chr(value))
        return f"(?i:{lit})" if flags.i else lit

    def unicode_class(self, start: Pos, flags: Flags) -> str:
        """``\\pX``, ``\\p{name}``, ``\\p{name=value}`` and their ``\\P`` negations."""
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
        inner = unicode_property(name, self.text, span)
        return self.class_item(inner, negated, False, span)

    # ------------------------------------------------------------ classes


def translate(pattern: str) -> str:
    """``pattern`` (the crate's syntax) for the ``regex`` module, or raises
    :class:`RustRegexError` with the crate's message."""
    return Translator(pattern).translate()
