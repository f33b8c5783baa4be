"""Recursive types DDlog refuses (its ``Validate.hs``: ``checkAcyclicTypes`` and
``checkAcyclicTypeAliases``), found while the symbol tables are built.

* A type may hold itself only through a heap-allocated type: ``Ref<>``, ``Intern<>``,
  ``IObj<>`` (DDlog's ``#[shared_ref]``), ``Vec<>``, ``Set<>``, ``Map<>``, ``Set64<>``
  (``#[dyn_alloc]``), or an alias of one. Anywhere else, even in a type argument
  (``Option<T>``, ``HashSet<T>``) or in one constructor of several
  (``typedef T = Leaf | Node{l: T}``), it holds itself by value, and DDlog refuses
  it ("Mutually recursive types: T -> T"). ``function`` types hold nothing.
* A type alias may not be on any cycle of types, even through a heap-allocated type
  (``typedef R = Ref<T>`` with ``typedef T = T{x: R}``; DDlog: "Recursive alias
  types"); a cycle of aliases alone is :mod:`dl2sql.types.alias_cycles`' report.

Relations declared with fields are struct types of that name, as in DDlog.
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.ast import nodes as A
from dl2sql.types.alias_cycles import shortest_cycle
from dl2sql.diagnostics import Diagnostics, Span

# the standard library's heap-allocated types (DDlog's #[shared_ref] and #[dyn_alloc])
HEAP_TYPES = frozenset({"ddlog_std::Ref", "ddlog_std::Intern", "intern::IObj",
                        "ddlog_std::Vec", "ddlog_std::Set", "ddlog_std::Map",
                        "tinyset::Set64"})
HEAP_ATTRS = ("shared_ref", "dyn_alloc")  # the same on a user's `extern type`
HEAP_HINT = "Ref<>, Intern<>, Vec<>, Set<> or Map<>"


@dataclass(frozen=True)
class Edge:
    """Type ``src`` mentions type ``dst`` in ``where`` (``T.x: (string, U)`` for a
    field, ``P = (string, U)`` for an alias), written at ``span``."""

    src: str
    dst: str
    where: str
    span: Span
    field: str | None = None  # the field's name, when ``where`` is a field
    written: str = ""  # the field's type as written


def check_recursive_types(modules: list[A.Module], syms, diags: Diagnostics) -> None:
    """Report each type that holds itself by value, then each alias on a cycle of
    types (once per cycle). Call after :func:`break_alias_cycles`."""
    decls: dict[str, tuple[A.TypeDef | A.RelationDecl, str]] = {}
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.TypeDef) or \
                    (isinstance(d, A.RelationDecl) and d.fields is not None):
                q = f"{m.name}::{d.name}" if m.name else d.name
                if syms.type_spans.get(q) == d.span:  # not a second definition
                    decls[q] = (d, m.name)
    walker = _Walker(syms, decls)
    by_value = {q: walker.edges(q, d, mod, by_value=True) for q, (d, mod) in decls.items()}
    reported: set[str] = set()
    for start in decls:
        if start in reported:
            continue
        path = shortest_cycle(start, by_value)
        if path is None:
            continue
        reported.update(e.src for e in path)
        first = next((i for i, e in enumerate(path) if e.field is not None), 0)
        path = path[first:] + path[:first]  # start at a field: the one to change
        e = path[0]
        shown = ", ".join(x.where for x in path)
        fix = f"; write `{e.field}: Ref<{e.written}>`" if e.field is not None else ""
        diags.error(e.span, f"type `{_short(e.src)}` contains itself by value ({shown}): "
                            f"a type may hold itself only through {HEAP_HINT}{fix}")
    members = {q: walker.edges(q, d, mod, by_value=False) for q, (d, mod) in decls.items()}
    for start in decls:
        if start in reported or start not in syms.aliases:
            continue
        path = shortest_cycle(start, members)
        if path is None:
            continue
        reported.update(e.src for e in path)
        shown = " -> ".join(_short(e.src) for e in path) + f" -> {_short(start)}"
        diags.error(syms.type_spans[start],
                    f"recursive type alias: {shown} (a type that holds itself needs a "
                    f"`typedef` with constructors: write `typedef {_short(start)} = "
                    f"{_short(start)}{{...}}` or use the aliased type in its place)")


class _Walker:
    """The types that a declaration mentions, by value or at all."""

    def __init__(self, syms, decls):
        self.syms, self.decls = syms, decls

    def edges(self, q: str, d, module: str, by_value: bool) -> list[Edge]:
        out: list[Edge] = []
        if isinstance(d, A.RelationDecl):
            fields = list(d.fields)
        elif d.ctors is not None:
            fields = [f for c in d.ctors for f in c.fields]
        elif d.alias is not None and q in self.syms.aliases:  # not an alias cycle's
            where = f"{_short(q)} = {written(d.alias)}"
            return [Edge(q, n, where, d.alias.span)
                    for n in _unique(self.names(d.alias, module, by_value))]
        else:
            return []
        for f in fields:
            text = written(f.type)
            out += [Edge(q, n, f"{_short(q)}.{f.name}: {text}", f.type.span, f.name, text)
                    for n in _unique(self.names(f.type, module, by_value))]
        return out

    def names(self, t, module: str, by_value: bool) -> list[str]:
        """The named types ``t`` mentions (DDlog's ``typeStaticMemberTypes`` when
        ``by_value``, else ``typeMemberTypes``)."""
        if isinstance(t, A.TTupleE):
            return [n for e in t.elems for n in self.names(e, module, by_value)]
        if not isinstance(t, A.TNameE):
            return []  # a primitive, a type variable, a function
        q = self.syms.resolve_type(t.name, module)
        if q is None or (by_value and self.on_heap(t, module)):
            return []  # an unknown type is reported elsewhere
        return [q] + [n for a in t.args for n in self.names(a, module, by_value)]

    def on_heap(self, t: A.TNameE, module: str, depth: int = 0) -> bool:
        """``t`` is a heap-allocated type, maybe through aliases (DDlog's
        ``isSharedRef``/``isDynAlloced`` of the expanded type)."""
        q = self.syms.resolve_type(t.name, module)
        if q is None or depth > 64:
            return False
        if q in HEAP_TYPES:
            return True
        d = self.decls.get(q, (None,))[0]
        if isinstance(d, A.TypeDef) and d.extern:
            return any(a.name in HEAP_ATTRS for a in d.attrs)
        alias = self.syms.aliases.get(q)
        if alias is None:
            return False
        body, body_module = alias.body, alias.module
        if isinstance(body, A.TVarE) and body.name in alias.params:
            i = alias.params.index(body.name)
            if i >= len(t.args):
                return False
            body, body_module = t.args[i], module
        return isinstance(body, A.TNameE) and self.on_heap(body, body_module, depth + 1)


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _short(q: str) -> str:
    return q.rsplit("::", 1)[-1]


def written(t) -> str:
    """A type expression as written (spacing normalised)."""
    if isinstance(t, A.TNameE):
        return t.name + (f"<{', '.join(written(a) for a in t.args)}>" if t.args else "")
    if isinstance(t, A.TTupleE):
        return "(" + ", ".join(written(e) for e in t.elems) + ")"
    if isinstance(t, A.TVarE):
        return f"'{t.name}"
    if isinstance(t, (A.TBitE, A.TSignedE)):
        return f"{'bit' if isinstance(t, A.TBitE) else 'signed'}<{t.width}>"
    if isinstance(t, A.TFunctionE):
        params = ", ".join(("mut " if p.mutable else "") + written(p.type) for p in t.params)
        return f"function({params})" + (f": {written(t.ret)}" if t.ret else "")
    return {A.TBoolE: "bool", A.TStringE: "string", A.TBigIntE: "bigint",
            A.TFloatE: "float", A.TDoubleE: "double"}.get(type(t), "?")
