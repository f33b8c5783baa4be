"""A plan's statements in reading order, for everything that shows a plan (``--emit
plan``/``sql``, ``Program.sql``); running one is :mod:`dl2sql.plan.interpret`'s."""
from __future__ import annotations

from typing import Iterator

from dl2sql.plan.nodes import Choose, Loop


def walk(stmts, depth: int = 0) -> Iterator[tuple[str, object, int]]:
    """``(event, statement, depth)``: ``"stmt"`` for a Materialize, Append or Rename;
    ``"loop"`` and ``"end loop"`` around a loop's body; ``"choose"``, ``"else"`` and
    ``"end choose"`` around a Choose's doubling and linear branches. ``depth`` counts
    the loops and choices a statement is inside."""
    for s in stmts:
        if isinstance(s, Loop):
            yield "loop", s, depth
            yield from walk(s.body, depth + 1)
            yield "end loop", s, depth
        elif isinstance(s, Choose):
            yield "choose", s, depth
            yield from walk(s.doubling, depth + 1)
            yield "else", s, depth
            yield from walk(s.linear, depth + 1)
            yield "end choose", s, depth
        else:
            yield "stmt", s, depth
