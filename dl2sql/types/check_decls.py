"""Checks of declarations, used or not, as DDlog makes them on the whole program:
constructors and type parameters of each ``typedef``, the types every alias and
extern function names, relations named like a type, extern functions that share a
name, and relation attributes (recursive aliases: :mod:`dl2sql.types.alias_cycles`).
"""
from __future__ import annotations

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics
from dl2sql.types.check_flow import signature_tvars
from dl2sql.types.check_whole import is_own_library
from dl2sql.types.model import TVar


def type_vars(t) -> set[str]:
    """The type variables a type expression mentions."""
    if isinstance(t, A.TVarE):
        return {t.name}
    if isinstance(t, A.TNameE):
        return set().union(*(type_vars(a) for a in t.args))
    if isinstance(t, A.TTupleE):
        return set().union(*(type_vars(e) for e in t.elems))
    if isinstance(t, A.TFunctionE):
        return set().union(*(type_vars(p.type) for p in t.params),
                           type_vars(t.ret) if t.ret else set())
    return set()


def check_declarations(modules: list[A.Module], syms, diags: Diagnostics) -> None:
    """Every check of a declaration that does not need a function body."""
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.TypeDef):
                _check_typedef(d, m.name, syms, diags)
            elif isinstance(d, A.RelationDecl):
                _check_relation(d, m.name, syms, diags)
    own = {m.name for m in modules if is_own_library(m)}
    _check_externs(syms, own, diags)


def _check_typedef(d: A.TypeDef, module: str, syms, diags: Diagnostics) -> None:
    if d.ctors is not None:
        seen: set[str] = set()
        for c in d.ctors:
            if c.name in seen:
                diags.error(c.span, f"constructor `{c.name}` is defined more than once "
                                    f"in `{d.name}`")
            seen.add(c.name)
        used = set().union(*(type_vars(f.type) for c in d.ctors for f in c.fields))
    elif d.alias is not None:
        used = type_vars(d.alias)
        _resolve_quietly(syms, d.alias, module, {p: TVar(p) for p in d.params}, diags)
    else:
        return  # an extern type: its parameters are the library's business
    unused = [p for p in d.params if p not in used]
    if unused:  # a parameter nothing holds would leave its instances' types unknown
        names = ", ".join("'" + p for p in unused)
        diags.error(d.span, f"type parameter{'s' if len(unused) > 1 else ''} {names} of "
                            f"`{d.name}` {'are' if len(unused) > 1 else 'is'} not used in "
                            f"its definition")


def _check_relation(d: A.RelationDecl, module: str, syms, diags: Diagnostics) -> None:
    q = f"{module}::{d.name}" if module else d.name
    if d.fields is not None and q in syms.type_spans and syms.type_spans[q] != d.span:
        diags.error(d.span, f"relation `{d.name}` declares a record type of its name, "
                            f"but a type `{d.name}` is already defined (at "
                            f"{syms.type_spans[q]}); rename one of them")
    for a in d.attrs:
        if a.name == "original" and isinstance(a.value, A.EString) and "\0" in a.value.value:
            diags.error(a.span, "the value of the `original` attribute cannot contain a "
                                "0 character")


def _check_externs(syms, own: set[str], diags: Diagnostics) -> None:
    """Extern functions are not overloaded (the name denotes one implementation),
    except in dl2sql's own library (``own``), whose externs dl2sql implements itself,
    overload by overload; their signatures name known types."""
    for overloads in syms.functions.values():
        externs = [s for s in overloads if s.decl.extern]
        if externs and len(overloads) > 1 and externs[-1].module not in own:
            other = next(s for s in overloads if s is not externs[-1])
            diags.error(externs[-1].decl.span,
                        f"extern function `{externs[-1].decl.name}` clashes with the "
                        f"function of the same name at {other.decl.span}: only functions "
                        f"with a body may be overloaded")
        for s in externs:
            tparams = {n: TVar(n) for n in signature_tvars(s.decl)}
            for t in [p.type for p in s.decl.params] + ([s.decl.ret] if s.decl.ret else []):
                _resolve_quietly(syms, t, s.module, tparams, diags)


def _resolve_quietly(syms, t: A.TypeExpr, module: str, tparams, diags: Diagnostics) -> None:
    """Convert type expression ``t``, keeping the errors not reported already (a type
    used elsewhere too has been converted, with its errors)."""
    scratch = Diagnostics()
    syms.to_type(t, module, tparams, scratch)
    known = {(d.span, d.message) for d in diags.items}
    diags.items.extend(d for d in scratch.items if (d.span, d.message) not in known)
