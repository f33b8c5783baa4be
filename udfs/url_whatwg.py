"""The WHATWG URL Standard's basic URL parser and serializer, as the Rust ``url`` crate
(2.x) that DDlog's ``url`` module binds implements them.

Where the crate and today's standard differ, the crate wins: its percent-encode sets
(``^`` is not encoded in paths), its error messages (:class:`UrlError`), and its view of
an empty host (the serialization keeps ``//`` but there is no host). Only parsing with
an optional base is implemented: DDlog's module has no setters.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

SPECIAL_PORTS = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}

# the crate's percent-encode sets (bytes encoded besides every non-ASCII byte)
C0_CONTROL_SET = frozenset(range(0x20)) | {0x7F}
FRAGMENT_SET = C0_CONTROL_SET | set(b' "<>`')
QUERY_SET = C0_CONTROL_SET | set(b' "#<>')
SPECIAL_QUERY_SET = QUERY_SET | {ord("'")}
PATH_SET = QUERY_SET | set(b"?`{}")
USERINFO_SET = PATH_SET | set(b"/:;=@[\\]^|")

_FORBIDDEN_HOST = set("\0\t\n\r #/:<>?@[\\]^|")
_FORBIDDEN_DOMAIN = _FORBIDDEN_HOST | {chr(c) for c in C0_CONTROL_SET} | {"%"}
_EOF = ""


class UrlError(ValueError):
    """A parse failure, carrying the crate's message (its ``ParseError`` Display)."""


EMPTY_HOST = "empty host"
IDNA_ERROR = "invalid international domain name"
INVALID_PORT = "invalid port number"
INVALID_IPV4 = "invalid IPv4 address"
INVALID_IPV6 = "invalid IPv6 address"
INVALID_DOMAIN_CHARACTER = "invalid domain character"
NO_BASE = "relative URL without a base"
CANNOT_BE_A_BASE_BASE = "relative URL with a cannot-be-a-base base"


@dataclass(frozen=True)
class Host:
    """A parsed host: ``kind`` is "domain", "ipv4", "ipv6", "opaque" or "empty"."""

    kind: str
    text: str  # serialized (IPv6 in brackets)


@dataclass
class Url:
    """A URL record; ``path`` is a list of segments, or a string when opaque
    (a cannot-be-a-base URL)."""

    scheme: str = ""
    username: str = ""
    password: str = ""
    host: Optional[Host] = None
    port: Optional[int] = None
    path: Union[list, str] = field(default_factory=list)
    query: Optional[str] = None
    fragment: Optional[str] = None

    @property
    def special(self) -> bool:
        return self.scheme in SPECIAL_PORTS

    @property
    def opaque_path(self) -> bool:
        return isinstance(self.path, str)

    def path_text(self) -> str:
        """The serialized path."""
        return self.path if isinstance(self.path, str) else "".join("/" + s for s in self.path)

    def serialize(self) -> str:
        out = self.scheme + ":"
        if self.host is not None:
            out += "//"
            if self.username or self.password:
                out += self.username + (":" + self.password if self.password else "") + "@"
            out += self.host.text
            if self.port is not None:
                out += f":{self.port}"
        elif not self.opaque_path and len(self.path) > 1 and self.path[0] == "":
            out += "/."
        out += self.path_text()
        if self.query is not None:
            out += "?" + self.query
        if self.fragment is not None:
            out += "#" + self.fragment
        return out


def percent_encode(text: str, unsafe: frozenset | set) -> str:
    """UTF-8 percent-encoding of the bytes in ``unsafe`` and every non-ASCII byte."""
    return "".join(chr(b) if b < 0x80 and b not in unsafe else f"%{b:02X}"
                   for b in text.encode("utf-8", "surrogatepass"))


def percent_decode(text: str) -> bytes:
    data, out, i = text.encode("utf-8"), bytearray(), 0
    while i < len(data):
        h = data[i + 1:i + 3]
        if data[i] == 0x25 and len(h) == 2 and all(c in b"0123456789abcdefABCDEF" for c in h):
            out.append(int(h, 16))
            i += 3
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


# ------------------------------------------------------------------ hosts
def _ipv4_number(part: str) -> int:
    radix = 10
    if part[:2] in ("0x", "0X"):
        radix, part = 16, part[2:]
    elif len(part) > 1 and part[0] == "0":
        radix, part = 8, part[1:]
    if not part:
        return 0
    digits = "0123456789abcdef"[:radix]
    if not all(c in digits for c in part.lower()):
        raise UrlError(INVALID_IPV4)
    return int(part, radix)


def _ends_in_number(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if last and all(c in "0123456789" for c in last):
        return True
    try:
        return bool(last) and last[:2] in ("0x", "0X") and _ipv4_number(last) >= 0
    except UrlError:
        return False


def _ipv4(domain: str) -> Host:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if len(parts) > 4 or "" in parts:
        raise UrlError(INVALID_IPV4)
    numbers = [_ipv4_number(p) for p in parts]
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise UrlError(INVALID_IPV4)
    value = numbers[-1] + sum(n * 256 ** (3 - i) for i, n in enumerate(numbers[:-1]))
    return Host("ipv4", ".".join(str((value >> s) & 255) for s in (24, 16, 8, 0)))


def _ipv6_pieces(text: str) -> list[int]:
    """The spec's IPv6 parser (hex pieces, one ``::``, an embedded IPv4 tail)."""
    pieces, index, compress, i = [0] * 8, 0, None, 0
    at = lambda k: text[k] if k < len(text) else _EOF  # noqa: E731
    if at(0) == ":":
        if at(1) != ":":
            raise UrlError(INVALID_IPV6)
        i, index, compress = 2, 1, 1
    while at(i) != _EOF:
        if index == 8:
            raise UrlError(INVALID_IPV6)
        if at(i) == ":":
            if compress is not None:
                raise UrlError(INVALID_IPV6)
            i, index, compress = i + 1, index + 1, index + 1
            continue
        value = length = 0
        while length < 4 and at(i) != _EOF and at(i) in "0123456789abcdefABCDEF":
            value, i, length = value * 16 + int(at(i), 16), i + 1, length + 1
        if at(i) == ".":
            if length == 0 or index > 6:
                raise UrlError(INVALID_IPV6)
            i -= length
            seen = 0
            while at(i) != _EOF:
                number = None
                if seen > 0:
                    if at(i) != "." or seen >= 4:
                        raise UrlError(INVALID_IPV6)
                    i += 1
                if at(i) == _EOF or at(i) not in "0123456789":
                    raise UrlError(INVALID_IPV6)
                while at(i) != _EOF and at(i) in "0123456789":
                    if number == 0:
                        raise UrlError(INVALID_IPV6)
                    number = int(at(i)) if number is None else number * 10 + int(at(i))
                    if number > 255:
                        raise UrlError(INVALID_IPV6)
                    i += 1
                pieces[index] = pieces[index] * 256 + number
                seen += 1
                if seen in (2, 4):
                    index += 1
            if seen != 4:
                raise UrlError(INVALID_IPV6)
            break
        if at(i) == ":":
            i += 1
            if at(i) == _EOF:
                raise UrlError(INVALID_IPV6)
        elif at(i) != _EOF:
            raise UrlError(INVALID_IPV6)
        pieces[index] = value
        index += 1
    if compress is not None:
        moved = pieces[compress:index]
        pieces[compress:index] = [0] * len(moved)
        pieces[8 - len(moved):] = moved
    elif index != 8:
        raise UrlError(INVALID_IPV6)
    return pieces


def _ipv6(text: str) -> Host:
    pieces = _ipv6_pieces(text)
    # the first longest run of two or more zero pieces is written `::`
    best, best_len, run = None, 1, 0
    for k, p in enumerate(pieces + [1]):
        if p == 0:
            run += 1
        else:
            if run > best_len:
                best, best_len = k - run, run
            run = 0
    out, k = "", 0
    while k < 8:
        if k == best:
            out += "::" if k == 0 else ":"
            k += best_len
            continue
        out += f"{pieces[k]:x}" + (":" if k < 7 else "")
        k += 1
    return Host("ipv6", f"[{out}]")


def _domain_to_ascii(domain: str) -> str:
    if domain.isascii():
        return domain.lower()
    import idna  # only for international names (Spark's workers get it in dl2sql's zip)
    try:
        return idna.encode(domain, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        raise UrlError(IDNA_ERROR) from None


def parse_host(text: str, special: bool) -> Host:
    """The spec's host parser (``special``: the URL's scheme is special)."""
    if text.startswith("["):
        if not text.endswith("]"):
            raise UrlError(INVALID_IPV6)
        return _ipv6(text[1:-1])
    if not special:
        if any(c in _FORBIDDEN_HOST for c in text):
            raise UrlError(INVALID_DOMAIN_CHARACTER)
        return Host("opaque" if text else "empty", percent_encode(text, C0_CONTROL_SET))
    try:
        domain = percent_decode(text).decode("utf-8")
    except UnicodeDecodeError:
        raise UrlError(IDNA_ERROR) from None
    ascii_domain = _domain_to_ascii(domain)
    if not ascii_domain:
        raise UrlError(EMPTY_HOST)
    if any(c in _FORBIDDEN_DOMAIN for c in ascii_domain):
        raise UrlError(INVALID_DOMAIN_CHARACTER)
    if _ends_in_number(ascii_domain):
        return _ipv4(ascii_domain)
    return Host("domain", ascii_domain)
