"""``istring_ord`` (the ``intern`` library): the number of an interned string.

DDlog numbers strings in the order they are first interned, which in general depends
on how its workers happen to schedule evaluation. What a program fixes is the order
of the string literals it interns (``string_intern("...")``) in its rules, evaluated
when it starts: those are numbered 0, 1, ... in the order they appear (rules first,
in program order, then function bodies). Every ``istring_ord`` call is given that
list as a second argument, so that both engines number alike without shared state;
the ord of a string outside the list is a runtime error that says why.
"""
from __future__ import annotations

import dataclasses

from dl2sql.types import typed as T
from dl2sql.types.model import STRING, TNamed, VEC

INTERN = "intern::string_intern"
ORD = "intern::istring_ord"


def _walk(e, found: list) -> None:
    """Collect the literals ``e`` interns, in order."""
    if isinstance(e, T.TCall) and e.func == INTERN and isinstance(e.args[0], T.TConst) \
            and e.args[0].value not in found:
        found.append(e.args[0].value)
    if isinstance(e, (tuple, list)):
        for x in e:
            _walk(x, found)
    elif dataclasses.is_dataclass(e) and not isinstance(e, type):
        for f in dataclasses.fields(e):
            if f.name != "type":
                _walk(getattr(e, f.name), found)


def _with_order(e, order: T.TConst):
    """``e`` with every ``istring_ord(s)`` call given ``order``."""
    if isinstance(e, tuple):
        return tuple(_with_order(x, order) for x in e)
    if isinstance(e, T.TCall) and e.func == ORD and len(e.args) == 1:
        return dataclasses.replace(e, args=(_with_order(e.args[0], order), order))
    if dataclasses.is_dataclass(e) and not isinstance(e, type) and \
            e.__class__.__module__ == T.__name__:
        return dataclasses.replace(e, **{f.name: _with_order(getattr(e, f.name), order)
                                         for f in dataclasses.fields(e) if f.name != "type"})
    return e


def number_interned(rules: list, functions: dict) -> tuple[list, dict]:
    """``rules`` and ``functions`` with the program's interning order handed to every
    ``istring_ord`` call (unchanged when there is none)."""
    uses = []
    _walk((tuple(rules), tuple(f.body for f in functions.values())), uses)
    if not any(_calls_ord(x) for x in (tuple(rules), tuple(functions.values()))):
        return rules, functions
    order = T.TConst(TNamed(VEC, (STRING,)), tuple(uses))
    return ([_with_order(r, order) for r in rules],
            {k: dataclasses.replace(f, body=_with_order(f.body, order))
             for k, f in functions.items()})


def _calls_ord(e) -> bool:
    if isinstance(e, T.TCall) and e.func == ORD:
        return True
    if isinstance(e, (tuple, list)):
        return any(_calls_ord(x) for x in e)
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        return any(_calls_ord(getattr(e, f.name)) for f in dataclasses.fields(e)
                   if f.name != "type")
    return False
