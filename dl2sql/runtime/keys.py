"""Primary keys of input records (``input relation R(...) primary key (x) key_expr``)."""
from __future__ import annotations

from typing import Callable

from dl2sql.runtime.values import Record
from dl2sql.types import typed as T
from dl2sql.types.model import RelationInfo, TypeEnv


def key_function(info: RelationInfo, env: TypeEnv) -> Callable:
    """A function from a record of ``info``'s relation to its primary key; the checker
    admits fields, tuples and constructors of them (``types/check.py``)."""

    def ev(e, record):
        if isinstance(e, T.TVarRef):
            return record
        if isinstance(e, T.TConst):
            return e.value
        if isinstance(e, T.TTupleE):
            return tuple(ev(x, record) for x in e.elems)
        if isinstance(e, T.TTupleGet):
            return ev(e.expr, record)[e.index]
        if isinstance(e, T.TGetField):
            value = ev(e.expr, record)
            ctor = next(c for c in env.ctors(e.expr.type) if c.name == value.ctor)
            return value.fields[[n for n, _ in ctor.fields].index(e.field)]
        if isinstance(e, T.TStruct):
            return Record(e.ctor, tuple(ev(x, record) for x in e.args))
        raise NotImplementedError(type(e).__name__)

    return lambda record: ev(info.key, record)
