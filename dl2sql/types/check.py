"""Program-level checking: symbols, relations, rules; the result feeds the middle end."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics
from dl2sql.types import typed as T
from dl2sql.types.check_functions import instantiate_functions
from dl2sql.types.check_index import check_indexes
from dl2sql.types.check_rules import RuleChecker
from dl2sql.types.check_decls import check_declarations
from dl2sql.types.check_facts import fact_rows
from dl2sql.types.check_whole import check_every_function
from dl2sql.types.infer import zonk
from dl2sql.types.model import UNIT
from dl2sql.types.transactional import check_stream_rule
from dl2sql.types.transformers import (check_not_recursive, expand_applications,
                                       user_applications)
from dl2sql.types.check_names import check_relation_names
from dl2sql.types.symbols import Symbols, collect_symbols, qualify


@dataclass
class CheckedProgram:
    """Symbols and typed rules of a whole program."""

    symbols: Symbols
    rules: list[T.CoreRule]
    functions: dict = dataclasses.field(default_factory=dict)
    indexes: dict = dataclasses.field(default_factory=dict)  # name -> IndexInfo
    # applications of user transformers (dl2sql.types.transformers.Application)
    transforms: list = dataclasses.field(default_factory=list)
    # relation -> its rows written as facts and taken as data (stored form,
    # dl2sql.types.check_facts); those relations have no rule
    facts: dict = dataclasses.field(default_factory=dict)


def check_program(modules: list[A.Module],
                  libraries: frozenset[str] = frozenset()) -> CheckedProgram:
    """Type-check ``modules`` (FTL syntax already desugared, :mod:`dl2sql.syntax.ftl`);
    raises :class:`CompileError` with every error found. Every declaration is checked,
    used or not, except the unused functions of the modules in ``libraries``
    (:func:`dl2sql.types.check_whole.foreign_libraries`)."""
    diags = Diagnostics()
    syms = collect_symbols(modules, diags)
    _check_relation_decls(modules, syms, diags)
    check_relation_names(modules, diags)
    indexes = check_indexes(modules, syms, diags)
    applications, applied = expand_applications(modules, syms, diags)
    rules: list[T.CoreRule] = []
    tables: list[tuple[str, A.FactTable]] = []
    for m in modules:
        for d in m.decls:
            if isinstance(d, A.Rule):
                rules.append(RuleChecker(syms, m.name, diags).rule(d))
                check_stream_rule(d, m.name, syms, diags)
            elif isinstance(d, A.FactTable):
                tables.append((m.name, d))
    for module, rule in applied:  # what computes each `apply`, checked as rules
        rules.append(RuleChecker(syms, module, diags).rule(rule))
        check_stream_rule(rule, module, syms, diags)
    computed = {h.relation for r in rules for h in r.heads}
    computed.update(o for a in applications for o in a.outputs)
    facts, fact_rules = fact_rows(tables, syms, computed)
    for module, rule in fact_rules:  # facts that are not data after all: rules
        rules.append(RuleChecker(syms, module, diags).rule(rule))
        check_stream_rule(rule, module, syms, diags)
    check_not_recursive(applications, rules, diags)
    check_declarations(modules, syms, diags)
    check_every_function(syms, diags, libraries)
    diags.raise_if_errors()
    functions = instantiate_functions(rules + _key_functions(syms, diags), syms, diags)
    diags.raise_if_errors()
    return CheckedProgram(syms, rules, functions, indexes, user_applications(applications),
                          facts)


def _key_functions(syms: Symbols, diags: Diagnostics) -> list[T.TCall]:
    """Calls of the key functions of ``#[deserialize_from_array=f()]`` fields (the
    ``json`` library calls them at run time), so that they are checked and kept; the
    attribute is rewritten to the function's qualified name."""
    calls = []
    for d in list(syms.env.defs.values()):
        serde = []
        for key, value in d.serde:
            if key.startswith("from_array:"):
                found = [f for f in syms.resolve_function(value, d.module)
                         if len(f.decl.params) == 1]
                if not found:
                    diags.error(syms.type_spans.get(d.name),
                                f"the key function `{value}` of a `deserialize_from_array` "
                                f"field of `{d.name}` is not declared")
                else:
                    value = found[0].name
                    calls.append(T.TCall(UNIT, value, ()))
            serde.append((key, value))
        if tuple(serde) != d.serde:
            syms.env.add(dataclasses.replace(d, serde=tuple(serde)))
    return calls


def _check_relation_decls(modules, syms: Symbols, diags: Diagnostics) -> None:
    for m in modules:
        for d in m.decls:
            if not isinstance(d, A.RelationDecl):
                continue
            q = qualify(m.name, d.name)
            _source_attribute(d, q, syms, diags)
            if d.primary_key is not None and q in syms.relations:
                if d.role != "input":
                    diags.error(d.primary_key.span, "only input relations may have a "
                                                    "primary key")
                    continue
                if d.kind != "relation":  # as upstream: a key of copies has no meaning
                    diags.error(d.primary_key.span, f"a {d.kind} cannot have a primary key")
                    continue
                info = syms.relations[q]
                checker = RuleChecker(syms, m.name, diags)
                key = checker.expr(d.primary_key.expr, {d.primary_key.var: info.record_type})
                checker.inf.default_literals()
                key = _zonked(key, checker)
                if not _supported_key(key):
                    diags.error(d.primary_key.span, "this primary key expression is not "
                                                    "supported yet (use fields and tuples "
                                                    "of fields)")
                syms.relations[q] = dataclasses.replace(info, key=key, key_type=key.type)


def _source_attribute(d: A.RelationDecl, q: str, syms: Symbols, diags: Diagnostics) -> None:
    """``#[source = "db.table"]`` on an input relation: its default table or file."""
    for a in d.attrs:
        if a.name != "source":
            continue
        if d.role != "input":
            diags.error(a.span, "`#[source]` binds input relations only")
        elif not isinstance(a.value, A.EString) or a.value.interned:
            diags.error(a.span, 'write the source as a string: `#[source = "db.table"]`')
        elif q in syms.relations:
            syms.relations[q] = dataclasses.replace(syms.relations[q], source=a.value.value)


def _zonked(te, checker):
    return zonk(te, checker.inf)


def _supported_key(e) -> bool:
    if isinstance(e, (T.TVarRef, T.TConst)):
        return True
    if isinstance(e, T.TTupleE):
        return all(_supported_key(x) for x in e.elems)
    if isinstance(e, (T.TTupleGet, T.TGetField)):
        return _supported_key(e.expr)
    if isinstance(e, T.TStruct):
        return all(_supported_key(x) for x in e.args)
    return False
