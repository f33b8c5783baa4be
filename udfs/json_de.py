"""DDlog values from parsed JSON (:class:`~dl2sql.udfs.json_text.Node`), by their
type, as the serde ``Deserialize`` implementations of DDlog's generated Rust code read
them, with serde's error messages (the encoding is in :mod:`dl2sql.udfs.lib_json`).

Positions: serde_json stamps an error that has none with the position where the
innermost struct, map, sequence or scalar being read from text ends; values serde
reads from a buffered copy (internally tagged enums, flattened fields) are read here
with ``positioned`` False.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from dl2sql.runtime.defaults import default_value
from dl2sql.runtime.order import normalize, sort_key, to_f32
from dl2sql.runtime.values import Record
from dl2sql.types.model import (HASHSET, MAP, OPTION, SET, SET64, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type, TypeEnv,
                                unwrapped)
from dl2sql.udfs.json_ser import JSON_VALUE, JSON_WRAPPER, attrs, field_name
from dl2sql.udfs.json_text import JsonError, Node, format_ryu
from dl2sql.udfs.json_value import tree_to_jvalue


# How to call a DDlog function while reading (``call(name, targs, args)``): the key
# functions of `deserialize_from_array` fields. Set around a read by its caller, which
# has the interpreter, rather than passed through every reading function.
_CALL: ContextVar = ContextVar("json_de_call", default=None)


@contextmanager
def calling(call):
    """Within the block, reading calls DDlog functions with ``call``."""
    token = _CALL.set(call)
    try:
        yield
    finally:
        _CALL.reset(token)


def _rust_int(t) -> tuple[str, int, int]:
    """The Rust integer type DDlog uses for ``t`` and its range."""
    bits = next(b for b in (8, 16, 32, 64, 128) if b >= t.width)
    if isinstance(t, TBit):
        return f"u{bits}", 0, (1 << bits) - 1
    return f"i{bits}", -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _unexpected(n: Node) -> str:
    """serde's ``Unexpected`` description of a JSON value."""
    if n.kind == "null":
        return "unit value"
    if n.kind == "bool":
        return f"boolean `{'true' if n.value else 'false'}`"
    if n.kind == "int":
        return f"integer `{n.value}`"
    if n.kind == "float":
        return f"floating point `{format_ryu(n.value)}`"
    if n.kind == "str":
        return f"string {_rust_debug(n.value)}"
    return "sequence" if n.kind == "arr" else "map"


def _rust_debug(s: str) -> str:
    """Rust's ``{:?}`` of a string (the common escapes)."""
    out = ['"']
    for ch in s:
        out.append({'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                    "\0": "\\0"}.get(ch) or (f"\\u{{{ord(ch):x}}}" if ch < " " else ch))
    out.append('"')
    return "".join(out)


def _invalid_type(n: Node, expected: str) -> JsonError:
    return JsonError(f"invalid type: {_unexpected(n)}, expected {expected}")


def _one_of(names: list[str]) -> str:
    """serde's list of expected names."""
    if not names:
        return "there are no variants"
    quoted = [f"`{x}`" for x in names]
    if len(quoted) == 1:
        return f"expected {quoted[0]}"
    if len(quoted) == 2:
        return f"expected {quoted[0]} or {quoted[1]}"
    return f"expected one of {', '.join(quoted)}"


def from_node(env: TypeEnv, t: Type, n: Node, positioned: bool):
    """The value of type ``t`` that ``n`` denotes (raises :class:`JsonError`)."""
    try:
        return _value(env, unwrapped(t), n, positioned)
    except JsonError as e:
        if e.index is None and positioned and _stamps(env, unwrapped(t)):
            e.index = n.end
        raise


def _stamps(env: TypeEnv, t: Type) -> bool:
    """Whether reading ``t`` goes through a serde_json call that fixes positions (an
    internally tagged enum and an externally tagged one do not)."""
    if isinstance(t, TNamed) and t.name in env.defs and len(env.defs[t.name].ctors) > 1:
        return False
    return not (isinstance(t, TNamed) and t.name in (JSON_WRAPPER, OPTION))


def _int(t, n: Node) -> int:
    name, lo, hi = _rust_int(t) if not isinstance(t, TBigInt) else ("an integer", None, None)
    if n.kind != "int":
        raise _invalid_type(n, name)
    if lo is not None and not lo <= n.value <= hi:
        raise JsonError(f"invalid value: {_unexpected(n)}, expected {name}")
    width = t.width if not isinstance(t, TBigInt) else None
    v = n.value
    if width is not None and width < 128 and isinstance(t, TBit):
        v &= (1 << width) - 1
    return v


def _value(env: TypeEnv, t: Type, n: Node, pos: bool):
    if isinstance(t, TBool):
        if n.kind != "bool":
            raise _invalid_type(n, "a boolean")
        return n.value
    if isinstance(t, TString):
        if n.kind != "str":
            raise _invalid_type(n, "a string")
        return n.value
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return _int(t, n)
    if isinstance(t, (TFloat, TDouble)):
        if n.kind not in ("int", "float"):
            raise _invalid_type(n, "f32" if isinstance(t, TFloat) else "f64")
        return to_f32(float(n.value)) if isinstance(t, TFloat) else float(n.value)
    if isinstance(t, TTuple):
        if not t.elems:
            if n.kind != "null":
                raise _invalid_type(n, "unit")
            return ()
        if n.kind != "arr":
            raise _invalid_type(n, f"a tuple of size {len(t.elems)}")
        if len(n.value) != len(t.elems):
            raise JsonError(f"invalid length {len(n.value)}, expected a tuple of size "
                            f"{len(t.elems)}")
        return tuple(from_node(env, et, x, pos) for et, x in zip(t.elems, n.value))
    if t.name == SET64:
        raise JsonError("Set64 values cannot be deserialized (tinyset does not implement it)")
    if t.name in (VEC, SET, HASHSET):
        if n.kind != "arr":
            raise _invalid_type(n, "a sequence")
        items = [from_node(env, t.args[0], x, pos) for x in n.value]
        if t.name == HASHSET:
            return normalize(t, items, env)
        if t.name == SET:
            keyed = {sort_key(t.args[0], x, env): x for x in items}
            return tuple(keyed[k] for k in sorted(keyed))
        return tuple(items)
    if t.name == MAP:
        if n.kind != "obj":
            raise _invalid_type(n, "a map")
        entries = {}
        for k, x in n.value:
            key = _map_key(env, t.args[0], k)
            entries[sort_key(t.args[0], key, env)] = (key, from_node(env, t.args[1], x, pos))
        return tuple(entries[k] for k in sorted(entries))
    if t.name == OPTION:
        if n.kind == "null":
            return Record("ddlog_std::None", ())
        return Record("ddlog_std::Some", (from_node(env, t.args[0], n, pos),))
    if t.name == JSON_VALUE:
        return tree_to_jvalue(n, env)
    if t.name == JSON_WRAPPER:
        return Record(env.ctors(t)[0].name, (from_node(env, t.args[0], n, pos),))
    if t.name == "uuid::Uuid":  # DDlog's binding reads a Uuid as its u128
        return _int(TBit(128), n)
    if env.defs[t.name].extern:
        raise JsonError(f"values of the extern type `{t.name}` have no JSON form")
    return _record(env, t, n, pos)


def _map_key(env: TypeEnv, kt: Type, k: str):
    """A JSON object key read as a map key: a string, or an integer's digits."""
    kt = unwrapped(kt)
    if isinstance(kt, TString):
        return k
    if isinstance(kt, (TBit, TSigned, TBigInt)):
        try:
            return _int(kt, Node("int", int(k)))
        except ValueError:
            raise _invalid_type(Node("str", k), _rust_int(kt)[0]) from None
    raise JsonError("key must be a string")


def _record(env: TypeEnv, t: TNamed, n: Node, pos: bool):
    a = attrs(env, t)
    ctors = env.ctors(t)
    local = t.name.rsplit("::", 1)[-1]
    if len(ctors) == 1:
        if n.kind != "obj":
            raise _invalid_type(n, f"struct {local}")
        return _struct(env, a, ctors[0], n.value, pos)
    names = [a.get(f"rename:{c.short_name}", c.short_name) for c in ctors]
    if "tag" in a:
        tag = a["tag"]
        if n.kind != "obj":
            raise _invalid_type(n, f"internally tagged enum {local}")
        found = [x for k, x in n.value if k == tag]
        if not found:
            raise JsonError(f"missing field `{tag}`")
        if found[0].kind != "str" or found[0].value not in names:
            what = found[0].value if found[0].kind == "str" else None
            if what is None:
                raise _invalid_type(found[0], "variant identifier")
            raise JsonError(f"unknown variant `{what}`, {_one_of(names)}")
        c = ctors[names.index(found[0].value)]
        rest = tuple((k, x) for k, x in n.value if k != tag)
        return _struct(env, a, c, rest, False)
    if n.kind == "str":
        if n.value not in names:
            raise JsonError(f"unknown variant `{n.value}`, {_one_of(names)}", n.end)
        c = ctors[names.index(n.value)]
        if c.fields:
            raise _invalid_type(Node("null", None), "struct variant")
        return Record(c.name, ())
    if n.kind != "obj" or len(n.value) != 1:
        raise _invalid_type(n, f"enum {local}")
    key, body = n.value[0]
    if key not in names:
        raise JsonError(f"unknown variant `{key}`, {_one_of(names)}", n.end)
    c = ctors[names.index(key)]
    if not c.fields:
        return Record(c.name, ())
    if body.kind != "obj":
        raise JsonError(f"invalid type: {_unexpected(body)}, expected struct variant "
                        f"{local}::{c.short_name}", body.end if pos else None)
    try:
        return _struct(env, a, c, body.value, pos)
    except JsonError as e:
        if e.index is None and pos:
            e.index = body.end
        raise


def _struct(env: TypeEnv, a: dict, c, entries: tuple, pos: bool) -> Record:
    """Constructor ``c`` from object entries: unknown keys are skipped, a repeated
    field is an error, a missing ``Option`` field is ``None``."""
    short = c.short_name
    by_name = {field_name(a, short, f): (f, ft) for f, ft in c.fields
               if f"flatten:{short}.{f}" not in a}
    values: dict[str, object] = {}
    leftover = []
    for k, x in entries:
        if k not in by_name:
            leftover.append((k, x))
            continue
        f, ft = by_name[k]
        if f in values:
            raise JsonError(f"duplicate field `{k}`")
        if a.get(f"with:{short}.{f}") == "serde_string":
            values[f] = _from_string(ft, x)
        elif f"from_array:{short}.{f}" in a:
            values[f] = _map_from_array(env, unwrapped(ft), x, pos, a[f"from_array:{short}.{f}"])
        else:
            values[f] = from_node(env, ft, x, pos)
    out = []
    for f, ft in c.fields:
        if f"flatten:{short}.{f}" in a:
            out.append(from_node(env, ft, Node("obj", tuple(leftover)), False))
        elif f in values:
            out.append(values[f])
        elif isinstance(unwrapped(ft), TNamed) and unwrapped(ft).name == OPTION:
            out.append(Record("ddlog_std::None", ()))
        elif f"default:{short}.{f}" in a:
            out.append(default_value(ft, env))
        else:
            raise JsonError(f"missing field `{field_name(a, short, f)}`")
    return Record(c.name, tuple(out))


def _map_from_array(env: TypeEnv, t: TNamed, x: Node, pos: bool, key_function: str):
    """A ``Map<K, V>`` field with ``#[deserialize_from_array=f()]``: read from an array
    of ``V``, each keyed by ``f`` (a later element with the same key wins)."""
    items = from_node(env, TNamed(VEC, (t.args[1],)), x, pos)
    call = _CALL.get()
    if call is None:
        raise JsonError(f"reading this map needs its key function `{key_function}`, "
                        f"which only the program's JSON functions can call")
    entries = {}
    for item in items:
        key = call(key_function, (), [item])
        entries[sort_key(t.args[0], key, env)] = (key, item)
    return tuple(entries[k] for k in sorted(entries))


def _from_string(ft: Type, x: Node):
    """A field with ``serde(with = "serde_string")``: Rust's ``FromStr`` of a string."""
    if x.kind != "str":
        raise _invalid_type(x, "a string")
    t, s = unwrapped(ft), x.value
    if isinstance(t, TString):
        return s
    if isinstance(t, (TBit, TSigned)):
        _, lo, hi = _rust_int(t)
        body = s[1:] if s[:1] == "+" or (s[:1] == "-" and lo < 0) else s
        if not s or body == "" and len(s) == 1 and s in "+-":
            raise JsonError("cannot parse integer from empty string" if not s
                            else "invalid digit found in string")
        if not body.isascii() or not body.isdigit():
            raise JsonError("invalid digit found in string")
        v = int(s)
        if v > hi:
            raise JsonError("number too large to fit in target type")
        if v < lo:
            raise JsonError("number too small to fit in target type")
        return v
    if isinstance(t, TBool):
        if s not in ("true", "false"):
            raise JsonError("provided string was not `true` or `false`")
        return s == "true"
    if isinstance(t, (TFloat, TDouble)):
        try:
            v = float(s)
        except ValueError:
            raise JsonError("invalid float literal") from None
        return to_f32(v) if isinstance(t, TFloat) else v
    raise JsonError(f"`{t}` cannot be read from a string")
