"""Python implementations of the ``ddlog_std`` builtins over runtime values
(:mod:`dl2sql.runtime.values`), with Rust's semantics; :data:`STD` maps qualified names
(``"ddlog_std::len"``) to them.

Calling conventions (used by :class:`dl2sql.runtime.interp.Interpreter`):

* Plain builtins are called with the runtime argument values: ``STD[name](*args)``.
* Builtins that need types (overload resolution is by Python value type, but orders,
  widths and defaults need the DDlog type) carry ``fn.typed = True`` and get a leading
  :class:`Ctx` — the type environment and the call's ``targs``, the instantiation of the
  declaration's type variables in order (``min``: ``('A,)``; ``pow32``: ``('A,)``, the
  result type; ``insert`` on a Map: ``('K, 'V)``). ``targs`` always suffice, so the same
  convention works for a UDF that calls a builtin without any typed call node.
* Builtins with ``mut`` parameters return ``Mut(result, {arg index: new value})``; the
  caller stores the new values back into its argument l-values.
* Overloads share a name (the checker's ``#N`` suffix is stripped before lookup) and
  dispatch on the Python value: ``str`` for strings, ``tuple`` for Vec/Set/Map,
  :class:`~dl2sql.runtime.values.Record` for Option/Result.

Group functions are in :mod:`dl2sql.udfs.std_group`. ``map``/``and_then``/
``ok_or_else``/``map_err`` of Option and Result are DDlog functions in
``stdlib/ddlog_std.dl``. ``hash32/64/128`` hash the bytes Rust's derived ``Hash``
writes (:mod:`dl2sql.runtime.rust_hash`) with xxHash, as ddlog_std does.
"""
from __future__ import annotations

from typing import Callable

from dl2sql.diagnostics import RuntimeFailure
from dl2sql.runtime.ops import to_string as prim_to_string, wrap
from dl2sql.runtime.order import to_f32
from dl2sql.types.model import TBigInt, TBit, TFloat, TNamed, TSigned, TTuple
from dl2sql.runtime.defaults import default_value
from dl2sql.runtime.rust_hash import hash_bytes
from dl2sql.runtime.values import AnyValue, Record
from dl2sql.runtime.xxhash64 import DDLOG_SEED, DDLOG_SEED2, xxh32, xxh64
from dl2sql.udfs.lib_collections import LIBRARY_COLLECTIONS
from dl2sql.udfs.lib_base64 import LIBRARY_BASE64
from dl2sql.udfs.lib_fp import FP
from dl2sql.udfs.lib_json import LIBRARY_JSON
from dl2sql.udfs.lib_url import LIBRARY_URL
from dl2sql.udfs.lib_uuid import LIBRARY_UUID
from dl2sql.udfs.lib_regex import LIBRARY_REGEX
from dl2sql.udfs.lib_sets import LIBRARY_SETS
from dl2sql.udfs.lib_net import LIBRARY_NET
from dl2sql.udfs.lib_time import LIBRARY_TIME
from dl2sql.udfs.std_group import with_groups
from dl2sql.runtime.order import sort_key
from dl2sql.udfs.std_base import NONE, Ctx, Mut, some, typed
from dl2sql.udfs.std_collections import COLLECTIONS, member, set_of
from dl2sql.udfs.std_debug import to_string_debug as _debug


# ------------------------------------------------------------------ strings
def len_(x) -> int:
    """Bytes of a string (UTF-8), elements of a Vec/Set/Map."""
    return len(x.encode("utf-8")) if isinstance(x, str) else len(x)


def contains(x, y) -> bool:
    """Substring test on strings; membership (DDlog equality) in a Vec/Set."""
    return y in x if isinstance(x, str) else member(x, y)


def substr(s: str, start: int, end: int) -> str:
    """Byte offsets, both clamped to the length; ``end < start`` gives ``""``."""
    b = s.encode("utf-8")
    start, end = min(start, len(b)), min(end, len(b))
    if end <= start:
        return ""
    try:
        return b[start:end].decode("utf-8")
    except UnicodeDecodeError:
        # Rust panics on a byte offset inside a character
        raise RuntimeFailure(f"substr: byte offsets {start}..{end} are not on "
                             f"character boundaries") from None


def split(s: str, sep: str) -> tuple:
    """Rust ``str::split``: empty pieces kept; an empty separator splits between every
    character, with an empty piece at both ends."""
    if sep == "":
        return ("",) + tuple(s) + ("",)
    return tuple(s.split(sep))


# Rust's char::is_whitespace is Unicode White_Space; Python's isspace also counts the
# information separators U+001C..U+001F, which Rust keeps.
_WHITE_SPACE = ("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def trim(s: str) -> str:
    """Unicode White_Space removed at both ends."""
    return s.strip(_WHITE_SPACE)


def reverse(x):
    """A string reversed by code points; on a Vec (``mut``) reverses it in place."""
    if isinstance(x, str):
        return x[::-1]
    return Mut((), {0: x[::-1]})


def to_bytes(s: str) -> tuple:
    """The UTF-8 bytes of ``s``."""
    return tuple(s.encode("utf-8"))


def from_utf8(bs: tuple):
    """``Ok{string}`` or ``Err{message}`` with Rust's ``Utf8Error`` text."""
    try:
        return Record("ddlog_std::Ok", (bytes(bs).decode("utf-8"),))
    except UnicodeDecodeError as err:
        if err.reason == "unexpected end of data":
            msg = f"incomplete utf-8 byte sequence from index {err.start}"
        else:
            msg = f"invalid utf-8 sequence of {err.end - err.start} bytes from index {err.start}"
        return Record("ddlog_std::Err", (msg,))


def encode_utf16(s: str) -> tuple:
    """UTF-16 code units of ``s``."""
    b = s.encode("utf-16-le")
    return tuple(int.from_bytes(b[i:i + 2], "little") for i in range(0, len(b), 2))


def from_utf16(units: tuple):
    """``Ok{string}``, or ``Err`` on a lone surrogate (Rust's message)."""
    try:
        raw = b"".join(u.to_bytes(2, "little") for u in units)
        return Record("ddlog_std::Ok", (raw.decode("utf-16-le"),))
    except UnicodeDecodeError:
        return Record("ddlog_std::Err", ("invalid utf-16: lone surrogate found",))


@typed
def to_string(ctx: Ctx, x) -> str:
    """§5.3 conversion of a primitive value (user types have their own function)."""
    t = ctx.targs[0]
    if isinstance(t, (TNamed, TTuple)):
        raise RuntimeFailure(f"no to_string for values of type `{t}`")
    return prim_to_string(t, x)


@typed
def to_string_debug(ctx: Ctx, x) -> str:
    """Rust ``Debug`` format (§7.5.3)."""
    return _debug(ctx.targs[0], x, ctx.env)


@typed
def to_any(ctx: Ctx, x) -> AnyValue:
    """``x`` with its type (the call's type argument)."""
    return AnyValue(ctx.targs[0], x)


@typed
def from_any(ctx: Ctx, value: AnyValue):
    """``Some{x}`` when ``value`` holds an ``x`` of the requested type, else ``None``
    (DDlog compares the Rust types; dl2sql the DDlog types, aliases expanded)."""
    return some(value.value) if value.type == ctx.targs[0] else NONE


@typed
def hex_(ctx: Ctx, x: int) -> str:
    """Rust ``{:x}``: lowercase, no prefix; negative ``signed<N>`` in two's complement,
    negative ``bigint`` with a ``-`` sign."""
    t = ctx.targs[0]
    if x < 0 and isinstance(t, TSigned):
        x &= (1 << t.width) - 1
    return format(x, "x") if x >= 0 else "-" + format(-x, "x")


def _parse_dec(text: str, lo: int, hi: int):
    body = text
    if text[:1] == "+" or (text[:1] == "-" and lo < 0):
        body = text[1:]
    if not body or not body.isascii() or not body.isdigit():
        return NONE
    v = int(text)
    return some(v) if lo <= v <= hi else NONE


def parse_dec_u64(s: str):
    """Rust ``u64::from_str``: optional ``+``, ASCII digits, in range."""
    return _parse_dec(s, 0, 2**64 - 1)


def parse_dec_i64(s: str):
    """Rust ``i64::from_str``: optional sign, ASCII digits, in range."""
    return _parse_dec(s, -2**63, 2**63 - 1)


# ------------------------------------------------------------------ numbers, misc
@typed
def min_(ctx: Ctx, a, b):
    """The smaller in DDlog order; ``a`` when equal (Rust ``cmp::min``)."""
    t = ctx.targs[0]
    return a if sort_key(t, a, ctx.env) <= sort_key(t, b, ctx.env) else b


@typed
def max_(ctx: Ctx, a, b):
    """The larger in DDlog order; ``b`` when equal (Rust ``cmp::max``)."""
    t = ctx.targs[0]
    return b if sort_key(t, b, ctx.env) >= sort_key(t, a, ctx.env) else a


@typed
def pow32(ctx: Ctx, base: int, e: int) -> int:
    """``base ** e``, wrapped to the width of the result type (exact for bigint)."""
    t = ctx.targs[0]
    if isinstance(t, TBigInt):
        return base ** e
    return wrap(t, pow(base, e, 1 << t.width))


def _pow32_of(t) -> Callable[[int, int], int]:
    def pow_fixed(base: int, e: int) -> int:
        return base ** e if isinstance(t, TBigInt) else wrap(t, pow(base, e, 1 << t.width))
    pow_fixed.__doc__ = f"``pow32`` at type `{t}`."
    return pow_fixed


_POW32 = {f"{p}{w}_pow32": _pow32_of((TBit if p == "u" else TSigned)(w))
          for p in "us" for w in (8, 16, 32, 64, 128)}
_POW32["bigint_pow32"] = _pow32_of(TBigInt())


@typed
def default(ctx: Ctx):
    """§2.8 default of the instantiated type."""
    return default_value(ctx.targs[0], ctx.env)


@typed
def range_vec(ctx: Ctx, start, end, step) -> tuple:
    """From ``start`` inclusive to ``end`` exclusive by ``step``; step 0 → ``[]``.
    Of any ordered number type, as DDlog's (``x = x + step`` while short of ``end``):
    floating-point values added as their type adds them (``float`` in 32 bits)."""
    if isinstance(start, int):
        return () if step == 0 else tuple(range(start, end, step))
    add = (lambda a, b: to_f32(a + b)) if isinstance(ctx.targs[0], TFloat) else \
        (lambda a, b: a + b)
    out, x = [], start
    # NaN steps and bounds compare false both ways: no element, as in DDlog
    while (step > 0 and x < end) or (step < 0 and x > end):
        out.append(x)
        nxt = add(x, step)
        if nxt == x:  # DDlog would loop forever (a step below x's precision)
            raise RuntimeFailure(f"range_vec: the step {step!r} does not move past "
                                 f"{x!r} (below its precision)")
        x = nxt
    return tuple(out)


def _hash_input(ctx: Ctx, x) -> bytes:
    """What Rust's derived ``Hash`` feeds the hasher for ``x`` (of the call's type)."""
    return hash_bytes(ctx.targs[0], x, ctx.env)


@typed
def hash32(ctx: Ctx, x) -> int:
    """XXH32 (ddlog_std's seed, cut to 32 bits) of the bytes Rust hashes for ``x``."""
    return xxh32(_hash_input(ctx, x), DDLOG_SEED)


@typed
def hash64(ctx: Ctx, x) -> int:
    """XXH64 (ddlog_std's seed) of the bytes Rust hashes for ``x``."""
    return xxh64(_hash_input(ctx, x), DDLOG_SEED)


@typed
def hash128(ctx: Ctx, x) -> int:
    """Two XXH64 of the bytes Rust hashes for ``x`` (ddlog_std's two seeds), the first
    in the high 64 bits."""
    data = _hash_input(ctx, x)
    return (xxh64(data, DDLOG_SEED) << 64) | xxh64(data, DDLOG_SEED2)


def _swap(width: int) -> Callable[[int], int]:
    def swap(x: int) -> int:
        return int.from_bytes(x.to_bytes(width, "little"), "big")
    swap.__doc__ = f"Byte swap of a {8 * width}-bit value (a little-endian host)."
    return swap


# ------------------------------------------------------------------ Option / Result
def _is(ctor: str) -> Callable:
    def test(v) -> bool:
        return v.ctor == ctor
    test.__doc__ = f"Whether the value is built with {ctor}."
    return test


def unwrap_or(v, d):
    """The payload of ``Some``/``Ok``, else ``d``."""
    return v.fields[0] if v.ctor in ("ddlog_std::Some", "ddlog_std::Ok") else d


@typed
def unwrap_or_default(ctx: Ctx, v):
    """The payload of ``Some``/``Ok``, else the default of ``targs[0]`` (``'A``/``'V``)."""
    if v.ctor in ("ddlog_std::Some", "ddlog_std::Ok"):
        return v.fields[0]
    return default_value(ctx.targs[0], ctx.env)


def ok_or(o, err):
    """``Some{x}`` → ``Ok{x}``, ``None`` → ``Err{err}``."""
    if o.ctor == "ddlog_std::Some":
        return Record("ddlog_std::Ok", o.fields)
    return Record("ddlog_std::Err", (err,))


def to_vec(x) -> tuple:
    """An Option's payload as a Vec, or a Set's elements (already ascending)."""
    if isinstance(x, Record):
        return x.fields if x.ctor == "ddlog_std::Some" else ()
    return tuple(x)


@typed
def to_set(ctx: Ctx, x) -> tuple:
    """An Option's payload or a Vec's elements as a Set (sorted, deduplicated)."""
    if isinstance(x, Record):
        return x.fields if x.ctor == "ddlog_std::Some" else ()
    return set_of(ctx, x)


def _join(strings: tuple, sep: str) -> str:
    """The strings of a Vec joined by ``sep``."""
    return sep.join(strings)


def _ref(x):
    """``ref_new``/``deref``: a ``Ref<T>`` is represented by the ``T`` value itself."""
    return x


_S = "ddlog_std::"
_STRINGS = {
    "len": len_, "contains": contains, "starts_with": str.startswith,
    "ends_with": str.endswith, "substr": substr, "replace": str.replace, "split": split,
    "join": _join, "trim": trim, "to_lowercase": str.lower, "to_uppercase": str.upper,
    "reverse": reverse, "to_bytes": to_bytes,
}
STD: dict[str, Callable] = {_S + name: fn for name, fn in {
    **_STRINGS,
    # the raw extern spellings share the implementations
    **{"string_" + name: fn for name, fn in _STRINGS.items()},
    **{"istring_" + name: fn for name, fn in _STRINGS.items()},
    "str_to_lower": str.lower,
    "from_utf8": from_utf8, "encode_utf16": encode_utf16, "from_utf16": from_utf16,
    "to_string": to_string, "to_string_debug": to_string_debug, "hex": hex_,
    "to_any": to_any, "from_any": from_any,
    "parse_dec_u64": parse_dec_u64, "parse_dec_i64": parse_dec_i64,
    "min": min_, "max": max_, "pow32": pow32, "default": default, "range_vec": range_vec,
    "hash32": hash32, "hash64": hash64, "hash128": hash128,
    "ntohl": _swap(4), "htonl": _swap(4), "ntohs": _swap(2), "htons": _swap(2),
    "is_some": _is(_S + "Some"), "is_none": _is(_S + "None"),
    "is_ok": _is(_S + "Ok"), "is_err": _is(_S + "Err"),
    "unwrap_or": unwrap_or, "unwrap_or_default": unwrap_or_default, "ok_or": ok_or,
    "to_vec": to_vec, "to_set": to_set,
    **COLLECTIONS,
    "ref_new": _ref, "deref": _ref, "intern": _ref, "ival": _ref,
    **_POW32,
}.items()}

# The raw spellings of the collection functions (`vec_push`, `set_union`, ...) that
# ddlog_std also declares; they share the implementations of the plain names.
_RAW_SPELLINGS = {
    "map_contains_key": "contains_key",
    "map_get": "get",
    "map_insert": "insert",
    "map_insert_imm": "insert_imm",
    "map_is_empty": "is_empty",
    "map_keys": "keys",
    "map_nth_key": "nth_key",
    "map_nth_value": "nth_value",
    "map_remove": "remove",
    "map_size": "size",
    "map_union": "union",
    "map_values": "values",
    "set_contains": "contains",
    "set_difference": "difference",
    "set_insert": "insert",
    "set_insert_imm": "insert_imm",
    "set_intersection": "intersection",
    "set_is_empty": "is_empty",
    "set_nth": "nth",
    "set_size": "size",
    "set_to_vec": "to_vec",
    "set_union": "union",
    "set_unions": "unions",
    "vec_append": "append",
    "vec_contains": "contains",
    "vec_is_empty": "is_empty",
    "vec_len": "len",
    "vec_nth": "nth",
    "vec_pop": "pop",
    "vec_push": "push",
    "vec_push_imm": "push_imm",
    "vec_resize": "resize",
    "vec_reverse": "reverse",
    "vec_sort": "sort",
    "vec_sort_imm": "sort_imm",
    "vec_swap_nth": "swap_nth",
    "vec_to_set": "to_set",
    "vec_truncate": "truncate",
    "vec_unzip": "unzip",
    "vec_update_nth": "update_nth",
    "option_unwrap_or": "unwrap_or",
    "option_unwrap_or_default": "unwrap_or_default",
    "result_unwrap_or": "unwrap_or",
    "result_unwrap_or_default": "unwrap_or_default",

    "vec_zip": "zip",
}
STD.update({_S + raw: STD[_S + base] for raw, base in _RAW_SPELLINGS.items()
            if _S + base in STD})
with_groups(STD, _S)
STD.update(FP)
STD.update(LIBRARY_COLLECTIONS)
STD.update(LIBRARY_JSON)
STD.update(LIBRARY_BASE64)
STD.update(LIBRARY_UUID)
STD.update(LIBRARY_URL)
STD.update(LIBRARY_REGEX)
STD.update(LIBRARY_SETS)
STD.update(LIBRARY_NET)
STD.update(LIBRARY_TIME)
# the older `intern` library: interned strings are the strings themselves
STD.update({"intern::string_intern": _ref, "intern::istring_str": _ref})


def _istring_ord(s: str, interned: tuple) -> int:
    """The number of ``s`` among the strings the program interns, in their order
    (the compiler hands the order over: dl2sql.passes.intern_order)."""
    try:
        return interned.index(s)
    except ValueError:
        raise RuntimeFailure(f"istring_ord: {s!r} is not one of the string literals the "
                             f"program interns, whose order is the only one dl2sql knows "
                             f"(DDlog numbers other strings in the order its workers "
                             f"happen to intern them)") from None


STD["intern::istring_ord"] = _istring_ord
