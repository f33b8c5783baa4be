"""An interpreter of the typed IR over runtime values, with DDlog's semantics.

SQL generation falls back to it (as a Python UDF registered on both engines) for what
SQL cannot express: loops, recursion, user extern functions, Rust-specific std
functions. Values are those of :mod:`dl2sql.values`.
"""
from __future__ import annotations

from typing import Callable

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.interp_ops import binary, cast, slice_bits, to_string, unary
from dl2sql.types import typed as T
from dl2sql.types.model import TypeEnv, default_value
from dl2sql.values import Record


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class Interpreter:
    """Evaluates typed expressions; ``functions`` maps ``(func, targs)`` to instances,
    ``externs`` maps function keys to the user's Python callables."""

    def __init__(self, env: TypeEnv, functions: dict, externs: dict | None = None):
        from udfs.builtins import BUILTINS

        self.env, self.functions = env, functions
        self.externs = externs or {}
        self.builtins: dict[str, Callable] = BUILTINS

    # ------------------------------------------------------------------ calls
    def call(self, func: str, targs: tuple, args: list, call: T.TCall | None = None):
        """The result of function ``func`` (instance ``targs``) on runtime ``args``."""
        fn = self.functions.get((func, targs))
        if fn is not None:
            scope = {name: a for (name, _), a in zip(fn.params, args)}
            try:
                return self.eval(fn.body, scope)
            except _Return as r:
                return r.value
        if func in self.externs and self.externs[func] is not None:
            return self.externs[func](*args)
        base = func.split("#", 1)[0]
        if base == "ddlog_std::default":
            return default_value(targs[0], self.env)
        impl = self.builtins.get(base)
        if impl is None:
            raise RuntimeFailure(f"function `{base}` has no implementation")
        return impl(self, call, *args)

    # ------------------------------------------------------------------ expressions
    def eval(self, e: T.TExpr, scope: dict):
        """The value of ``e`` with variables from ``scope`` (which blocks extend)."""
        method = getattr(self, "_" + type(e).__name__)
        return method(e, scope)

    def _TConst(self, e, scope):
        return e.value

    def _TVarRef(self, e, scope):
        return scope[e.name]

    def _TStruct(self, e, scope):
        return Record(e.ctor, tuple(self.eval(a, scope) for a in e.args))

    def _TVec(self, e, scope):
        return tuple(self.eval(a, scope) for a in e.elems)

    def _TTupleE(self, e, scope):
        return tuple(self.eval(a, scope) for a in e.elems)

    def _field_index(self, t, ctor: str, name: str) -> int:
        c = next(c for c in self.env.ctors(t) if c.name == ctor)
        return [n for n, _ in c.fields].index(name)

    def _TGetField(self, e, scope):
        v = self.eval(e.expr, scope)
        return v.fields[self._field_index(e.expr.type, v.ctor, e.field)]

    def _TCtorField(self, e, scope):
        v = self.eval(e.expr, scope)
        if v.ctor != e.ctor:
            return default_value(e.type, self.env)
        return v.fields[self._field_index(e.expr.type, v.ctor, e.field)]

    def _TTupleGet(self, e, scope):
        return self.eval(e.expr, scope)[e.index]

    def _TIsCtor(self, e, scope):
        return self.eval(e.expr, scope).ctor == e.ctor

    def _TBin(self, e, scope):
        if e.op == "and":
            return self.eval(e.left, scope) and self.eval(e.right, scope)
        if e.op == "or":
            return self.eval(e.left, scope) or self.eval(e.right, scope)
        if e.op == "=>":
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
                return self.eval(body, inner)
        raise RuntimeFailure("no arm of a `match` matched")

    def _TCall(self, e, scope):
        return self.call(e.func, e.targs, [self.eval(a, scope) for a in e.args], e)

    def _TSeq(self, e, scope):
        inner = dict(scope)
        result = ()
        for item in e.items:
            result = self.eval(item, inner)
        # assignments to variables of enclosing blocks must be visible after the block
        for name in scope:
            scope[name] = inner[name]
        return result

    def _TLet(self, e, scope):
        if not self.match(e.pattern, self.eval(e.expr, scope), scope):
            raise RuntimeFailure("a `var` pattern did not match its value")
        return ()

    def _TAssign(self, e, scope):
        self._store(e.target, self.eval(e.expr, scope), scope)
        return ()

    def _store(self, target, value, scope) -> None:
        if isinstance(target, T.TVarRef):
            scope[target.name] = value
            return
        whole = self.eval(target.expr, scope)
        if isinstance(target, T.TTupleGet):
            items = list(whole)
            items[target.index] = value
            new = tuple(items)
        else:
            fields = list(whole.fields)
            fields[self._field_index(target.expr.type, whole.ctor, target.field)] = value
            new = Record(whole.ctor, tuple(fields))
        self._store(target.expr, new, scope)

    def _TFor(self, e, scope):
        coll = self.eval(e.iterable, scope)
        for item in coll:
            inner = dict(scope)
            if not self.match(e.pattern, item, inner):
                continue
            try:
                self.eval(e.body, inner)
            except _Continue:
                pass
            except _Break:
                break
            finally:
                for name in scope:
                    scope[name] = inner[name]
        return ()

    def _TBreak(self, e, scope):
        raise _Break()

    def _TContinue(self, e, scope):
        raise _Continue()

    def _TReturn(self, e, scope):
        raise _Return(self.eval(e.expr, scope))

    # ------------------------------------------------------------------ patterns
    def match(self, p: T.Pattern, value, scope: dict) -> bool:
        """Whether ``value`` matches ``p``; binds its variables into ``scope``."""
        if isinstance(p, T.PWild):
            return True
        if isinstance(p, T.PVar):
            scope[p.name] = value
            return True
        if isinstance(p, T.PBind):
            scope[p.name] = value
            return self.match(p.pattern, value, scope)
        if isinstance(p, T.PEq):
            from dl2sql.interp_ops import ddlog_equal

            return ddlog_equal(value, self.eval(p.expr, scope))
        if isinstance(p, T.PTuple):
            return all(self.match(sub, v, scope) for sub, v in zip(p.elems, value))
        if value.ctor != p.ctor:
            return False
        return all(self.match(sub, value.fields[self._field_index(p.type, p.ctor, n)], scope)
                   for n, sub in p.fields)


def make_udf(interp: Interpreter, func: str, targs: tuple, params, ret, env: TypeEnv):
    """A function over normalised SQL values (runner form) that runs ``func``."""
    from dl2sql.runner.convert import from_sql, to_sql

    def udf(*sql_args):
        args = [from_sql(t, a, env) for t, a in zip(params, sql_args)]
        return to_sql(ret, interp.call(func, targs, args), env)
    return udf

