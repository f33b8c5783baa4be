"""What the std builtins share: the calling convention (:mod:`dl2sql.runtime.builtins`)
and ``Option`` values."""
from __future__ import annotations

from dl2sql.runtime.builtins import Ctx, Mut, typed
from dl2sql.runtime.values import Record

__all__ = ["Ctx", "Mut", "typed", "NONE", "some", "opt_nth"]

NONE = Record("ddlog_std::None", ())


def some(x) -> Record:
    """``Some{x}``."""
    return Record("ddlog_std::Some", (x,))


def opt_nth(items: tuple, i: int):
    """``Some{items[i]}``, or ``None`` out of range."""
    return some(items[i]) if 0 <= i < len(items) else NONE
