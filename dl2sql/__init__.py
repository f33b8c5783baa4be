"""dl2sql: Differential Datalog compiled to SQL, run on Spark or DuckDB.

The Python API is :func:`compile` and :class:`Program` (see :mod:`dl2sql.api.program`).

The names below are loaded when first used, not when the package is imported:
Spark's Python workers import ``dl2sql.runtime`` to run a program's Python UDFs,
and must not need the compiler (or sqlglot and lark) for that.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "compile": "dl2sql.api.program",
    "Program": "dl2sql.api.program",
    "register_functions": "dl2sql.api.script_functions",
    "spark_settings": "dl2sql.runner.spark_session",
    "CompileError": "dl2sql.diagnostics",
    "InputError": "dl2sql.diagnostics",
    "RuntimeFailure": "dl2sql.diagnostics",
    "Dl2sqlWarning": "dl2sql.diagnostics",
}

__all__ = list(_EXPORTS) + ["__version__"]


def _version() -> str:
    """The installed distribution's version (``0+unknown`` for a source tree that was
    never installed)."""
    # deferred: only `--version` and `dl2sql.__version__` read the metadata
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dl2sql")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        globals()[name] = _version()
        return globals()[name]
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dl2sql' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def load_ipython_extension(ipython) -> None:
    """``%load_ext dl2sql``: the ``%%datalog`` cell magic (see :mod:`dl2sql.api.notebook`),
    imported only now so that the package never needs IPython."""
    # deferred: the notebook module needs IPython, which dl2sql does not require
    from dl2sql.api.notebook import load_ipython_extension as load

    load(ipython)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
