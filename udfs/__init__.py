"""Python implementations of what SQL cannot express, shared by both engines: the
``ddlog_std`` builtins (:mod:`dl2sql.udfs.std`, table ``STD``) that dl2sql's interpreter
(:mod:`dl2sql.runtime.interp`) calls when a plan falls back to a Python UDF."""
from __future__ import annotations

from dl2sql.runtime.interp import Interpreter
from dl2sql.types.model import TypeEnv
from dl2sql.udfs.std import STD


def interpreter(env: TypeEnv, functions: dict, externs: dict | None = None) -> Interpreter:
    """An interpreter of ``functions`` that calls the standard library's builtins and
    the user's ``externs`` (see :class:`~dl2sql.runtime.interp.Interpreter`)."""
    return Interpreter(env, functions, externs, library=STD)
