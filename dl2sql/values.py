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
