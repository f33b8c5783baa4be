"""The `base64` library follows the Rust base64 crate (0.13): padding optional, the
crate's error order and messages."""
import os

import pytest

from dl2sql.udfs.lib_base64 import LIBRARY_BASE64

encode = LIBRARY_BASE64["base64::encode"]
decode = LIBRARY_BASE64["base64::decode"]


def _ok(record):
    assert record.ctor == "ddlog_std::Ok", record
    return bytes(record.fields[0])


def _err(record):
    assert record.ctor == "ddlog_std::Err", record
    return record.fields[0]


@pytest.mark.parametrize("raw, text", [(b"", ""), (b"f", "Zg=="), (b"fo", "Zm8="),
                                       (b"foo", "Zm9v"), (b"foobar", "Zm9vYmFy")])
def test_rfc4648_vectors(raw, text):
    assert encode(tuple(raw)) == text
    assert _ok(decode(text)) == raw


@pytest.mark.parametrize("n", range(0, 20))
def test_round_trip_with_and_without_padding(n):
    raw = os.urandom(n)
    text = encode(tuple(raw))
    assert _ok(decode(text)) == raw
    assert _ok(decode(text.rstrip("="))) == raw


@pytest.mark.parametrize("text, message", [
    ("AAAAA", "Invalid length"),                       # 5 symbols: not a whole byte
    ("=", "Invalid length"),
    ("AAAA!", "Invalid byte 33 at position 4"),        # the length check names the byte
    ("AAAA!AAAAAAA", "Invalid byte 33 at position 4"),  # before the last block
    ("AA==AAAAAAAA", "Invalid byte 61 at position 2"),  # padding before the last block
    ("AAA=AAA=", "Invalid byte 61 at position 3"),      # data after padding
    ("A===", "Invalid byte 61 at position 1"),          # padding after one symbol
    ("AA====", "Invalid byte 61 at position 2"),        # the first padding is named
    ("QR==", "Invalid last byte 82 at position 1"),     # unused bits set
    ("Hello !@#!@#", "Invalid byte 32 at position 5"),
])
def test_errors_are_the_crates(text, message):
    assert _err(decode(text)) == message
