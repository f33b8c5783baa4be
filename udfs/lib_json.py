"""Python implementations of DDlog's ``json`` library: DDlog values to and from JSON
the way the Rust code DDlog generates does it with serde and serde_json.

Encoding (serde's derive on the Rust types DDlog emits): a type with one constructor is
a struct, an object of its fields; a type with several is an enum, externally tagged
(``{"Ctor":{fields}}``, a constructor without fields as ``"Ctor"``) or, with
``serde(tag = "t")``, internally tagged (``{"t":"Ctor", fields}``); tuples are arrays,
``()`` is ``null``; ``Vec``/``Set`` arrays; ``Map`` objects (integer keys quoted);
``Option`` is the value or ``null`` (a missing field reads as ``None``); ``Ref`` and
``Intern`` are their contents; ``JsonValue`` is the JSON value itself and
``JsonWrapper`` its content. Attributes: ``rename``, ``flatten``, ``with =
serde_string`` (the value as a string), ``default``.

Errors are serde's messages; those found while reading JSON text carry the position
where serde_json reports them: the end of the innermost object or scalar being read,
except inside an internally tagged enum or a flattened field, which serde reads from
a buffered copy without positions.
"""
from __future__ import annotations

from dl2sql.runtime.builtins import Ctx, Mut, typed
from dl2sql.runtime.order import sort_key
from dl2sql.runtime.values import Record
from dl2sql.types.model import TNamed, TString, TypeEnv
from dl2sql.udfs.json_de import calling, from_node
from dl2sql.udfs.json_ser import SerError, to_tree
from dl2sql.udfs.json_text import JsonError, dump, parse
from dl2sql.udfs.json_value import jvalue_node, tree_to_jvalue


def _ok(x) -> Record:
    return Record("ddlog_std::Ok", (x,))


def _err(msg: str) -> Record:
    return Record("ddlog_std::Err", (msg,))


# ------------------------------------------------------------------ the externs
@typed
def from_json_string(ctx: Ctx, text: str) -> Record:
    """``Ok{v}``: the value of type ``'T`` (``ctx.targs[0]``) the JSON text denotes,
    or ``Err{serde_json's message}``."""
    try:
        with calling(ctx.call):
            return _ok(from_node(ctx.env, ctx.targs[0], parse(text), True))
    except JsonError as e:
        return _err(e.render(text))


@typed
def from_json_value(ctx: Ctx, jval: Record) -> Record:
    """``Ok{v}``: the value of type ``'T`` a ``JsonValue`` denotes, or ``Err``."""
    try:
        with calling(ctx.call):
            return _ok(from_node(ctx.env, ctx.targs[0], jvalue_node(jval), False))
    except JsonError as e:
        return _err(e.message)


@typed
def to_json_string(ctx: Ctx, x) -> Record:
    """``Ok{text}``: the compact JSON text of ``x``, or ``Err`` (a map key that is not
    a string or an integer)."""
    try:
        return _ok(dump(to_tree(ctx.env, ctx.targs[0], x)))
    except SerError as e:
        return _err(str(e))


@typed
def to_json_value(ctx: Ctx, x) -> Record:
    """``Ok{JsonValue}`` of ``x``, or ``Err``."""
    try:
        return _ok(tree_to_jvalue(to_tree(ctx.env, ctx.targs[0], x), ctx.env))
    except SerError as e:
        return _err(str(e))


def get_by_ptr(jval: Record, ptr: tuple) -> Record:
    """``Some{value}`` at the path ``ptr``, ``None`` if it leads nowhere."""
    for item in ptr:
        if item.ctor.endswith("JKeyPtr"):
            if not jval.ctor.endswith("JsonObject"):
                return Record("ddlog_std::None", ())
            found = [v for k, v in jval.fields[0] if k == item.fields[0]]
            if not found:
                return Record("ddlog_std::None", ())
            jval = found[0]
        else:
            if not jval.ctor.endswith("JsonArray") or item.fields[0] >= len(jval.fields[0]):
                return Record("ddlog_std::None", ())
            jval = jval.fields[0][item.fields[0]]
    return Record("ddlog_std::Some", (jval,))


@typed
def set_by_ptr(ctx: Ctx, jval: Record, ptr: tuple, v: Record) -> Mut:
    """Put ``v`` at path ``ptr`` in ``jval`` (see json.dl); a failure deeper down the
    path leaves that part unchanged and is not reported, as upstream's code does."""
    new, result = _set(ctx.env, jval, ptr, v)
    return Mut(result, {0: new})


def _set(env: TypeEnv, jval: Record, ptr: tuple, v: Record) -> tuple[Record, Record]:
    unit = _ok(())
    if not ptr:
        return v, unit
    item, rest = ptr[0], ptr[1:]
    if item.ctor.endswith("JKeyPtr"):
        if jval.ctor.endswith("JsonNull"):
            jval = Record("json::JsonObject", ((),))
        if not jval.ctor.endswith("JsonObject"):
            return jval, _err("Not a JSON map")
        entries = dict(jval.fields[0])
        old = entries.get(item.fields[0], Record("json::JsonNull", ()))
        entries[item.fields[0]], _ = _set(env, old, rest, v)
        key = TNamed("ddlog_std::Intern", (TString(),))
        return Record("json::JsonObject", (tuple(sorted(
            entries.items(), key=lambda kv: sort_key(key, kv[0], env))),)), unit
    if jval.ctor.endswith("JsonNull"):
        jval = Record("json::JsonArray", ((),))
    if not jval.ctor.endswith("JsonArray"):
        return jval, _err("Not a JSON array")
    items = list(jval.fields[0])
    n = item.fields[0]
    items.extend([Record("json::JsonNull", ())] * (n + 1 - len(items)))
    items[n], _ = _set(env, items[n], rest, v)
    return Record("json::JsonArray", (tuple(items),)), unit


LIBRARY_JSON = {
    "json::from_json_string": from_json_string,
    "json::_from_json_string": from_json_string,
    "json::from_json_value": from_json_value,
    "json::_from_json_value": from_json_value,
    "json::to_json_string": to_json_string,
    "json::to_json_value": to_json_value,
    "json::get_by_ptr": get_by_ptr,
    "json::set_by_ptr": set_by_ptr,
}
