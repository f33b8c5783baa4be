"""Type checking of rules: atoms and patterns, body clauses left to right, heads."""
from __future__ import annotations

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span, suggest
from dl2sql.types import typed as T
from dl2sql.types.check_expr import ExprChecker
from dl2sql.types.check_flow import FlowChecks
from dl2sql.types.check_group import GroupChecks, find_aggregation
from dl2sql.types.check_places import PlaceChecks
from dl2sql.types.infer import Inference, has_open_type, zonk
from dl2sql.types.model import BOOL, REF, TRANSPARENT, UNIT, TNamed, TSigned, TTuple, Type
from dl2sql.types.symbols import Symbols
from dl2sql.types.transactional import check_atom_kind, delayed_relation

BIND, NO_BIND = "bind", "no-bind"
SHADOW = "shadow"  # match arms may rebind visible names (upstream's std_test does)


class RuleChecker(GroupChecks, PlaceChecks, FlowChecks, ExprChecker):
    """Checks one rule; patterns bind variables into ``scope`` in source order."""

    def __init__(self, syms: Symbols, module: str, diags: Diagnostics):
        super().__init__(syms, module, Inference(diags), diags)

    # ------------------------------------------------------------------ patterns
    def pattern(self, e: A.Expr, expected: Type, scope: dict[str, Type], mode: str,
                pending: dict[str, Type]) -> T.Pattern:
        """Typed pattern for ``e`` matched against a value of type ``expected``.
        Variables bound here go to ``pending`` (visible after the whole clause)."""
        if isinstance(e, A.EWild):
            return T.PWild(expected)
        if isinstance(e, (A.EVarDecl, A.EVar)):
            name = e.name
            if isinstance(e, A.EVar) and name in scope:
                return T.PEq(expected, self.expr(e, scope, expected))
            if isinstance(e, A.EVarDecl) and name in scope and mode != SHADOW:
                self.diags.error(e.span, f"variable `{name}` is already defined")
            if name in pending:
                self.diags.error(e.span, f"variable `{name}` is introduced and used in the "
                                         f"same clause; write a separate condition")
                return T.PWild(expected)
            if mode == NO_BIND:
                self.diags.error(e.span, f"variable `{name}` must be bound before it is "
                                         f"used in a negated atom" + suggest(name, scope))
                return T.PWild(expected)
            if isinstance(e, A.EVarDecl) and e.type is not None:
                self.inf.unify(self.syms.to_type(e.type, self.module, self.tparams, self.diags),
                               expected, e.span)
            pending[name] = expected
            return T.PVar(expected, name)
        if isinstance(e, A.EStruct):
            return self._ctor_pattern(e, expected, scope, mode, pending)
        if isinstance(e, A.ETuple):
            elem_types = tuple(self.inf.fresh() for _ in e.elems)
            self.inf.unify(TTuple(elem_types), expected, e.span, "a tuple pattern")
            return T.PTuple(expected, tuple(self.pattern(x, t, scope, mode, pending)
                                            for x, t in zip(e.elems, elem_types)))
        if isinstance(e, A.EBinding):
            inner = self.pattern(e.pattern, expected, scope, mode, pending)
            if e.name in scope or e.name in pending:
                self.diags.error(e.span, f"variable `{e.name}` is already defined")
            pending[e.name] = expected
            return T.PBind(expected, e.name, inner)
        if isinstance(e, A.ETyped):
            t = self.syms.to_type(e.type, self.module, self.tparams, self.diags)
            self.inf.unify(t, expected, e.span)
            return self.pattern(e.expr, expected, scope, mode, pending)
        if isinstance(e, A.ERef):
            # `&p` matches the contents of a Ref or Intern, which are stored unwrapped
            t = self.resolved(expected)
            if not (isinstance(t, TNamed) and t.name in TRANSPARENT):
                self.diags.error(e.span, f"`&` patterns match `Ref<T>` or `Intern<T>` "
                                         f"values, not `{self.inf.show(t)}`")
                return T.PWild(expected)
            return self.pattern(e.expr, t.args[0], scope, mode, pending)
        return T.PEq(expected, self.expr(e, scope, expected))

    def _ctor_pattern(self, e: A.EStruct, expected, scope, mode, pending) -> T.Pattern:
        info = self.ctor_info(e.ctor, e.span)
        if info is None:
            self._bind_silently(e, scope, pending)
            return T.PWild(expected)
        q, ctype, fields = info
        self.inf.unify(ctype, expected, e.span, f"the pattern `{e.ctor}`")
        pats = self._ctor_args(e, fields, lambda a, ft: self.pattern(a, ft, scope, mode,
                                                                     pending), partial=True)
        if pats is None:
            return T.PWild(expected)
        pairs = tuple((n, p) for (n, _), p in zip(fields, pats)
                      if p is not None and not isinstance(p, T.PWild))
        return T.PCtor(expected, q, pairs)

    def _bind_silently(self, e, scope, pending) -> None:
        """Bind the variables of a pattern that could not be checked, so that one
        mistake does not also report every later use of its variables."""
        if isinstance(e, (A.EVar, A.EVarDecl)):
            if e.name not in scope:
                pending.setdefault(e.name, self.inf.fresh())
        elif isinstance(e, A.EStruct):
            for a in e.args:
                self._bind_silently(a.value, scope, pending)
        elif isinstance(e, A.ETuple):
            for x in e.elems:
                self._bind_silently(x, scope, pending)
        elif isinstance(e, (A.EBinding, A.ETyped)):
            self._bind_silently(e.pattern if isinstance(e, A.EBinding) else e.expr, scope,
                                pending)

    # ------------------------------------------------------------------ atoms
    def atom(self, a: A.Atom, scope, mode) -> tuple[str, T.Pattern]:
        """Relation name and record pattern of a body atom; binds into ``scope``."""
        rel = self._relation(a.relation, a.span)
        if rel is not None and (a.delay or a.diff):
            check_atom_kind(a, rel, self.syms, self.diags)
            if a.delay:  # `R-N` reads R's contents of N transactions ago, stored apart
                rel = delayed_relation(self.syms, rel, a.delay, a.span)
        if rel is None:
            pending: dict[str, Type] = {}
            for arg in a.args:
                self._bind_silently(arg.value, scope, pending)
            scope.update(pending)
            return a.relation, T.PWild(self.inf.fresh())
        rtype = self.syms.relations[rel].record_type
        pending: dict[str, Type] = {}
        if a.whole is not None:
            pat = self.pattern(a.whole, rtype, scope, mode, pending)
        else:
            pat = self._record_pattern(a, rtype, scope, mode, pending)
        if a.binder:
            if a.binder in scope:
                self.diags.error(a.span, f"variable `{a.binder}` is already defined")
            pending[a.binder] = rtype
            pat = T.PBind(rtype, a.binder, pat)
        scope.update(pending)
        return rel, pat

    def _record_pattern(self, a: A.Atom, rtype, scope, mode, pending) -> T.Pattern:
        while isinstance(rtype, TNamed) and rtype.name in TRANSPARENT:
            rtype = rtype.args[0]  # stored unwrapped: match the contents
        ctor = self._positional_ctor(self._relation(a.relation, a.span), rtype)
        if ctor is None:
            if a.args:
                self.diags.error(a.span, f"relation `{a.relation}` holds values of type "
                                         f"`{rtype}`; match them with `{a.relation}[pattern]`")
            return T.PWild(rtype)
        fake = A.EStruct(a.span, ctor.name, a.args)
        if a.args and all(x.name is None for x in a.args) and len(a.args) != len(ctor.fields):
            self.diags.error(a.span, f"relation `{a.relation}` has {len(ctor.fields)} "
                                     f"field(s), {len(a.args)} argument(s) given")
            return T.PWild(rtype)
        pats = self._ctor_args(fake, list(ctor.fields),
                               lambda x, ft: self.pattern(x, ft, scope, mode, pending),
                               partial=True)
        if pats is None:
            return T.PWild(rtype)
        pairs = tuple((n, p) for (n, _), p in zip(ctor.fields, pats)
                      if p is not None and not isinstance(p, T.PWild))
        return T.PCtor(rtype, ctor.name, pairs)

    def _relation(self, name: str, span: Span):
        rel = self.syms.resolve_relation(name, self.module)
        if rel is None:
            known = [r.rsplit("::", 1)[-1] for r in self.syms.relations]
            self.diags.error(span, f"unknown relation `{name}`" + suggest(name, known))
        return rel

    # ------------------------------------------------------------------ rules
    def rule(self, r: A.Rule) -> T.CoreRule:
        """The typed core form of ``r``."""
        scope: dict[str, Type] = {}
        body: list[T.Clause] = []
        for c in r.body:
            if isinstance(c, A.ClLiteral):
                rel, pat = self.atom(c.atom, scope, NO_BIND if c.negated else BIND)
                body.append(T.CAtom(c.span, rel, pat, c.negated))
            elif isinstance(c, A.ClInspect):
                self._inspect(c, scope)  # checked, then dropped: it only traces
            elif find_aggregation(c.expr) is not None:
                body += self.group_clauses(c, find_aggregation(c.expr), scope)
            else:
                body.append(self._clause_expr(c, scope))
        heads = tuple(self._head(h, scope, bool(r.body)) for h in r.heads)
        self.inf.default_literals()
        out = zonk(T.CoreRule(r.span, heads, tuple(body)), self.inf)
        self._check_inferred(out, r.span)
        return out

    def _inspect(self, c: A.ClInspect, scope) -> None:
        """``Inspect e``: ``e`` is a unit expression over the rule's variables and
        DDlog's ``ddlog_weight`` (s64) and ``ddlog_timestamp`` (an epoch, or an epoch
        and an iteration inside recursion: left open here)."""
        inner = {**scope, "ddlog_weight": TSigned(64), "ddlog_timestamp": self.inf.fresh()}
        te = self.expr(c.expr, inner)
        if self._fits([UNIT], [te]):
            self.inf.unify(te.type, UNIT, c.expr.span)
        else:
            self.diags.error(c.expr.span, f"`Inspect` takes an expression of type `()` (it "
                                          f"only traces), found `{self.inf.show(te.type)}`")

    def _clause_expr(self, c: A.ClExpr, scope) -> T.Clause:
        e = c.expr
        if isinstance(e, A.EAssign) and isinstance(e.rhs, A.ECall) and \
                e.rhs.func == "FlatMap" and len(e.rhs.args) == 1:
            coll = self.expr(e.rhs.args[0], scope)
            elem = self._element_type(coll.type, e.rhs.span)
            pending: dict[str, Type] = {}
            pat = self.pattern(e.lhs, elem, scope, BIND, pending)
            scope.update(pending)
            return T.CFlatMap(c.span, pat, coll)
        if isinstance(e, A.EAssign):
            rhs = self.expr(e.rhs, scope)
            pending: dict[str, Type] = {}
            pat = self.pattern(e.lhs, rhs.type, scope, BIND, pending)
            scope.update(pending)
            return T.CMatch(c.span, pat, rhs)
        if _is_aggregation(e):
            self.unsupported(e.span, "`FlatMap` outside `var x = FlatMap(e)`")
            return T.CFilter(c.span, T.TConst(BOOL, True))
        return T.CFilter(c.span, self.expr(e, scope, BOOL))

    def _head(self, h: A.Atom, scope, has_body: bool) -> T.Head:
        rel = self._relation(h.relation, h.span)
        if rel is None:
            return T.Head(h.span, h.relation, T.TConst(self.inf.fresh(), None))
        info = self.syms.relations[rel]
        if info.role == "input" and has_body:
            self.diags.error(h.span, f"input relation `{h.relation}` cannot be derived by a "
                                     f"rule (only facts may add to it)")
        if h.delay:
            self.diags.error(h.span, "a delayed relation cannot be a rule head")
        if h.diff:
            self.diags.error(h.span, "differentiation (') is not allowed in the head "
                                     "of a rule")
        rtype = info.record_type
        if h.whole is not None:
            return T.Head(h.span, rel, self.expr(h.whole, scope, rtype))
        wrappers = []
        while isinstance(rtype, TNamed) and rtype.name in TRANSPARENT:
            wrappers.append(rtype)
            rtype = rtype.args[0]
        ctor = self._positional_ctor(rel, rtype)
        if ctor is None:
            self.diags.error(h.span, f"relation `{h.relation}` holds values of type "
                                     f"`{rtype}`; write the head as `{h.relation}[value]`")
            return T.Head(h.span, rel, T.TConst(rtype, None))
        fake = A.EStruct(h.span, ctor.name, h.args)
        args = self._ctor_args(fake, list(ctor.fields),
                               lambda x, ft: self.expr(x, scope, ft))
        if args is None:
            return T.Head(h.span, rel, T.TConst(rtype, None))
        record: T.TExpr = T.TStruct(rtype, ctor.name, tuple(args))
        for w in reversed(wrappers):  # `R(...)` of a `relation R[Intern<T>]`
            record = T.TCall(w, "ddlog_std::ref_new" if w.name == REF else
                             "ddlog_std::intern", (record,), (record.type,))
        return T.Head(h.span, rel, record)

    def _positional_ctor(self, rel: str, rtype):
        """The constructor ``R(args)`` builds or matches: the record type's only one,
        or, for a union, the constructor named like the relation (as DDlog does)."""
        ctors = self.syms.env.ctors(rtype) if isinstance(rtype, TNamed) and \
            rtype.name in self.syms.env.defs else ()
        if len(ctors) == 1:
            return ctors[0]
        short = rel.rsplit("::", 1)[-1]
        return next((c for c in ctors if c.short_name == short), None)

    def _check_inferred(self, rule: T.CoreRule, span: Span) -> None:
        if has_open_type(rule) and not self.diags.has_errors:
            self.diags.error(span, "cannot infer the type of an expression in this rule; "
                                   "add a type annotation (`e: T`)")


def _is_aggregation(e: A.Expr) -> bool:
    return isinstance(e, A.ECall) and e.func == "FlatMap"
