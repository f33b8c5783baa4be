"""Python implementations of DDlog's ``url`` library: the Rust ``url`` crate's parsing
(the WHATWG URL Standard, :mod:`dl2sql.udfs.url_parser`) and its accessors.

A ``Url`` is its serialization, a Python ``str`` (DDlog converts a Url to and from a
string record, and the crate orders URLs by their serializations); the accessors parse
it again, which gives back the same URL. Following the crate, a URL whose host is empty
(``file:///tmp``) has an authority but no host.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.runtime.values import Record
from dl2sql.udfs.url_parser import parse
from dl2sql.udfs.url_whatwg import SPECIAL_PORTS, Url, UrlError

_NONE = Record("ddlog_std::None", ())


def _option(x) -> Record:
    return _NONE if x is None else Record("ddlog_std::Some", (x,))


def _result(text: str, base: Optional[Url]) -> Record:
    try:
        return Record("ddlog_std::Ok", (parse(text, base).serialize(),))
    except UrlError as e:
        return Record("ddlog_std::Err", (str(e),))


def url_parse(s: str) -> Record:
    """``Ok{url}`` for an absolute URL, else ``Err{the crate's message}``."""
    return _result(s, None)


def join(url: str, other: str) -> Record:
    """``other`` parsed with ``url`` as its base."""
    return _result(other, parse(url))


def url_to_string(url: str) -> str:
    """The serialization."""
    return url


def scheme(url: str) -> str:
    """The scheme, lower case, without ``:``."""
    return parse(url).scheme


def has_authority(url: str) -> bool:
    """Whether ``//`` follows the scheme."""
    return parse(url).host is not None


def cannot_be_a_base(url: str) -> bool:
    """Whether the path is opaque (does not start with ``/``)."""
    return parse(url).opaque_path


def username(url: str) -> str:
    """The percent-encoded user name, maybe empty."""
    return parse(url).username


def password(url: str) -> Record:
    """The percent-encoded password if it is not empty."""
    return _option(parse(url).password or None)


def _host(url: str) -> Optional[str]:
    host = parse(url).host
    return None if host is None or host.kind == "empty" else host.text


def has_host(url: str) -> bool:
    """Whether there is a non-empty host."""
    return _host(url) is not None


def host_str(url: str) -> Record:
    """The host's text (IPv6 in brackets), for a non-empty host."""
    return _option(_host(url))


def domain(url: str) -> Record:
    """The host when it is a domain (the crate counts a non-special URL's host as one)."""
    host = parse(url).host
    return _option(host.text if host is not None and host.kind in ("domain", "opaque")
                   else None)


def port(url: str) -> Record:
    """The port unless absent or the scheme's default."""
    return _option(parse(url).port)


def port_or_known_default(url: str) -> Record:
    """The port, or the special scheme's default port."""
    u = parse(url)
    return _option(u.port if u.port is not None else SPECIAL_PORTS.get(u.scheme))


def path(url: str) -> str:
    """The serialized path."""
    return parse(url).path_text()


def query(url: str) -> Record:
    """The query after ``?``, if any."""
    return _option(parse(url).query)


def fragment(url: str) -> Record:
    """The fragment after ``#``, if any."""
    return _option(parse(url).fragment)


LIBRARY_URL = {f"url::{fn.__name__}": fn for fn in (
    url_parse, join, url_to_string, scheme, has_authority, cannot_be_a_base, username,
    password, has_host, host_str, domain, port, port_or_known_default, path, query,
    fragment)}
