"""How integers beyond 64 bits are stored: ``bigint`` (unbounded), ``bit<N>`` and
``signed<N>`` for N > 64 (``bit<128>`` reaches 39 digits).

A value is a pair ``(num, big)``, a SQL ``STRUCT<num$ DECIMAL(38,0), big$ STRING>``
(no DDlog field can be named so, which lets output conversions recognise the type):

* a *small* value, ``|v| < CAP`` (at most 38 digits, 38 nines excepted), is
  ``(v, "")``: SQL computes with ``num`` natively;
* a *huge* value is ``(±CAP, key)``: ``num`` has the value's sign and a magnitude no
  small value has, ``key`` is the decimal digits behind their count (``LENGTH``
  digits, zero-padded), every digit complemented (``9 - d``) for a negative value.

Each value has exactly one pair, so SQL equality, ``DISTINCT`` and joins compare
values; and SQL's order of the pairs (``num`` first, then ``key`` as bytes) is the
numeric order: negative huge < small < positive huge, positive huge values by digit
count then digits, negative ones the reverse, which the complement gives.

That is the WIDE representation. A run starts NARROW where it can
(:data:`dl2sql.types.model.NARROW`): each value a plain DECIMAL(38,0), computed on
natively at full speed, and where a value would need more than 38 digits the run
fails with an :class:`~dl2sql.diagnostics.IntegerOverflow` and starts again WIDE
(:mod:`dl2sql.api.speculation`). The representation is the type environment's
``integers``; :func:`is_pair` is where storage asks it.

Python's ``str(int)`` and ``int(str)`` refuse numbers beyond 4300 digits by default;
DDlog's are unbounded, so this module (imported wherever values are stored or
printed, Spark's workers included) lifts that limit for the process.
"""
from __future__ import annotations

import sys

from dl2sql.diagnostics import OVERFLOW_MARKER, IntegerOverflow
from dl2sql.types.model import WIDE, TBigInt, TBit, TSigned, Type, TypeEnv

NUM, BIG = "num$", "big$"  # the SQL struct's field names
CAP = 10 ** 38 - 1  # the largest DECIMAL(38,0); |num| == CAP marks a huge value
LENGTH = 10  # digits of the digit count in a huge value's key
DIGITS = "0123456789"
COMPLEMENT = "9876543210"
_FLIP = str.maketrans(DIGITS, COMPLEMENT)

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


def is_wide(t: Type) -> bool:
    """True when integers of type ``t`` are stored as (num, big) pairs."""
    return isinstance(t, TBigInt) or (isinstance(t, (TBit, TSigned)) and t.width > 64)


def is_pair(t: Type, env: TypeEnv) -> bool:
    """True when values of ``t`` are stored as (num, big) pairs in ``env``'s
    representation (wide types, stored WIDE); NARROW stores them as DECIMAL(38,0)."""
    return env.integers == WIDE and is_wide(t)


def fits_narrow(v: int) -> bool:
    """Whether DECIMAL(38,0), the NARROW form, holds ``v``."""
    return -CAP <= v <= CAP


OVERFLOW = (f"{OVERFLOW_MARKER} a value of a wide integer type needs more than the 38 digits "
            f"of DECIMAL(38,0)")


def narrow(v: int) -> int:
    """``v`` in the NARROW form; IntegerOverflow where it does not fit."""
    if not fits_narrow(v):
        raise IntegerOverflow(f"{OVERFLOW} ({len(str(abs(v)))} digits)")
    return v


def encode(v: int) -> tuple[int, str]:
    """The stored pair of integer ``v``."""
    if -CAP < v < CAP:
        return v, ""
    return (CAP, key(v)) if v > 0 else (-CAP, key(v))


def key(v: int) -> str:
    """The ``big`` text of a huge value: digit count and digits, complemented when
    negative."""
    digits = str(abs(v))
    text = f"{len(digits):0{LENGTH}d}{digits}"
    return text if v > 0 else text.translate(_FLIP)


def decode(num: int, big: str) -> int:
    """The integer stored as ``(num, big)``."""
    if not big:
        return int(num)
    if num > 0:
        return int(big[LENGTH:])
    return -int(big[LENGTH:].translate(_FLIP))
