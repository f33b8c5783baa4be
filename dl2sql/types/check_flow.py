"""Type checking of calls, ``match``, blocks and control flow (a mixin of RuleChecker).

Calls are resolved against the overloads visible from the module; a generic function
gets fresh type variables per call, and the call records the types they resolve to
(``TCall.targs``), so that each instance can be checked and compiled on its own.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import suggest
from dl2sql.stdlib import modules_defining
from dl2sql.types import typed as T
from dl2sql.types.check_places import place_root
from dl2sql.types.exhaustive import missing_case
from dl2sql.types.infer import is_infer_var
from dl2sql.types.model import (BOOL, SET_KINDS, STRING, TBit, TFunc, TNamed, TString, TTuple, TVar,
                                Type, UNIT)
from dl2sql.types.symbols import FunctionSym


def signature_tvars(fn: A.FunctionDef) -> list[str]:
    """Type variables of a function signature, in order of first appearance."""
    out: list[str] = []

    def walk(t):
        if isinstance(t, A.TVarE):
            if t.name not in out:
                out.append(t.name)
        elif isinstance(t, (A.TTupleE,)):
            for e in t.elems:
                walk(e)
        elif isinstance(t, A.TNameE):
            for a in t.args:
                walk(a)
        elif isinstance(t, A.TFunctionE):
            for p in t.params:
                walk(p.type)
            if t.ret:
                walk(t.ret)
    for p in fn.params:
        walk(p.type)
    if fn.ret:
        walk(fn.ret)
    return out


class FlowChecks:
    """Checks for calls, match, blocks; mixed into RuleChecker."""

    ret_type: Optional[Type] = None  # set while checking a function body
    mutable: frozenset = frozenset()

    # ------------------------------------------------------------------ calls
    def signature(self, sym: FunctionSym):
        """(param types, return type, type-argument variables) with fresh variables."""
        tvars = signature_tvars(sym.decl)
        mapping = {n: self.inf.fresh() for n in tvars}
        params = [self.syms.to_type(p.type, sym.module, mapping, self.diags)
                  for p in sym.decl.params]
        ret = (self.syms.to_type(sym.decl.ret, sym.module, mapping, self.diags)
               if sym.decl.ret else UNIT)
        return params, ret, tuple(mapping[n] for n in tvars)

    def _unknown_function(self, func: str) -> str:
        """The message for a call of ``func``, which nothing in scope defines: the
        library modules that define it if any (``fold`` is `group`'s), else the
        closest known name."""
        plain = func.rsplit("::", 1)[-1]
        modules = [m for m in modules_defining(plain) if "::" not in func]
        if modules:
            imports = [f"`import {m}`" for m in modules]
            listed = (", ".join(imports[:-1]) + " or " + imports[-1]) if len(imports) > 1 \
                else imports[0]
            return f"unknown function `{func}`: {listed} defines one"
        known = {n.rsplit("::", 1)[-1] for n in self.syms.functions}
        return f"unknown function `{func}`" + suggest(plain, known)

    def call(self, e, scope, expected) -> T.TExpr:
        """A function call, ``f(args)`` or ``recv.f(args)``."""
        args = (e.recv,) + e.args if isinstance(e, A.EDotCall) else e.args
        if e.func in ("group_by", "Aggregate"):
            self.diags.error(e.span, f"`{e.func}` may only appear in a clause of a rule "
                                     f"body")
            return T.TConst(self.inf.fresh(), None)
        cands = [s for s in self.syms.resolve_function(e.func, self.module)
                 if len(s.decl.params) == len(args)]
        if not cands:
            every = self.syms.resolve_function(e.func, self.module)
            if every:
                n = sorted({len(s.decl.params) for s in every})
                self.diags.error(e.span, f"function `{e.func}` takes "
                                         f"{' or '.join(map(str, n))} argument(s), "
                                         f"{len(args)} given")
            else:
                self.diags.error(e.span, self._unknown_function(e.func))
            return T.TConst(self.inf.fresh(), None)
        pre: dict[int, T.TExpr] = {}
        if len(cands) > 1:
            # several overloads: the arguments that are not closures choose
            pre = {i: self.expr(a, scope) for i, a in enumerate(args)
                   if not _is_function_arg(a, scope)}
            fitting = [c for c in cands if self._fits_partly(self.signature(c)[0], pre)
                       and _closure_arities_fit(args, self.signature(c)[0], self.inf)]
            if len(fitting) > 1 and expected is not None:
                # overloads that differ in their result only: the context chooses
                fitting = [c for c in fitting
                           if self._fits([self.signature(c)[1]], [T.TConst(expected, None)])
                           ] or fitting
            if len(fitting) == 1 or (fitting and len(pre) == len(args)):
                cands = fitting[:1]
            elif fitting:
                cands = fitting
        if len(cands) == 1:
            # one candidate: its parameter types guide the arguments (closure parameters,
            # literals), as DDlog's inference does
            params, ret, tvars = self.signature(cands[0])
            typed: dict[int, T.TExpr] = {}
            # plain arguments first: they fix the type variables closures then rely on
            # (`fold(|acc, x| acc ++ x, "")`)
            for i, (a, p) in enumerate(zip(args, params)):
                if i in pre or not _is_function_arg(a, scope):
                    te = pre[i] if i in pre else self.expr(a, scope)
                    self.inf.unify(te.type, p, a.span, f"argument of `{e.func}`")
                    typed[i] = te
            for i, (a, p) in enumerate(zip(args, params)):
                if i not in typed:
                    typed[i] = self.expr(a, scope, p)
            typed = [typed[i] for i in range(len(args))]
            self.check_mut_args(cands[0], args, typed)
            return T.TCall(ret, cands[0].name, tuple(typed), tvars,
                           any(p.mutable for p in cands[0].decl.params))
        targs_typed = [pre[i] if i in pre else self.expr(a, scope)
                       for i, a in enumerate(args)]
        for sym in cands:
            params, ret, tvars = self.signature(sym)
            if len(cands) > 1 and not self._fits(params, targs_typed):
                continue
            for a, p, te in zip(args, params, targs_typed):
                self.inf.unify(te.type, p, a.span, f"argument of `{e.func}`")
            self.check_mut_args(sym, args, targs_typed)
            return T.TCall(ret, sym.name, tuple(targs_typed), tvars,
                           any(p.mutable for p in sym.decl.params))
        shown = ", ".join(f"`{self.inf.show(t.type)}`" for t in targs_typed)
        self.diags.error(e.span, f"no overload of `{e.func}` takes arguments of type {shown}")
        return T.TConst(self.inf.fresh(), None)

    def _fits_partly(self, params, typed: dict) -> bool:
        """Whether the already typed arguments (by position) fit ``params``."""
        return self._fits([params[i] for i in sorted(typed)],
                          [typed[i] for i in sorted(typed)])

    def _fits(self, params, args) -> bool:
        saved = dict(self.inf.subst)
        ok = all(self.inf._unify(self.inf.resolve(a.type), self.inf.resolve(p), None)
                 for p, a in zip(params, args))
        self.inf.subst = saved
        return ok

    def user_to_string(self, te: T.TExpr, t: TNamed, span) -> Optional[T.TExpr]:
        """``to_string(x)`` declared by the user for ``x``'s type, if any."""
        module = self.syms.env.defs[t.name].module
        for sym in self.syms.resolve_function("to_string", module):
            if sym.module == "ddlog_std" or len(sym.decl.params) != 1:
                continue
            params, ret, tvars = self.signature(sym)
            if self._fits(params, [te]):
                self.inf.unify(te.type, params[0], span)
                return T.TCall(STRING, sym.name, (te,), tvars)
        return None

    # ------------------------------------------------------------------ closures
    def closure(self, e: A.EClosure, scope, expected) -> T.TExpr:
        """``|x, y: T| body``: parameters without annotations are inferred."""
        hint = self.inf.resolve(expected) if expected is not None else None
        self.check_closure_params(e)
        params = []
        for i, p in enumerate(e.params):
            if p.type is not None:
                t = self.syms.to_type(p.type, self.module, self.tparams, self.diags)
            elif isinstance(hint, TFunc) and i < len(hint.params):
                t = hint.params[i]
            else:
                t = self.inf.fresh()
            params.append((p.name, t))
        inner = dict(scope)
        inner.update(params)
        hinted = tuple(hint.mutable) if isinstance(hint, TFunc) and hint.mutable else ()
        mutable = tuple(p.mutable or (i < len(hinted) and hinted[i])
                        for i, p in enumerate(e.params))
        saved_mut = getattr(self, "mutable", frozenset())
        self.mutable = saved_mut | {n for (n, _), m in zip(params, mutable) if m}
        ret_hint = self.syms.to_type(e.ret, self.module, self.tparams, self.diags) if e.ret else \
            (hint.ret if isinstance(hint, TFunc) else None)
        # `return` and `?` inside the closure leave the closure, with its result type
        saved_ret = self.ret_type
        self.ret_type = ret_hint if ret_hint is not None else self.inf.fresh()
        with self.outside_loops():
            body = (self.statement(e.body, inner, None) if isinstance(e.body, A.EAssign)
                    else self.expr(e.body, inner, ret_hint))
        if ret_hint is None:
            self.inf.unify(body.type, self.ret_type, e.span, "the closure's result")
        self.ret_type, self.mutable = saved_ret, saved_mut
        ret = body.type
        if ret_hint is not None and self.inf.resolve(ret_hint) == self.inf.resolve(ret):
            ret = ret_hint  # the same type, as written (with its aliases)
        ftype = TFunc(tuple(t for _, t in params), ret, mutable if any(mutable) else ())
        return T.TClosure(ftype, tuple(params), body)

    def _relation_called(self, e: A.EApply) -> bool:
        """``R(x)`` inside an expression, where ``R`` is a relation: refused with one
        error saying where a row of a relation is tested (rather than as a constructor
        of ``R``'s record given no field, called with arguments)."""
        callee = e.callee
        if not (isinstance(callee, A.EStruct) and not callee.braces and not callee.args):
            return False
        if self.syms.resolve_relation(callee.ctor, self.module) is None:
            return False
        self.diags.error(e.span, f"`{callee.ctor}` is a relation: an expression cannot test "
                                 f"whether it holds a row; write `{callee.ctor}(...)` as an "
                                 f"atom of the rule's body (or `not {callee.ctor}(...)`)")
        return True

    def apply(self, e, callee: T.TExpr, args, scope) -> T.TExpr:
        """A call of a function-typed value."""
        t = self.inf.resolve(callee.type)
        if not isinstance(t, TFunc) or len(t.params) != len(args):
            self.diags.error(e.span, f"a value of type `{self.inf.show(t)}` cannot be "
                                     f"called with {len(args)} argument(s)")
            return T.TConst(self.inf.fresh(), None)
        typed_args = tuple(self.expr(a, scope, p) for a, p in zip(args, t.params))
        return T.TApply(t.ret, callee, typed_args)

    # ------------------------------------------------------------------ match
    def match(self, e: A.EMatch, scope, expected) -> T.TExpr:
        scrut = self.expr(e.scrutinee, scope)
        arms = []
        result: Optional[Type] = expected
        for arm in e.arms:
            pending: dict[str, Type] = {}
            inner = dict(scope)
            pat = self.pattern(arm.pattern, scrut.type, inner, "shadow", pending)
            inner.update(pending)
            saved_mut = getattr(self, "mutable", frozenset())
            if place_root(scrut) in saved_mut:
                # a match on a mutable l-value binds by reference: assigning to what the
                # pattern bound changes the scrutinee (the interpreter writes it back)
                self.mutable = saved_mut | set(pending)
            body = (self.statement(arm.body, inner, None) if isinstance(arm.body, A.EAssign)
                    else self.expr(arm.body, inner, result))  # `p -> x = e`: a statement
            self.mutable = saved_mut
            if isinstance(arm.body, A.EAssign) and result is not None:
                self.inf.unify(body.type, result, arm.body.span, "the arms of `match`")
            if result is None:
                result = body.type
            arms.append((pat, body))
        if result is None:
            result = UNIT
        self.check_arms(e, [p for p, _ in arms], scrut.type)
        rtype = self.inf.resolve(scrut.type)
        if not is_infer_var(rtype):
            gap = missing_case([p for p, _ in arms], rtype, self.syms.env)
            if gap is not None:
                self.diags.error(e.span, f"non-exhaustive match: `{gap}` is not covered")
        return T.TMatch(result, scrut, tuple(arms))

    # ------------------------------------------------------------------ blocks
    def block(self, e: A.EBlock, scope, expected) -> T.TExpr:
        inner = dict(scope)
        items: list[T.TExpr] = []
        for i, item in enumerate(e.items):
            last = i == len(e.items) - 1 and not e.trailing_semi
            items.append(self.statement(item, inner, expected if last else None))
        if not items or e.trailing_semi:
            items.append(T.TTupleE(UNIT, ()))
        return T.TSeq(items[-1].type, tuple(items))

    def statement(self, e: A.Expr, scope: dict, expected) -> T.TExpr:
        """One block item; ``var`` declarations extend ``scope`` in place."""
        if isinstance(e, A.EAssign) and _declares(e.lhs):
            rhs = self.expr(e.rhs, scope)
            pending: dict[str, Type] = {}
            # a `var` of a block may shadow a variable of the function (DDlog's
            # simple2 does); only rules refuse shadowing
            pat = self.pattern(e.lhs, rhs.type, scope, "shadow", pending)
            self.check_let_pattern(pat, e.lhs)
            scope.update(pending)
            self.mutable = self.mutable | set(pending)
            return T.TLet(UNIT, pat, rhs)
        if isinstance(e, A.EAssign):
            target = self.expr(e.lhs, scope)
            root = place_root(target)
            if root is None or root not in self.mutable:
                self.diags.error(e.lhs.span, "cannot assign here: " + self.not_assignable(target))
            return T.TAssign(UNIT, target, self.expr(e.rhs, scope, target.type))
        return self.expr(e, scope, expected)

    def flow(self, e, scope, expected) -> Optional[T.TExpr]:
        """Control-flow and call forms, or None when ``e`` is none of them."""
        if isinstance(e, A.EClosure):
            return self.closure(e, scope, expected)
        if isinstance(e, A.EVarDecl):  # `var x` alone, not followed by `= e`
            self.diags.error(e.span, f"a variable declaration is not allowed here: declare "
                                     f"`{e.name}` with a value, `var {e.name} = e;`, before "
                                     f"the expressions that use it")
            return T.TConst(self.inf.fresh(), None)
        if isinstance(e, A.EApply) and self._relation_called(e):
            return T.TConst(self.inf.fresh(), None)
        if isinstance(e, A.EApply) or (isinstance(e, A.ECall) and e.func in scope):
            callee = (self.expr(e.callee, scope) if isinstance(e, A.EApply)
                      else T.TVarRef(scope[e.func], e.func))
            return self.apply(e, callee, e.args, scope)
        if isinstance(e, (A.ECall, A.EDotCall)):
            if isinstance(e, A.ECall) and e.func == "default" and not e.args:
                t = expected if expected is not None else self.inf.fresh()
                return T.TCall(t, "ddlog_std::default", (), (t,))
            return self.call(e, scope, expected)
        if isinstance(e, A.EMatch):
            return self.match(e, scope, expected)
        if isinstance(e, A.EBlock):
            return self.block(e, scope, expected)
        if isinstance(e, A.EFor):
            iterable = self.expr(e.iterable, scope)
            elem = self._element_type(iterable.type, e.iterable.span)
            inner = dict(scope)
            pending: dict[str, Type] = {}
            pat = self.pattern(e.pattern, elem, inner, "bind", pending)
            inner.update(pending)
            with self.in_loop(place_root(iterable)):
                body = self.expr(e.body, inner)
            return T.TFor(UNIT, pat, iterable, body)
        # `break`, `continue` and `return` do not produce a value, so they fit any type
        # (`if (c) { x } else { continue }`); alone they are statements of type ()
        if isinstance(e, A.EBreak):
            self.check_jump(e)
            return T.TBreak(expected or self._never())
        if isinstance(e, A.EContinue):
            self.check_jump(e)
            return T.TContinue(expected or self._never())
        if isinstance(e, A.EReturn):
            if self.ret_type is None:
                self.diags.error(e.span, "`return` outside of a function")
                return T.TConst(self.inf.fresh(), None)
            value = (self.expr(e.value, scope, self.ret_type) if e.value is not None
                     else T.TTupleE(UNIT, ()))
            if e.value is None:
                self.inf.unify(UNIT, self.ret_type, e.span, "`return`")
            return T.TReturn(expected or self._never(), value)
        if isinstance(e, A.ETry):
            return self.try_(e, scope)
        if isinstance(e, A.ESlice):
            inner = self.expr(e.expr, scope)
            t = self.inf.resolve(inner.type)
            if not isinstance(t, TBit) or not (0 <= e.lo <= e.hi < t.width):
                self.diags.error(e.span, f"bit slice [{e.hi}:{e.lo}] needs a bit<N> value "
                                         f"with N > {e.hi}, found `{self.inf.show(t)}`")
            return T.TSlice(TBit(e.hi - e.lo + 1), inner, e.hi, e.lo)
        return None

    def try_(self, e: A.ETry, scope) -> T.TExpr:
        """``e?``: the ``Some``/``Ok`` payload, else return ``None`` / the ``Err``."""
        inner = self.expr(e.expr, scope)
        t = self.inf.resolve(inner.type)
        ret = self.inf.resolve(self.ret_type) if self.ret_type is not None else None
        kinds = {"ddlog_std::Option": ("ddlog_std::Some", "x"),
                 "ddlog_std::Result": ("ddlog_std::Ok", "res")}
        if ret is not None and is_infer_var(ret) and isinstance(t, TNamed) and t.name in kinds:
            # a closure whose result is not known yet: `?` makes it the operand's kind
            args = (self.inf.fresh(),) + tuple(t.args[1:])
            self.inf.unify(ret, TNamed(t.name, args), e.span, "`?`")
            ret = self.inf.resolve(ret)
        if not isinstance(t, TNamed) or t.name not in kinds or not isinstance(ret, TNamed) \
                or ret.name not in kinds or (t.name, ret.name) == (
                    "ddlog_std::Option", "ddlog_std::Result"):
            self.diags.error(e.span, "`?` needs an Option or Result inside a function that "
                                     "returns Option or Result (an Option cannot be "
                                     "propagated from a function returning Result)")
            return T.TConst(self.inf.fresh(), None)
        ok_ctor, field = kinds[t.name]
        payload = t.args[0]
        var = f"?try{id(e)}"
        if ret.name == "ddlog_std::Option":
            failure: T.TExpr = T.TStruct(ret, "ddlog_std::None", ())
        else:
            err = T.TCtorField(t.args[1], T.TVarRef(t, var), "ddlog_std::Err", "err")
            self.inf.unify(t.args[1], ret.args[1], e.span, "the error type of `?`")
            failure = T.TStruct(ret, "ddlog_std::Err", (err,))
        arms = ((T.PCtor(t, ok_ctor, ((field, T.PVar(payload, var)),)),
                 T.TVarRef(payload, var)),
                (T.PBind(t, var, T.PWild(t)), T.TReturn(payload, failure)))
        return T.TMatch(payload, inner, arms)

    def _never(self) -> Type:
        """The type of an expression that never yields: unconstrained, () if nothing
        else decides it."""
        t = self.inf.fresh()
        self.inf.never_types = getattr(self.inf, "never_types", []) + [t]
        return t

    def _element_type(self, t: Type, span) -> Type:
        t = self.inf.resolve(t)
        if isinstance(t, TNamed) and (t.name == "ddlog_std::Vec" or t.name in SET_KINDS):
            return t.args[0]
        if isinstance(t, TNamed) and t.name == "ddlog_std::Map":
            return TTuple((t.args[0], t.args[1]))
        if isinstance(t, TNamed) and t.name == "ddlog_std::Group":
            return TTuple((t.args[1], self.syms.to_type(A.TSignedE(span, 64), "", {},
                                                        self.diags)))
        self.diags.error(span, f"cannot iterate over a value of type `{self.inf.show(t)}`")
        return self.inf.fresh()


def _closure_arities_fit(args, params, inf) -> bool:
    """Closure arguments have as many parameters as the function types they meet."""
    for a, p in zip(args, params):
        if isinstance(a, A.EClosure):
            t = inf.resolve(p)
            if isinstance(t, TFunc) and len(t.params) != len(a.params):
                return False
    return True


def _is_function_arg(a: A.Expr, scope: dict) -> bool:
    """A closure, or a bare name that is not a variable and so may denote a function
    (typed once the overload is known, so that its parameter types come from the
    chosen signature)."""
    return isinstance(a, A.EClosure) or (isinstance(a, A.EVar) and a.name not in scope)


def _declares(lhs: A.Expr) -> bool:
    if isinstance(lhs, A.EVarDecl):
        return True
    if isinstance(lhs, A.ETuple):
        return any(_declares(x) for x in lhs.elems)
    if isinstance(lhs, A.EStruct):
        return any(_declares(a.value) for a in lhs.args)
    if isinstance(lhs, A.ETyped):
        return _declares(lhs.expr)
    return False


BOOL, TString, TVar  # noqa: B018 - re-exported names used by type annotations elsewhere
