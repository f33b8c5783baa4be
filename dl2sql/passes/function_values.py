"""Function values stored in relations, by defunctionalization.

A relation may hold closures (``relation Closures(f: |u64|: string)``). SQL has no
function values, so every function type that some relation stores (directly or
inside a tuple, struct or collection) becomes a tagged union generated here: one
constructor per closure literal of that type in the program (``lambdaN``), whose
fields are the variables the closure captures. A closure literal becomes that
constructor applied to its captured variables, and applying a value of the type
becomes a ``match`` over the constructors, each arm the literal's body with its
parameters and captures bound. Everything downstream (storage, equality, order,
conversion, the interpreter, SQL) then sees ordinary union values.

Equality and order: DDlog compares closures by function pointer, then by captured
values, so its order between different literals depends on the Rust build. Here it
is by literal, numbered in the order the compiler meets them (rules in program order,
then function instances), then by captured values: deterministic, and equal closures
are equal in both. As in DDlog, each occurrence of a closure is its own literal (two
identical texts make unequal closures), and so is each instance of one inside a
generic function.

A stored type whose values reach a function that is not written in DDlog (a builtin
or an extern, which call Python callables) is wrapped back into a closure that
dispatches. Function types no relation stores are left alone, so programs without
stored closures compile exactly as before.
"""
from __future__ import annotations

import dataclasses
import typing

from dl2sql.diagnostics import Diagnostics, Span
from dl2sql.passes.closure_text import closure_text
from dl2sql.runtime.defaults import default_value
from dl2sql.types import typed as T
from dl2sql.types.model import (STD, CtorDef, RelationInfo, TFunc, TNamed, TTuple, Type,
                                TypeDefn, TypeEnv)
from dl2sql.types.substitute import substitute_vars

TYPE_CLASSES = typing.get_args(Type)
PREFIX = "__function"  # the generated union types: __function0, __function1, ...


def normal(t: TFunc) -> TFunc:
    """``t`` without its all-false ``mut`` flags, so that a declared type and a
    closure's inferred one compare equal."""
    return TFunc(t.params, t.ret, t.mutable if any(t.mutable) else ())


def functions_in(t: Type, env: TypeEnv, _seen: frozenset = frozenset()):
    """The function types whose values a value of type ``t`` may contain (through
    tuples, type arguments and constructor fields)."""
    if isinstance(t, TFunc):
        yield normal(t)
    elif isinstance(t, TTuple):
        for e in t.elems:
            yield from functions_in(e, env, _seen)
    elif isinstance(t, TNamed) and t not in _seen:
        seen = _seen | {t}
        for a in t.args:
            yield from functions_in(a, env, seen)
        defn = env.defs.get(t.name)
        if defn is not None and not defn.extern:
            for c in env.ctors(t):
                for _, ft in c.fields:
                    yield from functions_in(ft, env, seen)


def free_vars(e, bound: frozenset = frozenset()) -> dict[str, Type]:
    """The variables ``e`` reads that it does not bind itself, in order of first use,
    with their types."""
    out: dict[str, Type] = {}

    def visit(n, b):
        if isinstance(n, T.TVarRef):
            if n.name not in b:
                out.setdefault(n.name, n.type)
        elif isinstance(n, T.TClosure):
            visit(n.body, b | {p for p, _ in n.params})
        elif isinstance(n, T.TSeq):
            for item in n.items:
                if isinstance(item, T.TLet):
                    visit(item.expr, b)
                    visit(item.pattern, b)
                    b = b | set(T.pattern_vars(item.pattern))
                else:
                    visit(item, b)
        elif isinstance(n, T.TMatch):
            visit(n.scrutinee, b)
            for p, body in n.arms:
                visit(p, b)
                visit(body, b | set(T.pattern_vars(p)))
        elif isinstance(n, T.TFor):
            visit(n.iterable, b)
            visit(n.body, b | set(T.pattern_vars(n.pattern)))
        else:
            for child in T.children(n):
                visit(child, b)
    visit(e, frozenset(bound))
    return out


@dataclasses.dataclass
class Literal:
    """One closure literal of a stored function type: its constructor, the variables
    it captures, and where it was found (for diagnostics)."""

    closure: T.TClosure
    ctor: str
    captures: dict[str, Type]
    span: Span


def _closures(node):
    """Every closure literal inside ``node`` (outer ones first)."""
    for e in T.subexpressions(node):
        if isinstance(e, T.TClosure):
            yield e


class Defunctionalizer:
    """Finds the stored function types and their literals, then rewrites the program
    (see the module's docstring)."""

    def __init__(self, env: TypeEnv, relations: dict[str, RelationInfo], rules, functions,
                 spans: dict):
        self.env, self.relations, self.rules, self.functions = env, relations, rules, functions
        self.spans = spans  # function name -> span of its declaration
        self.diags = Diagnostics()
        self.stored: dict[TFunc, str] = {}  # function type -> name of its union
        # function type -> {id of a closure node: Literal}: each occurrence of a closure in
        # the program is its own literal, as each is its own Rust function in DDlog
        self.literals: dict[TFunc, dict] = {}
        self.new_env = env

    # ------------------------------------------------------------------ analysis
    def analyse(self) -> bool:
        """Find the stored function types (those of relation columns, then those
        their literals capture, until none is added); False when there are none."""
        todo = []
        for info in self.relations.values():
            for f in functions_in(info.record_type, self.env):
                if f not in self.stored:
                    self._store(f, info.span)
                    todo.append(f)
        for f, span in self._printed():  # printing needs the union's descriptions
            if f not in self.stored:
                self._store(f, span)
                todo.append(f)
        while todo:
            self._collect()
            todo = []
            for lits in self.literals.values():
                for lit in lits.values():
                    for t in lit.captures.values():
                        for f in functions_in(t, self.env):
                            if f not in self.stored:
                                self._store(f, lit.span)
                                todo.append(f)
        return bool(self.stored)

    def _printed(self):
        """The function types of values converted to strings (``"${f}"``), with the
        span of the rule or function that does it."""
        roots = [(r, r.span) for r in self.rules]
        roots += [(fn, self.spans.get(key[0].split("#", 1)[0]))
                  for key, fn in self.functions.items()]
        for root, span in roots:
            for e in T.subexpressions(root):
                if isinstance(e, T.TToString) and isinstance(e.expr.type, TFunc):
                    yield normal(e.expr.type), span

    def _store(self, f: TFunc, span: Span) -> None:
        if any(f.mutable):
            self.diags.error(span, f"function values of type `{f}` (with `mut` "
                                   f"parameters) cannot be stored in a relation yet")
        self.stored[f] = f"{PREFIX}{len(self.stored)}"

    def _collect(self) -> None:
        self.literals = {f: {} for f in self.stored}
        roots = [(r, r.span) for r in self.rules]
        roots += [(fn, self.spans.get(key[0].split("#", 1)[0]))
                  for key, fn in self.functions.items()]
        for root, span in roots:
            for c in _closures(root):
                f = normal(c.type)
                lits = self.literals.get(f)
                if lits is None or id(c) in lits:
                    continue
                captures = free_vars(c.body, frozenset(p for p, _ in c.params))
                ctor = f"{self.stored[f]}::lambda{len(lits)}"
                lits[id(c)] = Literal(c, ctor, captures, span)

    # ------------------------------------------------------------------ types
    def type(self, t: Type) -> Type:
        """``t`` with every stored function type replaced by its union."""
        if isinstance(t, TFunc):
            name = self.stored.get(normal(t))
            if name is not None:
                return TNamed(name)
            return TFunc(tuple(self.type(p) for p in t.params), self.type(t.ret), t.mutable)
        if isinstance(t, TTuple):
            return TTuple(tuple(self.type(e) for e in t.elems))
        if isinstance(t, TNamed) and t.args:
            return TNamed(t.name, tuple(self.type(a) for a in t.args))
        return t

    def build_env(self) -> TypeEnv:
        """The type definitions with stored function types replaced, plus one union
        per stored type (a type no literal has gets DDlog's default closure only)."""
        env = TypeEnv()
        for d in self.env.defs.values():
            env.add(dataclasses.replace(d, ctors=tuple(
                CtorDef(c.name, tuple((n, self.type(ft)) for n, ft in c.fields))
                for c in d.ctors)))
        for f, name in self.stored.items():
            lits = list(self.literals[f].values())
            ctors = tuple(CtorDef(lit.ctor, tuple((n, self.type(t))
                                                  for n, t in lit.captures.items()))
                          for lit in lits) or (CtorDef(f"{name}::default", ()),)
            descriptions = tuple(closure_text(lit.closure, self.env) for lit in lits) or \
                ("default closure",)
            env.add(TypeDefn(name, (), ctors, module="", closures=descriptions))
        self.new_env = env
        return env

    # ------------------------------------------------------------------ expressions
    def rewrite(self, v):
        """``v`` (a typed rule, clause, expression, pattern, function instance or a
        tuple of them) with stored function values as union values."""
        if isinstance(v, TYPE_CLASSES):
            return self.type(v)
        if isinstance(v, tuple):
            return tuple(self.rewrite(x) for x in v)
        if not (dataclasses.is_dataclass(v) and v.__class__.__module__ == T.__name__):
            return v
        if isinstance(v, T.TClosure) and normal(v.type) in self.stored:
            lit = self.literals[normal(v.type)][id(v)]
            return T.TStruct(self.type(v.type), lit.ctor, tuple(
                T.TVarRef(self.type(t), n) for n, t in lit.captures.items()))
        if isinstance(v, T.TToString) and isinstance(v.expr.type, TFunc):
            # a closure prints as DDlog's runtime shows it (its Debug form)
            union = self.type(v.expr.type)
            return T.TCall(v.type, f"{STD}::to_string_debug", (self.rewrite(v.expr),),
                           (union,))
        if isinstance(v, T.TApply) and isinstance(v.callee.type, TFunc) and \
                normal(v.callee.type) in self.stored:
            return self.apply(normal(v.callee.type), self.rewrite(v.callee),
                              [self.rewrite(a) for a in v.args])
        if isinstance(v, T.TCall) and (v.func, v.targs) not in self.functions:
            # a builtin or extern calls what it is given: hand it a real closure
            args = tuple(self.callable(a) for a in v.args)
            return T.TCall(self.type(v.type), v.func, args, self.rewrite(v.targs), v.mutates)
        return dataclasses.replace(v, **{f.name: self.rewrite(getattr(v, f.name))
                                         for f in dataclasses.fields(v)})

    def callable(self, arg: T.TExpr) -> T.TExpr:
        """``arg`` rewritten; a stored function value as a closure that dispatches."""
        new = self.rewrite(arg)
        if not (isinstance(arg.type, TFunc) and normal(arg.type) in self.stored):
            return new
        f = normal(arg.type)
        params = tuple((f"__arg{i}", self.type(p)) for i, p in enumerate(f.params))
        body = self.apply(f, new, [T.TVarRef(t, n) for n, t in params])
        return T.TClosure(TFunc(tuple(t for _, t in params), self.type(f.ret)), params, body)

    def apply(self, f: TFunc, callee: T.TExpr, args: list) -> T.TExpr:
        """``callee(args)`` for a value of stored type ``f``: a call of the function
        that dispatches on it (:meth:`dispatcher`), which inlining expands where it
        can (a closure that applies closures of its own type makes it recursive)."""
        return T.TCall(self.type(f.ret), f"{self.stored[f]}::apply", (callee, *args))

    def dispatcher(self, f: TFunc) -> T.FunctionIR:
        """The function applying a value of stored type ``f`` to arguments: a
        ``match`` on the literal it was built from, each arm that literal's body."""
        ret = self.type(f.ret)
        union = TNamed(self.stored[f])
        params = (("__closure", union),) + tuple(
            (f"__arg{i}", self.type(p)) for i, p in enumerate(f.params))
        scrutinee = T.TTupleE(TTuple(tuple(t for _, t in params)),
                              tuple(T.TVarRef(t, n) for n, t in params))
        arms = []
        for lit in self.literals[f].values():
            short = lit.ctor.rsplit("::", 1)[-1]
            fresh = {n: f"__{short}_{n}" for n in [*lit.captures, *dict(lit.closure.params)]}
            # bound afresh in the arm that runs it, so that its parameters and captures
            # cannot meet the caller's variables of the same names
            body = substitute_vars(self.rewrite(lit.closure.body), {
                n: T.TVarRef(self.type(t), fresh[n])
                for n, t in [*lit.captures.items(), *lit.closure.params]})
            ctor = T.PCtor(union, lit.ctor, tuple(
                (n, T.PVar(self.type(t), fresh[n])) for n, t in lit.captures.items()))
            args = tuple(T.PVar(self.type(t), fresh[n]) for n, t in lit.closure.params)
            arms.append((T.PTuple(scrutinee.type, (ctor, *args)), body))
        if not arms:  # DDlog's default closure returns the default value
            arms.append((T.PWild(scrutinee.type),
                         T.TConst(ret, default_value(ret, self.new_env))))
        return T.FunctionIR(f"{self.stored[f]}::apply", (), params,
                            tuple(False for _ in params), ret,
                            T.TMatch(ret, scrutinee, tuple(arms)))


def defunctionalize(env: TypeEnv, relations: dict[str, RelationInfo], rules: list,
                    functions: dict, spans: dict):
    """``(env, relations, rules, functions)`` with every function type a relation
    stores replaced by a union of its closure literals (the inputs themselves when
    no relation stores functions); raises CompileError for what is not supported."""
    d = Defunctionalizer(env, relations, rules, functions, spans)
    if not d.analyse():
        return env, relations, rules, functions
    d.diags.raise_if_errors()
    new_env = d.build_env()
    new_relations = {r: dataclasses.replace(i, record_type=d.type(i.record_type),
                                            key=d.rewrite(i.key) if i.key is not None else None,
                                            key_type=d.type(i.key_type)
                                            if i.key_type is not None else None)
                     for r, i in relations.items()}
    new_rules = [d.rewrite(r) for r in rules]
    new_functions = {(name, d.rewrite(targs)): d.rewrite(fn)
                     for (name, targs), fn in functions.items()}
    for f in d.stored:
        fn = d.dispatcher(f)
        new_functions[(fn.name, ())] = fn
    return new_env, new_relations, new_rules, new_functions
