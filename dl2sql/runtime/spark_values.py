"""Values between Spark and the interpreter, on Spark's Python workers.

Spark hands a Python UDF ``Row``s for structs and ``Decimal``s for DECIMAL columns,
and wants ``Decimal``s back; runners exchange the normalised form of
:mod:`dl2sql.runner.base` (tuples, ints). The converters here are plain objects of
this module, not closures, so that pickling a UDF for the workers carries them by
reference to a module that imports nothing but the standard library.
"""
from __future__ import annotations

import decimal
from typing import Any


def normalize(value: Any) -> Any:
    """A Spark value -> the normalised form (``Row`` -> tuple, ``Decimal`` -> int,
    recursively; lists stay lists)."""
    if isinstance(value, tuple):  # Row is a tuple subclass
        return tuple(normalize(v) for v in value)
    if isinstance(value, list):
        return [normalize(v) for v in value]
    if isinstance(value, decimal.Decimal):
        return int(value)
    if isinstance(value, dict):
        return {normalize(k): normalize(v) for k, v in value.items()}
    return value


class Identity:
    """Values Spark takes as they are."""

    def __call__(self, v: Any) -> Any:
        return v


IDENTITY = Identity()


class ToDecimal:
    """An int for a DECIMAL column."""

    def __call__(self, v: Any) -> Any:
        return decimal.Decimal(v)


class ToStruct:
    """A tuple for a STRUCT column, each field converted."""

    def __init__(self, fields: list):
        self.fields = fields

    def __call__(self, v: Any) -> Any:
        return tuple(c(x) for c, x in zip(self.fields, v))


class ToArray:
    """A list for an ARRAY column, each element converted."""

    def __init__(self, element):
        self.element = element

    def __call__(self, v: Any) -> Any:
        return [self.element(x) for x in v]


class SparkUdf:
    """``fn`` (normalised values in and out) as Spark calls a Python UDF."""

    def __init__(self, fn, to_spark):
        self.fn, self.to_spark = fn, to_spark

    def __call__(self, *args):
        return self.to_spark(self.fn(*[normalize(a) for a in args]))
