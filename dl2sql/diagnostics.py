"""Source spans and diagnostics.

Every diagnostic carries a :class:`Span` and renders as ``file:line:col: error: msg``
followed by the source line and a caret, the format users of compilers expect.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

_SOURCES: dict[str, str] = {}


def register_source(path: str, text: str) -> None:
    """Remember the text of ``path`` so that diagnostics can quote its lines."""
    _SOURCES[path] = text


def source_text(path: str) -> str | None:
    """The registered text of ``path``, if any."""
    return _SOURCES.get(path)


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, end is exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 1, 1, 1, 1)


@dataclass(frozen=True)
class Diagnostic:
    """One message about the user's input."""

    severity: str  # "error" | "warning" | "note"
    message: str
    span: Span
    notes: tuple["Diagnostic", ...] = ()

    def render(self) -> str:
        """``file:line:col: severity: message``, the quoted line and a caret."""
        out = [f"{self.span}: {self.severity}: {self.message}"]
        text = source_text(self.span.file)
        if text is not None:
            lines = text.splitlines()
            if 1 <= self.span.line <= len(lines):
                src = lines[self.span.line - 1].replace("\t", " ")
                out.append(src)
                width = 1
                if self.span.end_line == self.span.line:
                    width = max(1, self.span.end_col - self.span.col)
                width = min(width, max(1, len(src) - self.span.col + 1))
                out.append(" " * (self.span.col - 1) + "^" + "~" * (width - 1))
        for note in self.notes:
            out.append(note.render())
        return "\n".join(out)


class CompileError(Exception):
    """Raised with every diagnostic collected when a stage finds errors."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        """All diagnostics, one block each."""
        return "\n".join(d.render() for d in self.diagnostics)


class Dl2sqlWarning(UserWarning):
    """Something the user should know that does not stop the run (the CLI prints it as
    ``warning: ...``)."""


class RuntimeFailure(Exception):
    """An error while running a program (bad input row, overflow, division by zero)."""


# Starts the message of an IntegerOverflow, also where an engine carries it inside its
# own error (a failing query, a UDF's exception): :func:`runtime_failure` finds it.
OVERFLOW_MARKER = "dl2sql-integer-overflow:"


class IntegerOverflow(RuntimeFailure):
    """A value of a wide integer type needs more than the 38 digits of its narrow form
    (DECIMAL(38,0)): the run starts again with wide integers (dl2sql.api.speculation);
    the user sees this only where nothing runs it again."""


class DecimalOverflow(RuntimeFailure):
    """The engine's own check failed a DECIMAL(38,0) operation (DuckDB's, always on): a
    NARROW run takes it as an :class:`IntegerOverflow` (its plan leaves that check to
    DuckDB), any other run reports it."""


# what a run in the NARROW representation of wide integers meets when a value outgrows it
OVERFLOWS = (IntegerOverflow, DecimalOverflow)
# how a DecimalOverflow's message starts (it may travel as text: a constant's failure)
DECIMAL_OVERFLOW = "integer overflow: a result does not fit in the engine's DECIMAL(38,0)"


def runtime_failure(message: str) -> RuntimeFailure:
    """The failure that ``message`` reports: an :class:`IntegerOverflow` when it holds
    :data:`OVERFLOW_MARKER`, a :class:`DecimalOverflow` when it is one's, else a plain
    :class:`RuntimeFailure`."""
    at = message.find(OVERFLOW_MARKER)
    if at < 0:
        kind = DecimalOverflow if message.startswith(DECIMAL_OVERFLOW) else RuntimeFailure
        return kind(message)
    text = message[at:].splitlines()[0]
    for end in ("'. SQLSTATE", "\". SQLSTATE", " SQLSTATE"):  # the engine's context
        text = text.split(end, 1)[0]
    return IntegerOverflow(text.rstrip("'\" "))


def overflow_failure(error: BaseException) -> None:
    """Raise the :class:`IntegerOverflow` that an engine's ``error`` carries, if any."""
    if OVERFLOW_MARKER in str(error):
        raise runtime_failure(str(error)) from None


class InputError(Exception):
    """Data handed to a program does not fit it (an unknown relation, a missing
    column, a column of the wrong type, an unreadable file); the message names the
    relation, the column, the expected and the found type."""


def user_error_text(e: BaseException) -> str:
    """What the user is shown for a :class:`CompileError` (each diagnostic located,
    then the count), an :class:`InputError` or a :class:`RuntimeFailure`: the same on
    the command line and in a notebook."""
    if isinstance(e, CompileError):
        n = len(e.diagnostics)
        return f"{e.render()}\n{n} error{'s' if n != 1 else ''} found"
    return f"error: {e}"


def first_line(e: BaseException) -> str:
    """The first line of an engine's error message (the rest is its stack), or the
    exception's type name when the message is empty."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def root_cause(e: BaseException) -> str:
    """The innermost cause named in a JVM engine error (``Caused by: ...``), without
    Spark's error-class prefix and SQLSTATE suffix; :func:`first_line` when there is
    none. Spark wraps a file's bad value in two generic layers ("Encountered error while
    reading file", "Malformed records are detected") above the one that says what is
    wrong with it."""
    causes = [line.split("Caused by: ", 1)[1] for line in str(e).splitlines()
              if "Caused by: " in line]
    if not causes:
        return first_line(e)
    text = causes[-1].split(": ", 1)[-1].strip()  # drop the exception class
    text = re.sub(r"^\[[A-Z_.]+\]\s*", "", text)
    return re.sub(r"\s*SQLSTATE: \w+\s*$", "", text)


@dataclass
class Diagnostics:
    """Collects diagnostics of one stage; :meth:`raise_if_errors` ends the stage."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, notes: tuple[Diagnostic, ...] = ()) -> None:
        """Record an error at ``span``."""
        self.items.append(Diagnostic("error", message, span, notes))

    def warning(self, span: Span, message: str) -> None:
        """Record a warning at ``span``."""
        self.items.append(Diagnostic("warning", message, span))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def raise_if_errors(self) -> None:
        """Raise :class:`CompileError` if any error was recorded."""
        if self.has_errors:
            raise CompileError([d for d in self.items if d.severity == "error"])


def error(span: Span, message: str) -> CompileError:
    """A :class:`CompileError` holding a single error, ready to raise."""
    return CompileError([Diagnostic("error", message, span)])


def suggest(name: str, known) -> str:
    """`` (did you mean `x`?)`` for the closest known name, or an empty string."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


def decode_source(data: bytes, path: str) -> str:
    """``data``, the bytes of source file ``path``, as text; bytes that are not UTF-8
    are a located error (the line is quoted with them replaced)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        col = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        register_source(path, data.decode("utf-8", errors="replace"))
        raise error(Span(path, line, col, line, col + 1),
                    f"the file is not UTF-8: byte 0x{data[e.start]:02x} here is not part "
                    f"of a UTF-8 character (save the file as UTF-8)") from None


def read_source(path: str) -> str:
    """The text of source file ``path`` (a program, a module, a command file), which
    must be UTF-8 (:func:`decode_source`)."""
    with open(path, "rb") as f:
        return decode_source(f.read(), path)
