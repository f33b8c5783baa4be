"""A DDlog function as a Python UDF, the same on every engine.

:class:`Udf` converts the engine's normalised values to runtime values, runs the
interpreter and converts the result back. It also makes a failure readable where it
surfaces, which is far from where it happened: an engine reports a UDF's exception
inside its own error (Spark wraps the worker's whole traceback in a
``PythonException``), so the exception is re-raised as :class:`UdfFailure` whose
message starts with :data:`MARKER` and names the DDlog function and the rule that
called it; :func:`udf_failure` finds that message again in the engine's error.
"""
from __future__ import annotations

import sys

from dl2sql.diagnostics import IntegerOverflow, RuntimeFailure
from dl2sql.runtime.convert import from_sql, to_sql

MARKER = "dl2sql-udf-failure:"

# Each DDlog call level costs several Python frames (eval -> _TCall -> _invoke -> eval
# -> block -> ...), so deep recursion (collatz, list walks) needs more than Python's
# default of 1000. The driver's interpreter raises its limit when it is built; a Spark
# worker unpickles the interpreter without building it, so each call checks.
MIN_RECURSION_LIMIT = 20_000


class UdfFailure(Exception):
    """A DDlog function failed inside a UDF; the message starts with :data:`MARKER`."""


def raise_recursion_limit() -> None:
    """Allow the interpreter's deep recursion in this process."""
    if sys.getrecursionlimit() < MIN_RECURSION_LIMIT:
        sys.setrecursionlimit(MIN_RECURSION_LIMIT)


class Udf:
    """Function ``func`` (instance ``targs``) of ``interpreter`` over normalised SQL
    values (the runner form of :mod:`dl2sql.runner.base`): what
    ``Runner.register_function`` expects. ``where`` says in failure messages which
    function and rule this is (``function `gcd`, called by the rule at p.dl:4:1``)."""

    def __init__(self, interpreter, func: str, targs: tuple, param_types, ret_type, env,
                 where: str):
        self.interpreter, self.func, self.targs = interpreter, func, tuple(targs)
        self.params, self.ret, self.env = list(param_types), ret_type, env
        self.where = where
        self.__name__ = f"udf_{func}"

    def user_functions(self) -> tuple:
        """The user's Python callables (extern functions) this UDF may call."""
        return tuple(self.interpreter.externs.values())

    def __call__(self, *sql_args):
        raise_recursion_limit()
        try:
            args = [from_sql(t, a, self.env) for t, a in zip(self.params, sql_args)]
            return to_sql(self.ret, self.interpreter.call(self.func, self.targs, args),
                          self.env)
        except UdfFailure:
            raise
        except IntegerOverflow as e:  # the marker first: the run goes WIDE (dl2sql.api)
            raise UdfFailure(f"{e}, computed by {self.where}") from None
        except RuntimeFailure as e:  # DDlog's own failures: the message says it all
            raise UdfFailure(f"{MARKER} {self.where}: {e}") from None
        except RecursionError:
            raise UdfFailure(f"{MARKER} {self.where} raised RecursionError: the recursion "
                             f"is deeper than {sys.getrecursionlimit()} Python frames") from None
        except Exception as e:
            raise UdfFailure(f"{MARKER} {self.where} raised {type(e).__name__}: {e}") from None


def udf_failure(error: BaseException) -> str | None:
    """The message of the :class:`UdfFailure` inside an engine's ``error``, or None."""
    text = str(error)
    at = text.find(MARKER)
    if at < 0:
        return None
    message = text[at + len(MARKER):].strip().splitlines()[0]
    # DuckDB quotes the Python exception's text; Spark follows it with its own context
    for end in ("'. SQLSTATE", "\". SQLSTATE", " SQLSTATE"):
        if end in message:
            message = message[:message.index(end)]
    return message.strip()
