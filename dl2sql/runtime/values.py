"""Runtime DDlog values in Python.

bool, int (every integer type), float, str; a tuple value is a Python ``tuple``;
``Vec`` a ``tuple`` of elements, ``Set`` a ``tuple`` sorted ascending by DDlog order
without duplicates, ``Map`` a ``tuple`` of ``(key, value)`` pairs sorted by key;
``Ref<T>`` is the ``T`` value itself; struct and union values are :class:`Record`.
Values are always interpreted together with their type.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Record:
    """A constructor application: qualified constructor name and field values in
    declaration order. Main-module constructors have no prefix (``Path``)."""

    ctor: str
    fields: tuple


@dataclass(frozen=True, slots=True)
class GroupValue:
    """A ``Group<K, V>``: its key and its elements in group order (one per body row,
    duplicates kept). Iterating yields ``(element, weight)`` pairs as DDlog's
    ``for ((v, w) in g)`` does; every weight is 1."""

    key: object
    items: tuple

    def __iter__(self):
        return ((v, 1) for v in self.items)

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True, slots=True)
class AnyValue:
    """A ``ddlog_std::Any``: a value together with its DDlog type, which ``from_any``
    checks (as DDlog's Rust checks the ``TypeId``) and the printer and order read."""

    type: object  # a dl2sql.types.model.Type
    value: object
