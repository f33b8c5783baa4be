"""Python references for the graph programs of the tests."""
from __future__ import annotations


def closure(edges) -> set:
    """The transitive closure of ``edges`` (pairs), as a set of pairs."""
    out = set(edges)
    while True:
        more = {(a, d) for a, b in out for c, d in edges if b == c} - out
        if not more:
            return out
        out |= more
