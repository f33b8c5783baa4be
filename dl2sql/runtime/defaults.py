"""DDlog's ``default()`` values."""
from __future__ import annotations

from dl2sql.runtime.values import Record
from dl2sql.types.storage import extern_storage
from dl2sql.types.model import (MAP, SET_KINDS, TRANSPARENT, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv)


def default_value(t: Type, env: TypeEnv):
    """DDlog's ``default()`` of ``t`` as a runtime value (see :mod:`dl2sql.runtime.values`)."""
    if isinstance(t, TBool):
        return False
    if isinstance(t, TString):
        return ""
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return 0
    if isinstance(t, (TFloat, TDouble)):
        return 0.0
    if isinstance(t, TTuple):
        return tuple(default_value(e, env) for e in t.elems)
    if isinstance(t, TNamed):
        if t.name in (VEC, MAP) or t.name in SET_KINDS:
            return ()
        if t.name in TRANSPARENT:
            return default_value(t.args[0], env)
        if extern_storage(t) is not None:
            return extern_storage(t).default
        ctors = env.ctors(t)
        if ctors:
            c = ctors[0]
            return Record(c.name, tuple(default_value(ft, env) for _, ft in c.fields))
    raise ValueError(f"type {t} has no default value")
