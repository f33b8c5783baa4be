"""Dependency graph of relations and its strata (strongly connected components in
dependency order). Negation inside a recursive cycle is a located error."""
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


def stratify(rules: list[T.CoreRule], relations: list[str],
             transforms=()) -> list[Stratum]:
    """Strata of the non-input ``relations`` in an order where each stratum only reads
    relations of earlier strata (or its own, when recursive). Each of ``transforms``
    (applications of user transformers, never recursive: the type checker refuses
    it) is one stratum of its outputs, after all its inputs."""
    edges = dependency_edges(rules)
    succ: dict[str, list[str]] = {r: [] for r in relations}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
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
        if e.aggregated and comp_of[e.source] == comp_of[e.target]:
            cycle = sorted(r for r in comps[comp_of[e.source]] if "__group" not in r)
            diags.error(e.span, "this `group_by` aggregates rows that depend on its own "
                                "result (recursion through "
                                + ", ".join(f"`{r}`" for r in cycle)
                                + "); aggregation must not be recursive")
        elif e.negated and comp_of[e.source] == comp_of[e.target]:
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
        strata.append(Stratum(rels, recursive, tuple(
            r for r in rules if any(h.relation in members for h in r.heads))))
    return strata


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
