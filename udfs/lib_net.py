"""Python implementations of DDlog's ``net::ipv4`` and ``net::ipv6`` libraries with the
semantics of Rust's ``std::net`` (the version DDlog's expected outputs were made
with): parsing by std's address grammar, ``Display`` with the longest run of zero
segments compressed and IPv4-compatible/-mapped addresses shown with a dotted tail.

Values are those of their storage (:data:`dl2sql.types.storage.EXTERN_STORAGE`): an
``Ipv4Addr`` is its ``u32``, an ``Ipv6Addr`` its ``u128``.
"""
from __future__ import annotations

from typing import Callable, Optional

from dl2sql.runtime.values import Record
from dl2sql.udfs.std_base import NONE, some

# std::net::AddrParseError's Display
PARSE_ERROR = "invalid IP address syntax"


def _ok(x) -> Record:
    return Record("ddlog_std::Ok", (x,))


def _err(msg: str) -> Record:
    return Record("ddlog_std::Err", (msg,))


# ------------------------------------------------------------------ IPv4
def octets4(addr: int) -> tuple[int, int, int, int]:
    """The four octets, most significant first."""
    return tuple((addr >> s) & 0xFF for s in (24, 16, 8, 0))


def from_octets4(octets) -> int:
    """The address of four octets."""
    a, b, c, d = octets
    return (a << 24) | (b << 16) | (c << 8) | d


def ipv4_text(addr: int) -> str:
    """Dot-decimal notation."""
    return ".".join(str(o) for o in octets4(addr))


class _Reader:
    """std::net's address parser: reads from ``text`` at ``pos``; each ``read_*``
    returns None (and leaves ``pos`` where it was) when the input does not fit."""

    def __init__(self, text: str):
        self.text, self.pos = text, 0

    def attempt(self, read: Callable[[], Optional[object]]):
        start = self.pos
        out = read()
        if out is None:
            self.pos = start
        return out

    def char(self, c: str) -> Optional[str]:
        if self.text.startswith(c, self.pos):
            self.pos += 1
            return c
        return None

    def number(self, base: int, max_digits: int, zero_prefix: bool, limit: int):
        """Digits of ``base`` (all that follow, at most ``max_digits``) up to
        ``limit``; a leading zero followed by more digits only with ``zero_prefix``."""
        def read():
            leading_zero = self.text.startswith("0", self.pos)
            value, digits = 0, 0
            while self.pos < len(self.text):
                d = _digit(self.text[self.pos], base)
                if d is None:
                    break
                value, digits = value * base + d, digits + 1
                self.pos += 1
                if digits > max_digits or value > limit:
                    return None
            if digits == 0 or (leading_zero and digits > 1 and not zero_prefix):
                return None
            return value
        return self.attempt(read)

    def ipv4(self) -> Optional[int]:
        def read():
            parts = []
            for i in range(4):
                if i and self.char(".") is None:
                    return None
                n = self.number(10, 3, False, 255)
                if n is None:
                    return None
                parts.append(n)
            return from_octets4(parts)
        return self.attempt(read)

    def groups(self, limit: int) -> tuple[list[int], bool]:
        """Up to ``limit`` 16-bit groups separated by ``:``, the last two possibly an
        embedded IPv4 address; returns them and whether that address ended them."""
        out: list[int] = []
        while len(out) < limit:
            i = len(out)
            if i < limit - 1:
                v4 = self.attempt(lambda: self._separated(i, self.ipv4))
                if v4 is not None:
                    return out + [v4 >> 16, v4 & 0xFFFF], True
            g = self.attempt(lambda: self._separated(i, lambda: self.number(
                16, 4, True, 0xFFFF)))
            if g is None:
                break
            out.append(g)
        return out, False

    def _separated(self, i: int, read):
        if i > 0 and self.char(":") is None:
            return None
        return read()

    def ipv6(self) -> Optional[tuple[int, ...]]:
        def read():
            head, v4_end = self.groups(8)
            if len(head) == 8:
                return tuple(head)
            if v4_end or self.char(":") is None or self.char(":") is None:
                return None
            tail, _ = self.groups(8 - len(head) - 1)
            return tuple(head + [0] * (8 - len(head) - len(tail)) + tail)
        return self.attempt(read)


def _digit(c: str, base: int) -> Optional[int]:
    try:
        d = int(c, 16)
    except ValueError:
        return None
    return d if d < base and c.isascii() else None


def parse_whole(text: str, read: Callable[[_Reader], Optional[object]]):
    """``read`` applied to all of ``text``, or None."""
    r = _Reader(text)
    out = read(r)
    return out if out is not None and r.pos == len(text) else None


def ipv4_from_str(s: str) -> Record:
    """``Ok{addr}`` of dot-decimal ``s`` (four decimal octets without leading zeros)."""
    addr = parse_whole(s, _Reader.ipv4)
    return _err(PARSE_ERROR) if addr is None else _ok(addr)


def ipv4_from_octet_vec(octets: tuple) -> Record:
    """``Some`` address of exactly four octets, else ``None``."""
    return some(from_octets4(octets)) if len(octets) == 4 else NONE


def _ipv4_test(test: Callable[[tuple], bool]) -> Callable[[int], bool]:
    return lambda addr: test(octets4(addr))


# ------------------------------------------------------------------ IPv6
def segments(addr: int) -> tuple[int, ...]:
    """The eight 16-bit segments, most significant first."""
    return tuple((addr >> (16 * (7 - i))) & 0xFFFF for i in range(8))


def from_segments(segs) -> int:
    """The address of eight segments."""
    n = 0
    for s in segs:
        n = (n << 16) | s
    return n


def octets16(addr: int) -> tuple[int, ...]:
    """The sixteen octets, most significant first."""
    return tuple((addr >> (8 * (15 - i))) & 0xFF for i in range(16))


def from_octets16(octets) -> int:
    """The address of sixteen octets."""
    n = 0
    for o in octets:
        n = (n << 8) | o
    return n


def to_ipv4(addr: int) -> Optional[int]:
    """The IPv4 address of an IPv4-compatible (``::a.b.c.d``) or -mapped
    (``::ffff:a.b.c.d``) address, else None."""
    segs = segments(addr)
    if segs[:5] == (0,) * 5 and segs[5] in (0, 0xFFFF):
        return (segs[6] << 16) | segs[7]
    return None


def ipv6_text(addr: int) -> str:
    """std's Display: ``::``, ``::1``, a dotted tail for IPv4-compatible and -mapped
    addresses, else hexadecimal segments with the first longest run of two or more
    zero segments written ``::``."""
    segs = segments(addr)
    if segs == (0,) * 8:
        return "::"
    if segs == (0,) * 7 + (1,):
        return "::1"
    if segs[:5] == (0,) * 5 and segs[5] in (0, 0xFFFF):
        prefix = "::" if segs[5] == 0 else "::ffff:"
        return prefix + ipv4_text((segs[6] << 16) | segs[7])
    best_start, best_len, start = 0, 0, None
    for i, s in enumerate(segs + (1,)):
        if s == 0 and start is None:
            start = i
        elif s != 0 and start is not None:
            if i - start > best_len:
                best_start, best_len = start, i - start
            start = None
    hexes = [f"{s:x}" for s in segs]
    if best_len > 1:
        return ":".join(hexes[:best_start]) + "::" + ":".join(hexes[best_start + best_len:])
    return ":".join(hexes)


def ipv6_from_str(s: str) -> Record:
    """``Ok{addr}`` of ``s`` in std's IPv6 grammar, else ``Err``."""
    segs = parse_whole(s, _Reader.ipv6)
    return _err(PARSE_ERROR) if segs is None else _ok(from_segments(segs))


def _vec_of(n: int, build):
    return lambda items: some(build(items)) if len(items) == n else NONE


def _mapped(prefix: tuple) -> Callable[[int], int]:
    return lambda addr: from_segments(prefix + (addr >> 16, addr & 0xFFFF))


_V4, _V6 = "net::ipv4::", "net::ipv6::"
LIBRARY_NET: dict[str, Callable] = {
    _V4 + "ipv4_new": lambda a, b, c, d: from_octets4((a, b, c, d)),
    _V4 + "ipv4_from_octet_vec": ipv4_from_octet_vec,
    _V4 + "ipv4_from_u32": lambda n: n,
    _V4 + "ipv4_from_str": ipv4_from_str,
    _V4 + "ipv4Addr2string": ipv4_text,
    _V4 + "iPV4_LOCALHOST": lambda: from_octets4((127, 0, 0, 1)),
    _V4 + "iPV4_UNSPECIFIED": lambda: 0,
    _V4 + "iPV4_BROADCAST": lambda: 0xFFFFFFFF,
    _V4 + "ipv4_octets": octets4,
    _V4 + "ipv4_octet_vec": octets4,
    _V4 + "ipv4_is_unspecified": lambda addr: addr == 0,
    _V4 + "ipv4_is_loopback": _ipv4_test(lambda o: o[0] == 127),
    _V4 + "ipv4_is_private": _ipv4_test(lambda o: o[0] == 10 or (
        o[0] == 172 and 16 <= o[1] <= 31) or (o[0] == 192 and o[1] == 168)),
    _V4 + "ipv4_is_link_local": _ipv4_test(lambda o: o[:2] == (169, 254)),
    _V4 + "ipv4_is_multicast": _ipv4_test(lambda o: 224 <= o[0] <= 239),
    _V4 + "ipv4_is_broadcast": lambda addr: addr == 0xFFFFFFFF,
    _V4 + "ipv4_is_documentation": _ipv4_test(lambda o: o[:3] in (
        (192, 0, 2), (198, 51, 100), (203, 0, 113))),
    _V4 + "ipv4_to_ipv6_compatible": _mapped((0,) * 6),
    _V4 + "ipv4_to_ipv6_mapped": _mapped((0,) * 5 + (0xFFFF,)),
    _V4 + "ipv4_to_u32": lambda addr: addr,
    _V6 + "ipv6_new": lambda *segs: from_segments(segs),
    _V6 + "ipv6_from_segment_vec": _vec_of(8, from_segments),
    _V6 + "ipv6_from_octets": lambda *octets: from_octets16(octets),
    _V6 + "ipv6_from_octet_vec": _vec_of(16, from_octets16),
    _V6 + "ipv6_from_u128": lambda n: n,
    _V6 + "ipv6_from_str": ipv6_from_str,
    _V6 + "ipv6Addr2string": ipv6_text,
    _V6 + "ipv6_to_u128": lambda addr: addr,
    _V6 + "iPV6_LOCALHOST": lambda: 1,
    _V6 + "iPV6_UNSPECIFIED": lambda: 0,
    _V6 + "ipv6_segments": segments,
    _V6 + "ipv6_segment_vec": segments,
    _V6 + "ipv6_octets": octets16,
    _V6 + "ipv6_octet_vec": octets16,
    _V6 + "ipv6_is_unspecified": lambda addr: addr == 0,
    _V6 + "ipv6_is_loopback": lambda addr: addr == 1,
    _V6 + "ipv6_is_multicast": lambda addr: segments(addr)[0] & 0xFF00 == 0xFF00,
    _V6 + "ipv6_to_ipv4": lambda addr: NONE if to_ipv4(addr) is None else some(to_ipv4(addr)),
}

# docstrings of the functions written inline in the table above
_NET_DOCS = {
    'ipv4::ipv4_new': 'The address a.b.c.d.',
    'ipv4::ipv4_from_u32': 'The address of a u32.',
    'ipv4::iPV4_LOCALHOST': '127.0.0.1.',
    'ipv4::iPV4_UNSPECIFIED': '0.0.0.0.',
    'ipv4::iPV4_BROADCAST': '255.255.255.255.',
    'ipv4::ipv4_is_unspecified': '0.0.0.0.',
    'ipv4::ipv4_is_loopback': 'In 127.0.0.0/8.',
    'ipv4::ipv4_is_private': 'In 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16.',
    'ipv4::ipv4_is_link_local': 'In 169.254.0.0/16.',
    'ipv4::ipv4_is_multicast': 'In 224.0.0.0/4.',
    'ipv4::ipv4_is_broadcast': '255.255.255.255.',
    'ipv4::ipv4_is_documentation': 'In 192.0.2.0/24, 198.51.100.0/24 or 203.0.113.0/24.',
    'ipv4::ipv4_to_ipv6_compatible': '::a.b.c.d.',
    'ipv4::ipv4_to_ipv6_mapped': '::ffff:a.b.c.d.',
    'ipv4::ipv4_to_u32': 'The address as a u32.',
    'ipv6::ipv6_new': 'The address of eight segments.',
    'ipv6::ipv6_from_segment_vec': 'Some address of exactly eight segments, else None.',
    'ipv6::ipv6_from_octets': 'The address of sixteen octets.',
    'ipv6::ipv6_from_octet_vec': 'Some address of exactly sixteen octets, else None.',
    'ipv6::iPV6_LOCALHOST': '::1.',
    'ipv6::iPV6_UNSPECIFIED': '::.',
    'ipv6::ipv6_is_unspecified': '::.',
    'ipv6::ipv6_is_loopback': '::1.',
    'ipv6::ipv6_is_multicast': 'In ff00::/8.',
    'ipv6::ipv6_to_ipv4': 'Some IPv4 address of a compatible or mapped address, else None.',
    'ipv6::ipv6_from_u128': 'The address of a u128.',
    'ipv6::ipv6_to_u128': 'The address as a u128.',
}
for _name, _text in _NET_DOCS.items():
    LIBRARY_NET['net::' + _name].__doc__ = _text
