"""The Python functions a program's Spark SQL script calls, registered in a session.

A script (:mod:`dl2sql.compiler.spark_script`) calls the DDlog functions SQL cannot
express (and the program's extern functions) by the names the plan gives them, as
``dl2sql run`` does; ``register_functions(spark, program)`` makes them known to the
session that will run the script, which then needs nothing else of dl2sql.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.api.evaluate import bind_externs
from dl2sql.api.program import Program
from dl2sql.api.program import compile as compile_program
from dl2sql.compiler.spark_script import SCRIPT_LOOPS, script_program
from dl2sql.runner.functions import register_udfs
from dl2sql.runner.spark_runner import register_spark_function


class _Session:
    """What :func:`register_udfs` registers on: a session, not a runner."""

    def __init__(self, spark):
        self.spark = spark

    def register_function(self, name: str, fn, arg_types, ret_type) -> None:
        register_spark_function(self.spark, name, fn, ret_type)


def register_functions(spark, program, extern: Optional[dict] = None) -> list[str]:
    """Register in ``spark`` the Python functions the Spark SQL script of ``program``
    (a :class:`dl2sql.Program`, a compiled program, or a path to a ``.dl`` file) calls,
    its extern functions bound to ``extern`` (name -> callable) as for a run; returns
    their SQL names. Run the script in that session afterwards."""
    if isinstance(program, str):
        program = compile_program(program, extern=extern)
    compiled = script_program(program.compiled if isinstance(program, Program) else program)
    externs = dict(getattr(program, "extern", None) or {}, **(extern or {}))
    plan = compiled.engine_stage("spark", "sql", SCRIPT_LOOPS)
    registered: set[str] = set()
    register_udfs(_Session(spark), plan, compiled.type_env, compiled.functions,
                  bind_externs(compiled, externs), registered)
    return sorted(registered)
