"""Python implementations of DDlog's ``regex`` library (Rust's ``regex`` crate).

A ``Regex`` value is its pattern string and a ``RegexSet`` the tuple of its patterns,
as the crate's values print, compare and serialize. Patterns are read by the crate's
grammar and rewritten for the PyPI ``regex`` module (:mod:`dl2sql.udfs.regex_syntax`);
matches are searched the crate's way: leftmost-first, and ``find_iter`` steps past an
empty match by one character and drops an empty match right after a previous match.
"""
from __future__ import annotations

import functools

from dl2sql.runtime.values import Record
from dl2sql.udfs.regex_syntax import RustRegexError, translate
from dl2sql.udfs.std_base import NONE, some

# What `regex` makes of an invalid pattern: the crate's own choice, a regex that
# cannot match (a start of text after an `a`).
NEVER = "a^"


@functools.lru_cache(maxsize=1024)
def compiled(pattern: str):
    """The compiled form of a pattern in the crate's syntax (raises
    :class:`RustRegexError` with the crate's message when it is invalid)."""
    # a Spark worker needs the regex package only for the programs that use the regex
    # library: its import is deferred to the first pattern
    import regex as regex_module
    return regex_module.compile(translate(pattern))


def _valid(pattern: str) -> str | None:
    """None when ``pattern`` compiles, else the crate's error message."""
    try:
        compiled(pattern)
        return None
    except RustRegexError as e:
        return str(e)


def regex(pattern: str) -> str:
    """The pattern, or one that matches nothing when it is invalid."""
    return pattern if _valid(pattern) is None else NEVER


def try_regex(pattern: str) -> Record:
    """``Ok{pattern}`` or ``Err{the crate's message}``."""
    error = _valid(pattern)
    if error is None:
        return Record("ddlog_std::Ok", (pattern,))
    return Record("ddlog_std::Err", (error,))


def find_iter(pattern: str, text: str):
    """``(start, end)`` of each match as the crate's ``find_iter`` yields them."""
    compiled_pattern = compiled(pattern)
    at, last_end = 0, None
    while at <= len(text):
        found = compiled_pattern.search(text, at)
        if found is None:
            return
        start, end = found.span()
        if start == end:
            at = end + 1
            if end == last_end:
                continue
        else:
            at = end
        last_end = end
        yield start, end


def regex_match(pattern: str, text: str) -> bool:
    """Whether the regex matches anywhere in ``text``."""
    return compiled(pattern).search(text) is not None


def regex_first_match(pattern: str, text: str) -> Record:
    """``Some{the leftmost-first match}`` or ``None``."""
    found = compiled(pattern).search(text)
    return NONE if found is None else some(found.group())


def regex_all_matches(pattern: str, text: str) -> tuple:
    """Every match of :func:`find_iter`, in order."""
    return tuple(text[s:e] for s, e in find_iter(pattern, text))


def regex_set(patterns: tuple) -> tuple:
    """The patterns, or the empty set when one of them is invalid."""
    return patterns if all(_valid(p) is None for p in patterns) else ()


def try_regex_set(patterns: tuple) -> Record:
    """``Ok{patterns}`` or ``Err{the message of the first invalid one}``."""
    for p in patterns:
        error = _valid(p)
        if error is not None:
            return Record("ddlog_std::Err", (error,))
    return Record("ddlog_std::Ok", (patterns,))


def regex_set_match(patterns: tuple, text: str) -> bool:
    """Whether any pattern of the set matches in ``text``."""
    return any(regex_match(p, text) for p in patterns)


LIBRARY_REGEX = {f"regex::{fn.__name__}": fn for fn in (
    regex, try_regex, regex_match, regex_first_match, regex_all_matches,
    regex_set, try_regex_set, regex_set_match)}
