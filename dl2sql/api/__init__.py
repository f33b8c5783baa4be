"""The Python API: :func:`compile` and :class:`Program` (:mod:`dl2sql.api.program`),
evaluation on a runner (:mod:`dl2sql.api.evaluate`) and the notebook cell magic
(:mod:`dl2sql.api.notebook`)."""
from dl2sql.api.program import Program, compile

__all__ = ["Program", "compile"]
