"""A plan's Python UDFs registered on a runner: what evaluating a program
(:class:`dl2sql.api.evaluate.Evaluator`) and evaluating its constants when the plan
is made (:mod:`dl2sql.compiler.oracle`) both do, so that both call DDlog functions
the same way and fail with the same messages."""
from __future__ import annotations

from dl2sql.runtime.udf import Udf
from dl2sql.sqlgen.types import sql_type
from dl2sql.udfs import interpreter


def register_udfs(runner, plan, env, functions: dict, externs: dict,
                  registered: set[str]) -> None:
    """Register on ``runner`` the UDFs of ``plan`` (or of an update plan) not in
    ``registered`` (their names, updated): each runs DDlog function ``functions``
    ((name, targs) -> FunctionIR) or a synthetic one of the plan, calling the bound
    ``externs`` (qualified name -> Python callable)."""
    if not plan.functions:
        return
    functions = dict(functions)
    for spec in plan.functions:
        if spec.synthetic is not None:
            functions[(spec.func, spec.targs)] = spec.synthetic
    interp = interpreter(env, functions, externs)
    for spec in plan.functions:
        if spec.name in registered:
            continue
        fn = Udf(interp, spec.func, spec.targs, spec.params, spec.ret, env, udf_origin(spec))
        runner.register_function(spec.name, fn, [sql_type(p, env) for p in spec.params],
                                 sql_type(spec.ret, env))
        registered.add(spec.name)


def udf_origin(spec) -> str:
    """Where a UDF comes from, for its failure messages: the DDlog function (or "an
    expression") and the rule that calls it."""
    if spec.func.startswith("<"):
        what = "an expression evaluated in Python"
    else:
        what = f"function `{spec.func.split('#', 1)[0]}`"
    return what if spec.span is None else f"{what} in the rule at {spec.span}"
