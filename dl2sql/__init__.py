"""dl2sql: Differential Datalog compiled to SQL, run on Spark or DuckDB.

The Python API is :func:`compile` and :class:`Program` (see :mod:`dl2sql.api`).
"""
from dl2sql.api import Program, compile
from dl2sql.diagnostics import CompileError, InputError, RuntimeFailure

__all__ = ["compile", "Program", "CompileError", "InputError", "RuntimeFailure"]
