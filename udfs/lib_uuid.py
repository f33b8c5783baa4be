"""Python implementations of DDlog's ``uuid`` library, with the Rust ``uuid`` crate's
(0.8) behaviour.

A ``Uuid`` is its big-endian 128-bit value, a Python ``int``: DDlog converts a Uuid to
and from a ``u128`` record, and the crate orders UUIDs by their bytes, which is the
order of that value. Parsing reports the crate's errors in its words (its ``Display``).
"""
from __future__ import annotations

import hashlib

from dl2sql.runtime.values import Record

_MASK = (1 << 128) - 1
# the hex digits of each hyphen-separated group, and where each group ends
_GROUPS = (8, 4, 4, 4, 12)
_GROUP_ENDS = (8, 12, 16, 20, 32)
_SIMPLE, _HYPHENATED, _URN_PREFIX = 32, 36, "urn:uuid:"
_HEX = "0123456789abcdefABCDEF"

NAMESPACE_DNS = 0x6ba7b810_9dad_11d1_80b4_00c04fd430c8
NAMESPACE_URL = 0x6ba7b811_9dad_11d1_80b4_00c04fd430c8
NAMESPACE_OID = 0x6ba7b812_9dad_11d1_80b4_00c04fd430c8
NAMESPACE_X500 = 0x6ba7b814_9dad_11d1_80b4_00c04fd430c8


def _ok(x) -> Record:
    return Record("ddlog_std::Ok", (x,))


def _err(msg: str) -> Record:
    return Record("ddlog_std::Err", (msg,))


def new_v5(namespace: int, name: tuple) -> int:
    """Version 5: the first 16 bytes of SHA-1(namespace bytes ++ name), with the
    version nibble set to 5 and the RFC 4122 variant bits."""
    digest = hashlib.sha1(namespace.to_bytes(16, "big") + bytes(name)).digest()
    b = bytearray(digest[:16])
    b[6] = (b[6] & 0x0F) | 0x50
    b[8] = (b[8] & 0x3F) | 0x80
    return int.from_bytes(b, "big")


def from_u128_le(v: int) -> int:
    """The UUID whose bytes are ``v``'s little-endian bytes."""
    return int.from_bytes((v & _MASK).to_bytes(16, "little"), "big")


def from_bytes(b: tuple) -> Record:
    """16 bytes make a UUID; other lengths are the crate's length error."""
    if len(b) != 16:
        return _err(f"invalid bytes length: expected 16, found {len(b)}")
    return _ok(int.from_bytes(bytes(b), "big"))


class _ParseError(Exception):
    """A parse error with the crate's message."""


def _bad_length(found: int) -> _ParseError:
    return _ParseError(f"invalid length: expected one of [{_HYPHENATED}, {_SIMPLE}], "
                       f"found {found}")


def _group_length(group: int, digits: int) -> _ParseError:
    found = digits - (_GROUP_ENDS[group - 1] if group else 0)
    return _ParseError(f"invalid group length: expected {_GROUPS[group]}, found {found} "
                       f"in group {group}")


def _parse(text: str) -> int:
    """The crate's parser: one pass over the bytes, counting hex digits and groups,
    reporting the first problem in the order the crate meets it."""
    data = text.encode("utf-8")
    if len(data) == len(_URN_PREFIX) + _HYPHENATED and text.startswith(_URN_PREFIX):
        data = data[len(_URN_PREFIX):]
    elif len(data) not in (_HYPHENATED, _SIMPLE):
        raise _bad_length(len(data))
    digits = group = value = 0
    for i, byte in enumerate(data):
        if digits >= _SIMPLE and group != 4:
            if group == 0:
                raise _bad_length(len(text.encode("utf-8")))
            raise _ParseError(f"invalid number of groups: expected one of [1, 5], "
                              f"found {group + 1}")
        ch = chr(byte)
        if ch == "-":
            if digits % 2 == 1 or _GROUP_ENDS[group] != digits:
                raise _group_length(group, digits)
            group += 1
            continue
        if ch not in _HEX:
            found = data[i:].decode("utf-8", errors="replace")[0]
            raise _ParseError("invalid character: expected an optional prefix of "
                              f"`urn:uuid:` followed by 0123456789abcdefABCDEF-, found "
                              f"{found} at {i}")
        value = (value << 4) | int(ch, 16)
        digits += 1
    if digits != _SIMPLE:
        raise _ParseError(f"invalid group length: expected {_GROUPS[4]}, found "
                          f"{digits - _GROUP_ENDS[3]} in group {group}")
    return value


def parse_str(s: str) -> Record:
    """``Ok{uuid}`` or ``Err{the crate's message}``."""
    try:
        return _ok(_parse(s))
    except _ParseError as e:
        return _err(str(e))


def _constant(value: int, what: str):
    def make() -> int:
        return value
    make.__doc__ = what
    return make


def from_u128(v: int) -> int:
    """The UUID whose big-endian value is ``v``."""
    return v & _MASK


def hyphenated(u: int) -> str:
    """8-4-4-4-12 lower-case hex digits."""
    h = f"{u:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def hyphenated_upper(u: int) -> str:
    """8-4-4-4-12 upper-case hex digits."""
    return hyphenated(u).upper()


def simple(u: int) -> str:
    """32 lower-case hex digits."""
    return f"{u:032x}"


def simple_upper(u: int) -> str:
    """32 upper-case hex digits."""
    return f"{u:032X}"


def urn(u: int) -> str:
    """``urn:uuid:`` and the lower-case hyphenated form."""
    return _URN_PREFIX + hyphenated(u)


def urn_upper(u: int) -> str:
    """``urn:uuid:`` and the upper-case hyphenated form."""
    return _URN_PREFIX + hyphenated_upper(u)


def as_u128(u: int) -> int:
    """The big-endian value."""
    return u


def is_nil(u: int) -> bool:
    """Whether all 128 bits are zero."""
    return u == 0


LIBRARY_UUID = {
    "uuid::nil": _constant(0, "The nil UUID (all zero)."),
    "uuid::nAMESPACE_DNS": _constant(NAMESPACE_DNS, "RFC 4122's DNS name space."),
    "uuid::nAMESPACE_OID": _constant(NAMESPACE_OID, "RFC 4122's ISO OID name space."),
    "uuid::nAMESPACE_URL": _constant(NAMESPACE_URL, "RFC 4122's URL name space."),
    "uuid::nAMESPACE_X500": _constant(NAMESPACE_X500, "RFC 4122's X.500 DN name space."),
    "uuid::new_v5": new_v5,
    "uuid::from_u128": from_u128,
    "uuid::from_u128_le": from_u128_le,
    "uuid::from_bytes": from_bytes,
    "uuid::parse_str": parse_str,
    "uuid::to_hyphenated_lower": hyphenated,
    "uuid::to_hyphenated_upper": hyphenated_upper,
    "uuid::to_simple_lower": simple,
    "uuid::to_simple_upper": simple_upper,
    "uuid::to_urn_lower": urn,
    "uuid::to_urn_upper": urn_upper,
    "uuid::as_u128": as_u128,
    "uuid::to_u128_le": from_u128_le,  # reversing the bytes is its own inverse
    "uuid::is_nil": is_nil,
}
