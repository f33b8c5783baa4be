"""What every AST node is: a frozen, slotted dataclass."""
from __future__ import annotations

from dataclasses import dataclass


def node(cls):
    """Decorator: a frozen, slotted dataclass (value equality, hashable)."""
    return dataclass(frozen=True, slots=True)(cls)
