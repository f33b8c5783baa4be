"""Types as DDlog's compiler prints them (its ``pp`` of a type), for the texts that
must match DDlog's byte for byte: a stored closure's description.

A type written through an alias is printed as the alias (``ddlog_std::s64``) where
DDlog keeps the alias, which is everywhere but at the top of a closure's parameter and
return types (DDlog's type inference expands those; see
:mod:`dl2sql.passes.closure_text`).
"""
from __future__ import annotations

from dl2sql.types.model import (TBigInt, TBit, TBool, TDouble, TFloat, TFunc, TNamed,
                                TSigned, TString, TTuple, TVar, Type)


def type_text(t: Type, expand_alias: bool = False) -> str:
    """``t`` as DDlog prints it: named types qualified, type arguments separated by a
    bare comma, tuples by ``", "``; ``expand_alias`` prints ``t`` itself structurally
    even when it was written as an alias (its parts keep theirs)."""
    spelled = getattr(t, "spelled", None)
    if spelled and not expand_alias:
        return spelled
    if isinstance(t, TBool):
        return "bool"
    if isinstance(t, TString):
        return "string"
    if isinstance(t, TBigInt):
        return "bigint"
    if isinstance(t, TBit):
        return f"bit<{t.width}>"
    if isinstance(t, TSigned):
        return f"signed<{t.width}>"
    if isinstance(t, TFloat):
        return "float"
    if isinstance(t, TDouble):
        return "double"
    if isinstance(t, TTuple):
        return "(" + ", ".join(type_text(e) for e in t.elems) + ")"
    if isinstance(t, TNamed):
        args = ",".join(type_text(a) for a in t.args)
        return f"{t.name}<{args}>" if t.args else t.name
    if isinstance(t, TFunc):
        params = ", ".join(("mut " if m else "") + type_text(p) for p, m in
                           zip(t.params, t.mutable or (False,) * len(t.params)))
        return f"function({params}):{type_text(t.ret)}"
    assert isinstance(t, TVar), t
    return f"'{t.name}"
