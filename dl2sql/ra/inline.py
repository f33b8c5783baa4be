"""Inlining: typed expressions, blocks and calls of DDlog functions turned into closed
expressions that SQL can evaluate.

Blocks are evaluated symbolically: ``var`` and assignments rebind names to
expressions, and a statement that branches (``if`` or ``match`` holding an assignment
or a ``return``) is turned into a conditional whose branches each continue with the
rest of the block. Calls whose bodies cannot be expressed this way (loops, recursion,
``return`` from inside an expression) stay calls, which SQL generation runs as a
Python UDF with exactly the same semantics.
"""
from __future__ import annotations

import dataclasses

from dl2sql.ra.patterns import conjunction, field_of, match_pattern, tuple_item
from dl2sql.types import typed as T
from dl2sql.types.check_functions import calls_in
from dl2sql.types.model import UNIT, TNamed, TypeEnv
from dl2sql.types.substitute import substitute_vars

_EFFECTS = (T.TAssign, T.TReturn, T.TLet, T.TBreak, T.TContinue, T.TFor)


def _mutating_call(e) -> bool:
    return isinstance(e, T.TCall) and e.mutates
MAX_DEPTH = 24


class NotInlinable(Exception):
    """The expression needs the Python interpreter (loops, recursion, ...)."""


def has_effects(e) -> bool:
    """Whether ``e`` assigns, declares, returns, loops or breaks (at this level)."""
    if isinstance(e, _EFFECTS) or _mutating_call(e):
        return True
    if isinstance(e, T.TCall):
        return any(has_effects(a) for a in e.args)
    if isinstance(e, tuple):
        return any(has_effects(x) for x in e)
    if dataclasses.is_dataclass(e) and e.__class__.__module__ == T.__name__:
        return any(has_effects(getattr(e, f.name)) for f in dataclasses.fields(e)
                   if f.name != "type")
    return False


def _root(e) -> str | None:
    while isinstance(e, (T.TGetField, T.TCtorField, T.TTupleGet)):
        e = e.expr
    return e.name if isinstance(e, T.TVarRef) else None


def writes_through_pattern(e: T.TMatch) -> bool:
    """Whether an arm of a match on a variable assigns to (or passes as `mut`) a
    variable its pattern bound: DDlog then changes the matched variable, which the
    interpreter does and inlining does not."""
    if _root(e.scrutinee) is None:
        return False
    for pattern, body in e.arms:
        bound = set(T.pattern_vars(pattern))
        for sub in T.subexpressions(body):
            if isinstance(sub, T.TAssign) and _root(sub.target) in bound:
                return True
            if _mutating_call(sub) and any(_root(a) in bound for a in sub.args):
                return True
    return False


def _push_let(let: T.TLet) -> T.TExpr:
    """``var p = if/match`` as an ``if``/``match`` statement binding ``p`` per arm."""
    def bind(body):
        return T.TSeq(UNIT, (T.TLet(UNIT, let.pattern, body), T.TTupleE(UNIT, ())))
    e = let.expr
    if isinstance(e, T.TIf):
        return T.TIf(UNIT, e.cond, bind(e.then), bind(e.els))
    return T.TMatch(UNIT, e.scrutinee, tuple((p, bind(b)) for p, b in e.arms))


def _items(e: T.TExpr) -> list[T.TExpr]:
    return list(e.items) if isinstance(e, T.TSeq) else [e]


class Inliner:
    """Closes expressions over a scope of variable → closed expression."""

    def __init__(self, env: TypeEnv, functions: dict):
        self.env, self.functions = env, functions
        self._stack: list[tuple] = []

    # ------------------------------------------------------------------ expressions
    def close(self, e: T.TExpr, scope: dict) -> T.TExpr:
        """``e`` with its variables replaced: inlined and simplified where possible,
        otherwise only substituted, so that SQL generation evaluates it whole in the
        interpreter (loops, returns inside expressions)."""
        try:
            return self.expr(e, scope)
        except NotInlinable:
            return substitute_vars(e, scope)

    def expr(self, e: T.TExpr, scope: dict) -> T.TExpr:
        """The closed, simplified form of ``e`` (raises NotInlinable for effects)."""
        if isinstance(e, T.TVarRef):
            return scope[e.name]
        if isinstance(e, (T.TConst, T.TCol)):
            return e
        if isinstance(e, T.TSeq):
            return self.seq(list(e.items), scope)
        if isinstance(e, T.TClosure):
            captured = {k: v for k, v in scope.items() if k not in dict(e.params)}
            return T.TClosure(e.type, e.params, substitute_vars(e.body, captured))
        if isinstance(e, T.TApply):
            callee = self.expr(e.callee, scope)
            args = [self.expr(a, scope) for a in e.args]
            if isinstance(callee, T.TClosure):
                return self.expr(callee.body, {n: a for (n, _), a in zip(callee.params, args)})
            return T.TApply(e.type, callee, tuple(args))
        if isinstance(e, T.TMatch):
            if has_effects(e):
                raise NotInlinable("`return` or assignment inside a match expression")
            return self.match(e, scope, [])
        if isinstance(e, T.TCall):
            if e.mutates:
                raise NotInlinable("a call that assigns to its arguments")
            return self.call(e, [self.expr(a, scope) for a in e.args])
        if isinstance(e, _EFFECTS):
            raise NotInlinable(type(e).__name__)
        if isinstance(e, T.TGetField):
            inner = self.expr(e.expr, scope)
            if isinstance(inner, T.TStruct):
                return field_of(inner, inner.ctor, e.field, e.type, self.env)
            return T.TGetField(e.type, inner, e.field)
        if isinstance(e, T.TCtorField):
            return field_of(self.expr(e.expr, scope), e.ctor, e.field, e.type, self.env)
        if isinstance(e, T.TTupleGet):
            return tuple_item(self.expr(e.expr, scope), e.index, e.type)
        if isinstance(e, T.TIsCtor):
            inner = self.expr(e.expr, scope)
            if isinstance(inner, T.TStruct):
                return T.TConst(e.type, inner.ctor == e.ctor)
            return T.TIsCtor(e.type, inner, e.ctor)
        return self._map(e, scope)

    def _map(self, e, scope):
        changes = {}
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            if isinstance(v, tuple) and v and dataclasses.is_dataclass(v[0]):
                changes[f.name] = tuple(self.expr(x, scope) for x in v)
            elif dataclasses.is_dataclass(v) and f.name != "type" and \
                    v.__class__.__module__ == T.__name__:
                changes[f.name] = self.expr(v, scope)
        return dataclasses.replace(e, **changes)

    # ------------------------------------------------------------------ calls
    def call(self, e: T.TCall, args: list[T.TExpr]) -> T.TExpr:
        """The body of a DDlog function with ``args`` substituted, or the call itself
        (with closed arguments) when the body cannot be inlined."""
        key = (e.func, e.targs)
        fn = self.functions.get(key)
        if fn is None or self.recursive(key) or len(self._stack) >= MAX_DEPTH:
            return T.TCall(e.type, e.func, tuple(args), e.targs)
        self._stack.append(key)
        try:
            scope = {name: a for (name, _), a in zip(fn.params, args)}
            return self.seq(_items(fn.body), scope)
        except NotInlinable:
            return T.TCall(e.type, e.func, tuple(args), e.targs)
        finally:
            self._stack.pop()

    def recursive(self, key) -> bool:
        """Whether function instance ``key`` can call itself (then it is not inlined:
        the interpreter runs the whole call)."""
        if not hasattr(self, "_recursive"):
            graph = {k: {(c.func, c.targs) for c in calls_in(f.body)}
                     for k, f in self.functions.items()}
            self._recursive = set()
            for start in graph:
                seen, todo = set(), list(graph[start])
                while todo:
                    k = todo.pop()
                    if k == start:
                        self._recursive.add(start)
                        break
                    if k not in seen:
                        seen.add(k)
                        todo += graph.get(k, ())
        return key in self._recursive

    # ------------------------------------------------------------------ blocks
    def seq(self, items: list[T.TExpr], scope: dict) -> T.TExpr:
        """The value of a block (a function body is the outermost one)."""
        scope = dict(scope)
        for i, item in enumerate(items):
            rest = items[i + 1:]
            if isinstance(item, T.TSeq):
                return self.seq(list(item.items) + rest, scope)
            if isinstance(item, T.TLet) and isinstance(item.expr, T.TSeq) and item.expr.items \
                    and has_effects(item.expr):
                # `var p = {a; b; v}`: a and b run first, then p = v (a name a or b
                # declares cannot clash with a later one: DDlog forbids shadowing)
                inner = list(item.expr.items)
                let = T.TLet(item.type, item.pattern, inner[-1])
                return self.seq(inner[:-1] + [let] + rest, scope)
            if isinstance(item, T.TLet) and isinstance(item.expr, T.TReturn):
                return self.expr(item.expr.expr, scope)
            if isinstance(item, T.TLet) and isinstance(item.expr, (T.TIf, T.TMatch)) and \
                    has_effects(item.expr):
                # `var p = match/if {...}` whose arms return: bind p inside each arm
                return self.seq([_push_let(item)] + rest, scope)
            if isinstance(item, T.TLet):
                value = self.expr(item.expr, scope)
                conds = match_pattern(item.pattern, value, self.env, scope,
                                      lambda x: self.expr(x, scope))
                if conds:
                    raise NotInlinable("refutable pattern in `var`")
                continue
            if isinstance(item, T.TAssign):
                self._assign(item.target, self.expr(item.expr, scope), scope)
                continue
            if isinstance(item, T.TReturn):
                return self.expr(item.expr, scope)
            if isinstance(item, T.TIf) and has_effects(item):
                cond = self.expr(item.cond, scope)
                then = self.seq(_items(item.then) + rest, scope)
                els = self.seq(_items(item.els) + rest, scope)
                return T.TIf(then.type, cond, then, els)
            if isinstance(item, T.TMatch) and writes_through_pattern(item):
                raise NotInlinable("a match arm assigns to what its pattern bound")
            if isinstance(item, T.TMatch) and has_effects(item):
                return self.match(item, scope, rest)
            if not rest:
                return self.expr(item, scope)
            if has_effects(item):
                raise NotInlinable(type(item).__name__)
        return T.TTupleE(UNIT, ())

    def match(self, e: T.TMatch, scope: dict, rest: list) -> T.TExpr:
        """``match`` as nested conditionals; each arm continues with ``rest``."""
        scrut = self.expr(e.scrutinee, scope)
        branches = []
        for pattern, body in e.arms:
            inner = dict(scope)
            conds = match_pattern(pattern, scrut, self.env, inner,
                                  lambda x, s=inner: self.expr(x, s))
            if any(isinstance(c, T.TConst) and c.value is False for c in conds):
                # a constructor the scrutinee is known not to be: the arm cannot run,
                # and its pattern variables were never bound, so its body is not closed
                continue
            value = self.seq(_items(body) + rest, inner) if rest or has_effects(body) \
                else self.expr(body, inner)
            cond = conjunction(conds)
            branches.append((cond, value))
            if isinstance(cond, T.TConst) and cond.value is True:
                break  # the later arms are unreachable
        if not branches:  # only a non-exhaustive match gets here; leave it to the interpreter
            raise NotInlinable("no arm of the match can run")
        result = branches[-1][1]
        for cond, value in reversed(branches[:-1]):
            if isinstance(cond, T.TConst) and cond.value is True:
                result = value
            elif not (isinstance(cond, T.TConst) and cond.value is False):
                result = T.TIf(value.type, cond, value, result)
        return result

    def _assign(self, target: T.TExpr, value: T.TExpr, scope: dict) -> None:
        if isinstance(target, T.TVarRef):
            scope[target.name] = value
            return
        if isinstance(target, T.TTupleGet):
            whole = self.expr(target.expr, scope)
            elems = [tuple_item(whole, i, t) for i, t in enumerate(target.expr.type.elems)]
            elems[target.index] = value
            self._assign(target.expr, T.TTupleE(whole.type, tuple(elems)), scope)
            return
        if isinstance(target, T.TGetField):
            whole = self.expr(target.expr, scope)
            t = target.expr.type
            ctors = self.env.ctors(t) if isinstance(t, TNamed) else ()
            if len(ctors) != 1:
                raise NotInlinable("assignment to a field of a union")
            c = ctors[0]
            args = [value if n == target.field else field_of(whole, c.name, n, ft, self.env)
                    for n, ft in c.fields]
            self._assign(target.expr, T.TStruct(t, c.name, tuple(args)), scope)
            return
        raise NotInlinable("assignment target")
