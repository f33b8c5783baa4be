"""Global symbol tables: types, constructors, relations and functions of all modules,
and resolution of (possibly qualified) names as seen from one module."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Optional

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span, suggest
from dl2sql.types.alias_cycles import break_alias_cycles
from dl2sql.types.recursive_types import check_recursive_types
from dl2sql.types.serde_attrs import serde_attrs
from dl2sql.types.spelling import type_text
from dl2sql.types.model import (REF, BIGINT, BOOL, DOUBLE, FLOAT, STD, STRING, CtorDef,
                                RelationInfo, TBit, TFunc, TNamed, TSigned, TTuple,
                                TVar, Type, TypeDefn, TypeEnv, substitute)

STD_RELATION_NAMES = ("Singleton",)


def qualify(module: str, name: str) -> str:
    """The fully-qualified name of ``name`` declared in ``module``."""
    return f"{module}::{name}" if module else name


@dataclass
class ModuleScope:
    """What a module sees: its own declarations, its imports and their aliases."""

    name: str
    imports: list[str] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)


@dataclass
class AliasDef:
    params: tuple[str, ...]
    body: A.TypeExpr
    module: str


@dataclass
class FunctionSym:
    """A declared function (DDlog-defined or extern)."""

    name: str
    module: str
    decl: A.FunctionDef

    @property
    def builtin(self) -> bool:
        """An extern function of dl2sql's own standard library."""
        return self.decl.extern and self.module == "ddlog_std"


@dataclass
class Symbols:
    """Everything declared in a program, by qualified name."""

    env: TypeEnv = field(default_factory=TypeEnv)
    aliases: dict[str, AliasDef] = field(default_factory=dict)
    relations: dict[str, RelationInfo] = field(default_factory=dict)
    relation_decls: dict[str, A.RelationDecl] = field(default_factory=dict)
    functions: dict[str, list[FunctionSym]] = field(default_factory=dict)
    scopes: dict[str, ModuleScope] = field(default_factory=dict)
    type_spans: dict[str, Span] = field(default_factory=dict)
    # generated relation -> what it delays (dl2sql.types.transactional.Delayed)
    delayed: dict[str, object] = field(default_factory=dict)

    # -------------------------------------------------------------- resolution
    def candidates(self, name: str, module: str) -> list[str]:
        """Qualified names that ``name`` may denote inside ``module``, best first."""
        scope = self.scopes.get(module) or ModuleScope(module)
        if "::" in name:
            head, rest = name.split("::", 1)
            out = []
            if head in scope.aliases:
                out.append(f"{scope.aliases[head]}::{rest}")
            out.append(name)
            return out
        out = [qualify(module, name)]
        out += [qualify(m, name) for m in scope.imports]
        out.append(qualify(STD, name))
        return out

    def resolve_in(self, table, name: str, module: str) -> Optional[str]:
        """The first candidate of ``name`` present in ``table``."""
        for cand in self.candidates(name, module):
            if cand in table:
                return cand
        return None

    def resolve_type(self, name: str, module: str) -> Optional[str]:
        return self.resolve_in(self._type_names(), name, module)

    def resolve_ctor(self, name: str, module: str) -> Optional[str]:
        return self.resolve_in(self.env.ctor_owner, name, module)

    def resolve_relation(self, name: str, module: str) -> Optional[str]:
        return self.resolve_in(self.relations, name, module)

    def function(self, key: str) -> FunctionSym:
        """The function (one overload) with key ``key``."""
        for sym in self.functions[key.split("#", 1)[0]]:
            if sym.name == key:
                return sym
        raise KeyError(key)

    def resolve_function(self, name: str, module: str) -> list[FunctionSym]:
        """All overloads visible under ``name``: those of the module itself first, then
        of its imports, then of the standard library (calls pick by argument types)."""
        out: list[FunctionSym] = []
        for cand in self.candidates(name, module):
            out += [f for f in self.functions.get(cand, ()) if f not in out]
        return out

    def _type_names(self):
        return {**dict.fromkeys(self.env.defs), **dict.fromkeys(self.aliases)}

    # -------------------------------------------------------------- type expressions
    def to_type(self, t: A.TypeExpr, module: str, tparams: dict[str, Type],
                diags: Diagnostics) -> Type:
        """Convert a type expression to a semantic type, expanding aliases."""
        if isinstance(t, A.TBoolE):
            return BOOL
        if isinstance(t, A.TStringE):
            return STRING
        if isinstance(t, A.TBigIntE):
            return BIGINT
        if isinstance(t, A.TFloatE):
            return FLOAT
        if isinstance(t, A.TDoubleE):
            return DOUBLE
        if isinstance(t, (A.TBitE, A.TSignedE)):
            if t.width <= 0:
                diags.error(t.span, "integer width must be positive")
            return TBit(t.width) if isinstance(t, A.TBitE) else TSigned(t.width)
        if isinstance(t, A.TTupleE):
            return TTuple(tuple(self.to_type(e, module, tparams, diags) for e in t.elems))
        if isinstance(t, A.TVarE):
            if t.name not in tparams:
                diags.error(t.span, f"unknown type variable '{t.name}")
                return TVar(t.name)
            return tparams[t.name]
        if isinstance(t, A.TFunctionE):
            params = tuple(self.to_type(p.type, module, tparams, diags) for p in t.params)
            ret = self.to_type(t.ret, module, tparams, diags) if t.ret else TTuple(())
            return TFunc(params, ret, tuple(p.mutable for p in t.params))
        assert isinstance(t, A.TNameE), t
        args = tuple(self.to_type(a, module, tparams, diags) for a in t.args)
        qname = self.resolve_type(t.name, module)
        if qname is None:
            diags.error(t.span, f"unknown type `{t.name}`"
                        + suggest(t.name, [n.rsplit("::", 1)[-1] for n in self._type_names()]))
            return TNamed(t.name, args)
        params = (self.aliases[qname].params if qname in self.aliases
                  else self.env.defs[qname].params)
        if len(params) != len(args):
            diags.error(t.span, f"type `{t.name}` expects {len(params)} type argument(s), "
                                f"got {len(args)}")
            return TNamed(qname, args)
        if qname in self.aliases:
            alias = self.aliases[qname]
            body = self.to_type(alias.body, alias.module,
                                {p: TVar(p) for p in alias.params}, diags)
            expanded = substitute(body, dict(zip(alias.params, args)))
            # remembered for texts that show the alias as DDlog does (type_text)
            spelled = qname + (f"<{','.join(type_text(a) for a in args)}>" if args else "")
            return dataclasses.replace(expanded, spelled=spelled) \
                if not isinstance(expanded, TVar) else expanded
        return TNamed(qname, args)


def collect_symbols(modules: list[A.Module], diags: Diagnostics) -> Symbols:
    """Build the symbol tables of all ``modules`` (types first, then relations)."""
    syms = Symbols()
    for m in modules:
        scope = ModuleScope(m.name)
        for d in m.decls:
            if isinstance(d, A.Import):
                if d.alias:
                    scope.aliases[d.alias] = d.path
                else:
                    scope.imports.append(d.path)
        syms.scopes[m.name] = scope
    _declare_types(modules, syms, diags)
    break_alias_cycles(syms, diags)  # before anything expands an alias
    check_recursive_types(modules, syms, diags)  # types that hold themselves by value
    _define_ctors(modules, syms, diags)
    _declare_relations_and_functions(modules, syms, diags)
    return syms


def _declare_types(modules, syms: Symbols, diags: Diagnostics) -> None:
    for m in modules:
        for d in m.decls:
            if not isinstance(d, A.TypeDef):
                continue
            q = qualify(m.name, d.name)
            if q in syms.type_spans:
                diags.error(d.span, f"type `{d.name}` is defined more than once")
                continue
            syms.type_spans[q] = d.span
            if d.ctors is None and not d.extern:
                syms.aliases[q] = AliasDef(d.params, d.alias, m.name)
            else:
                syms.env.add(TypeDefn(q, d.params, (), d.extern, m.name))
        for d in m.decls:
            if isinstance(d, A.RelationDecl) and d.fields is not None:
                q = qualify(m.name, d.name)
                if q in syms.type_spans:
                    continue
                syms.type_spans[q] = d.span
                syms.env.add(TypeDefn(q, (), (), False, m.name))


def _define_ctors(modules, syms: Symbols, diags: Diagnostics) -> None:
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.TypeDef) and d.ctors is not None:
                tparams = {p: TVar(p) for p in d.params}
                ctors = tuple(_ctor(c, m.name, tparams, syms, diags) for c in d.ctors)
                _check_ctor_fields(d.name, ctors, d.span, diags)
                syms.env.add(TypeDefn(qualify(m.name, d.name), d.params, ctors, False, m.name,
                                      serde_attrs(d)))
            elif isinstance(d, A.RelationDecl) and d.fields is not None:
                q = qualify(m.name, d.name)
                fields = tuple((f.name, syms.to_type(f.type, m.name, {}, diags))
                               for f in d.fields)
                _check_unique([f.name for f in d.fields], d.fields, "field", diags)
                if q not in syms.env.ctor_owner:
                    syms.env.add(TypeDefn(q, (), (CtorDef(q, fields),), False, m.name))


def _ctor(c: A.Constructor, module, tparams, syms, diags) -> CtorDef:
    _check_unique([f.name for f in c.fields], c.fields, "field", diags)
    q = qualify(module, c.name)
    if q in syms.env.ctor_owner:
        diags.error(c.span, f"constructor `{c.name}` is defined more than once")
    fields = tuple((f.name, syms.to_type(f.type, module, tparams, diags)) for f in c.fields)
    return CtorDef(q, fields)


def _check_unique(names, items, what, diags) -> None:
    seen = set()
    for n, item in zip(names, items):
        if n in seen:
            diags.error(item.span, f"duplicate {what} `{n}`")
        seen.add(n)


def _check_ctor_fields(tname, ctors, span, diags) -> None:
    types: dict[str, Type] = {}
    for c in ctors:
        for n, t in c.fields:
            if n in types and types[n] != t:
                diags.error(span, f"field `{n}` has different types in the constructors "
                                  f"of `{tname}`")
            types.setdefault(n, t)


def _declare_relations_and_functions(modules, syms: Symbols, diags: Diagnostics) -> None:
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.RelationDecl):
                q = qualify(m.name, d.name)
                if q in syms.relations:
                    diags.error(d.span, f"relation `{d.name}` is declared more than once")
                    continue
                if d.fields is not None:
                    rtype: Type = TNamed(q)
                else:
                    rtype = syms.to_type(d.record_type, m.name, {}, diags)
                if d.ref:  # `relation &R(...)` stores references to its records
                    rtype = TNamed(REF, (rtype,))
                syms.relations[q] = RelationInfo(q, d.role, d.kind, rtype, None, d.span)
                syms.relation_decls[q] = d
            elif isinstance(d, A.FunctionDef):
                q = qualify(m.name, d.name)
                overloads = syms.functions.setdefault(q, [])
                # overloads share a name; later ones get a suffix so each has its own key
                key = q if not overloads else f"{q}#{len(overloads)}"
                overloads.append(FunctionSym(key, m.name, d))
