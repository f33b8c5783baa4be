"""Serialization attributes of a type declaration, as DDlog passes them to Rust's
serde (``#[rust="serde(...)"]`` on the type, its constructors and their fields;
``#[custom_serde]``; ``#[deserialize_from_array=f()]``), kept as ``(key, value)``
pairs on :class:`~dl2sql.types.model.TypeDefn` for the ``json`` library.

Keys: ``tag`` (the type's ``serde(tag = ...)``), ``custom`` (``#[custom_serde]``),
``rename:C`` (constructor ``C``), ``rename:C.f``, ``flatten:C.f``, ``with:C.f``
(the module named by ``serde(with = ...)``, only its last path segment), ``default:C.f``
and ``from_array:C.f`` (the key function). ``C`` is the constructor's short name.
Anything else inside ``serde(...)`` is ignored.
"""
from __future__ import annotations

import re

from dl2sql.ast import nodes as A

# `name = "value"` or a bare `name`, separated by commas inside `serde(...)`
_ITEM = re.compile(r'\s*(\w+)\s*(?:=\s*"((?:[^"\\]|\\.)*)")?\s*(?:,|$)')


def _serde_items(attrs: tuple) -> list[tuple[str, str]]:
    """The ``name = "value"`` items of every ``#[rust="serde(...)"]`` among ``attrs``."""
    items = []
    for a in attrs:
        if a.name != "rust" or not isinstance(a.value, A.EString):
            continue
        m = re.fullmatch(r"\s*serde\s*\((.*)\)\s*", a.value.value, re.DOTALL)
        if m is None:
            continue
        for name, value in _ITEM.findall(m.group(1)):
            items.append((name, (value or "").replace('\\"', '"')))
    return items


def serde_attrs(d: A.TypeDef) -> tuple[tuple[str, str], ...]:
    """The serialization attributes of type declaration ``d`` (with constructors)."""
    out: list[tuple[str, str]] = []
    for name, value in _serde_items(d.attrs):
        if name == "tag":
            out.append(("tag", value))
    if any(a.name == "custom_serde" for a in d.attrs):
        out.append(("custom", ""))
    for c in d.ctors or ():
        for name, value in _serde_items(c.attrs):
            if name == "rename":
                out.append((f"rename:{c.name}", value))
        for f in c.fields:
            where = f"{c.name}.{f.name}"
            for name, value in _serde_items(f.attrs):
                if name in ("rename", "flatten", "default"):
                    out.append((f"{name}:{where}", value))
                elif name == "with":
                    out.append((f"with:{where}", value.rsplit("::", 1)[-1]))
            for a in f.attrs:
                if a.name == "deserialize_from_array" and isinstance(a.value, A.ECall):
                    out.append((f"from_array:{where}", a.value.func))
    return tuple(out)
