"""Checks of where a statement may stand and what it may change (a mixin of
RuleChecker), as DDlog's validator makes them: ``break``/``continue`` inside a loop,
``mut`` arguments that are assignable places, no change to the collection a loop
iterates or inside an ``if`` condition, unique closure parameters, irrefutable
``var`` patterns, and no redundant ``match`` arm.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.types import typed as T
from dl2sql.types.exhaustive import redundant
from dl2sql.types.infer import is_infer_var
from dl2sql.types.model import TNamed


class PlaceChecks:
    """Mixed into RuleChecker; reads ``mutable`` (the assignable variables)."""

    loop_depth: int = 0  # `for` loops around the expression being checked
    mutable: frozenset = frozenset()
    iterated: frozenset = frozenset()  # variables a loop around is iterating over
    in_condition: frozenset = frozenset()  # mutable outside the `if` condition here

    @contextmanager
    def in_loop(self, iterated: Optional[str]):
        """Checking a loop body: ``break`` and ``continue`` are allowed, and the
        variable the loop iterates (``iterated``) may not change until it ends (its
        elements are being read)."""
        saved = (self.loop_depth, self.mutable, self.iterated)
        self.loop_depth += 1
        if iterated in self.mutable:
            self.mutable = self.mutable - {iterated}
            self.iterated = self.iterated | {iterated}
        try:
            yield
        finally:
            self.loop_depth, self.mutable, self.iterated = saved

    @contextmanager
    def read_only(self):
        """Checking an ``if`` condition: it may not change any variable (DDlog
        evaluates it as a pure expression)."""
        saved = (self.mutable, self.in_condition)
        self.mutable, self.in_condition = frozenset(), self.in_condition | self.mutable
        try:
            yield
        finally:
            self.mutable, self.in_condition = saved

    @contextmanager
    def outside_loops(self):
        """Checking a closure body: the loops around the closure are not its own."""
        saved = self.loop_depth
        self.loop_depth = 0
        try:
            yield
        finally:
            self.loop_depth = saved

    def check_jump(self, e: A.Expr) -> None:
        """``break``/``continue`` only inside a ``for`` loop."""
        if self.loop_depth == 0:
            word = "break" if isinstance(e, A.EBreak) else "continue"
            self.diags.error(e.span, f"`{word}` outside of a loop")

    def check_mut_args(self, sym, args, typed) -> None:
        """An argument passed for a ``mut`` parameter is a place the caller may
        change: a mutable variable, or a field or tuple element of one."""
        for p, a, te in zip(sym.decl.params, args, typed):
            if p.mutable and place_root(te) not in self.mutable:
                self.diags.error(a.span, f"`{sym.decl.name}` changes its argument "
                                         f"`{p.name}`: " + self.not_assignable(te))

    def not_assignable(self, target: T.TExpr) -> str:
        """Why ``target`` cannot be changed here (the end of a message)."""
        root = place_root(target)
        if root in self.iterated:
            return f"`{root}` cannot change inside a loop over it"
        if root in self.in_condition:
            return "an `if` condition cannot change a variable"
        return ("only local variables declared with `var` and `mut` arguments can be "
                "changed")

    def check_closure_params(self, e: A.EClosure) -> None:
        seen: set[str] = set()
        for p in e.params:
            if p.name in seen:
                self.diags.error(p.span, f"closure parameter `{p.name}` is declared "
                                         f"twice")
            seen.add(p.name)

    def check_let_pattern(self, pat: T.Pattern, lhs: A.Expr) -> None:
        """The pattern of ``var ... = e`` in a function body cannot fail to match:
        a constructor in it must be its type's only one."""
        ctor = _refutable_ctor(pat, self)
        if ctor is not None:
            self.diags.error(lhs.span, f"constructor `{ctor[0].rsplit('::', 1)[-1]}` in the "
                                       f"left-hand side of an assignment: `{ctor[1]}` has "
                                       f"more than one constructor, so the value may not "
                                       f"match; use `match`")

    def check_arms(self, e: A.EMatch, pats: list, scrut_type) -> None:
        """Report an arm that earlier arms already cover."""
        t = self.inf.resolve(scrut_type)
        if is_infer_var(t):
            return
        for i, arm in enumerate(e.arms):
            if i and redundant(pats[:i], pats[i], t, self.syms.env):
                self.diags.error(arm.pattern.span, "redundant match arm: the arms before it "
                                                   "match every value it matches")


def place_root(e: T.TExpr) -> Optional[str]:
    """The variable an assignable place (``x``, ``x.f``, ``x.0``) is part of."""
    while isinstance(e, (T.TGetField, T.TTupleGet)):
        e = e.expr
    return e.name if isinstance(e, T.TVarRef) else None


def _refutable_ctor(p, checker) -> Optional[tuple[str, str]]:
    if isinstance(p, T.PCtor):
        t = checker.inf.resolve(p.type)
        if isinstance(t, TNamed) and t.name in checker.syms.env.defs and \
                len(checker.syms.env.defs[t.name].ctors) > 1:
            return p.ctor, t.name
        subs = [q for _, q in p.fields]
    elif isinstance(p, T.PTuple):
        subs = list(p.elems)
    elif isinstance(p, T.PBind):
        subs = [p.pattern]
    else:
        return None
    return next((c for c in (_refutable_ctor(q, checker) for q in subs) if c), None)
