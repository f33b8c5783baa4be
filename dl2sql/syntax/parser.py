"""DDlog source text -> :class:`dl2sql.ast.nodes.Module`.

The grammar (``grammar.lark``) is parsed by lark's LALR parser with the contextual
lexer. Comments are blanked out beforehand (block comments nest, which no regular
expression can express) so that every offset still matches the original text.
"""
from __future__ import annotations

import dataclasses
import re
import sys
import traceback
from functools import lru_cache
from pathlib import Path

from lark import Lark
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)

from dl2sql.ast import nodes as n
from dl2sql.diagnostics import CompileError, Diagnostic, register_source
from dl2sql.syntax.build_ast import Builder
from dl2sql.syntax.facts import extract_facts
from dl2sql.syntax.build_expr import RESERVED
from dl2sql.syntax.build_expr import SpanMaker

_GRAMMAR = Path(__file__).with_name("grammar.lark")
_INTERESTING = re.compile(r'"|\$?\[\||//|/\*')
_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\[\s\S])*')

# Human names of the regex terminals; string terminals are shown as written.
_TERMINAL_WORDS = {
    "LCID": "an identifier", "UCID": "an upper-case identifier",
    "QLCID": "a qualified name", "QUCID": "a qualified name",
    "TYPEVAR": "a type variable", "DELAY": "a delay", "DOTFIELD": "`.field`",
    "DOTNUM": "`.N`", "INT": "an integer", "BITLIT": "an integer", "FLOAT": "a number",
    "WFLOAT": "a number", "QSTRING": "a string", "IQSTRING": "a string",
    "RAWSTRING": "a string", "IRAWSTRING": "a string", "INTERP": "a string",
    "IINTERP": "a string", "$END": "end of input",
}
# If all of these are acceptable, the parser wants an expression.
_EXPR_STARTERS = {"LCID", "INT", "QSTRING", "LPAR"}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return Lark(_GRAMMAR.read_text(), parser="lalr", lexer="contextual",
                start=["start", "expr_only"], propagate_positions=True,
                maybe_placeholders=True, cache=True)


def blank_comments(text: str) -> str:
    """Replace ``//`` and (nested) ``/* */`` comments by spaces, keeping newlines.

    String literals are skipped so that ``"http://x"`` is left alone. Raises
    ``ValueError(offset)`` for an unterminated block comment.
    """
    out: list[str] = []
    i = 0
    while True:
        m = _INTERESTING.search(text, i)
        if m is None:
            out.append(text[i:])
            return "".join(out)
        tok, start = m.group(0), m.start()
        out.append(text[i:start])
        if tok == '"':
            # up to the closing quote or the end of the line (a regex: a loop per
            # character cost a second per 100,000 strings)
            end = min(_STRING_BODY.match(text, start + 1).end() + 1, len(text))
        elif tok.endswith("[|"):
            j = text.find("|]", m.end())
            end = len(text) if j < 0 else j + 2
        elif tok == "//":
            j = text.find("\n", start)
            end = len(text) if j < 0 else j
        else:
            depth, j = 1, m.end()
            while depth:
                k = text.find("*/", j)
                o = text.find("/*", j)
                if k < 0:
                    raise ValueError(start)
                if 0 <= o < k:
                    depth, j = depth + 1, o + 2
                else:
                    depth, j = depth - 1, k + 2
            end = j
        chunk = text[start:end]
        if tok in ("//", "/*"):
            chunk = re.sub(r"[^\n]", " ", chunk)
        out.append(chunk)
        i = end


def _describe_expected(expected) -> str:
    names = set(expected)
    words: list[str] = []
    if _EXPR_STARTERS <= names:
        words.append("an expression")
        names -= {t.name for t in _lark().terminals if t.name in _TERMINAL_WORDS}
        names -= {"LPAR", "LSQB", "LBRACE", "MINUS", "TILDE", "NOT", "REF", "VBAR",
                  "TRUE", "FALSE", "VAR", "MATCH", "IF", "FOR", "RETURN", "BREAK",
                  "CONTINUE", "UNDERSCORE", "FUNCTION", "FLATMAP", "AGGREGATE"}
    by_name = {t.name: t for t in _lark().terminals}
    for name in sorted(names):
        if name in _TERMINAL_WORDS:
            word = _TERMINAL_WORDS[name]
        elif name in by_name and by_name[name].pattern.type == "str":
            word = f"`{by_name[name].pattern.value}`"
        else:
            word = name.lower()
        if word not in words:
            words.append(word)
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def _syntax_error(exc: UnexpectedInput, text: str, sm: SpanMaker, base: int):
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        tok = exc.token
        start, end = base + tok.start_pos, base + tok.end_pos
        what = "end of input" if tok.type == "$END" else f"`{tok}`"
        if tok.type in ("LCID", "UCID") and tok in _RESERVED_WORDS():
            what = f"keyword `{tok}`"
        msg = f"syntax error: unexpected {what}"
        expected = exc.accepts or exc.expected
    elif isinstance(exc, (UnexpectedEOF, UnexpectedToken)):
        start = end = base + len(text)
        msg = "syntax error: unexpected end of input"
        expected = getattr(exc, "accepts", None) or exc.expected
    else:
        assert isinstance(exc, UnexpectedCharacters)
        start = base + exc.pos_in_stream
        end = start + 1
        ch = text[exc.pos_in_stream]
        if ch == '"':
            msg, expected = "syntax error: unterminated string literal", ()
        else:
            msg, expected = f"syntax error: unexpected character `{ch}`", ()
    if expected:
        msg += f"; expected {_describe_expected(expected)}"
    return CompileError([Diagnostic("error", msg, sm.span(start, end))])


@lru_cache(maxsize=1)
def _RESERVED_WORDS():
    return RESERVED


def _parse(text: str, start: str, sm: SpanMaker, base: int, module_name: str):
    try:
        clean = blank_comments(text)
    except ValueError as exc:
        off = base + exc.args[0]
        raise CompileError([Diagnostic("error", "syntax error: unterminated comment",
                                       sm.span(off, off + 2))]) from None
    facts: dict = {}
    if start == "start":  # a module: its fact lines are read without the grammar
        clean, facts = extract_facts(clean)
    try:
        tree = _lark().parse(clean, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, clean, sm, base) from None

    def sub(inner: str, offset: int) -> n.Expr:
        return _parse(inner, "expr_only", sm, offset, module_name)

    # The transformer recurses once per tree level; long operator chains (`a ++ b ++
    # ...`) are deep left-leaning trees.
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20000))
    try:
        built = Builder(sm, base, module_name, sub).transform(tree)
        if facts:
            built = dataclasses.replace(built, decls=built.decls + tuple(
                _fact_table(name, found, text, sm, base, module_name)
                for name, found in facts.items()))
        return built
    except VisitError as exc:
        if isinstance(exc.orig_exc, CompileError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, RecursionError):
            raise _too_deep(sm, base, exc.orig_exc) from None
        raise
    except RecursionError as exc:
        raise _too_deep(sm, base, exc) from None
    finally:
        sys.setrecursionlimit(old_limit)


def _fact_table(name: str, found: list, text: str, sm: SpanMaker, base: int,
                module_name: str) -> n.FactTable:
    """The facts of relation ``name`` read by :func:`extract_facts`, each parsed by the
    grammar again if the checker asks (``reparse``)."""
    offsets = tuple((start, end) for _, start, end in found)

    def reparse() -> tuple:
        return tuple(d for start, end in offsets
                     for d in _parse(text[start:end], "start", sm, base + start,
                                     module_name).decls)

    first = offsets[0]
    return n.FactTable(sm.span(base + first[0], base + first[1]), name,
                       tuple(values for values, _, _ in found), offsets, reparse)


def _too_deep(sm: SpanMaker, base: int, exc: BaseException) -> CompileError:
    """The error for a tree too deep to build, at the deepest node that was being
    built (inside the expression to split), found in the frames ``exc`` unwound."""
    start = 0
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        meta = getattr(frame.f_locals.get("tree"), "meta", None)
        if meta is not None and not getattr(meta, "empty", True):
            start = meta.start_pos
    return CompileError([Diagnostic(
        "error", "expression nesting is too deep to compile: split the expression, for "
                 "example into `var`s of a few terms each", sm.span(base + start,
                                                                   base + start + 1))])


def parse_module(text: str, path: str, module_name: str = "") -> n.Module:
    """Parse the DDlog module ``text`` read from ``path``.

    ``module_name`` is the module path (``""`` for the main program). Raises
    :class:`CompileError` with one located diagnostic on a syntax error.
    """
    register_source(path, text)
    text = text.replace("\t", " ")
    return _parse(text, "start", SpanMaker(path, text), 0, module_name)


def parse_expr(text: str, path: str = "<expr>") -> n.Expr:
    """Parse a single expression (used by tests and tools)."""
    register_source(path, text)
    text = text.replace("\t", " ")
    return _parse(text, "expr_only", SpanMaker(path, text), 0, "")
