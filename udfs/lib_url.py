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


def _host(url: str) -> Optional[str]:
    """The host's text, None for no host or an empty one (the crate has none then)."""
    host = parse(url).host
    return None if host is None or host.kind == "empty" else host.text


def _domain(url: str) -> Optional[str]:
    host = parse(url).host
    return host.text if host is not None and host.kind in ("domain", "opaque") else None


def _port_or_known_default(url: str) -> Optional[int]:
    u = parse(url)
    return u.port if u.port is not None else SPECIAL_PORTS.get(u.scheme)


LIBRARY_URL = {
    "url::url_parse": url_parse,
    "url::join": join,
    "url::url_to_string": lambda url: url,
    "url::scheme": lambda url: parse(url).scheme,
    "url::has_authority": lambda url: parse(url).host is not None,
    "url::cannot_be_a_base": lambda url: parse(url).opaque_path,
    "url::username": lambda url: parse(url).username,
    "url::password": lambda url: _option(parse(url).password or None),
    "url::has_host": lambda url: _host(url) is not None,
    "url::host_str": lambda url: _option(_host(url)),
    "url::domain": lambda url: _option(_domain(url)),
    "url::port": lambda url: _option(parse(url).port),
    "url::port_or_known_default": lambda url: _option(_port_or_known_default(url)),
    "url::path": lambda url: parse(url).path_text(),
    "url::query": lambda url: _option(parse(url).query),
    "url::fragment": lambda url: _option(parse(url).fragment),
}
