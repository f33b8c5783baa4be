"""Dependency graph of relations and its strata (strongly connected components in
dependency order). Negation inside a recursive cycle is a located error.

Recursion through a ``group_by`` is allowed, with DDlog's meaning: DDlog evaluates a
recursive component as a differential-dataflow ``iterate`` in which every relation is
recomputed from all its rules over the previous iteration's relations, from empty,
until none changes. An aggregate row of one iteration is gone at the next if its
group's value changed (simple.dl's ``Span`` upstream), which is not the least fixpoint
that semi-naive evaluation accumulates. Such a stratum lists its ``group_steps``: the
helper relations of the aggregations (:mod:`dl2sql.passes.aggregation`), which stand
for operators inside one rule in DDlog and are therefore computed within an
iteration, not from the previous one."""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.diagnostics import Diagnostic, Diagnostics, Span
from dl2sql.types import typed as T


@dataclass(frozen=True)
class Stratum:
    """Relations computed together; ``recursive`` when they depend on themselves."""

    relations: tuple[str, ...]
    recursive: bool
    rules: tuple[T.CoreRule, ...]
    # the application of a user transformer that computes ``relations`` (its outputs)
    transform: object = None
    # recursion through a group_by: the aggregations' helper relations among
    # ``relations``, in the order one iteration computes them (see the module docs)
    group_steps: tuple[str, ...] = ()

    @property
    def aggregated(self) -> bool:
        """Whether the recursion goes through a ``group_by`` (evaluated naively)."""
        return bool(self.group_steps)


@dataclass(frozen=True)
class Edge:
    source: str  # body relation
    target: str  # head relation
    negated: bool
    span: Span
    aggregated: bool = False


def dependency_edges(rules: list[T.CoreRule]) -> list[Edge]:
    """One edge per (body literal, head) pair of every rule."""
    edges = []
    for r in rules:
        for h in r.heads:
            for c in r.body:
                if isinstance(c, T.CAtom):
                    edges.append(Edge(c.relation, h.relation, c.negated, c.span))
                elif isinstance(c, T.CGroupSource):
                    edges.append(Edge(c.relation, h.relation, False, c.span, True))
    return edges


def _successors(edges: list[Edge], relations=()) -> dict[str, list[str]]:
    """The relations each relation's rows flow to (every relation a node)."""
    succ: dict[str, list[str]] = {r: [] for r in relations}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
    return succ


def components(rules: list[T.CoreRule]) -> dict[str, int]:
    """Each relation's strongly connected component of the rules' dependencies, as an
    index (relations of one recursion share theirs)."""
    return {rel: i for i, members in enumerate(_tarjan(_successors(dependency_edges(rules))))
            for rel in members}


def stratify(rules: list[T.CoreRule], relations: list[str],
             transforms=()) -> list[Stratum]:
    """Strata of the non-input ``relations`` in an order where each stratum only reads
    relations of earlier strata (or its own, when recursive). Each of ``transforms``
    (applications of user transformers, never recursive: the type checker refuses
    it) is one stratum of its outputs, after all its inputs."""
    edges = dependency_edges(rules)
    succ = _successors(edges, relations)
    nodes = {}  # a node of its own per application, between inputs and outputs
    for i, app in enumerate(transforms):
        nodes[node_name(i)] = app
        succ[node_name(i)] = list(app.outputs)
        for rel in app.relations:
            succ.setdefault(rel, []).append(node_name(i))
    comps = _tarjan(succ)
    comp_of = {r: i for i, comp in enumerate(comps) for r in comp}
    diags = Diagnostics()
    for e in edges:
        if e.negated and comp_of[e.source] == comp_of[e.target]:
            cycle = ", ".join(f"`{r}`" for r in sorted(comps[comp_of[e.source]]))
            rule_span = next(r.span for r in rules if any(h.relation == e.target
                                                          for h in r.heads))
            diags.error(e.span, f"relation `{e.source}` is negated inside its own recursive "
                                f"cycle ({cycle}); negation must not be recursive",
                        (Diagnostic("note", f"`{e.target}` is derived here", rule_span),))
    diags.raise_if_errors()
    self_loops = {e.target for e in edges if e.source == e.target}
    strata = []
    transformed = {out for app in transforms for out in app.outputs}
    for comp in reversed(comps):  # Tarjan yields reverse topological order
        if comp[0] in nodes:
            app = nodes[comp[0]]
            strata.append(Stratum(tuple(app.outputs), False, (), app))
            continue
        if comp[0] in transformed:
            continue
        rels = tuple(sorted(comp))
        recursive = len(rels) > 1 or rels[0] in self_loops
        members = set(rels)
        mine = tuple(r for r in rules if any(h.relation in members for h in r.heads))
        strata.append(Stratum(rels, recursive, mine, group_steps=_group_steps(mine, members)))
    return strata


def _group_steps(rules: tuple[T.CoreRule, ...], members: set[str]) -> tuple[str, ...]:
    """The aggregation helpers among ``members`` (a ``group_by``'s rows and groups)
    in an order where each comes after the helpers it reads: empty unless the
    recursion goes through a ``group_by``. The helpers of one rule form a chain (rows,
    groups, the next ``group_by``'s rows, ...), so the order exists."""
    helpers: set[str] = set()
    for r in rules:
        for c in r.body:
            if isinstance(c, T.CGroupSource) and c.relation in members:
                helpers.add(c.relation)
                helpers.update(h.relation for h in r.heads)
    reads = {h: {c.relation for r in rules if any(x.relation == h for x in r.heads)
                 for c in r.body if isinstance(c, (T.CAtom, T.CGroupSource))
                 and c.relation in helpers and c.relation != h} for h in helpers}
    order: list[str] = []
    while len(order) < len(helpers):
        ready = sorted(h for h in helpers if h not in order and reads[h] <= set(order))
        if not ready:
            raise AssertionError(f"aggregation helpers read each other: {sorted(helpers)}")
        order.append(ready[0])
    return tuple(order)


def node_name(i: int) -> str:
    """The dependency graph's node of the ``i``-th transformer application."""
    return f"<transformer>#{i}"


def _tarjan(succ: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components, iteratively (deep recursion would overflow)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    comps: list[list[str]] = []
    counter = 0
    for root in succ:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            children = succ[v]
            if i < len(children):
                work.append((v, i + 1))
                w = children[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return comps
