"""User transformers (``extern transformer``) bound to Python callables.

The callable gets one DataFrame per input relation, as the engine's API gives them
(a Spark DataFrame on Spark, a DuckDB relation on DuckDB; the stored columns, see
docs/api.md "Schemas"), and returns one DataFrame (or pandas DataFrame) per output,
a single one or a tuple. Each output is read like an input relation given as a
DataFrame: its columns checked against the relation's fields and types, values put in
canonical form, duplicates dropped; nothing is collected to the driver on Spark.
"""
from __future__ import annotations

from dl2sql.diagnostics import Diagnostics, InputError, RuntimeFailure
from dl2sql.engines import engine_of


def bind_transformers(program, externs: dict) -> dict:
    """``{transformer: run(statement, runner)}`` for the user transformers ``program``
    applies, from the user's callables by qualified or plain name; a missing one is
    an error located at its ``apply``."""
    bound, diags = {}, Diagnostics()
    for app in program.transforms:
        name = app.transformer
        short = name.rsplit("::", 1)[-1]
        fn = externs.get(name) or externs.get(short)
        if fn is None:
            diags.error(app.decl.span, f"extern transformer `{name}` has no "
                                       f"implementation: pass a Python function named "
                                       f"`{short}` (CLI: --externs FILE.py)")
            continue
        bound[name] = _runner_for(program, fn)
    diags.raise_if_errors()
    return bound


def _runner_for(program, fn):
    def run(stmt, runner) -> None:
        run_transform(program, fn, stmt, runner)
    return run


def run_transform(program, fn, stmt, runner) -> None:
    """Call ``fn`` on the DataFrames of ``stmt``'s input tables and store what it
    returns as its output tables."""
    engine = engine_of(runner)
    where = f"transformer `{stmt.transformer}` applied at {stmt.origin}"
    frames = [engine.frame(runner, t) for t in stmt.inputs]
    try:
        result = fn(*frames)
    except Exception as e:  # the user's code: name it and its error
        raise RuntimeFailure(f"{where} raised {type(e).__name__}: {e}") from None
    results = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    if len(results) != len(stmt.outputs):
        raise RuntimeFailure(f"{where} returned {len(results)} DataFrame(s), expected "
                             f"{len(stmt.outputs)} (one per output: "
                             f"{', '.join(t.relation for t in stmt.outputs)})")
    for table, frame in zip(stmt.outputs, results):
        rel = table.relation
        loader = engine.inputs(rel, frame, program.layouts[rel].columns, program.type_env)
        try:
            loader.load_into(runner, table)
        except InputError as e:
            message = str(e).replace(f"input relation `{rel}`", f"output `{rel}`", 1)
            raise RuntimeFailure(f"{where}: {message}") from None
