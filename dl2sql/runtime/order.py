"""DDlog's total order on runtime values (language spec §2.9) and canonical forms.

DDlog sorts every dump by the derived ``Ord`` of the generated Rust types, not by the
printed text, so the printer needs a key that reproduces that order exactly:
integers numerically, ``false < true``, strings byte-wise, floats with ``-0.0 == 0.0``
and NaN above everything, records by constructor declaration index and then fields,
collections lexicographically (a proper prefix first); a ``HashSet`` or
``Set64`` by size first, then lexicographically in its iteration order.
"""
from __future__ import annotations

import math
import struct

from dl2sql.types.model import (HASHSET, INTERN, SIZE_FIRST_SETS, TRANSPARENT, MAP, SET, SET64,
                                VEC, TBigInt, TBit, TBool, TDouble, TFloat, TNamed, TSigned,
                                TString, TTuple, Type, TypeEnv)
from dl2sql.runtime.rust_hash import hash_order_key
from dl2sql.runtime.xxhash64 import interned_string_hash
from dl2sql.runtime.values import AnyValue, Record
from dl2sql.types.storage import extern_storage

# Heap wrappers compare as their pointee, except interned strings: DDlog orders an
# interned value by the 64-bit hash it keeps with it, then by content (hash collisions),
# and dl2sql does so for `istring` (other interned types keep their content's order).

# Keys of the same type are always comparable; floats need a tag so that NaN (which
# Python never orders) becomes the largest value and equal to itself.
_NAN_KEY = (1, 0.0)


def _float_key(x: float):
    if math.isnan(x):
        return _NAN_KEY
    # -0.0 == 0.0 in Python already, which is exactly DDlog's OrderedFloat rule.
    return (0, x)


def sort_key(t: Type, v, env: TypeEnv):
    """A Python value whose ``<`` orders ``v`` (of type ``t``) like DDlog does.

    Keys of two values of the same type compare equal exactly when DDlog considers the
    values equal (so ``-0.0`` and ``0.0`` share a key, and two NaNs do).
    """
    if isinstance(t, (TBool, TBit, TSigned, TBigInt)):
        return v
    if isinstance(t, TString):
        # Comparing code points is the same as comparing UTF-8 bytes, and cheaper.
        return v
    if isinstance(t, (TFloat, TDouble)):
        return _float_key(v)
    if isinstance(t, TTuple):
        return tuple(sort_key(et, ev, env) for et, ev in zip(t.elems, v))
    if isinstance(v, AnyValue):
        # DDlog orders by the Rust TypeId first (unspecified); any fixed order of
        # types will do, then values of one type in their own order
        return (str(v.type), sort_key(v.type, v.value, env))
    if isinstance(t, TNamed):
        if t.name == VEC:
            et = t.args[0]
            return tuple(sort_key(et, e, env) for e in v)
        if t.name == SET:
            et = t.args[0]
            return tuple(sorted({sort_key(et, e, env) for e in v}))
        if t.name in SIZE_FIRST_SETS:
            # HashSet and Set64 compare sizes first, then elements in iteration order
            items = normalize(t, v, env)
            return (len(items), tuple(sort_key(t.args[0], e, env) for e in items))
        if t.name == MAP:
            kt, vt = t.args
            return tuple(sorted(_dedup_map(
                ((sort_key(kt, k, env), sort_key(vt, x, env)) for k, x in v))))
        if t.name == INTERN and isinstance(t.args[0], TString):
            return (interned_string_hash(v), v)
        if t.name in TRANSPARENT:
            return sort_key(t.args[0], v, env)
        defn = env.defs.get(t.name)
        if defn is not None and defn.ctors and isinstance(v, Record):
            ctors = env.ctors(t)
            idx = env.ctor_index(t, v.ctor)
            fields = ctors[idx].fields
            return (idx, tuple(sort_key(ft, fv, env) for (_, ft), fv in zip(fields, v.fields)))
        if extern_storage(t) is not None:
            return sort_key(extern_storage(t).type, v, env)
    # Opaque extern values: fall back to Python's own order, which is at least total
    # for the str/int/tuple payloads such externs are represented by.
    return v


def _dedup_map(pairs):
    """Keep the last value of each key, as building a BTreeMap does."""
    out = {}
    for k, x in pairs:
        out[k] = x
    return out.items()


def to_f32(x: float) -> float:
    """Round a Python float to the nearest IEEE binary32 value (NaN/inf preserved)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        # struct refuses finite values above f32's range; Rust's `as f32` gives inf.
        return math.copysign(math.inf, x)


def normalize(t: Type, v, env: TypeEnv):
    """The canonical runtime form of ``v``: sets deduplicated in their iteration order
    (ascending; a ``HashSet`` in hash order), maps sorted by
    key with one entry per key (last wins), ``float`` values rounded to binary32,
    recursively."""
    if isinstance(t, TFloat):
        return to_f32(float(v))
    if isinstance(t, TDouble):
        return float(v)
    if isinstance(t, TTuple):
        return tuple(normalize(et, ev, env) for et, ev in zip(t.elems, v))
    if isinstance(t, TNamed):
        if t.name == VEC:
            return tuple(normalize(t.args[0], e, env) for e in v)
        if t.name in (SET, SET64, HASHSET):
            et = t.args[0]
            uniq = {}
            for e in v:
                e = normalize(et, e, env)
                uniq.setdefault(sort_key(et, e, env), e)
            if t.name != HASHSET:
                return tuple(uniq[k] for k in sorted(uniq))
            return tuple(uniq[k] for k in sorted(
                uniq, key=lambda k: (hash_order_key(et, uniq[k], env), k)))
        if t.name == MAP:
            kt, vt = t.args
            entries = {}
            for k, x in v:
                k = normalize(kt, k, env)
                entries[sort_key(kt, k, env)] = (k, normalize(vt, x, env))
            return tuple(entries[k] for k in sorted(entries))
        if t.name in TRANSPARENT:
            return normalize(t.args[0], v, env)
        if isinstance(v, AnyValue):
            return AnyValue(v.type, normalize(v.type, v.value, env))
        defn = env.defs.get(t.name)
        if defn is not None and defn.ctors and isinstance(v, Record):
            ctor = env.ctors(t)[env.ctor_index(t, v.ctor)]
            return Record(v.ctor, tuple(normalize(ft, fv, env)
                                        for (_, ft), fv in zip(ctor.fields, v.fields)))
    return v


def sorted_values(t: Type, values, env: TypeEnv) -> list:
    """``values`` sorted in DDlog order."""
    return sorted(values, key=lambda x: sort_key(t, x, env))
