"""The calling convention between the interpreter and the Python builtins of the
standard library (:mod:`dl2sql.udfs`): a plain builtin is called with its argument
values; one marked :func:`typed` first receives a :class:`Ctx`; one with ``mut``
parameters returns a :class:`Mut`."""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from dl2sql.types.model import Type, TypeEnv


class Ctx(NamedTuple):
    """What a typed builtin gets before its arguments: the type environment, the
    call's type arguments (the declaration's type variables, in order) and, from the
    interpreter, how to call a DDlog function (``call(name, targs, args)``)."""

    env: TypeEnv
    targs: tuple[Type, ...]
    call: Optional[Callable] = None


class Mut(NamedTuple):
    """Result of a builtin with ``mut`` parameters: its value and the new values of the
    mutated arguments by position."""

    result: object
    updates: dict


def typed(fn: Callable) -> Callable:
    """Mark ``fn`` as taking a leading :class:`Ctx`."""
    fn.typed = True
    return fn
