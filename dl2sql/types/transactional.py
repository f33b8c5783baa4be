"""DDlog's transactional relation kinds at type-checking time: ``stream`` and
``multiset`` relations, delayed atoms ``R-N`` and differentiated atoms ``S'``.

A delayed atom ``R-N`` reads a relation of its own, ``R__prevN``: a generated input
relation with ``R``'s record type and kind, which holds ``R``'s contents of ``N``
transactions ago (a maintained program keeps it from ``R``'s changes,
:mod:`dl2sql.incremental.bags`; replay's ``--recompute`` fills it, as does
:mod:`dl2sql.replay.session` for a program evaluated at every commit).
Reading it as an input cuts the dependency of ``R-1`` on ``R``, so that a rule such as
``Fold(x) :- Agg-1(x)`` is not recursion. A differentiated stream ``S'`` holds the
rows the stream received in the current transaction, which is what ``S`` itself
holds: it reads ``S``'s table; what changes is that the rule then derives a relation,
not a stream (DDlog's rule below).

The stream rules follow upstream's validation (``Validate.hs``): a rule's body yields
a stream when it has a positive atom over a stream that is not differentiated; a
stream head needs such a body and any other head must not have one; streams cannot be
negated.
"""
from __future__ import annotations

import dataclasses

from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, Span
from dl2sql.types.model import RelationInfo
from dl2sql.types.symbols import Symbols

BAG_KINDS = ("stream", "multiset")


def delayed_name(rel: str, delay: int) -> str:
    """The generated input relation that holds ``rel`` as of ``delay`` transactions
    ago."""
    return f"{rel}__prev{delay}"


@dataclasses.dataclass(frozen=True)
class Delayed:
    """What a generated delayed relation stands for: ``relation`` ``delay``
    transactions ago."""

    relation: str
    delay: int


def delayed_relation(syms: Symbols, rel: str, delay: int, span: Span) -> str:
    """The relation a ``rel-delay`` atom reads (declared on first use)."""
    name = delayed_name(rel, delay)
    if name not in syms.relations:
        info = syms.relations[rel]
        syms.relations[name] = RelationInfo(name, "input", info.kind, info.record_type,
                                            span=span, generated=True)
        syms.delayed[name] = Delayed(rel, delay)
    return name


def check_atom_kind(a: A.Atom, rel: str, syms: Symbols, diags: Diagnostics) -> None:
    """Errors for a body atom's delay or differentiation that dl2sql does not give
    DDlog's meaning to."""
    if a.diff and syms.relations[rel].kind != "stream":
        diags.error(a.span, f"differentiation (') applies to streams only, and "
                            f"`{a.relation}` is a {syms.relations[rel].kind}")
    if a.diff and a.delay:
        diags.error(a.span, "an atom cannot be both delayed and differentiated")


def check_stream_rule(r: A.Rule, module: str, syms: Symbols, diags: Diagnostics) -> None:
    """Upstream's stream rules for one rule: stream heads exactly for stream bodies,
    no negated stream."""
    stream_body = False
    for c in r.body:
        if not isinstance(c, A.ClLiteral):
            continue
        rel = syms.resolve_relation(c.atom.relation, module)
        if rel is None or syms.relations[rel].kind != "stream":
            continue
        if c.negated:
            diags.error(c.atom.span, f"stream `{c.atom.relation}` cannot be negated")
        elif not c.atom.diff:
            stream_body = True
    if not r.body:
        return
    for h in r.heads:
        rel = syms.resolve_relation(h.relation, module)
        if rel is None:
            continue
        is_stream = syms.relations[rel].kind == "stream"
        if is_stream and not stream_body:
            diags.error(h.span, f"`{h.relation}` is a stream, but the body of the rule "
                                f"computes a relation (read a stream in it)")
        elif stream_body and not is_stream:
            diags.error(h.span, f"the body of the rule yields a stream, but `{h.relation}` "
                                f"is not a stream (differentiate it, `S'`, to derive a "
                                f"relation)")
