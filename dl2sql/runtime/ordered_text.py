"""Sort keys as text whose byte-wise order is the keys' order.

SQL engines order STRING columns byte by byte (DuckDB without a collation, Spark's
UTF8String), which for UTF-8 is code point order. A value stored as text (``Any``)
sorts, groups and takes ``min``/``max`` in DDlog's order when its text starts with
its :func:`~dl2sql.runtime.order.sort_key` written by :func:`ordered_text`.

Keys are trees of tuples, integers (of any size; ``bool`` counts as one), floats and
strings, as ``sort_key`` builds them; at one position of two keys of the same type
the kinds agree. Every piece is self-delimiting, so that a tuple is its elements one
after the other, and :func:`skip` finds where a key ends without knowing its type:

* a tuple: ``(``, then ``,`` and the element for each element, then ``)`` (``)`` is
  below ``,``, so a proper prefix sorts first, as Python's tuple order has it);
* an integer ``n >= 0``: ``i``, the number of digits of the digit count, the digit
  count, the digits; ``n < 0``: ``h`` and the same of ``-n`` with every digit
  replaced by its nines' complement (a longer or larger magnitude sorts lower);
* a float: ``f`` and its IEEE bits, mapped to an unsigned integer of the same order;
* a string: ``s``, its characters with ``\\x00``-``\\x02`` escaped as ``\\x02`` and a
  character above it, then the terminator ``\\x01`` (below every character left).
"""
from __future__ import annotations

import math
import struct

_ESCAPE, _END = "\x02", "\x01"
_NINES = str.maketrans("0123456789", "9876543210")


def ordered_text(key) -> str:
    """``key`` as text of the same order (see the module's description)."""
    out: list[str] = []
    _write(key, out)
    return "".join(out)


def skip(text: str, at: int = 0) -> int:
    """The index just after the key that starts at ``text[at]``."""
    mark = text[at]
    if mark == "(":
        at += 1
        while text[at] == ",":
            at = skip(text, at + 1)
        return at + 1
    if mark in "hif":
        count_digits = int(text[at + 1].translate(_NINES) if mark == "h" else text[at + 1])
        count = text[at + 2:at + 2 + count_digits]
        digits = int(count.translate(_NINES) if mark == "h" else count)
        return at + 2 + count_digits + digits
    if mark == "s":
        at += 1
        while text[at] != _END:
            at += 2 if text[at] == _ESCAPE else 1
        return at + 1
    raise ValueError(f"no ordered key at {at} in {text!r}")


def _write(key, out: list[str]) -> None:
    if isinstance(key, tuple):
        out.append("(")
        for element in key:
            out.append(",")
            _write(element, out)
        out.append(")")
    elif isinstance(key, int):
        out.append(_integer(int(key)))
    elif isinstance(key, float):
        out.append("f" + _integer(_float_bits(key))[1:])
    elif isinstance(key, str):
        out.append("s")
        out.append("".join(_ESCAPE + chr(ord(c) + 3) if c < "\x03" else c for c in key))
        out.append(_END)
    else:
        raise TypeError(f"a sort key cannot hold {type(key).__name__} values")


def _integer(n: int) -> str:
    digits = str(abs(n))
    count = str(len(digits))
    body = str(len(count)) + count + digits
    return "i" + body if n >= 0 else "h" + body.translate(_NINES)


def _float_bits(x: float) -> int:
    """An unsigned integer ordered as the floats are (``-0.0`` as ``0.0``; sort keys
    put NaN apart already)."""
    if x == 0.0 or math.isnan(x):
        x = 0.0
    bits = struct.unpack(">Q", struct.pack(">d", x))[0]
    return bits ^ 0xFFFF_FFFF_FFFF_FFFF if bits >> 63 else bits | 1 << 63
