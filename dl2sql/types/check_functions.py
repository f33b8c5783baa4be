"""Monomorphisation: every function instance that typed rules call, checked with
concrete types (generic functions are checked once per instantiation)."""
from __future__ import annotations

import dataclasses

from dl2sql.diagnostics import Diagnostics
from dl2sql.types import typed as T
from dl2sql.types.check_flow import signature_tvars
from dl2sql.types.check_rules import RuleChecker
from dl2sql.types.infer import has_open_type, zonk
from dl2sql.types.model import UNIT, Type, substitute
from dl2sql.types.symbols import Symbols

Key = tuple[str, tuple[Type, ...]]


def calls_in(node) -> list[T.TCall]:
    """Every TCall inside a typed tree."""
    out: list[T.TCall] = []

    def walk(n):
        if isinstance(n, T.TCall):
            out.append(n)
        if isinstance(n, tuple):
            for x in n:
                walk(x)
        elif dataclasses.is_dataclass(n) and not isinstance(n, type) and \
                n.__class__.__module__ == T.__name__:
            for f in dataclasses.fields(n):
                walk(getattr(n, f.name))
    walk(node)
    return out


def instantiate_functions(roots: list, syms: Symbols, diags: Diagnostics) -> dict[Key, T.FunctionIR]:
    """Check every DDlog-defined function instance reachable from ``roots``."""
    done: dict[Key, T.FunctionIR] = {}
    queue = [c for r in roots for c in calls_in(r)]
    seen: set[Key] = set()
    while queue:
        call = queue.pop()
        key = (call.func, call.targs)
        sym = syms.function(call.func)
        if key in seen or sym.decl.extern:
            continue
        seen.add(key)
        checker = RuleChecker(syms, sym.module, diags)
        mapping = dict(zip(_tvars(sym), call.targs))
        params = tuple((p.name, substitute(syms.to_type(p.type, sym.module,
                                                        {n: t for n, t in mapping.items()},
                                                        diags), mapping))
                       for p in sym.decl.params)
        ret = (syms.to_type(sym.decl.ret, sym.module, mapping, diags) if sym.decl.ret
               else UNIT)
        checker.ret_type = ret
        checker.tparams = mapping
        checker.mutable = frozenset(p.name for p in sym.decl.params if p.mutable)
        body = checker.expr(sym.decl.body, dict(params), ret)
        checker.inf.default_literals()
        body = zonk(body, checker.inf)
        if has_open_type(body) and not diags.has_errors:
            diags.error(sym.decl.span, f"cannot infer every type in `{sym.decl.name}`; add "
                                       f"type annotations")
        fn = T.FunctionIR(call.func, call.targs, params,
                          tuple(p.mutable for p in sym.decl.params), ret, body)
        done[key] = fn
        queue += calls_in(body)
    return done


def _tvars(sym) -> list[str]:
    return signature_tvars(sym.decl)
