"""The `net` libraries' Python implementations against Rust's std::net: the address
grammar (groups, one `::`, dotted IPv4 tails, no leading zeros in IPv4 octets),
Display (longest zero run compressed, first on ties, dotted forms of compatible and
mapped addresses), classification and conversions, and `.dat` reading."""
import pytest

from dl2sql.compiler import compile_source
from dl2sql.replay.dat_parser import DatError, UValue
from dl2sql.replay.dat_values import convert
from dl2sql.runtime.convert import from_sql, to_sql
from dl2sql.runtime.printing import format_value
from dl2sql.runtime.values import Record
from dl2sql.types.model import TNamed
from dl2sql.udfs.lib_net import LIBRARY_NET, PARSE_ERROR


def net(name, *args):
    module = "ipv4" if name.startswith(("ipv4", "iPV4")) else "ipv6"
    return LIBRARY_NET[f"net::{module}::{name}"](*args)


def v6(text):
    result = net("ipv6_from_str", text)
    assert result.ctor == "ddlog_std::Ok", (text, result)
    return result.fields[0]


@pytest.mark.parametrize("text, value", [
    ("0.0.0.0", 0), ("255.255.255.255", 2 ** 32 - 1), ("10.11.12.13", 0x0A0B0C0D),
    ("0.10.0.100", 0x000A0064),
])
def test_ipv4_parse_and_print(text, value):
    assert net("ipv4_from_str", text) == Record("ddlog_std::Ok", (value,))
    assert net("ipv4Addr2string", value) == text


@pytest.mark.parametrize("text", ["1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4",
                                  "1.2.3.4 ", " 1.2.3.4", "1..2.3", "", "1.2.3.-4",
                                  "1.2.3.0004", "+1.2.3.4", "1.2.3.４"])
def test_ipv4_refused(text):
    assert net("ipv4_from_str", text) == Record("ddlog_std::Err", (PARSE_ERROR,))


@pytest.mark.parametrize("text, segments", [
    ("::", (0,) * 8),
    ("::1", (0,) * 7 + (1,)),
    ("1::", (1,) + (0,) * 7),
    ("1:2:3:4:5:6:7:8", (1, 2, 3, 4, 5, 6, 7, 8)),
    ("FFFF::abcd", (0xFFFF,) + (0,) * 6 + (0xABCD,)),
    ("1:2:3:4:5:6:1.2.3.4", (1, 2, 3, 4, 5, 6, 0x0102, 0x0304)),
    ("::ffff:192.10.2.255", (0,) * 5 + (0xFFFF, 0xC00A, 0x02FF)),
    ("1::2:3.4.5.6", (1, 0, 0, 0, 0, 2, 0x0304, 0x0506)),
    ("0001:02::", (1, 2) + (0,) * 6),
    ("1:2:3:4:5:6:7::", (1, 2, 3, 4, 5, 6, 7, 0)),  # `::` may stand for one group
])
def test_ipv6_parse(text, segments):
    assert net("ipv6_segments", v6(text)) == segments


@pytest.mark.parametrize("text", [":", ":::", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9",
                                  "12345::", "::g", "ffff:192.10.2.255", "1:2:3:4:5:6:7:1.2.3.4",
                                  "::1.2.3", ":1::", "1::2:", "::01.2.3.4"])
def test_ipv6_refused(text):
    assert net("ipv6_from_str", text) == Record("ddlog_std::Err", (PARSE_ERROR,))


@pytest.mark.parametrize("segments, text", [
    ((0,) * 8, "::"),
    ((0,) * 7 + (1,), "::1"),
    ((0,) * 7 + (2,), "::0.0.0.2"),                       # IPv4-compatible
    ((0,) * 5 + (0xFFFF, 0xC00A, 0x2FF), "::ffff:192.10.2.255"),
    ((1, 0, 0, 2, 0, 0, 0, 3), "1:0:0:2::3"),               # the longest run
    ((1, 0, 0, 2, 0, 0, 3, 4), "1::2:0:0:3:4"),             # the first of equal runs
    ((1, 0, 2, 3, 4, 5, 6, 7), "1:0:2:3:4:5:6:7"),          # one zero is not compressed
    ((0xFE80, 0, 0, 0, 0, 0, 0, 0x1A), "fe80::1a"),
    ((0, 0, 0, 0, 0, 0xFFFE, 1, 2), "::fffe:1:2"),
])
def test_ipv6_display(segments, text):
    addr = net("ipv6_new", *segments)
    assert net("ipv6Addr2string", addr) == text
    assert net("ipv6_from_str", text) == Record("ddlog_std::Ok", (addr,))


IPV6 = TNamed("net::ipv6::Ipv6Addr")


def env():
    return compile_source("import net::ipv4\nimport net::ipv6\n", "net_unit.dl", ()).type_env


def test_u128_stored_in_order():
    values = [0, 1, 2 ** 64 - 1, 2 ** 64, 2 ** 127 + 5, 2 ** 128 - 1]
    stored = [to_sql(IPV6, n, env()) for n in values]
    assert sorted(stored) == stored  # the hex digits order as the u128 does
    assert [from_sql(IPV6, s, env()) for s in stored] == values
    assert format_value(IPV6, 2 ** 128 - 1, env()) == str(2 ** 128 - 1)


def test_ipv4_classification():
    addr = lambda *o: net("ipv4_new", *o)  # noqa: E731
    assert net("ipv4_is_private", addr(172, 31, 255, 255))
    assert not net("ipv4_is_private", addr(172, 32, 0, 0))
    assert net("ipv4_is_loopback", addr(127, 1, 2, 3))
    assert net("ipv4_is_link_local", addr(169, 254, 0, 1))
    assert net("ipv4_is_multicast", addr(239, 0, 0, 1))
    assert not net("ipv4_is_multicast", addr(240, 0, 0, 1))
    assert net("ipv4_is_documentation", addr(203, 0, 113, 7))
    assert not net("ipv4_is_documentation", addr(203, 0, 114, 7))
    assert net("ipv4_octets", addr(1, 2, 3, 4)) == (1, 2, 3, 4)


def test_conversions():
    a = net("ipv4_new", 192, 0, 2, 10)
    compatible = net("ipv4_to_ipv6_compatible", a)
    mapped = net("ipv4_to_ipv6_mapped", a)
    some = Record("ddlog_std::Some", (a,))
    assert net("ipv6_to_ipv4", compatible) == some and net("ipv6_to_ipv4", mapped) == some
    assert net("ipv6_to_ipv4", v6("1::")) == Record("ddlog_std::None", ())
    assert net("ipv6_from_segment_vec", (1,) * 7) == Record("ddlog_std::None", ())
    assert net("ipv6_from_octet_vec", net("ipv6_octet_vec", mapped)) == \
        Record("ddlog_std::Some", (mapped,))
    assert net("ipv6_is_multicast", v6("ff02::1")) and not net("ipv6_is_multicast", v6("fe02::1"))


def test_dat_reading():
    ipv4 = TNamed("net::ipv4::Ipv4Addr")
    assert convert(ipv4, UValue("int", 16909060), env()) == 16909060
    assert convert(IPV6, UValue("int", 2 ** 100), env()) == 2 ** 100
    for kind, v in (("int", 2 ** 32), ("string", "1.2.3.4"), ("int", -1)):
        with pytest.raises(DatError):
            convert(ipv4, UValue(kind, v), env())
