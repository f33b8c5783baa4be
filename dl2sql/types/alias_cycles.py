"""Recursive type aliases (``typedef t = (t, t)``), found while the symbol tables are
built: such an alias names an infinite type, and expanding it would not end."""
from __future__ import annotations

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
    edges = {q: [r for n in type_names(a.body)
                 if (r := syms.resolve_type(n, a.module)) in syms.aliases]
             for q, a in syms.aliases.items()}
    on_cycle: set[str] = set()
    for start in syms.aliases:
        if start in on_cycle:
            continue
        path = _cycle_from(start, edges)
        if path is None:
            continue
        on_cycle.update(path)
        shown = " -> ".join(p.rsplit("::", 1)[-1] for p in path + [path[0]])
        diags.error(syms.type_spans[start], f"recursive type alias: {shown} (a type "
                                            f"that holds itself needs a `typedef` with "
                                            f"constructors)")
    for q in on_cycle:
        alias = syms.aliases.pop(q)
        syms.env.add(TypeDefn(q, alias.params, (), True, alias.module))


def _cycle_from(start: str, edges: dict) -> list[str] | None:
    """A path of aliases from ``start`` back to ``start``, if there is one."""
    stack, seen = [(start, [start])], {start}
    while stack:
        node, path = stack.pop()
        for nxt in edges[node]:
            if nxt == start:
                return path
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None
