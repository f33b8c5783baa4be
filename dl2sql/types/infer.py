"""Type inference variables and unification (one :class:`Inference` per rule)."""
from __future__ import annotations

import dataclasses
from dl2sql.diagnostics import Diagnostics, Span
from dl2sql.types.model import (BIGINT, DOUBLE, TBigInt, TBit, TDouble, TFloat, TFunc,
                                TNamed, TSigned, TTuple, TVar, Type)


def is_infer_var(t: Type) -> bool:
    return isinstance(t, TVar) and t.name.startswith("?")


class Inference:
    """Union-find style substitution for inference variables ``?N`` plus the numeric
    literals whose type is still open (defaulted at the end like DDlog does)."""

    def __init__(self, diags: Diagnostics):
        self.diags = diags
        self.subst: dict[str, Type] = {}
        self.int_literals: dict[str, tuple[int, Span]] = {}
        self.float_literals: dict[str, Span] = {}
        self._next = 0

    def fresh(self) -> TVar:
        self._next += 1
        return TVar(f"?{self._next}")

    def int_literal(self, value: int, span: Span) -> TVar:
        """A fresh variable for an unsized integer literal."""
        v = self.fresh()
        self.int_literals[v.name] = (value, span)
        return v

    def float_literal(self, span: Span) -> TVar:
        v = self.fresh()
        self.float_literals[v.name] = span
        return v

    def resolve(self, t: Type) -> Type:
        """``t`` with every bound inference variable replaced, deeply."""
        if isinstance(t, TVar):
            if t.name in self.subst:
                r = self.resolve(self.subst[t.name])
                self.subst[t.name] = r
                return r
            return t
        # keeping the alias a type was written as (model.Type.spelled)
        if isinstance(t, TTuple):
            return TTuple(tuple(self.resolve(e) for e in t.elems), spelled=t.spelled)
        if isinstance(t, TNamed) and t.args:
            return TNamed(t.name, tuple(self.resolve(a) for a in t.args), spelled=t.spelled)
        if isinstance(t, TFunc):
            return TFunc(tuple(self.resolve(p) for p in t.params), self.resolve(t.ret),
                         t.mutable, spelled=t.spelled)
        return t

    def unify(self, a: Type, b: Type, span: Span, what: str = "") -> bool:
        """Make ``a`` and ``b`` equal or report a located type mismatch."""
        if self._unify(self.resolve(a), self.resolve(b), span):
            return True
        ctx = f" in {what}" if what else ""
        self.diags.error(span, f"type mismatch{ctx}: expected `{self.show(b)}`, "
                               f"found `{self.show(a)}`")
        return False

    def _unify(self, a: Type, b: Type, span: Span) -> bool:
        if a == b:
            return True
        if is_infer_var(a):
            return self._bind(a, b, span)
        if is_infer_var(b):
            return self._bind(b, a, span)
        if isinstance(a, TTuple) and isinstance(b, TTuple):
            return len(a.elems) == len(b.elems) and all(
                self._unify(self.resolve(x), self.resolve(y), span)
                for x, y in zip(a.elems, b.elems))
        if isinstance(a, TFunc) and isinstance(b, TFunc):
            return len(a.params) == len(b.params) and all(
                self._unify(self.resolve(x), self.resolve(y), span)
                for x, y in zip(a.params + (a.ret,), b.params + (b.ret,)))
        if isinstance(a, TNamed) and isinstance(b, TNamed):
            return a.name == b.name and len(a.args) == len(b.args) and all(
                self._unify(self.resolve(x), self.resolve(y), span)
                for x, y in zip(a.args, b.args))
        return False

    def _bind(self, v: TVar, t: Type, span: Span) -> bool:
        if is_infer_var(t):
            # merging two open literals keeps the literal constraint on the survivor
            if v.name in self.int_literals and t.name not in self.int_literals:
                self.int_literals[t.name] = self.int_literals[v.name]
            if v.name in self.float_literals and t.name not in self.float_literals:
                self.float_literals[t.name] = self.float_literals[v.name]
            self.subst[v.name] = t
            return True
        if self._occurs(v.name, t):
            return False
        if v.name in self.int_literals and not isinstance(
                t, (TBit, TSigned, TBigInt, TFloat, TDouble)):
            return False
        if v.name in self.float_literals and not isinstance(t, (TFloat, TDouble)):
            return False
        self.subst[v.name] = t
        return True

    def _occurs(self, name: str, t: Type) -> bool:
        t = self.resolve(t)
        if isinstance(t, TVar):
            return t.name == name
        if isinstance(t, TTuple):
            return any(self._occurs(name, e) for e in t.elems)
        if isinstance(t, TNamed):
            return any(self._occurs(name, e) for e in t.args)
        return False

    def show(self, t: Type) -> str:
        """``t`` for a message: open literal types read "integer", unknown ones "_"."""
        t = self.resolve(t)
        if is_infer_var(t):
            if t.name in self.int_literals:
                return "integer"
            if t.name in self.float_literals:
                return "floating-point number"
            return "_"
        if isinstance(t, TTuple):
            return "(" + ", ".join(self.show(e) for e in t.elems) + ")"
        if isinstance(t, TNamed) and t.args:
            return f"{t.name}<{', '.join(self.show(a) for a in t.args)}>"
        return str(t)

    def default_literals(self) -> None:
        """Give every still-open literal DDlog's default type and check ranges."""
        for name, span in self.float_literals.items():
            if is_infer_var(self.resolve(TVar(name))):
                self.subst[self.resolve(TVar(name)).name] = DOUBLE
        for name, (value, span) in self.int_literals.items():
            t = self.resolve(TVar(name))
            if is_infer_var(t):
                if value < 0:
                    d = TSigned(64) if value >= -2**63 else TSigned(128) if value >= -2**127 else BIGINT
                else:
                    d = TBit(64) if value < 2**64 else TBit(128) if value < 2**128 else BIGINT
                self.subst[t.name] = d
                t = d
            check_int_fits(value, t, span, self.diags)
        for t in getattr(self, "never_types", ()):  # a lone `break`/`return`: ()
            t = self.resolve(t)
            if is_infer_var(t):
                self.subst[t.name] = TTuple(())


def check_int_fits(value: int, t: Type, span: Span, diags: Diagnostics) -> None:
    """Report a literal that does not fit its type."""
    if isinstance(t, TBit) and not (0 <= value < 2 ** t.width):
        diags.error(span, f"integer literal {value} does not fit in `{t}`")
    elif isinstance(t, TSigned) and not (-2 ** (t.width - 1) <= value < 2 ** (t.width - 1)):
        diags.error(span, f"integer literal {value} does not fit in `{t}`")


def zonk(node, inf: Inference):
    """Resolve every type inside a typed-IR tree (dataclasses, tuples, types)."""
    if isinstance(node, (TVar, TTuple, TNamed, TFunc)):
        t = inf.resolve(node)
        return t
    if isinstance(node, tuple):
        return tuple(zonk(x, inf) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        if node.__class__.__module__ == "dl2sql.types.model":
            return node
        changes = {}
        for f in dataclasses.fields(node):
            v = getattr(node, f.name)
            nv = zonk(v, inf)
            if nv is not v:
                changes[f.name] = nv
        return dataclasses.replace(node, **changes) if changes else node
    return node


def has_open_type(node) -> bool:
    """True if an inference variable is left anywhere inside ``node``."""
    if isinstance(node, TVar):
        return node.name.startswith("?")
    if isinstance(node, tuple):
        return any(has_open_type(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(has_open_type(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False
