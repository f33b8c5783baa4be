"""The `uuid` library follows the Rust uuid crate (0.8); results are checked against
Python's independent uuid module where both define them."""
import uuid as pyuuid

import pytest

from dl2sql.udfs.lib_uuid import LIBRARY_UUID

U = {name.split("::")[1]: fn for name, fn in LIBRARY_UUID.items()}
SAMPLE = 0x936DA01F_9ABD_4D9D_80C7_02AF85C822A8


@pytest.mark.parametrize("namespace, py_namespace", [
    ("nAMESPACE_DNS", pyuuid.NAMESPACE_DNS), ("nAMESPACE_URL", pyuuid.NAMESPACE_URL),
    ("nAMESPACE_OID", pyuuid.NAMESPACE_OID), ("nAMESPACE_X500", pyuuid.NAMESPACE_X500)])
@pytest.mark.parametrize("name", ["", "python.org", "naïve"])
def test_new_v5_agrees_with_python(namespace, py_namespace, name):
    ns = U[namespace]()
    assert ns == py_namespace.int
    got = U["new_v5"](ns, tuple(name.encode("utf-8")))
    assert got == pyuuid.uuid5(py_namespace, name).int


def test_formats():
    py = pyuuid.UUID(int=SAMPLE)
    assert U["to_hyphenated_lower"](SAMPLE) == str(py)
    assert U["to_hyphenated_upper"](SAMPLE) == str(py).upper()
    assert U["to_simple_lower"](SAMPLE) == py.hex
    assert U["to_simple_upper"](SAMPLE) == py.hex.upper()
    assert U["to_urn_lower"](SAMPLE) == py.urn
    assert U["to_urn_upper"](SAMPLE) == "urn:uuid:" + str(py).upper()
    assert U["to_simple_lower"](U["nil"]()) == "0" * 32


def test_little_endian_conversions_reverse_the_bytes():
    le = U["from_u128_le"](SAMPLE)
    assert le == pyuuid.UUID(bytes=SAMPLE.to_bytes(16, "little")).int
    assert U["to_u128_le"](le) == SAMPLE
    assert U["as_u128"](SAMPLE) == SAMPLE


def test_from_bytes():
    assert U["from_bytes"](tuple(range(16))).fields[0] == int.from_bytes(bytes(range(16)),
                                                                            "big")
    err = U["from_bytes"]((1, 2, 3))
    assert err.ctor == "ddlog_std::Err"
    assert err.fields[0] == "invalid bytes length: expected 16, found 3"


@pytest.mark.parametrize("text", ["936DA01F-9ABD-4D9D-80C7-02AF85C822A8",
                                  "936da01f9abd4d9d80c702af85c822a8",
                                  "urn:uuid:936da01f-9abd-4D9D-80c7-02af85c822a8"])
def test_parse_accepts_the_three_forms(text):
    assert U["parse_str"](text).fields[0] == SAMPLE


@pytest.mark.parametrize("text, message", [
    ("xyz", "invalid length: expected one of [36, 32], found 3"),
    ("936da01f9abd4d9d80c702af85c822a8-abc",
     "invalid length: expected one of [36, 32], found 36"),
    ("936da01f-9abd4d9d80c702af85c822a8abc",
     "invalid number of groups: expected one of [1, 5], found 2"),
    ("936DA01F9-ABD-4D9D-80C7-02AF85C822A8",
     "invalid group length: expected 8, found 9 in group 0"),
    ("936DA01F-9ABD-4D9D-80C-702AF85C822A8",
     "invalid group length: expected 4, found 3 in group 3"),
    ("936DA01F-9ABD-4D9D-80C7-02AF85C822AZ",
     "invalid character: expected an optional prefix of `urn:uuid:` followed by "
     "0123456789abcdefABCDEF-, found Z at 35"),
])
def test_parse_errors_are_the_crates(text, message):
    r = U["parse_str"](text)
    assert r.ctor == "ddlog_std::Err" and r.fields[0] == message
