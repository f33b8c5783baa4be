"""JSON output that every JSON parser reads: a float that is not finite is written as
the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` (both engines' writers give the
bare tokens, which JSON does not have). dl2sql's JSON readers take those strings back
as the float on both engines, as Spark's and DuckDB's own do (docs/cli.md)."""
from __future__ import annotations

import os
import re

from dl2sql.io.text_scan import NON_FINITE

_TOKENS = [t.encode() for t in NON_FINITE]
# a JSON string (left as it is), or a bare non-finite token outside every string
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|(' + b"|".join(map(re.escape, _TOKENS)) + rb")")
_CHUNK = 1 << 20


def _quoted(match: re.Match) -> bytes:
    token = match.group(1)
    return match.group(0) if token is None else b'"' + token + b'"'


def quote_non_finite(path: str) -> None:
    """Rewrite the JSON-lines file ``path`` with its non-finite floats quoted; a file
    without such a token anywhere (the usual case) is left untouched, unread but once."""
    if not _mentions_non_finite(path):
        return
    rewritten = f"{path}.quoting"
    with open(path, "rb") as src, open(rewritten, "wb") as dst:
        for line in src:
            dst.write(_TOKEN.sub(_quoted, line))
    os.replace(rewritten, path)


def _mentions_non_finite(path: str) -> bool:
    tail = b""
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            window = tail + chunk
            if any(token in window for token in _TOKENS):
                return True
            tail = chunk[-8:]  # a token split across two chunks
    return False
