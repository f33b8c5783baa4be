"""An interpreter of the typed IR (:mod:`dl2sql.types.typed`) over runtime values
(:mod:`dl2sql.runtime.values`), with DDlog's semantics.

SQL generation falls back to it — as a Python UDF registered on both engines — for what
SQL cannot express: loops, recursion, user extern functions, Rust-specific std
functions. Operator semantics live in :mod:`dl2sql.runtime.ops`, std builtins in
:mod:`dl2sql.udfs.std`, which reach the interpreter as its ``library`` (the calling
convention is :mod:`dl2sql.runtime.builtins`); :func:`dl2sql.udfs.interpreter` makes
one with the standard library.

Scopes are dicts. A block or loop body works on a copy of its parent's scope so that its
own ``var`` declarations disappear when it ends, and copies the values of the parent's
variables back when it is left — also when left by ``break``, ``continue`` or
``return`` — so that assignments to outer locals are visible afterwards.
"""
from __future__ import annotations

from typing import Callable

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.runtime.builtins import Ctx, Mut
from dl2sql.runtime.defaults import default_value
from dl2sql.runtime.ops import binary, cast, ddlog_equal, slice_bits, to_string, unary
from dl2sql.runtime.order import normalize
from dl2sql.runtime.udf import raise_recursion_limit
from dl2sql.runtime.values import Record
from dl2sql.types import typed as T
from dl2sql.types.model import TRANSPARENT, TNamed, Type, TypeEnv



class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def _deref(t: Type) -> Type:
    """``Ref<T>`` values are their pointee, and so are field lookups through them."""
    while isinstance(t, TNamed) and t.name in TRANSPARENT:
        t = t.args[0]
    return t


def _is_lvalue(e: T.TExpr) -> bool:
    while isinstance(e, (T.TGetField, T.TCtorField, T.TTupleGet)):
        e = e.expr
    return isinstance(e, T.TVarRef)


def _leave(parent: dict, inner: dict) -> None:
    for name in parent:
        parent[name] = inner[name]


class Interpreter:
    """Evaluates typed expressions and calls functions on runtime values.

    ``functions`` maps ``(qualified name, targs)`` to DDlog function instances;
    ``externs`` maps qualified names of user ``extern function``s to Python callables
    (called with runtime values; their result is used as is); ``library`` maps the
    plain names of builtins to their implementations (:mod:`dl2sql.runtime.builtins`).
    """

    def __init__(self, env: TypeEnv, functions: dict, externs: dict | None = None,
                 library: dict | None = None):
        self.env = env
        self.functions = functions
        self.externs: dict[str, Callable] = dict(externs or {})
        self.library: dict[str, Callable] = library or {}
        self._fields: dict[tuple, dict[str, int]] = {}
        self._dispatch = {cls: getattr(self, "_" + cls.__name__) for cls in (
            T.TConst, T.TVarRef, T.TStruct, T.TVec, T.TTupleE, T.TGetField, T.TCtorField,
            T.TTupleGet, T.TIsCtor, T.TBin, T.TUn, T.TCast, T.TToString, T.TSlice, T.TIf,
            T.TMatch, T.TCall, T.TSeq, T.TLet, T.TAssign, T.TFor, T.TBreak, T.TContinue,
            T.TReturn, T.TClosure, T.TApply, T.TMapLit)}
        raise_recursion_limit()  # deep DDlog recursion costs several frames per level

    # ------------------------------------------------------------------ calls
    def call(self, func: str, targs: tuple, args: list):
        """The result of function ``func`` (instance ``targs``) on runtime ``args``:
        a DDlog function of ``functions``, else a user extern, else a std builtin."""
        return self._invoke(func, tuple(targs), list(args))[0]

    def _invoke(self, func: str, targs: tuple, args: list) -> tuple[object, dict]:
        """The result and the new values of ``mut`` arguments by position."""
        fn = self.functions.get((func, targs))
        if fn is not None:
            scope = {name: a for (name, _), a in zip(fn.params, args)}
            try:
                result = self.eval(fn.body, scope)
            except _Return as r:
                result = r.value
            # `mut` parameters hand their final values back to the caller's l-values
            return result, {i: scope[name] for i, ((name, _), m)
                            in enumerate(zip(fn.params, fn.mutable)) if m}
        base = func.split("#", 1)[0]  # overloads are `name#N`; builtins dispatch on values
        ext = self.externs.get(func) or self.externs.get(base)
        if ext is not None:
            return ext(*args), {}
        impl = self.library.get(base)
        if impl is None:
            raise RuntimeFailure(f"function `{base}` has no implementation: neither a "
                                 f"DDlog function, a registered extern nor a std builtin")
        result = (impl(Ctx(self.env, targs, self.call), *args) if getattr(impl, "typed", False)
                  else impl(*args))
        if isinstance(result, Mut):
            return result.result, result.updates
        return result, {}

    # ------------------------------------------------------------------ expressions
    def eval(self, e: T.TExpr, scope: dict):
        """The value of ``e`` with variables from ``scope``; assignments and ``var``
        declarations of ``e`` update ``scope``."""
        method = self._dispatch.get(type(e))
        if method is None:
            raise RuntimeFailure(f"the interpreter cannot evaluate `{type(e).__name__}`")
        return method(e, scope)

    def _TConst(self, e, scope):
        return e.value

    def _TVarRef(self, e, scope):
        return scope[e.name]

    def _TStruct(self, e, scope):
        return Record(e.ctor, tuple([self.eval(a, scope) for a in e.args]))

    def _TVec(self, e, scope):
        return tuple([self.eval(a, scope) for a in e.elems])

    _TTupleE = _TVec

    def field_index(self, t: Type, ctor: str, name: str) -> int:
        """Position of field ``name`` in constructor ``ctor`` of type ``t``."""
        key = (t, ctor)
        index = self._fields.get(key)
        if index is None:
            t = _deref(t)
            c = next((c for c in self.env.ctors(t) if c.name == ctor), None)
            if c is None:
                raise RuntimeFailure(f"`{ctor}` is not a constructor of `{t}`")
            index = self._fields[key] = {n: i for i, (n, _) in enumerate(c.fields)}
        return index[name]

    def _TGetField(self, e, scope):
        v = self.eval(e.expr, scope)
        return v.fields[self.field_index(e.expr.type, v.ctor, e.field)]

    def _TCtorField(self, e, scope):
        v = self.eval(e.expr, scope)
        if v.ctor != e.ctor:
            # what the SQL side stores in the slots of the other constructors
            return default_value(e.type, self.env)
        return v.fields[self.field_index(e.expr.type, v.ctor, e.field)]

    def _TTupleGet(self, e, scope):
        return self.eval(e.expr, scope)[e.index]

    def _TIsCtor(self, e, scope):
        return self.eval(e.expr, scope).ctor == e.ctor

    def _TBin(self, e, scope):
        op = e.op
        if op == "and":
            return self.eval(e.left, scope) and self.eval(e.right, scope)
        if op == "or":
            return self.eval(e.left, scope) or self.eval(e.right, scope)
        if op == "=>":
            return (not self.eval(e.left, scope)) or self.eval(e.right, scope)
        return binary(e, self.eval(e.left, scope), self.eval(e.right, scope), self.env)

    def _TUn(self, e, scope):
        return unary(e, self.eval(e.expr, scope))

    def _TCast(self, e, scope):
        return cast(e.expr.type, e.type, self.eval(e.expr, scope))

    def _TToString(self, e, scope):
        return to_string(e.expr.type, self.eval(e.expr, scope))

    def _TSlice(self, e, scope):
        return slice_bits(e, self.eval(e.expr, scope))

    def _TIf(self, e, scope):
        return self.eval(e.then if self.eval(e.cond, scope) else e.els, scope)

    def _TMatch(self, e, scope):
        value = self.eval(e.scrutinee, scope)
        for pattern, body in e.arms:
            inner = dict(scope)
            if self.match(pattern, value, inner):
                try:
                    return self.eval(body, inner)
                finally:
                    if _is_lvalue(e.scrutinee):
                        # DDlog matches an l-value by reference: what the arm assigned
                        # to the variables its pattern bound goes back into it
                        new = self.rebuild(pattern, value, inner)
                        if new is not value:
                            self.store(e.scrutinee, new, inner)
                    _leave(scope, inner)
        raise RuntimeFailure("no arm of a `match` matched")

    def rebuild(self, p: T.Pattern, value, scope: dict):
        """``value`` (which matched ``p``) with the parts ``p`` bound replaced by the
        variables' values in ``scope``; ``value`` itself when none changed."""
        if isinstance(p, T.PVar):
            return scope.get(p.name, value)
        if isinstance(p, T.PBind):
            whole = scope.get(p.name, value)
            return whole if whole is not value else self.rebuild(p.pattern, value, scope)
        if isinstance(p, T.PTuple):
            parts = tuple(self.rebuild(sub, v, scope) for sub, v in zip(p.elems, value))
            return value if all(a is b for a, b in zip(parts, value)) else parts
        if isinstance(p, T.PCtor):
            fields = list(value.fields)
            for name, sub in p.fields:
                i = self.field_index(p.type, p.ctor, name)
                fields[i] = self.rebuild(sub, fields[i], scope)
            if all(a is b for a, b in zip(fields, value.fields)):
                return value
            return Record(value.ctor, tuple(fields))
        return value

    def _TMapLit(self, e, scope):
        pairs = tuple((self.eval(k, scope), self.eval(v, scope)) for k, v in e.entries)
        return normalize(e.type, pairs, self.env)

    def _TClosure(self, e, scope):
        captured = dict(scope)
        names = [n for n, _ in e.params]
        mutable = [i for i, m in enumerate(getattr(e.type, "mutable", ()) or ()) if m]

        def run(*args):
            inner = dict(captured)
            inner.update(zip(names, args))
            try:
                result = self.eval(e.body, inner)
            except _Return as r:
                result = r.value
            if mutable:  # `mut` parameters hand their new values back, as builtins do
                return Mut(result, {i: inner[names[i]] for i in mutable})
            return result
        return run

    def _TApply(self, e, scope):
        result = self.eval(e.callee, scope)(*[self.eval(a, scope) for a in e.args])
        if isinstance(result, Mut):
            for i, value in result.updates.items():
                if _is_lvalue(e.args[i]):
                    self.store(e.args[i], value, scope)
            return result.result
        return result

    def _TCall(self, e, scope):
        args = [self.eval(a, scope) for a in e.args]
        result, updates = self._invoke(e.func, e.targs, args)
        for i, value in updates.items():
            if _is_lvalue(e.args[i]):
                self.store(e.args[i], value, scope)
        return result

    def _TSeq(self, e, scope):
        inner = dict(scope)
        result = ()
        try:
            for item in e.items:
                result = self.eval(item, inner)
        finally:
            _leave(scope, inner)
        return result

    def _TLet(self, e, scope):
        if not self.match(e.pattern, self.eval(e.expr, scope), scope):
            raise RuntimeFailure("a `var` pattern did not match its value")
        return ()

    def _TAssign(self, e, scope):
        self.store(e.target, self.eval(e.expr, scope), scope)
        return ()

    def store(self, target: T.TExpr, value, scope: dict) -> None:
        """Assign ``value`` to the l-value ``target`` (a local, or a field / tuple element
        path into one): values are immutable, so each level along the path is rebuilt."""
        if isinstance(target, T.TVarRef):
            scope[target.name] = value
            return
        if isinstance(target, T.TTupleGet):
            whole = self.eval(target.expr, scope)
            new = whole[:target.index] + (value,) + whole[target.index + 1:]
        elif isinstance(target, (T.TGetField, T.TCtorField)):
            whole = self.eval(target.expr, scope)
            i = self.field_index(target.expr.type, whole.ctor, target.field)
            new = Record(whole.ctor, whole.fields[:i] + (value,) + whole.fields[i + 1:])
        else:
            raise RuntimeFailure(f"cannot assign to `{type(target).__name__}`")
        self.store(target.expr, new, scope)

    def _TFor(self, e, scope):
        for item in self.eval(e.iterable, scope):  # Map values are (key, value) pairs
            inner = dict(scope)
            try:
                if not self.match(e.pattern, item, inner):
                    raise RuntimeFailure("a `for` pattern did not match an element")
                self.eval(e.body, inner)
            except _Continue:
                pass
            except _Break:
                break
            finally:
                _leave(scope, inner)
        return ()

    def _TBreak(self, e, scope):
        raise _Break()

    def _TContinue(self, e, scope):
        raise _Continue()

    def _TReturn(self, e, scope):
        raise _Return(self.eval(e.expr, scope))

    # ------------------------------------------------------------------ patterns
    def match(self, p: T.Pattern, value, scope: dict) -> bool:
        """Whether ``value`` matches ``p``; binds the pattern's variables in ``scope``
        (a failed match may leave some bound: callers match into a throwaway copy)."""
        if isinstance(p, T.PVar):
            scope[p.name] = value
            return True
        if isinstance(p, T.PWild):
            return True
        if isinstance(p, T.PEq):
            return ddlog_equal(value, self.eval(p.expr, scope))
        if isinstance(p, T.PTuple):
            return len(p.elems) == len(value) and all(
                [self.match(sub, v, scope) for sub, v in zip(p.elems, value)])
        if isinstance(p, T.PBind):
            scope[p.name] = value
            return self.match(p.pattern, value, scope)
        if isinstance(p, T.PCtor):
            if value.ctor != p.ctor:
                return False
            for name, sub in p.fields:
                if not self.match(sub, value.fields[self.field_index(p.type, p.ctor, name)],
                                  scope):
                    return False
            return True
        raise RuntimeFailure(f"unknown pattern `{type(p).__name__}`")
