"""Collection functions that take closures, as SQL higher-order functions.

``v.map(|x| x + 1)`` on a Vec becomes ``transform(v, x -> x + 1)`` on Spark and
``list_transform(v, lambda x: x + 1)`` on DuckDB, provided the closure's body compiles
to SQL without a Python UDF (a UDF cannot see a lambda variable); otherwise the whole
call runs in the interpreter as before. Sets stay sorted and distinct: a mapped set is
re-normalised, a filtered one already is.
"""
from __future__ import annotations

from typing import Callable, Optional

from sqlglot import exp

from dl2sql.sqlgen.trees import InsideLambda
from dl2sql.sqlgen.types import sql_type
from dl2sql.types import typed as T
from dl2sql.types.storage import has_own_order


def _lambda(ec, closure: T.TClosure) -> Optional[exp.Expression]:
    """SQL lambda for ``closure``, or None when its body needs the interpreter."""
    names = [n for n, _ in closure.params]
    idents = {n: exp.to_identifier(f"__{n}") for n in names}
    saved_scope, saved_udfs = dict(ec.lambda_vars), dict(ec.udfs)
    ec.lambda_vars.update(idents)
    try:
        body = ec.compile(closure.body)
    except InsideLambda:
        body = None
    finally:
        ec.lambda_vars = saved_scope
    if body is None or len(ec.udfs) > len(saved_udfs):
        ec.udfs = saved_udfs
        return None
    return exp.Lambda(this=body, expressions=[idents[n].copy() for n in names])


def _not(lam: exp.Lambda) -> exp.Lambda:
    return exp.Lambda(this=exp.Not(this=lam.this),
                      expressions=lam.expressions)


def _count(ec, coll, lam, call):
    return exp.Cast(this=ec.dialect.groups.size(ec.dialect.hof.filter(coll, lam)),
                    to=_sql_type(ec, call))


def _sql_type(ec, call):
    return sql_type(call.type, ec.env)


_BUILDERS: dict[str, Callable] = {
    "map": lambda ec, coll, lam, call: ec.dialect.hof.transform(coll, lam),
    "filter": lambda ec, coll, lam, call: ec.dialect.hof.filter(coll, lam),
    "any": lambda ec, coll, lam, call: exp.GT(
        this=ec.dialect.groups.size(ec.dialect.hof.filter(coll, lam)),
        expression=exp.Literal.number(0)),
    "all": lambda ec, coll, lam, call: exp.EQ(
        this=ec.dialect.groups.size(ec.dialect.hof.filter(coll, _not(lam))),
        expression=exp.Literal.number(0)),
    "count": _count,
}
_NATIVE = {f"{module}::{name}" for module in ("vec", "set")
           for name in ("map", "filter", "any", "all")} | {"vec::count"}


def hof_call(ec, call: T.TCall) -> Optional[exp.Expression]:
    """Native SQL for a vec/set function applied to a closure, or None."""
    if call.func not in _NATIVE or len(call.args) != 2:
        return None
    if call.func == "set::map" and has_own_order(call.type, ec.env):
        return None  # SQL would sort the mapped set in its own order
    closure = call.args[1]
    if not isinstance(closure, T.TClosure) or len(closure.params) != 1:
        return None
    lam = _lambda(ec, closure)
    if lam is None:
        return None
    module, name = call.func.split("::")
    out = _BUILDERS[name](ec, ec.compile(call.args[0]), lam, call)
    if module == "set" and name == "map":
        elem = call.type.args[0]
        out = ec.ddlog_sorted(out, elem, True) if has_own_order(elem, ec.env) \
            else ec.dialect.hof.to_set(out)
    return out
