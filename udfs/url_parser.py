"""The WHATWG basic URL parser's state machine (without state overrides: DDlog's ``url``
module only parses, with or without a base), over the records and host parser of
:mod:`dl2sql.udfs.url_whatwg`. Each ``_state`` method reads one code point ``c``
(``""`` at the end) and may move the pointer back to have it read again.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from dl2sql.udfs.url_whatwg import (C0_CONTROL_SET, CANNOT_BE_A_BASE_BASE, EMPTY_HOST,
                                    FRAGMENT_SET, INVALID_PORT, NO_BASE, PATH_SET, QUERY_SET,
                                    SPECIAL_PORTS, SPECIAL_QUERY_SET, USERINFO_SET, Host, Url,
                                    UrlError, parse_host, percent_encode)

_EOF = ""
_ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"


def _windows_drive_letter(s: str, normalized: bool = False) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and (s[1] == ":" or (not normalized and s[1] == "|"))


def _starts_with_drive_letter(rest: str) -> bool:
    return len(rest) >= 2 and _windows_drive_letter(rest[:2]) and \
        (len(rest) == 2 or rest[2] in "/\\?#")


def _single_dot(s: str) -> bool:
    return s in (".", "%2e", "%2E")


def _double_dot(s: str) -> bool:
    return s.lower() in ("..", ".%2e", "%2e.", "%2e%2e")


class _Parser:
    def __init__(self, text: str, base: Optional[Url]):
        text = text.strip("".join(chr(c) for c in range(0x21)))
        self.input = text.replace("\t", "").replace("\n", "").replace("\r", "")
        self.base = base
        self.url = Url()
        self.state = "scheme_start"
        self.buffer = ""
        self.at_sign_seen = self.inside_brackets = self.password_token_seen = False
        self.p = 0

    def run(self) -> Url:
        while True:
            c = self.input[self.p] if self.p < len(self.input) else _EOF
            getattr(self, "_" + self.state)(c)
            if self.p >= len(self.input):
                return self.url
            self.p += 1

    def rest(self) -> str:
        """The code points after the pointer."""
        return self.input[self.p + 1:]

    def special_slash(self, c: str) -> bool:
        return c == "/" or (self.url.special and c == "\\")

    def shorten_path(self) -> None:
        path = self.url.path
        if self.url.scheme == "file" and len(path) == 1 and \
                _windows_drive_letter(path[0], normalized=True):
            return
        if path:
            path.pop()

    # -- the states ------------------------------------------------------------------
    def _scheme_start(self, c: str) -> None:
        if c and c in _ALPHA:
            self.buffer += c.lower()
            self.state = "scheme"
        else:
            self.state = "no_scheme"
            self.p -= 1

    def _scheme(self, c: str) -> None:
        if c and (c in _ALPHA or c in _DIGITS or c in "+-."):
            self.buffer += c.lower()
            return
        if c == ":":
            self.url.scheme, self.buffer = self.buffer, ""
            if self.url.scheme == "file":
                self.state = "file"
            elif self.url.special and self.base is not None and \
                    self.base.scheme == self.url.scheme:
                self.state = "special_relative_or_authority"
            elif self.url.special:
                self.state = "special_authority_slashes"
            elif self.rest().startswith("/"):
                self.state = "path_or_authority"
                self.p += 1
            else:
                self.url.path = ""
                self.state = "opaque_path"
            return
        self.buffer, self.state, self.p = "", "no_scheme", -1

    def _no_scheme(self, c: str) -> None:
        base = self.base
        if base is None:
            raise UrlError(NO_BASE)
        if base.opaque_path and c != "#":
            raise UrlError(CANNOT_BE_A_BASE_BASE)
        if base.opaque_path:
            self.url = replace(base, fragment="")
            self.state = "fragment"
            return
        self.state = "relative" if base.scheme != "file" else "file"
        self.p -= 1

    def _special_relative_or_authority(self, c: str) -> None:
        if c == "/" and self.rest().startswith("/"):
            self.state = "special_authority_ignore_slashes"
            self.p += 1
        else:
            self.state = "relative"
            self.p -= 1

    def _path_or_authority(self, c: str) -> None:
        if c == "/":
            self.state = "authority"
        else:
            self.state = "path"
            self.p -= 1

    def _relative(self, c: str) -> None:
        base, url = self.base, self.url
        url.scheme = base.scheme
        if self.special_slash(c):
            self.state = "relative_slash"
            return
        url.username, url.password, url.host, url.port = \
            base.username, base.password, base.host, base.port
        url.path, url.query = list(base.path), base.query
        if c == "?":
            url.query, self.state = "", "query"
        elif c == "#":
            url.fragment, self.state = "", "fragment"
        elif c != _EOF:
            url.query = None
            self.shorten_path()
            self.state = "path"
            self.p -= 1

    def _relative_slash(self, c: str) -> None:
        if self.url.special and c in ("/", "\\"):
            self.state = "special_authority_ignore_slashes"
        elif c == "/":
            self.state = "authority"
        else:
            base, url = self.base, self.url
            url.username, url.password, url.host, url.port = \
                base.username, base.password, base.host, base.port
            self.state = "path"
            self.p -= 1

    def _special_authority_slashes(self, c: str) -> None:
        self.state = "special_authority_ignore_slashes"
        if c == "/" and self.rest().startswith("/"):
            self.p += 1
        else:
            self.p -= 1

    def _special_authority_ignore_slashes(self, c: str) -> None:
        if c not in ("/", "\\"):
            self.state = "authority"
            self.p -= 1

    def _authority(self, c: str) -> None:
        if c == "@":
            if self.at_sign_seen:
                self.buffer = "%40" + self.buffer
            self.at_sign_seen = True
            for ch in self.buffer:
                if ch == ":" and not self.password_token_seen:
                    self.password_token_seen = True
                    continue
                encoded = percent_encode(ch, USERINFO_SET)
                if self.password_token_seen:
                    self.url.password += encoded
                else:
                    self.url.username += encoded
            self.buffer = ""
        elif c in (_EOF, "?", "#") or self.special_slash(c):
            if self.at_sign_seen and self.buffer == "":
                raise UrlError(EMPTY_HOST)
            self.p -= len(self.buffer) + 1
            self.buffer = ""
            self.state = "host"
        else:
            self.buffer += c

    def _host(self, c: str) -> None:
        if c == ":" and not self.inside_brackets:
            if self.buffer == "":
                raise UrlError(EMPTY_HOST)
            self.url.host = parse_host(self.buffer, self.url.special)
            self.buffer, self.state = "", "port"
        elif c in (_EOF, "?", "#") or self.special_slash(c):
            self.p -= 1
            if self.url.special and self.buffer == "":
                raise UrlError(EMPTY_HOST)
            self.url.host = parse_host(self.buffer, self.url.special)
            self.buffer, self.state = "", "path_start"
        else:
            if c == "[":
                self.inside_brackets = True
            elif c == "]":
                self.inside_brackets = False
            self.buffer += c

    def _port(self, c: str) -> None:
        if c and c in _DIGITS:
            self.buffer += c
        elif c in (_EOF, "?", "#") or self.special_slash(c):
            if self.buffer:
                port = int(self.buffer)
                if port > 65535:
                    raise UrlError(INVALID_PORT)
                self.url.port = None if SPECIAL_PORTS.get(self.url.scheme) == port else port
                self.buffer = ""
            self.state = "path_start"
            self.p -= 1
        else:
            raise UrlError(INVALID_PORT)

    def _file(self, c: str) -> None:
        url, base = self.url, self.base
        url.scheme, url.host = "file", Host("empty", "")
        if c in ("/", "\\"):
            self.state = "file_slash"
            return
        if base is not None and base.scheme == "file":
            url.host, url.path, url.query = base.host, list(base.path), base.query
            if c == "?":
                url.query, self.state = "", "query"
                return
            if c == "#":
                url.fragment, self.state = "", "fragment"
                return
            if c != _EOF:
                url.query = None
                if not _starts_with_drive_letter(self.input[self.p:]):
                    self.shorten_path()
                else:
                    url.path = []
        self.state = "path"
        self.p -= 1

    def _file_slash(self, c: str) -> None:
        if c in ("/", "\\"):
            self.state = "file_host"
            return
        base = self.base
        if base is not None and base.scheme == "file":
            self.url.host = base.host
            if not _starts_with_drive_letter(self.input[self.p:]) and base.path and \
                    _windows_drive_letter(base.path[0], normalized=True):
                self.url.path.append(base.path[0])
        self.state = "path"
        self.p -= 1

    def _file_host(self, c: str) -> None:
        if c in (_EOF, "/", "\\", "?", "#"):
            self.p -= 1
            if _windows_drive_letter(self.buffer):
                self.state = "path"
            elif self.buffer == "":
                self.url.host = Host("empty", "")
                self.state = "path_start"
            else:
                host = parse_host(self.buffer, True)
                self.url.host = Host("empty", "") if host.text == "localhost" else host
                self.buffer, self.state = "", "path_start"
        else:
            self.buffer += c

    def _path_start(self, c: str) -> None:
        if self.url.special:
            self.state = "path"
            if c not in ("/", "\\"):
                self.p -= 1
        elif c == "?":
            self.url.query, self.state = "", "query"
        elif c == "#":
            self.url.fragment, self.state = "", "fragment"
        elif c != _EOF:
            self.state = "path"
            if c != "/":
                self.p -= 1

    def _path(self, c: str) -> None:
        url = self.url
        if c in (_EOF, "?", "#") or self.special_slash(c):
            slash = self.special_slash(c)
            if _double_dot(self.buffer):
                self.shorten_path()
                if not slash:
                    url.path.append("")
            elif _single_dot(self.buffer):
                if not slash:
                    url.path.append("")
            else:
                if url.scheme == "file" and not url.path and \
                        _windows_drive_letter(self.buffer):
                    self.buffer = self.buffer[0] + ":"
                url.path.append(self.buffer)
            self.buffer = ""
            if c == "?":
                url.query, self.state = "", "query"
            elif c == "#":
                url.fragment, self.state = "", "fragment"
        else:
            self.buffer += percent_encode(c, PATH_SET)

    def _opaque_path(self, c: str) -> None:
        if c == "?":
            self.url.query, self.state = "", "query"
        elif c == "#":
            self.url.fragment, self.state = "", "fragment"
        elif c != _EOF:
            self.url.path += percent_encode(c, C0_CONTROL_SET)

    def _query(self, c: str) -> None:
        if c in (_EOF, "#"):
            unsafe = SPECIAL_QUERY_SET if self.url.special else QUERY_SET
            self.url.query += percent_encode(self.buffer, unsafe)
            self.buffer = ""
            if c == "#":
                self.url.fragment, self.state = "", "fragment"
        else:
            self.buffer += c

    def _fragment(self, c: str) -> None:
        if c != _EOF:
            self.url.fragment += percent_encode(c, FRAGMENT_SET)


def parse(text: str, base: Optional[Url] = None) -> Url:
    """Parse ``text`` (against ``base``); raises :class:`UrlError` with the crate's
    message."""
    return _Parser(text, base).run()
