"""Character classes of Rust regex patterns (``[...]``): nesting, ``&&``/``--``/``~~``,
``[:name:]``, ranges; read for :class:`dl2sql.udfs.regex_syntax.Translator`."""
from __future__ import annotations

from dl2sql.udfs.regex_text import (ASCII_CLASSES, META, SPECIAL, Flags, RustRegexError,
                                    complement, escape_char, is_empty_class,
                                    unescape)


class ClassReader:
    """The class-reading part of the translator (it supplies the reading methods:
    ``pos``, ``char``, ``bump``, ``fail``, ``escape``...)."""

    def bracketed(self, flags: Flags) -> str:
        """``[...]``, nested classes and set operations included."""
        start = self.pos()
        text = self.class_set(flags)
        if any(op in text for op in ("^", "&&", "--", "~~")) and is_empty_class(text):
            raise self.fail(start, self.pos(), "empty character classes are not allowed")
        return f"(?i:{text})" if flags.i else text

    def class_set(self, flags: Flags) -> str:
        """One bracketed class at its ``[``, nested ones read recursively."""
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
                    items.append(self.class_set(flags))
            elif c == "]":
                self.bump()
                body = combine(parts, "".join(items))
                if not flags.u and negated:
                    raise RustRegexError(self.text, start, self.pos(),
                                         "pattern can match invalid UTF-8")
                return complement(body) if negated else f"[{body}]"
            elif c in "&-~" and self.peek() == c:
                self.bump()
                self.bump()
                parts.append(("".join(items), c * 2))
                items = []
            else:
                items.append(self.class_range(flags, open_span))

    def class_range(self, flags: Flags, open_span) -> str:
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
        return f"{escape_char(low_char)}-{escape_char(high_char)}"

    def _peek_space(self, flags: Flags) -> str | None:
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

    def class_atom(self, flags: Flags) -> tuple[str, str | None]:
        """One class member: its text, and the character when it is one."""
        if self.char() != "\\":
            c = self.char()
            if not flags.u and ord(c) > 0x7F:
                raise self.fail_here("Unicode not allowed here")
            self.bump()
            return escape_char(c), c
        before = self.i
        text = self.escape(flags, in_class=True)
        raw = self.text[before:self.i]
        if raw[1:2] in ("x", "u", "U") or raw[1:2] in META or raw[1:2] in SPECIAL or \
                raw[1:] == " ":
            return text, unescape(text)
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
        if name not in ASCII_CLASSES:
            return None
        for _ in range(end + 2 - self.i):
            self.bump()
        return complement(ASCII_CLASSES[name]) if negated else ASCII_CLASSES[name]


def combine(parts: list[tuple[str, str]], last: str) -> str:
    """A class's operands joined by their set operators, from the left (the crate
    gives ``&&``, ``--`` and ``~~`` one precedence, the regex module does not)."""
    if not parts:
        return last
    text = nested(parts[0][0])
    for (_, op), (operand, _) in zip(parts, parts[1:] + [(last, "")]):
        text = f"[{text}{op}{nested(operand)}]"
    return text


def nested(members: str) -> str:
    """Class members as one nested class (an empty one matches nothing)."""
    return f"[{members}]" if members else complement(r"\p{Any}")
