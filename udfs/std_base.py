"""The calling convention shared by the std builtins (see :mod:`udfs.std`)."""
from __future__ import annotations

from typing import Callable, NamedTuple

from dl2sql.types.model import Type, TypeEnv
from dl2sql.values import Record

NONE = Record("ddlog_std::None", ())


class Ctx(NamedTuple):
    """What a typed builtin gets before its arguments: the type environment and the
    call's type arguments (the declaration's type variables, in order)."""

    env: TypeEnv
    targs: tuple[Type, ...]


class Mut(NamedTuple):
    """Result of a builtin with ``mut`` parameters: its value and the new values of the
    mutated arguments by position."""

    result: object
    updates: dict


def typed(fn: Callable) -> Callable:
    """Mark ``fn`` as taking a leading :class:`Ctx`."""
    fn.typed = True
    return fn


def some(x) -> Record:
    """``Some{x}``."""
    return Record("ddlog_std::Some", (x,))


def opt_nth(items: tuple, i: int):
    """``Some{items[i]}``, or ``None`` out of range."""
    return some(items[i]) if 0 <= i < len(items) else NONE
