"""The ``graph`` library's transformers as rules (dl2sql/stdlib/graph.dl declares them).

Each ``apply`` becomes rules over helper relations named after its output
(``Out__Edges``, ``Out__Reach``, ``Out__Path``), all of the output's record type
``(N, N)``, so that the engines evaluate them like any recursive stratum (semi-naive
fixpoint loops, nothing collected to the driver) and the incremental path maintains
them. What each computes, from DDlog's differential-dataflow implementation:

* ``SCC``: the nodes that lie on a cycle, each labelled with the smallest node of its
  strongly connected component: ``n`` and ``m`` are in one component when each reaches
  the other by a path of at least one edge.
* ``ConnectedComponents`` (and ``ConnectedComponents64``, the same result): labels start
  at the targets of edges (each its own label) and flow forward along edges; a node
  keeps the smallest label that reaches it. Nodes that are no edge's target get none.
* ``UnsafeBidirectionalEdges``: unordered node pairs to which more than one edge record
  maps, in both directions.

Labels are found through reachability (``Out__Reach``/``Out__Path`` hold every pair of
connected nodes) followed by a ``group_by`` minimum, which costs the square of a
component's size in rows where DDlog's label propagation keeps one label per node.
"""
from __future__ import annotations

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span
from dl2sql.types.model import TTuple
from dl2sql.types.symbols import Symbols, qualify

GRAPH_TRANSFORMERS = ("graph::SCC", "graph::ConnectedComponents",
                      "graph::ConnectedComponents64", "graph::UnsafeBidirectionalEdges")


class _Build:
    """AST nodes located at the ``apply`` they come from."""

    def __init__(self, span: Span):
        self.span = span

    def var(self, name: str) -> A.EVar:
        return A.EVar(self.span, name)

    def pair(self, a: A.Expr, b: A.Expr) -> A.ETuple:
        return A.ETuple(self.span, (a, b))

    def atom(self, relation: str, whole: A.Expr) -> A.Atom:
        return A.Atom(self.span, relation, (), whole)

    def lit(self, relation: str, whole: A.Expr) -> A.ClLiteral:
        return A.ClLiteral(self.span, self.atom(relation, whole))

    def let(self, name: str, value: A.Expr) -> A.ClExpr:
        return A.ClExpr(self.span, A.EAssign(self.span, A.EVarDecl(self.span, name), value))

    def call(self, func: str, *args: A.Expr) -> A.ECall:
        return A.ECall(self.span, func, args)

    def method(self, recv: A.Expr, func: str, *args: A.Expr) -> A.EDotCall:
        return A.EDotCall(self.span, recv, func, args)

    def rule(self, heads: list[A.Atom], body: list) -> A.Rule:
        return A.Rule(self.span, tuple(heads), tuple(body))

    def smallest(self, name: str, value: str, key: str) -> A.ClExpr:
        """``var name = value.group_by(key).min()``."""
        group = self.method(self.var(value), "group_by", self.var(key))
        return self.let(name, self.method(group, "min"))


def graph_rules(app, syms: Symbols, diags: Diagnostics) -> list[A.Rule]:
    """The rules computing ``app`` (an ``Application`` of one of GRAPH_TRANSFORMERS);
    the helper relations are added to ``syms``."""
    d = app.decl
    out = app.outputs[0]
    record = syms.relations[out].record_type
    if not (isinstance(record, TTuple) and len(record.elems) == 2
            and record.elems[0] == record.elems[1]):
        diags.error(d.span, f"the output `{d.outputs[0]}` of `{d.transformer}` must be a "
                            f"relation of node pairs `(N, N)`, not of `{record}`")
        return []
    b = _Build(d.span)
    short = app.transformer.rsplit("::", 1)[-1]
    edges_in, output = d.args[0], d.outputs[0]
    from_fn, to_fn = app.functions
    if short == "UnsafeBidirectionalEdges":
        return [_bidirectional(b, edges_in, from_fn, to_fn, output)]
    helper = _helpers(app, syms, ("Edges", "Reach" if short != "SCC" else "Path"), diags)
    if helper is None:
        return []
    edges, closure = helper
    pairs = b.rule([b.atom(edges, b.pair(b.var("x"), b.var("y")))],
                   [b.lit(edges_in, b.var("e")),
                    b.let("x", b.call(from_fn, b.var("e"))),
                    b.let("y", b.call(to_fn, b.var("e")))])
    if short == "SCC":
        return [pairs] + _scc(b, edges, closure, output)
    return [pairs] + _propagate(b, edges, closure, output)


def _helpers(app, syms: Symbols, roles, diags: Diagnostics):
    """Register one helper relation per role (record type: the output's); their names
    as the applying module sees them (None after an error: a name is taken)."""
    out_info = syms.relations[app.outputs[0]]
    local = app.outputs[0].rsplit("::", 1)[-1]
    names = []
    for role in roles:
        name = f"{local}__{role}"
        q = qualify(app.module, name)
        if q in syms.relations:
            diags.error(app.decl.span, f"relation `{name}` is declared already: dl2sql "
                                       f"names a helper relation of this `apply` so")
            return None
        syms.relations[q] = type(out_info)(q, "internal", "relation", out_info.record_type,
                                           span=app.decl.span, generated=True)
        names.append(name)
    return names


def _scc(b: _Build, edges: str, path: str, output: str) -> list[A.Rule]:
    """Path = paths of one edge or more; a node on a cycle gets the smallest node that
    it reaches and that reaches it."""
    v = b.var
    return [
        b.rule([b.atom(path, b.pair(v("a"), v("b")))], [b.lit(edges, b.pair(v("a"), v("b")))]),
        b.rule([b.atom(path, b.pair(v("a"), v("c")))],
               [b.lit(path, b.pair(v("a"), v("b"))), b.lit(edges, b.pair(v("b"), v("c")))]),
        b.rule([b.atom(output, b.pair(v("n"), v("l")))],
               [b.lit(path, b.pair(v("n"), v("m"))), b.lit(path, b.pair(v("m"), v("n"))),
                b.smallest("l", "m", "n")]),
    ]


def _propagate(b: _Build, edges: str, reach: str, output: str) -> list[A.Rule]:
    """Reach(l, n): label ``l`` (an edge's target) flows to ``n``; the smallest wins."""
    v = b.var
    return [
        b.rule([b.atom(reach, b.pair(v("l"), v("l")))],
               [b.lit(edges, b.pair(A.EWild(b.span), v("l")))]),
        b.rule([b.atom(reach, b.pair(v("l"), v("m")))],
               [b.lit(reach, b.pair(v("l"), v("n"))), b.lit(edges, b.pair(v("n"), v("m")))]),
        b.rule([b.atom(output, b.pair(v("n"), v("l")))],
               [b.lit(reach, b.pair(v("k"), v("n"))), b.smallest("l", "k", "n")]),
    ]


def _bidirectional(b: _Build, edges_in: str, from_fn: str, to_fn: str,
                   output: str) -> A.Rule:
    """Both orientations of each unordered pair that more than one edge record gives."""
    v = b.var
    less = A.EBinOp(b.span, "<", v("x"), v("y"))
    key = b.pair(v("lo"), v("hi"))
    count = b.method(b.method(v("e"), "group_by", key), "count_distinct")
    return b.rule(
        [b.atom(output, b.pair(v("lo"), v("hi"))), b.atom(output, b.pair(v("hi"), v("lo")))],
        [b.lit(edges_in, v("e")),
         b.let("x", b.call(from_fn, v("e"))),
         b.let("y", b.call(to_fn, v("e"))),
         b.let("lo", A.EIf(b.span, less, v("x"), v("y"))),
         b.let("hi", A.EIf(b.span, less, v("y"), v("x"))),
         b.let("c", count),
         A.ClExpr(b.span, A.EBinOp(b.span, ">", v("c"), A.EInt(b.span, 1)))])
