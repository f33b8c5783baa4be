"""Transformer declarations and their applications (``apply T(R, f) -> (O)``).

An ``apply`` is checked against its transformer's declaration (argument kinds and
counts, relations and functions that exist, outputs that rules may derive), then
replaced by what computes it: the ``graph`` library's transformers become rules over
generated helper relations (:mod:`dl2sql.types.graph_transformers`), which the rest
of the compiler stratifies, plans as fixpoint loops and maintains like any other
rules. A transformer's outputs thus depend on all its inputs, and recursion through a
transformer is refused (:func:`check_not_recursive`): DDlog refuses it too.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, suggest
from dl2sql.types import typed as T
from dl2sql.types.graph_transformers import GRAPH_TRANSFORMERS, graph_rules
from dl2sql.types.model import TNamed, TTuple, TVar, Type, substitute
from dl2sql.types.symbols import Symbols, qualify


@dataclass(frozen=True)
class Application:
    """One checked ``apply``: resolved names, in the applying module's scope."""

    decl: A.ApplyDecl
    module: str
    transformer: str  # qualified transformer name
    relations: tuple[str, ...]  # input relation arguments, qualified
    functions: tuple[str, ...]  # function arguments, as written
    outputs: tuple[str, ...]  # output relations, qualified


def collect_transformers(modules: list[A.Module],
                         diags: Diagnostics) -> dict[str, A.TransformerDecl]:
    """Every ``extern transformer`` by qualified name (a second one is an error)."""
    out: dict[str, A.TransformerDecl] = {}
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.TransformerDecl):
                q = qualify(m.name, d.name)
                if q in out:
                    diags.error(d.span, f"transformer `{d.name}` is declared more than once")
                out[q] = d
    return out


def expand_applications(modules: list[A.Module], syms: Symbols, diags: Diagnostics
                        ) -> tuple[list[Application], list[tuple[str, A.Rule]]]:
    """Every checked ``apply`` and the rules (with the module they are checked in) that
    compute them; registers the helper relations they use in ``syms``."""
    transformers = collect_transformers(modules, diags)
    apps: list[Application] = []
    rules: list[tuple[str, A.Rule]] = []
    written: dict[str, A.ApplyDecl] = {}
    for m in modules:
        for d in m.decls:
            if not isinstance(d, A.ApplyDecl):
                continue
            app = _resolve(d, m.name, transformers, syms, diags)
            if app is None:
                continue
            for out in app.outputs:
                if out in written:
                    diags.error(d.span, f"relation `{out}` is already the output of the "
                                        f"transformer applied at line "
                                        f"{written[out].span.line}")
                written[out] = d
            apps.append(app)
            if app.transformer in GRAPH_TRANSFORMERS:
                if _node_functions_fit(app, syms, diags):
                    rules += [(m.name, r) for r in graph_rules(app, syms, diags)]
            else:
                _check_user_signature(app, transformers[app.transformer], syms, diags)
    return apps, rules


def _node_functions_fit(app: Application, syms: Symbols, diags: Diagnostics) -> bool:
    """Whether the functions that give an edge's nodes return the output's node type,
    where a function has one non-generic declaration (the type checker judges the
    rest): one error naming both types, rather than one per use in generated rules."""
    record = syms.relations[app.outputs[0]].record_type
    if not (isinstance(record, TTuple) and len(record.elems) == 2):
        return True  # graph_rules says so
    ok = True
    for name in app.functions:
        found = syms.resolve_function(name, app.module)
        if len(found) != 1 or found[0].decl.ret is None or _type_vars(found[0].decl):
            continue
        ret = syms.to_type(found[0].decl.ret, found[0].module, {}, diags)
        if ret != record.elems[0]:
            diags.error(app.decl.span, f"`{name}` returns `{ret}`, but the nodes of "
                                       f"`{app.decl.outputs[0]}` are `{record.elems[0]}`")
            ok = False
    return ok


def user_applications(apps: list[Application]) -> list[Application]:
    """The applications a Python callable computes (not the ``graph`` library's)."""
    return [a for a in apps if a.transformer not in GRAPH_TRANSFORMERS]


def _check_user_signature(app: Application, decl: A.TransformerDecl, syms: Symbols,
                          diags: Diagnostics) -> None:
    """A user transformer runs as a Python callable on DataFrames: relation parameters
    only, their declared record types matching the relations' (type variables bound
    consistently)."""
    d = app.decl
    if any(p.relation is None for p in decl.inputs + decl.outputs):
        diags.error(d.span, f"`{d.transformer}` takes a function: function parameters of "
                            "user-declared transformers are not supported yet (only the "
                            "`graph` library's transformers take them)")
        return
    module = app.transformer.rsplit("::", 1)[0] if "::" in app.transformer else ""
    bound: dict[str, Type] = {}
    pairs = list(zip(decl.inputs, app.relations)) + list(zip(decl.outputs, app.outputs))
    for param, rel in pairs:
        tvars = {name: TVar(name) for name in _type_vars(param.relation)}
        declared = syms.to_type(param.relation, module, tvars, diags)
        actual = syms.relations[rel].record_type
        if not _matches(declared, actual, bound):
            diags.error(d.span, f"relation `{rel}` holds `{actual}`, but parameter "
                                f"`{param.name}` of `{d.transformer}` is "
                                f"`relation[{_shown(declared, bound)}]`")


def _type_vars(t) -> list[str]:
    """The type variables a type expression names."""
    if isinstance(t, A.TVarE):
        return [t.name]
    if not dataclasses.is_dataclass(t):
        return []
    out = []
    for f in dataclasses.fields(t):
        value = getattr(t, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            out += _type_vars(item)
    return out


def _matches(declared: Type, actual: Type, bound: dict) -> bool:
    """Whether ``actual`` is ``declared`` with its type variables as in ``bound``
    (binding the ones not bound yet)."""
    if isinstance(declared, TVar):
        if declared.name in bound:
            return bound[declared.name] == actual
        bound[declared.name] = actual
        return True
    if type(declared) is not type(actual):
        return False
    if isinstance(declared, TTuple):
        return (len(declared.elems) == len(actual.elems)
                and all(_matches(a, b, bound) for a, b in zip(declared.elems, actual.elems)))
    if isinstance(declared, TNamed):
        return (declared.name == actual.name and len(declared.args) == len(actual.args)
                and all(_matches(a, b, bound) for a, b in zip(declared.args, actual.args)))
    return declared == actual


def _shown(t: Type, bound: dict) -> str:
    return str(substitute(t, bound)) if bound else str(t)


def check_not_recursive(apps: list[Application], rules: list[T.CoreRule],
                        diags: Diagnostics) -> None:
    """A transformer's inputs must not depend on its outputs (DDlog evaluates a
    transformer once its inputs are complete)."""
    reads: dict[str, set[str]] = {}  # relation -> the relations its rules read
    for r in rules:
        body = {c.relation for c in r.body if isinstance(c, (T.CAtom, T.CGroupSource))}
        for h in r.heads:
            reads.setdefault(h.relation, set()).update(body)
    for app in apps:  # an output reads every input of its transformer
        for out in app.outputs:
            reads.setdefault(out, set()).update(app.relations)
    for app in apps:
        for rel in app.relations:
            seen, todo = set(), [rel]
            while todo:
                cur = todo.pop()
                if cur in app.outputs:
                    diags.error(app.decl.span, f"transformer `{app.decl.transformer}` is "
                                f"applied inside a recursive cycle: its input `{rel}` "
                                f"depends on its output `{cur}`; a transformer cannot be "
                                "part of recursion")
                    break
                if cur not in seen:
                    seen.add(cur)
                    todo += reads.get(cur, ())


def _resolve(d: A.ApplyDecl, module: str, transformers, syms: Symbols,
             diags: Diagnostics):
    """Check ``d`` against its declaration; None (after errors) when it does not fit."""
    qname = syms.resolve_in(transformers, d.transformer, module)
    if qname is None:
        names = [q.rsplit("::", 1)[-1] for q in transformers]
        diags.error(d.span, f"unknown transformer `{d.transformer}`"
                    + suggest(d.transformer.rsplit("::", 1)[-1], names))
        return None
    decl = transformers[qname]
    if len(d.args) != len(decl.inputs) or len(d.outputs) != len(decl.outputs):
        diags.error(d.span, f"transformer `{d.transformer}` takes {len(decl.inputs)} "
                            f"argument(s) and gives {len(decl.outputs)} output(s); this "
                            f"`apply` has {len(d.args)} and {len(d.outputs)}")
        return None
    relations, functions, ok = [], [], True
    for arg, param in zip(d.args, decl.inputs):
        if param.relation is not None:
            rel = _relation(arg, module, syms, d, diags)
            ok = ok and rel is not None
            relations.append(rel)
        elif not syms.resolve_function(arg, module):
            diags.error(d.span, f"`{arg}` (argument `{param.name}` of `{d.transformer}`) "
                                "is not a function")
            ok = False
        else:
            functions.append(arg)
    outputs = []
    for arg in d.outputs:
        rel = _relation(arg, module, syms, d, diags)
        if rel is not None and syms.relations[rel].role == "input":
            diags.error(d.span, f"the output `{arg}` of a transformer cannot be an "
                                "input relation")
            rel = None
        ok = ok and rel is not None
        outputs.append(rel)
    if not ok:
        return None
    return Application(d, module, qname, tuple(relations), tuple(functions),
                       tuple(outputs))


def _relation(name: str, module: str, syms: Symbols, d: A.ApplyDecl, diags: Diagnostics):
    q = syms.resolve_relation(name, module)
    if q is None:
        names = [r.rsplit("::", 1)[-1] for r in syms.relations]
        diags.error(d.span, f"unknown relation `{name}` in `apply`"
                    + suggest(name.rsplit("::", 1)[-1], names))
    return q
