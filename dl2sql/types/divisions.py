"""Where a program divides: a division by zero named after the rules that can cause it.

An engine reports a division by zero by its SQL expression (DuckDB) or not at all
(Spark's ``[DIVIDE_BY_ZERO]``), and a lazily evaluated plan fails long after the
statement that divided. What the user can act on is the rule: the integer ``/`` and
``%`` whose divisor is not a constant other than zero are found in the typed rules,
and the failure names their rules (and the program's functions that divide).
"""
from __future__ import annotations

import dataclasses

from dl2sql.types import typed as T
from dl2sql.types.model import TDouble, TFloat, unwrapped

DIVISION_BY_ZERO = "division by zero"


def division_sites(rules, functions: dict) -> tuple[str, ...]:
    """``file:line:col`` of each rule in ``rules`` that divides integers by a value
    that may be zero, then ``function `f``` for each of the program's own ``functions``
    (not a library's) that does."""
    sites = [f"the rule at {r.span}" for r in rules if _divides(r)]
    names = sorted({f.name for f in functions.values()
                    if "::" not in f.name and _divides(f.body)})
    return tuple(sites + [f"function `{n}`" for n in names])


def with_sites(message: str, sites: tuple[str, ...]) -> str:
    """``message`` of a division by zero, with the places that divide where known."""
    if not message.startswith(DIVISION_BY_ZERO) or not sites:
        return message
    where = sites[0] if len(sites) == 1 else "one of: " + ", ".join(sites[:6]) + (
        ", ..." if len(sites) > 6 else "")
    return f"{DIVISION_BY_ZERO} in {where}{message[len(DIVISION_BY_ZERO):]}"


def _divides(node) -> bool:
    if isinstance(node, T.TBin) and node.op in ("/", "%") \
            and not isinstance(unwrapped(node.type), (TFloat, TDouble)) \
            and not (isinstance(node.right, T.TConst) and node.right.value != 0):
        return True
    if isinstance(node, (tuple, list)):
        return any(_divides(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_divides(getattr(node, f.name)) for f in dataclasses.fields(node)
                   if f.name not in ("type", "span"))
    return False
