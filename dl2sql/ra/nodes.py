"""Relational algebra for rules, in select-project-join normal form.

Each rule head becomes one :class:`Block`: a join of body sources filtered by
conditions and anti-joins, projected onto the head relation's columns. Scalar
expressions are the typed IR of :mod:`dl2sql.types.typed`, with rule variables replaced
by :class:`~dl2sql.types.typed.TCol` references to source columns. A block is the unit
of the semi-naive rewrite: a variant swaps one source for its delta table.
"""
from __future__ import annotations

from dataclasses import dataclass

from dl2sql.diagnostics import Span
from dl2sql.types.model import Type
from dl2sql.types.typed import TExpr


@dataclass(frozen=True)
class Source:
    """A scan of relation ``relation`` under ``alias``; ``version`` selects which table of
    the relation is read: "full", "delta" (semi-naive) ."""

    alias: str
    relation: str
    version: str = "full"


@dataclass(frozen=True)
class AntiJoin:
    """``NOT EXISTS (SELECT 1 FROM source WHERE conditions)``."""

    source: Source
    conditions: tuple[TExpr, ...]


@dataclass(frozen=True)
class Unnest:
    """One row per element of the collection ``expr`` (a closed expression over the
    block's sources); the element is column ``_e`` of ``alias``."""

    alias: str
    expr: TExpr
    elem_type: Type


@dataclass(frozen=True)
class Block:
    """``SELECT outputs FROM sources WHERE conditions AND NOT EXISTS ...``."""

    relation: str
    sources: tuple[Source, ...]
    conditions: tuple[TExpr, ...]
    antijoins: tuple[AntiJoin, ...]
    outputs: tuple[TExpr, ...]
    span: Span
    unnests: tuple[Unnest, ...] = ()

    def with_delta(self, index: int) -> "Block":
        """The semi-naive variant that reads source ``index`` from its delta table."""
        return self.with_version(index, "delta")

    def with_version(self, index: int, version: str) -> "Block":
        """The rule with its source ``index`` read at ``version``."""
        sources = tuple(Source(s.alias, s.relation, version if i == index else s.version)
                        for i, s in enumerate(self.sources))
        return Block(self.relation, sources, self.conditions, self.antijoins, self.outputs,
                     self.span, self.unnests)


@dataclass(frozen=True)
class GroupBlock:
    """The rows of ``relation`` by aggregation: one per distinct value of the ``keys``
    columns of ``source``, with the group (``key``, and the ``value`` of every source
    row of that key) as the last column."""

    relation: str
    source: Source
    keys: tuple[TExpr, ...]
    key: TExpr
    value: TExpr
    span: Span
    # or "count": the number of rows of each key instead; or a tuple of parts ("count",
    # "min", "max"): the tuple of those (dl2sql.passes.group_counts.summarized)
    aggregate: object = "group"

    @property
    def sources(self) -> tuple[Source, ...]:
        return (self.source,)


@dataclass(frozen=True)
class RelationLayout:
    """How a relation's records are stored: column names and types. A relation whose
    record type is a single-constructor struct is stored one column per field
    (``flat``); one with no fields gets a single ``_unit`` column; any other a single
    ``_v`` column holding the whole record."""

    relation: str
    record_type: Type
    columns: tuple[tuple[str, Type], ...]
    flat_ctor: str | None  # the constructor when stored flat (or as _unit)
    unit: bool = False  # a field-less record stored as a single TRUE column
