"""Type checking of expressions and patterns inside a rule, producing typed IR."""
from __future__ import annotations

import dataclasses

from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span, suggest
from dl2sql.types import typed as T
from dl2sql.types.infer import Inference, check_int_fits, is_infer_var
from dl2sql.types.model import (INTERN, IOBJ, MAP, TRANSPARENT, UNWRAP_FUNCTION, VEC, BOOL, STRING, TBigInt, TBit, TBool, TDouble, TFloat,
                                TFunc, TNamed, TSigned, TString, TTuple, Type,
                                is_integer, substitute)
from dl2sql.types.symbols import Symbols

ARITH = {"+", "-", "*", "/", "%"}
COMPARE = {"==", "!=", "<", "<=", ">", ">="}
BITWISE = {"&", "|", "^"}
LOGIC = {"and", "or", "=>"}
SHIFT = {"<<", ">>"}


class ExprChecker:
    """Checks expressions of one rule in one module; ``scope`` maps variables to types."""

    def __init__(self, syms: Symbols, module: str, inf: Inference, diags: Diagnostics):
        self.syms, self.module, self.inf, self.diags = syms, module, inf, diags
        # a generic function's type variables, as this instance binds them: local
        # annotations such as `var v: Vec<'A>` may name them
        self.tparams: dict[str, Type] = {}

    # ------------------------------------------------------------------ helpers
    def unsupported(self, span: Span, what: str) -> T.TExpr:
        self.diags.error(span, f"{what} is not supported yet")
        return T.TConst(self.inf.fresh(), None)

    def resolved(self, t: Type) -> Type:
        return self.inf.resolve(t)

    def ctor_info(self, name: str, span: Span):
        """(qualified ctor, its type instantiated with fresh variables, field list)."""
        q = self.syms.resolve_ctor(name, self.module)
        if q is None:
            known = [c.rsplit("::", 1)[-1] for c in self.syms.env.ctor_owner]
            self.diags.error(span, f"unknown constructor `{name}`" + suggest(name, known))
            return None
        tname = self.syms.env.ctor_owner[q]
        defn = self.syms.env.defs[tname]
        mapping = {p: self.inf.fresh() for p in defn.params}
        ctype = TNamed(tname, tuple(mapping[p] for p in defn.params))
        cdef = next(c for c in defn.ctors if c.name == q)
        fields = [(n, substitute(ft, mapping)) for n, ft in cdef.fields]
        return q, ctype, fields

    # ------------------------------------------------------------------ expressions
    def expr(self, e: A.Expr, scope: dict[str, Type], expected: Optional[Type] = None) -> T.TExpr:
        """Typed version of ``e``; unified with ``expected`` when given."""
        before = len(self.diags.items)
        te = self._expr(e, scope, expected)
        # one mistake, one message: skip the check when a part already failed
        if expected is not None and len(self.diags.items) == before:
            self.inf.unify(te.type, expected, e.span)
        return te

    def _expr(self, e, scope, expected) -> T.TExpr:
        if isinstance(e, A.EBool):
            return T.TConst(BOOL, e.value)
        if isinstance(e, A.EInt):
            return self._int(e)
        if isinstance(e, A.EFloat):
            if e.width == 32:
                return T.TConst(TFloat(), e.value)
            if e.width == 64:
                return T.TConst(TDouble(), e.value)
            return T.TConst(self.inf.float_literal(e.span), e.value)
        if isinstance(e, A.EString):
            if e.interned:
                return intern_string(T.TConst(STRING, e.value))
            return T.TConst(STRING, e.value)
        if isinstance(e, A.EInterp):
            text = self._interp(e, scope)
            return intern_string(text) if e.interned else text
        if isinstance(e, A.EVar):
            if e.name in scope:
                return T.TVarRef(scope[e.name], e.name)
            as_closure = self._function_value(e, expected)
            if as_closure is not None:
                return self._expr(as_closure, scope, expected)
            if e.name in getattr(self, "hidden_by_group", ()):
                self.diags.error(e.span, f"variable `{e.name}` is not visible after the "
                                         f"`group_by` above (only its key variables and its "
                                         f"result are)")
            else:
                self.diags.error(e.span, f"unknown variable `{e.name}`"
                                 + suggest(e.name, scope))
            return T.TConst(self.inf.fresh(), None)
        if isinstance(e, A.EStruct):
            return self._struct(e, scope)
        if isinstance(e, A.EVec):
            # the declared element type types the elements (`[-1, 2]` in a Vec<bigint>)
            hint = self._args_of(expected, VEC, 1)
            first = self.expr(e.elems[0], scope, hint and hint[0])
            elems = (first,) + tuple(self.expr(x, scope, first.type) for x in e.elems[1:])
            return T.TVec(TNamed(VEC, (first.type,)), elems)
        if isinstance(e, A.EMapLit):
            hint = self._args_of(expected, MAP, 2) or (None, None)
            k0 = self.expr(e.entries[0][0], scope, hint[0])
            v0 = self.expr(e.entries[0][1], scope, hint[1])
            entries = [(k0, v0)] + [(self.expr(k, scope, k0.type), self.expr(v, scope, v0.type))
                                    for k, v in e.entries[1:]]
            return T.TMapLit(TNamed(MAP, (k0.type, v0.type)), tuple(entries))
        if isinstance(e, A.ETuple):
            hint = self.resolved(expected) if expected is not None else None
            types = (hint.elems if isinstance(hint, TTuple) and len(hint.elems) == len(e.elems)
                     else (None,) * len(e.elems))
            elems = tuple(self.expr(x, scope, t) for x, t in zip(e.elems, types))
            return T.TTupleE(TTuple(tuple(x.type for x in elems)), elems)
        if isinstance(e, A.EBinOp):
            return self._binop(e, scope, expected)
        if isinstance(e, A.EUnOp):
            return self._unop(e, scope, expected)
        if isinstance(e, A.EField):
            return self._field(e, scope)
        if isinstance(e, A.ETupleIdx):
            inner = self.unwrap(self.expr(e.expr, scope))
            t = self.resolved(inner.type)
            if not isinstance(t, TTuple) or e.index >= len(t.elems):
                self.diags.error(e.span, f"`.{e.index}` needs a tuple with more than "
                                         f"{e.index} elements, found `{self.inf.show(t)}`")
                return T.TConst(self.inf.fresh(), None)
            return T.TTupleGet(t.elems[e.index], inner, e.index)
        if isinstance(e, A.ETyped):
            t = self.syms.to_type(e.type, self.module, self.tparams, self.diags)
            return self.expr(e.expr, scope, t)
        if isinstance(e, A.ECast):
            return self._cast(e, scope)
        if isinstance(e, A.EIf):
            with self.read_only():  # a condition changes nothing (PlaceChecks)
                cond = self.expr(e.cond, scope, BOOL)
            then = self.expr(e.then, scope, expected)
            els = (self.expr(e.els, scope, then.type) if e.els is not None
                   else T.TTupleE(TTuple(()), ()))
            self.inf.unify(els.type, then.type, e.span, "the branches of `if`")
            return T.TIf(then.type, cond, then, els)
        flow = getattr(self, "flow", None)
        handled = flow(e, scope, expected) if flow is not None else None
        if handled is not None:
            return handled
        what = {A.EMatch: "`match`", A.ECall: "function calls", A.EDotCall: "method calls",
A.EFor: "`for` loops", A.EBlock: "blocks",
                A.ESlice: "bit slices",
                A.ETry: "`?`", A.ERef: "references",
                A.EAssign: "assignment inside an expression"}.get(type(e))
        if isinstance(e, (A.ECall, A.EDotCall)):
            what = f"calling `{e.func}`"
        return self.unsupported(e.span, what or f"`{type(e).__name__}` here")

    def _int(self, e: A.EInt) -> T.TExpr:
        if e.width is not None:
            t = TSigned(e.width) if e.signed else TBit(e.width)
            value = e.value
            if e.signed and 2 ** (e.width - 1) <= value < 2 ** e.width:
                value -= 2 ** e.width  # `32'shffffffff` is -1: the bits, two's complement
            check_int_fits(value, t, e.span, self.diags)
            return T.TConst(t, value)
        return T.TConst(self.inf.int_literal(e.value, e.span), e.value)

    def _interp(self, e: A.EInterp, scope) -> T.TExpr:
        pieces: list[T.TExpr] = []
        for part in e.parts:
            if isinstance(part, str):
                if part:
                    pieces.append(T.TConst(STRING, part))
            else:
                pieces.append(self.to_string(self.expr(part, scope), part.span))
        if not pieces:
            return T.TConst(STRING, "")
        out = pieces[0]
        for p in pieces[1:]:
            out = T.TBin(STRING, "++", out, p)
        return out

    def to_string(self, te: T.TExpr, span: Span) -> T.TExpr:
        """Convert ``te`` to a string as interpolation and ``++`` do."""
        t = self.resolved(te.type)
        if isinstance(t, TString):
            return te
        if isinstance(t, TNamed) and t.name in TRANSPARENT:
            return self.to_string(self.unwrap(te), span)
        if is_integer(t) or isinstance(t, (TBool, TFloat, TDouble, TFunc)) or is_infer_var(t):
            return T.TToString(STRING, te)  # a function: see passes/function_values
        if isinstance(t, TNamed) and t.name in self.syms.env.defs and \
                hasattr(self, "user_to_string"):
            call = self.user_to_string(te, t, span)
            if call is not None:
                return call
        if isinstance(t, TNamed) and t.name in self.syms.env.defs and \
                self.syms.env.defs[t.name].ctors:
            self.diags.error(span, f"type `{t}` has no `to_string` function: declare "
                                   f"`function to_string(x: {t.name.rsplit('::', 1)[-1]}): "
                                   f"string` in the module that defines it")
        else:
            self.diags.error(span, f"a value of type `{self.inf.show(t)}` cannot be "
                                   f"converted to a string (use `to_string_debug` or write "
                                   f"a function)")
        return T.TConst(STRING, "")

    def _struct(self, e: A.EStruct, scope) -> T.TExpr:
        info = self.ctor_info(e.ctor, e.span)
        if info is None:
            return T.TConst(self.inf.fresh(), None)
        q, ctype, fields = info
        args = self._ctor_args(e, fields, lambda a, ft: self.expr(a, scope, ft))
        if args is None:
            return T.TConst(ctype, None)
        return T.TStruct(ctype, q, tuple(args))

    def _ctor_args(self, e: A.EStruct, fields, check, partial: bool = False):
        """Arguments of a constructor in field order (None where omitted, if partial)."""
        names = [n for n, _ in fields]
        if all(a.name is None for a in e.args):
            if len(e.args) != len(fields) and not (partial and not e.args):
                self.diags.error(e.span, f"constructor `{e.ctor}` has {len(fields)} "
                                         f"field(s), {len(e.args)} given")
                return None
            if not e.args:
                return [None] * len(fields) if partial else []
            return [check(a.value, ft) for a, (_, ft) in zip(e.args, fields)]
        if any(a.name is None for a in e.args):
            self.diags.error(e.span, "mixing positional and named constructor arguments")
            return None
        given = {}
        for a in e.args:
            if a.name not in names:
                self.diags.error(a.span, f"constructor `{e.ctor}` has no field `{a.name}`"
                                 + suggest(a.name, names))
                return None
            if a.name in given:
                self.diags.error(a.span, f"field `{a.name}` given twice")
            given[a.name] = a.value
        out = []
        for n, ft in fields:
            if n in given:
                out.append(check(given[n], ft))
            elif partial:
                out.append(None)
            else:
                self.diags.error(e.span, f"missing field `{n}` in `{e.ctor}`")
                return None
        return out

    def _binop(self, e: A.EBinOp, scope, expected) -> T.TExpr:
        op = e.op
        if op in LOGIC:
            l, r = self.expr(e.left, scope, BOOL), self.expr(e.right, scope, BOOL)
            return T.TBin(BOOL, op, l, r)
        if op == "++":
            l = self.expr(e.left, scope)
            if isinstance(self.resolved(l.type), TString):
                r = self.to_string(self.expr(e.right, scope), e.right.span)
                return T.TBin(STRING, "++", l, r)
            r = self.expr(e.right, scope)
            lt, rt = self.resolved(l.type), self.resolved(r.type)
            if isinstance(lt, TBit) and isinstance(rt, TBit):
                return T.TBin(TBit(lt.width + rt.width), "++", l, r)
            self.diags.error(e.span, f"`++` needs strings or two bit<N> values, found "
                                     f"`{self.inf.show(lt)}` and `{self.inf.show(rt)}`")
            return T.TConst(STRING, "")
        if op in SHIFT:
            l = self.expr(e.left, scope, expected)
            r = self.expr(e.right, scope, TBit(32))
            self._require(l, e.left.span, lambda t: isinstance(t, (TBit, TSigned, TBigInt)),
                          f"`{op}`", "an integer")
            return T.TBin(l.type, op, l, r)
        l = self.expr(e.left, scope, None if op in COMPARE else expected)
        r = self.expr(e.right, scope, l.type)
        if op in COMPARE:
            return T.TBin(BOOL, op, l, r)
        if op in ARITH:
            ok = (lambda t: is_integer(t) or isinstance(t, (TFloat, TDouble))) if op != "%" \
                else is_integer
            self._require(l, e.span, ok, f"`{op}`", "a number")
            return T.TBin(l.type, op, l, r)
        if op in BITWISE:
            self._require(l, e.span, lambda t: isinstance(t, (TBit, TSigned)), f"`{op}`",
                          "bit<N> or signed<N>")
            return T.TBin(l.type, op, l, r)
        return self.unsupported(e.span, f"operator `{op}`")

    def _require(self, te, span, pred, what, kind) -> None:
        t = self.resolved(te.type)
        if is_infer_var(t) and t.name in self.inf.int_literals:
            return
        if is_infer_var(t) and t.name in self.inf.float_literals and kind == "a number":
            return
        if not pred(t):
            self.diags.error(span, f"{what} expects {kind}, found `{self.inf.show(t)}`")

    def _unop(self, e: A.EUnOp, scope, expected) -> T.TExpr:
        if e.op == "not":
            return T.TUn(BOOL, "not", self.expr(e.expr, scope, BOOL))
        if e.op == "-" and isinstance(e.expr, A.EInt) and e.expr.width is None:
            # `-5` is a negative literal, so its range is checked as such
            return T.TConst(self.inf.int_literal(-e.expr.value, e.span), -e.expr.value)
        if e.op == "-" and isinstance(e.expr, A.EFloat):
            return self._expr(dataclasses.replace(e.expr, value=-e.expr.value), scope, expected)
        inner = self.expr(e.expr, scope, expected)
        if e.op == "-":
            self._require(inner, e.span, lambda t: isinstance(
                t, (TSigned, TBigInt, TFloat, TDouble)), "negation",
                "signed<N>, bigint or a floating-point value")
        else:
            self._require(inner, e.span, lambda t: isinstance(t, (TBit, TSigned)),
                          "`~`", "bit<N> or signed<N>")
        return T.TUn(inner.type, e.op, inner)

    def _args_of(self, expected, name: str, arity: int) -> Optional[tuple]:
        """The type arguments of ``expected`` when it is the collection ``name``
        (type aliases are expanded already), else None."""
        if expected is None:
            return None
        t = self.resolved(expected)
        if isinstance(t, TNamed) and t.name == name and len(t.args) == arity:
            return t.args
        return None

    def _function_value(self, e: A.EVar, expected) -> Optional[A.EClosure]:
        """A function named as a value (``v.map(to_string)``), as the closure
        ``|p0, ...| name(p0, ...)``; its arity comes from the expected function type
        or, failing that, from the function's only arity."""
        overloads = self.syms.resolve_function(e.name, self.module)
        if not overloads:
            return None
        hint = self.resolved(expected) if expected is not None else None
        if isinstance(hint, TFunc):
            arity = len(hint.params)
        else:
            arities = {len(o.decl.params) for o in overloads}
            if len(arities) != 1:
                return None
            arity = arities.pop()
        params = tuple(A.ClosureParam(e.span, f"__arg{i}", None) for i in range(arity))
        body = A.ECall(e.span, e.name, tuple(A.EVar(e.span, p.name) for p in params))
        return A.EClosure(e.span, params, None, body)

    def unwrap(self, te: T.TExpr) -> T.TExpr:
        """``te`` seen through ``Ref``/``Intern`` (field and tuple access look through
        them, as in DDlog), as an explicit ``deref``/``ival`` call."""
        t = self.resolved(te.type)
        while isinstance(t, TNamed) and t.name in TRANSPARENT:
            inner = self.resolved(t.args[0])
            te = T.TCall(inner, UNWRAP_FUNCTION[t.name], (te,),
                         (inner,) if t.name != IOBJ else ())
            t = inner
        return te

    def _field(self, e: A.EField, scope) -> T.TExpr:
        inner = self.unwrap(self.expr(e.expr, scope))
        t = self.resolved(inner.type)
        if not isinstance(t, TNamed) or t.name not in self.syms.env.defs or \
                not self.syms.env.defs[t.name].ctors:
            self.diags.error(e.span, f"no field `{e.field}` in a value of type "
                                     f"`{self.inf.show(t)}`")
            return T.TConst(self.inf.fresh(), None)
        ctors = self.syms.env.ctors(t)
        found = [dict(c.fields).get(e.field) for c in ctors]
        if all(f is None for f in found):
            names = {n for c in ctors for n, _ in c.fields}
            self.diags.error(e.span, f"type `{t}` has no field `{e.field}`"
                             + suggest(e.field, names))
            return T.TConst(self.inf.fresh(), None)
        if any(f is None for f in found):
            self.diags.error(e.span, f"field `{e.field}` is not present in every "
                                     f"constructor of `{t}`; use `match` or a pattern")
        ftype = next(f for f in found if f is not None)
        return T.TGetField(ftype, inner, e.field)

    def _cast(self, e: A.ECast, scope) -> T.TExpr:
        inner = self.expr(e.expr, scope)
        target = self.syms.to_type(e.type, self.module, self.tparams, self.diags)
        src = self.resolved(inner.type)
        if is_infer_var(src) and src.name in self.inf.int_literals:
            self.inf.unify(src, target, e.span)
            return inner
        numeric = (TBit, TSigned, TBigInt, TFloat, TDouble)
        if not isinstance(src, numeric) or not isinstance(target, numeric):
            self.diags.error(e.span, f"cannot cast `{self.inf.show(src)}` to `{target}`")
        elif isinstance(src, (TFloat, TDouble)) and not isinstance(target, (TFloat, TDouble)):
            self.diags.error(e.span, "casts from floating point to integers are not "
                                     "allowed; use `fp::int_from_d`")
        elif isinstance(src, TBigInt) and isinstance(target, TBit):
            self.diags.error(e.span, "direct casts from bigint to bit<> are not supported; "
                                     "cast to signed<N> first")
        elif isinstance(src, (TBit, TSigned)) and isinstance(target, (TBit, TSigned)) \
                and isinstance(src, TBit) != isinstance(target, TBit) \
                and src.width != target.width:
            # as DDlog's validator: which of the two casts comes first is the user's
            # choice (sign-extend, or zero-extend), so neither is made silently
            kind = "bit" if isinstance(target, TBit) else "signed"
            self.diags.error(e.span, f"conversion between signed and unsigned integers "
                                     f"needs the same width: cast `{src}` to "
                                     f"`{kind}<{src.width}>` first")
        return T.TCast(target, inner)


def intern_string(te: T.TExpr) -> T.TExpr:
    """``i"..."``: the interned form of string expression ``te``."""
    return T.TCall(TNamed(INTERN, (STRING,)), "ddlog_std::intern", (te,), (STRING,))
