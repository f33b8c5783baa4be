"""The `url` library: WHATWG URL parsing and serialization as the Rust url crate does
it (expected values from the URL Standard's examples and rules)."""
import pytest

from dl2sql.udfs.lib_url import LIBRARY_URL

L = {name.split("::")[1]: fn for name, fn in LIBRARY_URL.items()}


def parsed(text: str) -> str:
    r = L["url_parse"](text)
    assert r.ctor == "ddlog_std::Ok", r
    return r.fields[0]


def error(text: str) -> str:
    r = L["url_parse"](text)
    assert r.ctor == "ddlog_std::Err", r
    return r.fields[0]


def option(record):
    return record.fields[0] if record.ctor == "ddlog_std::Some" else None


@pytest.mark.parametrize("text, serialization", [
    ("https://example.net", "https://example.net/"),
    ("HTTP://EXAMPLE.com:80/a/./b/../c", "http://example.com/a/c"),
    ("  https://ex.com/\tx\n ", "https://ex.com/x"),            # trimmed, tabs removed
    ("https:\\\\ex.com\\a\\b", "https://ex.com/a/b"),            # backslashes in special
    ("http://0x7f.1/", "http://127.0.0.1/"),                    # IPv4 number forms
    ("http://3232235777/", "http://192.168.1.1/"),
    ("http://[1:0:0:2::3:0]/", "http://[1::2:0:0:3:0]/"),       # first longest zero run
    ("http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"),
    ("http://bücher.de/", "http://xn--bcher-kva.de/"),          # IDNA
    ("http://ex.com/a b<c>^`{}?q='x y'#f g`", "http://ex.com/a%20b%3Cc%3E^%60%7B%7D?q=%27x%20y%27#f%20g%60"),
    ("foo://ex.com/?q='x'", "foo://ex.com/?q='x'"),             # ' encoded only if special
    ("https://u:p@ex.com:8080/", "https://u:p@ex.com:8080/"),
    ("https://u:@ex.com/", "https://u@ex.com/"),
    ("file:///C|/x/../..", "file:///C:/"),                     # drive letters survive ..
    ("file://localhost/tmp", "file:///tmp"),
    ("mailto:Joe@Example.COM", "mailto:Joe@Example.COM"),
    ("non-spec:/.//p", "non-spec:/.//p"),
    ("foo://", "foo://"),
])
def test_serialization(text, serialization):
    assert parsed(text) == serialization


@pytest.mark.parametrize("text, message", [
    ("rel/x", "relative URL without a base"),
    ("http://", "empty host"),
    ("http://a:b@/", "empty host"),
    ("http://x:99999/", "invalid port number"),
    ("http://x:8a/", "invalid port number"),
    ("http://ex ample.com/", "invalid domain character"),
    ("http://1.2.3.4.5/", "invalid IPv4 address"),
    ("http://256.0.0.1/", "invalid IPv4 address"),
    ("http://[1::2::3]/", "invalid IPv6 address"),
    ("http://[::1/", "invalid IPv6 address"),
    ("foo://a b/", "invalid domain character"),
])
def test_errors_are_the_crates(text, message):
    assert error(text) == message


@pytest.mark.parametrize("base, relative, result", [
    ("https://example.net/a/b.html", "c.png", "https://example.net/a/c.png"),
    ("https://example.net/a/b/", "../../../q?x", "https://example.net/q?x"),
    ("https://example.net/a?b#c", "?z", "https://example.net/a?z"),
    ("https://example.net/a?b#c", "#z", "https://example.net/a?b#z"),
    ("https://example.net/a", "//other/x", "https://other/x"),
    ("file:///C:/a/b", "/d", "file:///C:/d"),
    ("data:text/plain,Stuff", "#frag", "data:text/plain,Stuff#frag"),
])
def test_join(base, relative, result):
    r = L["join"](parsed(base), relative)
    assert r.ctor == "ddlog_std::Ok" and r.fields[0] == result


def test_join_on_a_cannot_be_a_base_url():
    r = L["join"](parsed("data:text/plain,Stuff"), "x")
    assert r.fields[0] == "relative URL with a cannot-be-a-base base"


def test_accessors():
    u = parsed("ftp://rms:secret@example.com:2121/a/b?q=1#top")
    assert (L["scheme"](u), L["username"](u), option(L["password"](u))) == \
        ("ftp", "rms", "secret")
    assert (option(L["host_str"](u)), option(L["domain"](u)), option(L["port"](u))) == \
        ("example.com", "example.com", 2121)
    assert (L["path"](u), option(L["query"](u)), option(L["fragment"](u))) == \
        ("/a/b", "q=1", "top")
    assert L["has_authority"](u) and L["has_host"](u) and not L["cannot_be_a_base"](u)


def test_hosts_and_ports_by_kind():
    ip = parsed("https://127.0.0.1/")
    assert option(L["host_str"](ip)) == "127.0.0.1" and option(L["domain"](ip)) is None
    assert option(L["port"](ip)) is None and option(L["port_or_known_default"](ip)) == 443
    f = parsed("file:///tmp/foo")   # an authority with an empty host: no host
    assert L["has_authority"](f) and not L["has_host"](f)
    assert option(L["host_str"](f)) is None
    data = parsed("data:text/plain,Stuff")
    assert L["cannot_be_a_base"](data) and not L["has_authority"](data)
    assert L["path"](data) == "text/plain,Stuff"
    ssh = parsed("ssh://example.com:22")
    assert option(L["port_or_known_default"](ssh)) == 22
    assert option(L["port_or_known_default"](parsed("ssh://example.com"))) is None
