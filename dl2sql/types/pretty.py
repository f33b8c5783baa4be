"""Readable text for typed rules and expressions (``--emit types`` and ``--emit ra``)."""
from __future__ import annotations

from dl2sql.types import typed as T


def expr_to_str(e) -> str:
    """A DDlog-like rendering of a typed expression."""
    if isinstance(e, T.TConst):
        return repr(e.value) if not isinstance(e.value, bool) else str(e.value).lower()
    if isinstance(e, T.TVarRef):
        return e.name
    if isinstance(e, T.TVec):
        return f"[{', '.join(expr_to_str(a) for a in e.elems)}]"
    if isinstance(e, T.TCol):
        return f"{e.alias}.{e.column}"
    if isinstance(e, T.TStruct):
        return f"{e.ctor}{{{', '.join(expr_to_str(a) for a in e.args)}}}"
    if isinstance(e, T.TTupleE):
        return f"({', '.join(expr_to_str(a) for a in e.elems)})"
    if isinstance(e, T.TGetField):
        return f"{expr_to_str(e.expr)}.{e.field}"
    if isinstance(e, T.TCtorField):
        return f"{expr_to_str(e.expr)}.{e.field}"
    if isinstance(e, T.TTupleGet):
        return f"{expr_to_str(e.expr)}.{e.index}"
    if isinstance(e, T.TIsCtor):
        return f"{expr_to_str(e.expr)} is {e.ctor}"
    if isinstance(e, T.TBin):
        return f"({expr_to_str(e.left)} {e.op} {expr_to_str(e.right)})"
    if isinstance(e, T.TUn):
        return f"{e.op}{' ' if e.op == 'not' else ''}{expr_to_str(e.expr)}"
    if isinstance(e, T.TCast):
        return f"({expr_to_str(e.expr)} as {e.type})"
    if isinstance(e, T.TToString):
        return f"to_string({expr_to_str(e.expr)})"
    if isinstance(e, T.TIf):
        return (f"if ({expr_to_str(e.cond)}) {{{expr_to_str(e.then)}}} "
                f"else {{{expr_to_str(e.els)}}}")
    if isinstance(e, T.TCall):
        return f"{e.func}({', '.join(expr_to_str(a) for a in e.args)})"
    if isinstance(e, T.TClosure):  # as DDlog's runtime describes a closure
        params = ", ".join(f"{n}: {t}" for n, t in e.params)
        return f"(function({params}):{e.type.ret}{{{expr_to_str(e.body)}}})"
    if isinstance(e, T.TSlice):
        return f"{expr_to_str(e.expr)}[{e.hi}:{e.lo}]"
    return type(e).__name__  # statement-like forms (match, blocks): named, not shown


def pattern_to_str(p) -> str:
    if isinstance(p, T.PVar):
        return f"var {p.name}: {p.type}"
    if isinstance(p, T.PWild):
        return "_"
    if isinstance(p, T.PEq):
        return expr_to_str(p.expr)
    if isinstance(p, T.PTuple):
        return f"({', '.join(pattern_to_str(x) for x in p.elems)})"
    if isinstance(p, T.PBind):
        return f"{p.name}@{pattern_to_str(p.pattern)}"
    return f"{p.ctor}{{{', '.join(f'.{n} = {pattern_to_str(x)}' for n, x in p.fields)}}}"


def rule_to_str(r: T.CoreRule) -> str:
    """``Head[record] :- clause, clause.`` with types on bound variables."""
    heads = ", ".join(f"{h.relation}[{expr_to_str(h.record)}]" for h in r.heads)
    body = []
    for c in r.body:
        if isinstance(c, T.CAtom):
            body.append(f"{'not ' if c.negated else ''}{c.relation}[{pattern_to_str(c.pattern)}]")
        elif isinstance(c, T.CFilter):
            body.append(expr_to_str(c.cond))
        elif isinstance(c, T.CFlatMap):
            body.append(f"{pattern_to_str(c.pattern)} = FlatMap({expr_to_str(c.expr)})")
        elif isinstance(c, T.CGroup):
            body.append(f"var {c.name}: {c.type} = ({expr_to_str(c.proj)})"
                        f".group_by({', '.join(c.keys)})")
        elif isinstance(c, T.CGroupSource):
            what = (f"value {c.value}" if c.aggregate == "group" else c.aggregate
                    if c.aggregate == "count" else f"{'+'.join(c.aggregate)} of {c.value}")
            body.append(f"GroupBy[{c.relation}; keys {', '.join(c.keys)}; {what}]")
        else:
            body.append(f"{pattern_to_str(c.pattern)} = {expr_to_str(c.expr)}")
    return heads + (" :- " + ", ".join(body) if body else "") + "."
