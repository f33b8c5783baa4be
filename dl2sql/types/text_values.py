"""How scalar DDlog values are written in text files (CSV): the accepted forms.

A CSV field is text; what text stands for a value of a declared type is decided here,
once, so that both engines accept and reject exactly the same files (each engine's
own casts differ: Spark rounds ``1.5`` into an integer column, DuckDB reads ``yes``
as a boolean). The SQL checks of :mod:`dl2sql.sqlgen.text_columns` and the Python
scanner of :mod:`dl2sql.io.text_scan`, which finds the line of a bad value, both
follow these rules:

- ``string``: any text, kept as it is; an empty field (nothing between the commas,
  or ``""``) is the empty string;
- ``bool``: ``true`` or ``false`` in any case;
- ``bit<N>``, ``signed<N>``, ``bigint``: decimal digits with an optional sign, within
  the type's range (``bigint``: any number of digits);
- ``float``, ``double``: a decimal number with an optional exponent, ``inf``,
  ``infinity`` or ``nan`` in any case;

and around a number or boolean, spaces are allowed. An empty field of any type but
``string`` is an error: DDlog has no missing values.
"""
from __future__ import annotations

import re

from dl2sql.types.model import TBigInt, TBit, TBool, TDouble, TFloat, TSigned, TString, Type

# Patterns in the syntax common to Java's and RE2's regular expressions (Spark, DuckDB)
# and Python's, matched against the whole field (see sql_pattern): only spaces around a
# value, not other white space, which the engines' TRIM would keep.
INTEGER = r" *[+-]?[0-9]+ *"
FLOAT = (r" *([+-]?([0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?"
         r"|[iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN]) *")
BOOLEAN = r" *([tT][rR][uU][eE]|[fF][aA][lL][sS][eE]) *"


def sql_pattern(body: str) -> str:
    """``body`` anchored for a search that must match the whole text, in SQL (Java and
    RE2 alike: ``\\z`` is the very end, where ``$`` would also match before a final
    line break)."""
    return f"^(?:{body})\\z"


def is_text_scalar(t: Type) -> bool:
    """Whether values of ``t`` can be written in a CSV field."""
    return isinstance(t, (TBool, TString, TBit, TSigned, TBigInt, TFloat, TDouble))


def integer_range(t: Type) -> tuple[int, int] | None:
    """The smallest and largest value of integer type ``t``; None for ``bigint``."""
    if isinstance(t, TBit):
        return 0, 2 ** t.width - 1
    if isinstance(t, TSigned):
        bound = 2 ** (t.width - 1)
        return -bound, bound - 1
    return None


def out_of_range(t: Type, value: int) -> str | None:
    """What is wrong with integer ``value`` as a value of ``t``, or None."""
    bounds = integer_range(t)
    if bounds is None or bounds[0] <= value <= bounds[1]:
        return None
    return f"is out of range ({bounds[0]} to {bounds[1]})"


def kind(t: Type) -> str:
    """What a field of type ``t`` must hold, for messages (``an integer``)."""
    if isinstance(t, TBool):
        return "true or false"
    if isinstance(t, (TFloat, TDouble)):
        return "a number"
    return "an integer"


def problem(t: Type, text: str | None) -> str | None:
    """What is wrong with ``text`` (None: an empty field) as a value of ``t``, or None
    when it is a valid value. The wording is the one the SQL checks use."""
    if isinstance(t, TString):
        return None
    if text is None or text == "":
        return "is empty, and a value is required"
    pattern = BOOLEAN if isinstance(t, TBool) else FLOAT if isinstance(t, (TFloat, TDouble)) \
        else INTEGER
    if not re.fullmatch(pattern, text):
        return f"`{text}` is not {kind(t)}"
    if isinstance(t, (TBit, TSigned, TBigInt)):
        wrong = out_of_range(t, int(text))
        if wrong:
            return f"`{text}` {wrong}"
    return None
