"""Recursive type aliases (``typedef t = (t, t)``), found while the symbol tables are
built: such an alias names an infinite type, and expanding it would not end."""
from __future__ import annotations

from collections import deque
from typing import NamedTuple

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics
from dl2sql.types.model import TypeDefn


def type_names(t) -> list[str]:
    """The names of the named types a type expression mentions, in order."""
    if isinstance(t, A.TNameE):
        return [t.name] + [n for a in t.args for n in type_names(a)]
    if isinstance(t, A.TTupleE):
        return [n for e in t.elems for n in type_names(e)]
    if isinstance(t, A.TFunctionE):
        return [n for p in t.params for n in type_names(p.type)] + \
            (type_names(t.ret) if t.ret else [])
    return []


def break_alias_cycles(syms, diags: Diagnostics) -> None:
    """Report each cycle of type aliases (``typedef t = (t, t)``: the type would be
    infinite) and make its aliases opaque types, so that expanding them ends."""
    edges = {q: [Step(q, r) for n in type_names(a.body)
                 if (r := syms.resolve_type(n, a.module)) in syms.aliases]
             for q, a in syms.aliases.items()}
    on_cycle: set[str] = set()
    for start in syms.aliases:
        if start in on_cycle:
            continue
        steps = shortest_cycle(start, edges)
        if steps is None:
            continue
        path = [e.src for e in steps]
        on_cycle.update(path)
        shown = " -> ".join(p.rsplit("::", 1)[-1] for p in path + [path[0]])
        diags.error(syms.type_spans[start], f"recursive type alias: {shown} (a type "
                                            f"that holds itself needs a `typedef` with "
                                            f"constructors)")
    for q in on_cycle:
        alias = syms.aliases.pop(q)
        syms.env.add(TypeDefn(q, alias.params, (), True, alias.module))


class Step(NamedTuple):
    """Alias ``src`` mentions alias ``dst``."""

    src: str
    dst: str


def shortest_cycle(start: str, graph: dict[str, list]) -> list | None:
    """The edges of a shortest path from ``start`` back to ``start``, if any; ``graph``
    gives each node's edges, anything with a ``src`` and a ``dst``."""
    queue: deque = deque([start])
    came: dict = {start: None}
    while queue:
        node = queue.popleft()
        for e in graph.get(node, ()):
            if e.dst == start:
                path = [e]
                while came[path[-1].src] is not None:
                    path.append(came[path[-1].src])
                return path[::-1]
            if e.dst not in came:
                came[e.dst] = e
                queue.append(e.dst)
    return None
