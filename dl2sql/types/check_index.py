"""Index declarations: ``index I(k: T, ...) on R(pattern)``.

An index names a lookup over a relation: the records of ``R`` matching the pattern,
keyed by the pattern variables ``k, ...``. It changes nothing in the rules; replay's
``dump_index`` / ``query_index`` read it.
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span
from dl2sql.types import typed as T
from dl2sql.types.check_rules import RuleChecker
from dl2sql.types.infer import zonk
from dl2sql.types.model import Type
from dl2sql.types.symbols import Symbols, qualify


@dataclass(frozen=True)
class IndexInfo:
    """A checked index: its relation, key fields in order and the record pattern."""

    name: str
    relation: str
    fields: tuple[tuple[str, Type], ...]
    pattern: T.Pattern
    span: Span


def check_indexes(modules: list[A.Module], syms: Symbols,
                  diags: Diagnostics) -> dict[str, IndexInfo]:
    """Every index of the program by qualified name; errors go to ``diags``."""
    out: dict[str, IndexInfo] = {}
    for m in modules:
        for d in m.decls:
            if not isinstance(d, A.IndexDecl):
                continue
            name = qualify(m.name, d.name)
            if name in out:
                diags.error(d.span, f"index `{name}` is declared twice")
                continue
            fields = tuple((f.name, syms.to_type(f.type, m.name, {}, diags)) for f in d.fields)
            checker = RuleChecker(syms, m.name, diags)
            scope: dict[str, Type] = {}
            relation, pattern = checker.atom(d.atom, scope, "bind")
            bound = set(T.pattern_vars(pattern))
            for (fname, ftype), f in zip(fields, d.fields):
                if fname not in bound:
                    diags.error(f.span, f"index field `{fname}` does not occur in the "
                                        f"pattern over `{d.atom.relation}`")
                else:
                    checker.inf.unify(ftype, scope[fname], f.span,
                                      f"type of index field `{fname}`")
            extra = sorted(bound - {f for f, _ in fields})
            if extra:
                diags.error(d.atom.span, f"variable `{extra[0]}` of the index pattern is "
                                         f"not a field of index `{d.name}`")
            checker.inf.default_literals()
            out[name] = IndexInfo(name, relation, fields, zonk(pattern, checker.inf), d.span)
    return out
