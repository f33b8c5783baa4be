"""Python implementations of DDlog's ``base64`` library: the standard alphabet with
``=`` padding, as the Rust ``base64`` crate (0.13, ``STANDARD`` configuration) encodes
and decodes it.

Decoding follows the crate rather than Python's :mod:`base64`: padding may be left out,
a symbol whose unused low bits are not zero is refused, and the error is the crate's
first complaint in the crate's order (the input's length, then the bytes before the
last block of eight, then that block). DDlog prints the errors as
``Invalid byte B at position P``, ``Invalid length`` and
``Invalid last byte B at position P`` (B the byte's value, P its offset).
"""
from __future__ import annotations

import base64

from dl2sql.runtime.values import Record

_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {c: i for i, c in enumerate(_ALPHABET)}
_PAD = ord("=")
# the crate decodes in blocks of eight symbols; the last (possibly partial) block is
# the only place where padding may appear
_BLOCK = 8


class _Invalid(Exception):
    """A decoding error, carrying the message DDlog shows."""


def _check_length(data: bytes) -> None:
    # one or five symbols in the last block cannot make a whole byte
    if len(data) % _BLOCK in (1, 5):
        last = data[-1]
        if last != _PAD and last not in _VALUE:
            raise _Invalid(f"Invalid byte {last} at position {len(data) - 1}")
        raise _Invalid("Invalid length")


def _last_block(data: bytes, start: int) -> tuple[list[int], int]:
    """The values of the last block's symbols before its padding, and the offset of
    its last symbol; padding must come after at least two symbols of a quad and
    nothing but padding may follow it."""
    values: list[int] = []
    first_pad = None
    for i, b in enumerate(data[start:]):
        if b == _PAD:
            if i % 4 < 2:
                raise _Invalid(f"Invalid byte {b} at position "
                               f"{start + (first_pad if first_pad is not None else i)}")
            first_pad = i if first_pad is None else first_pad
            continue
        if first_pad is not None:
            raise _Invalid(f"Invalid byte {_PAD} at position {start + first_pad}")
        if b not in _VALUE:
            raise _Invalid(f"Invalid byte {b} at position {start + i}")
        values.append(_VALUE[b])
    return values, start + len(values) - 1


def _bytes_of(values: list[int], last_offset: int, last_symbol: int) -> bytes:
    """The whole bytes that ``values`` (6 bits each) make; the bits left over must
    be zero."""
    acc = 0
    for v in values:
        acc = (acc << 6) | v
    spare = (6 * len(values)) % 8
    if acc & ((1 << spare) - 1):
        raise _Invalid(f"Invalid last byte {last_symbol} at position {last_offset}")
    nbytes = 6 * len(values) // 8
    return (acc >> spare).to_bytes(nbytes, "big")


def decode_bytes(text: str) -> bytes:
    """The bytes ``text`` encodes; raises :class:`ValueError` with DDlog's message."""
    data = text.encode("utf-8")
    if not data:
        return b""
    try:
        _check_length(data)
        start = len(data) - ((len(data) - 1) % _BLOCK + 1)
        values = []
        for i, b in enumerate(data[:start]):
            if b not in _VALUE:  # `=` included: no padding before the last block
                raise _Invalid(f"Invalid byte {b} at position {i}")
            values.append(_VALUE[b])
        tail, last_offset = _last_block(data, start)
        last_symbol = data[last_offset] if tail else 0
        return _bytes_of(values + tail, last_offset, last_symbol)
    except _Invalid as e:
        raise ValueError(str(e)) from None


def decode(s: str) -> Record:
    """``Ok{bytes}`` or ``Err{message}`` as DDlog's ``base64::decode`` returns them."""
    try:
        return Record("ddlog_std::Ok", (tuple(decode_bytes(s)),))
    except ValueError as e:
        return Record("ddlog_std::Err", (str(e),))


def encode(s: tuple) -> str:
    """The padded standard encoding of the bytes ``s``."""
    return base64.b64encode(bytes(s)).decode("ascii")


LIBRARY_BASE64 = {"base64::decode": decode, "base64::encode": encode}
