"""XXH64 and XXH32, the 64- and 32-bit xxHash of a byte string (the algorithms as
their specification describes them), in pure Python so that Spark's workers need
nothing more.

DDlog orders interned values by ``hash64`` of their content, an XXH64 with a fixed
seed over what Rust's ``Hash`` writes (:func:`interned_string_hash`); ``ddlog_std``'s
``hash32``, ``hash64`` and ``hash128`` are XXH32 or XXH64 of those bytes.
"""
from __future__ import annotations

import struct

_M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
# ddlog_std's seed for hash64 (and therefore for interned values); hash128 is two
# hashes, the second with its own seed
DDLOG_SEED = 0x23B691A751D0E108
DDLOG_SEED2 = 0x20B09801DCE5FF84


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M


def _round(acc: int, lane: int) -> int:
    return (_rotl((acc + lane * P2) & _M, 31) * P1) & _M


def _merge(acc: int, v: int) -> int:
    return ((acc ^ _round(0, v)) * P1 + P4) & _M


def xxh64(data: bytes, seed: int = 0) -> int:
    """The XXH64 hash of ``data``."""
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & _M, (seed + P2) & _M, seed, (seed - P1) & _M]
        while i + 32 <= n:
            lanes = struct.unpack_from("<4Q", data, i)
            v = [_round(a, b) for a, b in zip(v, lanes)]
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M
        for a in v:
            h = _merge(h, a)
    else:
        h = (seed + P5) & _M
    h = (h + n) & _M
    while i + 8 <= n:
        h = ((_rotl(h ^ _round(0, struct.unpack_from("<Q", data, i)[0]), 27)) * P1 + P4) & _M
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ ((struct.unpack_from("<I", data, i)[0] * P1) & _M), 23) * P2 + P3) & _M
        i += 4
    while i < n:
        h = (_rotl(h ^ ((data[i] * P5) & _M), 11) * P1) & _M
        i += 1
    h ^= h >> 33
    h = (h * P2) & _M
    h ^= h >> 29
    h = (h * P3) & _M
    return h ^ (h >> 32)


def interned_string_hash(s: str) -> int:
    """The hash DDlog keeps with an interned string: Rust hashes a ``str`` as its UTF-8
    bytes followed by the byte 0xff."""
    return xxh64(s.encode("utf-8") + b"\xff", DDLOG_SEED)


_M32 = (1 << 32) - 1
Q1, Q2, Q3, Q4, Q5 = 0x9E3779B1, 0x85EBCA77, 0xC2B2AE3D, 0x27D4EB2F, 0x165667B1


def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def xxh32(data: bytes, seed: int = 0) -> int:
    """The XXH32 hash of ``data`` (``seed`` taken modulo 2^32)."""
    seed &= _M32
    n, i = len(data), 0
    if n >= 16:
        v = [(seed + Q1 + Q2) & _M32, (seed + Q2) & _M32, seed, (seed - Q1) & _M32]
        while i + 16 <= n:
            lanes = struct.unpack_from("<4I", data, i)
            v = [(_rotl32((a + b * Q2) & _M32, 13) * Q1) & _M32 for a, b in zip(v, lanes)]
            i += 16
        h = (_rotl32(v[0], 1) + _rotl32(v[1], 7) + _rotl32(v[2], 12) + _rotl32(v[3], 18))
    else:
        h = seed + Q5
    h = (h + n) & _M32
    while i + 4 <= n:
        h = (_rotl32((h + struct.unpack_from("<I", data, i)[0] * Q3) & _M32, 17) * Q4) & _M32
        i += 4
    while i < n:
        h = (_rotl32((h + data[i] * Q5) & _M32, 11) * Q1) & _M32
        i += 1
    h ^= h >> 15
    h = (h * Q2) & _M32
    h ^= h >> 13
    h = (h * Q3) & _M32
    return h ^ (h >> 16)
