"""The order in which DDlog's ``HashSet`` (``hashset`` library) yields its elements.

DDlog's ``HashSet`` is the ``im`` crate's hash trie with a fixed hasher (Rust's
``DefaultHasher`` with zero keys, i.e. SipHash-1-3), iterated by an ordered walk of
the trie. The trie takes 5 bits of the 32-bit hash per level, lowest bits first, and
the walk visits each node's slots in ascending order; elements whose 32-bit hashes are
equal follow ``Ord``. So the order is fixed by the hash alone and reproducible here:
:func:`hash_order_key` hashes the bytes Rust's derived ``Hash`` would feed the hasher
(:func:`hash_bytes`) and splits the hash into the trie's levels.

Byte streams follow the Rust types DDlog generates: ``bit<N>``/``signed<N>`` as the
smallest of u8..u128 / i8..i128 holding them (little-endian), ``bool`` one byte,
strings their UTF-8 bytes and ``0xff``, tuples and single-constructor types their
fields in order, unions an 8-byte constructor index and then its fields, ``Vec``,
``Set`` and ``Map`` their length (8 bytes) and their elements in order, a ``HashSet``
its elements in its own order. These are checked against upstream's outputs for
integers, tuples, vectors, structs and non-zero ``bigint`` (num-bigint's sign and
64-bit digits: ``hash128`` in upstream's simple.dl); floats (``ordered_float``'s
normalised bits), a zero ``bigint`` and ``Set64`` (its length and sorted elements)
follow the crates' sources and are not confirmed by an upstream test. Interned values
hash as their contents, where DDlog hashes a pointer: no order can match that.
"""
from __future__ import annotations

import math
import struct

from dl2sql.types.model import (HASHSET, MAP, SET, SET64, TRANSPARENT, VEC, TBigInt, TBit,
                                TBool, TDouble, TFloat, TNamed, TSigned, TString, TTuple,
                                Type, TypeEnv)
from dl2sql.runtime.values import Record

_MASK = (1 << 64) - 1
_LEVEL_BITS, _HASH_BITS = 5, 32


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _MASK


def siphash13(data: bytes, k0: int = 0, k1: int = 0) -> int:
    """SipHash-1-3 of ``data`` (Rust's ``DefaultHasher`` uses keys 0, 0)."""
    v0, v1 = k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D
    v2, v3 = k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573

    def sip_round():
        nonlocal v0, v1, v2, v3
        v0 = (v0 + v1) & _MASK
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _MASK
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _MASK
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _MASK
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)

    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        sip_round()
        v0 ^= m
    last = ((len(data) & 0xFF) << 56) | int.from_bytes(data[whole:], "little")
    v3 ^= last
    sip_round()
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(3):
        sip_round()
    return (v0 ^ v1 ^ v2 ^ v3) & _MASK


def _int_bytes(t: Type, v: int) -> bytes:
    if isinstance(t, TBigInt):
        return _bigint_bytes(v)
    width = t.width
    for size in (8, 16, 32, 64, 128):
        if width <= size:
            return (v & ((1 << size) - 1)).to_bytes(size // 8, "little")
    return _bigint_bytes(v)


def _bigint_bytes(v: int) -> bytes:
    # num-bigint: the sign (Minus, NoSign, Plus) as an 8-byte discriminant, then the
    # magnitude's 64-bit digits as a vector (length first) unless it is zero
    sign = 0 if v < 0 else (1 if v == 0 else 2)
    out = sign.to_bytes(8, "little")
    if v:
        mag, digits = abs(v), []
        while mag:
            digits.append((mag & _MASK).to_bytes(8, "little"))
            mag >>= 64
        out += len(digits).to_bytes(8, "little") + b"".join(digits)
    return out


def _float_bytes(x: float, single: bool) -> bytes:
    # ordered_float: NaN is one value; otherwise mantissa | exponent << 52 | sign << 63
    # from `integer_decode`, with every zero hashing as 0
    if math.isnan(x):
        bits = 0x7FF8000000000000
    elif x == 0:
        bits = 0
    else:
        if single:
            raw = struct.unpack("<I", struct.pack("<f", x))[0]
            exp, man = (raw >> 23) & 0xFF, raw & 0x7FFFFF
            man = man << 1 if exp == 0 else man | 0x800000
            exp -= 150
        else:
            raw = struct.unpack("<Q", struct.pack("<d", x))[0]
            exp, man = (raw >> 52) & 0x7FF, raw & 0xFFFFFFFFFFFFF
            man = man << 1 if exp == 0 else man | 0x10000000000000
            exp -= 1075
        sign = 1 if x > 0 else 0
        bits = (man & 0xFFFFFFFFFFFFF) | (((exp & 0xFFFF) << 52) & 0x7FF0000000000000) | \
            (sign << 63)
    return bits.to_bytes(8, "little")


def hash_bytes(t: Type, v, env: TypeEnv) -> bytes:
    """The bytes Rust's derived ``Hash`` feeds the hasher for value ``v`` of type ``t``."""
    if isinstance(t, TBool):
        return b"\x01" if v else b"\x00"
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return _int_bytes(t, v)
    if isinstance(t, TString):
        return v.encode("utf-8") + b"\xff"
    if isinstance(t, (TFloat, TDouble)):
        return _float_bytes(v, isinstance(t, TFloat))
    if isinstance(t, TTuple):
        return b"".join(hash_bytes(et, ev, env) for et, ev in zip(t.elems, v))
    if isinstance(t, TNamed):
        if t.name in (VEC, SET, SET64, HASHSET):
            items = b"".join(hash_bytes(t.args[0], e, env) for e in v)
            return items if t.name == HASHSET else len(v).to_bytes(8, "little") + items
        if t.name == MAP:
            kt, vt = t.args
            return len(v).to_bytes(8, "little") + b"".join(
                hash_bytes(kt, k, env) + hash_bytes(vt, x, env) for k, x in v)
        if t.name in TRANSPARENT:
            return hash_bytes(t.args[0], v, env)
        if isinstance(v, Record) and env.defs.get(t.name) is not None:
            ctors = env.ctors(t)
            index = env.ctor_index(t, v.ctor)
            tag = index.to_bytes(8, "little") if len(ctors) > 1 else b""
            return tag + b"".join(hash_bytes(ft, fv, env)
                                  for (_, ft), fv in zip(ctors[index].fields, v.fields))
    raise TypeError(f"values of type `{t}` cannot be hashed")


def hash_order_key(t: Type, v, env: TypeEnv) -> tuple:
    """Where element ``v`` of a ``HashSet<t>`` comes in iteration order: the trie's
    slot at each level (ties between equal 32-bit hashes are broken by ``Ord``)."""
    h = siphash13(hash_bytes(t, v, env)) & ((1 << _HASH_BITS) - 1)
    mask = (1 << _LEVEL_BITS) - 1
    return tuple((h >> shift) & mask for shift in range(0, _HASH_BITS, _LEVEL_BITS))
