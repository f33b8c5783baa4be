"""Parser for DDlog's CLI command language (``.dat`` files, language spec §7.1-7.2).

Parsing has two steps, as in upstream's ``cmd_parser``: commands and their values are
first parsed without types (:class:`UValue`) here, then
:func:`dl2sql.replay.dat_values.convert` turns an untyped value into a runtime value of
an expected type.
"""
from __future__ import annotations

import bisect
import os
from dataclasses import dataclass
from typing import Optional


_SPACES = " \t\r\n"
_STR_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "a": "\x07", "b": "\x08",
                "f": "\x0c", "r": "\r", "t": "\t", "v": "\x0b", "?": "?"}


class DatError(Exception):
    """A malformed command, a value of the wrong type or a failed update; ``line`` is
    the 1-based line of the offending command (0 if unknown), ``col`` its 1-based
    column (0 if unknown) and ``width`` how many characters of the line it spans."""

    def __init__(self, message: str, line: int = 0, col: int = 0, width: int = 1):
        super().__init__(message)
        self.message = message
        self.line, self.col, self.width = line, col, width

    def locate(self, cmd: "Command") -> None:
        """Place an error that has no place yet at the command ``cmd``."""
        if not self.line or (self.line == cmd.line and not self.col):
            self.line, self.col, self.width = cmd.line, cmd.col, cmd.width


class Incomplete(DatError):
    """The input ended in the middle of a command (upstream silently ignores it)."""


# ---------------------------------------------------------------- untyped values

@dataclass(frozen=True)
class UValue:
    """An untyped value as written in a ``.dat`` file.

    ``kind`` is one of bool, int, float, string, tuple, array, struct, serialized.
    ``items`` holds tuple/array elements or positional struct arguments; ``named``
    holds ``(field, value)`` pairs of a named struct (``None`` for positional).
    """

    kind: str
    value: object = None          # bool/int/float/str payload; constructor for structs
    items: tuple = ()
    named: Optional[tuple] = None

    def __str__(self) -> str:
        if self.kind == "string":
            return '"' + str(self.value).replace("\\", "\\\\").replace('"', '\\"') + '"'
        if self.kind == "bool":
            return "true" if self.value else "false"
        if self.kind in ("int", "float"):
            return str(self.value)
        if self.kind == "tuple":
            return "(" + ", ".join(map(str, self.items)) + ")"
        if self.kind == "array":
            return "[" + ", ".join(map(str, self.items)) + "]"
        if self.kind == "serialized":
            return f"@{self.value[0]}{self.value[1]!r}"
        if self.named is not None:
            return f"{self.value}{{" + ", ".join(f".{n} = {v}" for n, v in self.named) + "}"
        return f"{self.value}{{" + ", ".join(map(str, self.items)) + "}"


# ---------------------------------------------------------------- commands

@dataclass
class Command:
    """One command. ``op`` is start, commit, rollback, dump, clear, echo, exit,
    ignored (timestamp/profile/mssleep/log_level), dump_index, query_index, or an
    update: insert, delete, insert_or_update, delete_key, modify.

    Updates carry ``relation``, ``value`` (record, or key for delete_key/modify),
    ``mutator`` (modify) and ``last`` (terminated by ``;`` rather than ``,``)."""

    op: str
    line: int
    relation: Optional[str] = None
    value: Optional[UValue] = None
    mutator: Optional[UValue] = None
    text: str = ""
    dump_changes: bool = False
    col: int = 0  # where the command starts, and its width on that line
    width: int = 1
    last: bool = True

    @property
    def is_update(self) -> bool:
        return self.op in _UPDATES


_UPDATES = ("insert", "delete", "insert_or_update", "delete_key", "modify")


class _Parser:
    def __init__(self, text: str, base_dir: str):
        self.s = text
        self.i = 0
        self.base_dir = base_dir
        self._line_starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]

    def line_at(self, pos: int) -> int:
        return bisect.bisect_right(self._line_starts, pos)

    def col_at(self, pos: int) -> int:
        return pos - self._line_starts[self.line_at(pos) - 1] + 1

    # -- lexical helpers; like upstream's `sym`, every token swallows trailing spaces
    def spaces(self) -> None:
        s, i = self.s, self.i
        while i < len(s) and s[i] in _SPACES:
            i += 1
        self.i = i

    def fail(self, what: str) -> DatError:
        if self.i >= len(self.s):
            return Incomplete(f"unexpected end of input, expected {what}", self.line_at(self.i))
        snippet = self.s[self.i:self.i + 30].split("\n")[0]
        return DatError(f"expected {what} at `{snippet}`", self.line_at(self.i),
                        self.col_at(self.i))

    def peek(self, tok: str) -> bool:
        return self.s.startswith(tok, self.i)

    def accept(self, tok: str) -> bool:
        if self.s.startswith(tok, self.i):
            self.i += len(tok)
            self.spaces()
            return True
        return False

    def expect(self, tok: str) -> None:
        if not self.accept(tok):
            raise self.fail(f"`{tok}`")

    def identifier(self, required: bool = True) -> Optional[str]:
        s, i = self.s, self.i
        if i < len(s) and (s[i].isascii() and s[i].isalpha() or s[i] == "_"):
            j = i + 1
            while j < len(s):
                if s[j].isascii() and (s[j].isalnum() or s[j] == "_"):
                    j += 1
                elif s.startswith("::", j):
                    j += 2
                else:
                    break
            self.i = j
            self.spaces()
            return s[i:j]
        if required:
            raise self.fail("an identifier")
        return None

    # -- commands
    def command(self) -> Optional[Command]:
        """The next command, placed (line, column, width on its first line)."""
        self.spaces()
        start = self.i
        cmd = self._command()
        if cmd is not None:
            end = self.i  # the command's text on its first line, its spaces left out
            while end > start and self.s[end - 1] in _SPACES:
                end -= 1
            newline = self.s.find("\n", start, end)
            cmd.col = self.col_at(start)
            cmd.width = max(1, (end if newline < 0 else newline) - start)
        return cmd

    def _command(self) -> Optional[Command]:
        if self.i >= len(self.s):
            return None
        start = self.i
        line = self.line_at(start)
        if self.peek("#"):
            end = self.s.find("\n", self.i)
            if end < 0:
                raise Incomplete("comment without a final newline", line)
            self.i = end + 1
            return Command("comment", line)
        word = self.identifier(required=False)
        if word is None:
            raise self.fail("a command")
        if word == "echo":
            # The text is taken verbatim (newlines included) after the spaces `echo`
            # swallowed; upstream: `sym("echo") >> take_until!(";")`.
            end = self.s.find(";", self.i)
            if end < 0:
                raise Incomplete("`echo` without a terminating `;`", line)
            text = self.s[self.i:end]
            self.i = end + 1
            self.spaces()
            return Command("echo", line, text=text)
        if word in ("start", "rollback", "exit", "timestamp"):
            self.expect(";")
            return Command("ignored" if word == "timestamp" else word, line)
        if word == "commit":
            dump = self.accept("dump_changes")
            self.expect(";")
            return Command("commit", line, dump_changes=dump)
        if word == "dump":
            rel = self.identifier(required=False)
            self.expect(";")
            return Command("dump", line, relation=rel)
        if word == "clear":
            rel = self.identifier()
            self.expect(";")
            return Command("clear", line, relation=rel)
        if word == "profile":
            for sub in ("cpu", "change", "timely"):
                if self.accept(sub):
                    if not (self.accept("on") or self.accept("off")):
                        raise self.fail("`on` or `off`")
                    break
            self.expect(";")
            return Command("ignored", line)
        if word in ("mssleep", "log_level"):
            v = self.int_literal(allow_negative=word == "log_level")
            if v is None:
                raise self.fail("a number")
            self.expect(";")
            return Command("ignored", line)
        if word == "dump_index":
            name = self.identifier()
            self.expect(";")
            return Command("dump_index", line, relation=name)
        if word == "query_index":
            name = self.identifier()
            self.expect("(")
            args = self.value_list(")")
            self.expect(";")
            key = args[0] if len(args) == 1 else UValue("tuple", items=tuple(args))
            return Command("query_index", line, relation=name, value=key)
        if word in _UPDATES:
            cmd = self.update(word, line)
            if self.accept(";"):
                cmd.last = True
            elif self.accept(","):
                cmd.last = False
            else:
                raise self.fail("`;` or `,` after an update")
            return cmd
        self.i = start
        raise self.fail("a command")

    def update(self, op: str, line: int) -> Command:
        rel = self.identifier()
        if op in ("delete_key", "modify"):
            key = self.value()
            if op == "delete_key":
                return Command(op, line, relation=rel, value=key)
            self.expect("<-")
            return Command(op, line, relation=rel, value=key, mutator=self.value())
        if self.accept("["):
            rec = self.value()
            self.expect("]")
        elif self.accept("("):
            rec = self.ctor_args(rel, ")")
        else:
            raise self.fail("`(` or `[` after the relation name")
        return Command(op, line, relation=rel, value=rec)

    # -- values
    def value_list(self, close: str) -> list:
        out = []
        if self.accept(close):
            return out
        while True:
            out.append(self.value())
            if self.accept(close):
                return out
            self.expect(",")

    def ctor_args(self, ctor: str, close: str) -> UValue:
        # Named form only when `.` starts a field name (`.5` is a positional float).
        nxt = self.s[self.i + 1:self.i + 2]
        if self.peek(".") and (nxt.isalpha() or nxt == "_" or nxt in _SPACES and nxt):
            named = []
            while True:
                self.expect(".")
                fname = self.identifier()
                self.expect("=")
                named.append((fname, self.value()))
                if self.accept(close):
                    return UValue("struct", ctor, named=tuple(named))
                self.expect(",")
        return UValue("struct", ctor, items=tuple(self.value_list(close)))

    def value(self) -> UValue:
        s = self.s
        if self.i >= len(s):
            raise self.fail("a value")
        c = s[self.i]
        if c == '"':
            return UValue("string", self.string())
        if c == "%" and s.startswith('"', self.i + 1):
            self.i += 1
            return UValue("string", self.read_file(self.string()))
        if c == "@":
            self.i += 1
            fmt = self.identifier()
            if self.peek("%"):
                self.i += 1
                data = self.read_file(self.string())
            else:
                data = self.string()
            return UValue("serialized", (fmt, data))
        if self.accept("("):
            return UValue("tuple", items=tuple(self.value_list(")")))
        if self.accept("["):
            return UValue("array", items=tuple(self.value_list("]")))
        word = self.identifier(required=False)
        if word is not None:
            if word in ("true", "false"):
                return UValue("bool", word == "true")
            if self.accept("{"):
                return self.ctor_args(word, "}")
            return UValue("struct", word, items=())
        f = self.float_literal()
        if f is not None:
            return UValue("float", f)
        n = self.int_literal(allow_negative=True)
        if n is not None:
            return UValue("int", n)
        raise self.fail("a value")

    def string(self) -> str:
        s, i = self.s, self.i
        if not s.startswith('"', i):
            raise self.fail("a string")
        i += 1
        out = []
        while True:
            if i >= len(s):
                self.i = i
                raise Incomplete("unterminated string", self.line_at(i))
            ch = s[i]
            if ch == '"':
                break
            if ch == "\\":
                esc = _STR_ESCAPES.get(s[i + 1:i + 2])
                if esc is None:
                    self.i = i
                    raise DatError(f"invalid escape sequence `\\{s[i + 1:i + 2]}` in string",
                                   self.line_at(i))
                out.append(esc)
                i += 2
            else:
                out.append(ch)
                i += 1
        self.i = i + 1
        self.spaces()
        return "".join(out)

    def read_file(self, name: str) -> str:
        path = name if os.path.isabs(name) or os.path.exists(name) else \
            os.path.join(self.base_dir, name)
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        except OSError as e:
            raise DatError(f"failed to read string from file {name}: {e.strerror}",
                           self.line_at(self.i)) from None

    def float_literal(self) -> Optional[float]:
        # Strict like upstream: a float needs a `.` or an exponent, so `5` is an int.
        s, i = self.s, self.i
        j = i
        if j < len(s) and s[j] in "+-":
            j += 1
        d0 = j
        while j < len(s) and s[j].isdigit():
            j += 1
        has_int = j > d0
        is_float = False
        if j < len(s) and s[j] == ".":
            k = j + 1
            while k < len(s) and s[k].isdigit():
                k += 1
            if has_int or k > j + 1:
                is_float, j = True, k
        if not has_int and not is_float:
            return None
        if j < len(s) and s[j] in "eE":
            k = j + 1
            if k < len(s) and s[k] in "+-":
                k += 1
            if k < len(s) and s[k].isdigit():
                while k < len(s) and s[k].isdigit():
                    k += 1
                is_float, j = True, k
        if not is_float:
            return None
        self.i = j
        self.spaces()
        return float(s[i:j])

    def int_literal(self, allow_negative: bool) -> Optional[int]:
        s, save = self.s, self.i
        neg = False
        if allow_negative and self.peek("-"):
            neg = True
            self.accept("-")
        i = self.i
        if s[i:i + 2].lower() == "0x" and i + 2 < len(s) and s[i + 2] in _HEX:
            j = i + 2
            while j < len(s) and (s[j] in _HEX or s[j] == "_"):
                j += 1
            n = int(s[i + 2:j].replace("_", ""), 16)
        elif i < len(s) and s[i].isascii() and s[i].isdigit():
            j = i
            while j < len(s) and s[j].isascii() and (s[j].isdigit() or s[j] == "_"):
                j += 1
            n = int(s[i:j].replace("_", ""))
        else:
            self.i = save
            return None
        self.i = j
        self.spaces()
        return -n if neg else n


_HEX = "0123456789abcdefABCDEF"


def parse_commands(text: str, base_dir: str = ".") -> tuple[list[Command], Optional[DatError]]:
    """Parse a whole ``.dat`` text. Returns the commands parsed and the error that
    stopped parsing (``None`` at a clean end); commands before the error are valid, so
    they can still be executed before reporting it, as upstream's line-by-line reader
    does."""
    p = _Parser(text, base_dir)
    out: list[Command] = []
    while True:
        try:
            cmd = p.command()
        except DatError as e:
            return out, e
        if cmd is None:
            return out, None
        if cmd.op != "comment":
            out.append(cmd)
