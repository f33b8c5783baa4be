"""``JsonValue`` (the json library's DDlog type for any JSON value) to and from the
plain trees and parsed nodes of :mod:`dl2sql.udfs.json_text`."""
from __future__ import annotations

import math

from dl2sql.runtime.order import sort_key
from dl2sql.runtime.values import Record
from dl2sql.types.model import TNamed, TString, TypeEnv
from dl2sql.udfs.json_text import Float, Node, Obj


def tree_to_jvalue(t, env: TypeEnv) -> Record:
    """A plain tree (or parsed node) as a ``JsonValue`` (objects keyed in DDlog's
    order; a repeated key keeps its last value, as serde_json's map does)."""
    if isinstance(t, Node):
        t = node_tree(t)
    if t is None:
        return Record("json::JsonNull", ())
    if t is True or t is False:
        return Record("json::JsonBool", (t,))
    if isinstance(t, int):
        return Record("json::JsonNumber", (Record("json::JsonInt", (t,)),))
    if isinstance(t, Float):
        x = t.value
        if math.isnan(x) or math.isinf(x):
            return Record("json::JsonNull", ())
        return Record("json::JsonNumber", (Record("json::JsonFloat", (x,)),))
    if isinstance(t, str):
        return Record("json::JsonString", (t,))
    if isinstance(t, list):
        return Record("json::JsonArray", (tuple(tree_to_jvalue(x, env) for x in t),))
    entries = dict((k, tree_to_jvalue(x, env)) for k, x in t.entries)
    key = TNamed("ddlog_std::Intern", (TString(),))
    return Record("json::JsonObject",
                  (tuple(sorted(entries.items(), key=lambda kv: sort_key(key, kv[0], env))),))


def node_tree(n: Node):
    """A parsed node as a plain tree."""
    if n.kind == "arr":
        return [node_tree(x) for x in n.value]
    if n.kind == "obj":
        return Obj(tuple((k, node_tree(x)) for k, x in n.value))
    if n.kind == "float":
        return Float(n.value)
    return n.value


def jvalue_node(v: Record) -> Node:
    """A ``JsonValue`` as a node without a text position (for ``from_json_value``)."""
    c, f = v.ctor.rsplit("::", 1)[-1], v.fields
    if c == "JsonNull":
        return Node("null", None)
    if c == "JsonBool":
        return Node("bool", f[0])
    if c == "JsonNumber":
        n = f[0]
        if n.ctor.endswith("JsonInt"):
            return Node("int", _int_as_json(n.fields[0]))
        x = n.fields[0]
        return Node("null", None) if math.isnan(x) or math.isinf(x) else Node("float", x)
    if c == "JsonString":
        return Node("str", f[0])
    if c == "JsonArray":
        return Node("arr", tuple(jvalue_node(x) for x in f[0]))
    return Node("obj", tuple((k, jvalue_node(x)) for k, x in f[0]))


def _int_as_json(i: int) -> int:
    """A ``JsonInt``'s ``s128`` as serde_json gets it: ``as u64`` when not negative,
    else ``as i64`` (both truncate)."""
    if i >= 0:
        return i & ((1 << 64) - 1)
    i &= (1 << 64) - 1
    return i - (1 << 64) if i >= 1 << 63 else i
