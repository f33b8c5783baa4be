"""Loop planning: how each recursive stratum is evaluated on an engine, decided in one
pass over the plan from the engine's :class:`LoopPolicy`.

A :class:`~dl2sql.plan.nodes.Fixpoint` becomes, by the policy:

- one recursive query (:class:`~dl2sql.plan.nodes.RecursiveUnion`) where the engine's
  recursive union deduplicates (DuckDB) and the stratum is one linear relation; of
  several linear relations, one recursive query of rows tagged by relation
  (:class:`~dl2sql.plan.nodes.TaggedRecursion`) and a statement per relation that
  reads its rows back;
- else a semi-naive :class:`~dl2sql.plan.nodes.Loop`: a first step from the
  non-recursive rules, then per iteration the new facts of every variant that reads
  one recursive source from its delta, appended to the relation and made the next
  delta. On a partitioning engine (Spark) every table of the loop is kept
  hash-partitioned on a key (:mod:`dl2sql.plan.partitioning`) and each variant's
  rows are distributed on it before they are deduplicated;
- for a transitive closure on an engine that pays much per iteration, a
  :class:`~dl2sql.plan.nodes.Choose` between that loop and the doubling rule's
  (:mod:`dl2sql.passes.doubling`), decided at run time by the graph's shape;
- recursion through a ``group_by`` whose aggregates are ``min`` or ``max`` of values
  that flow back in order (:mod:`dl2sql.plan.lattice`), a semi-naive lattice
  :class:`Loop`: per iteration, the new candidates from the values that improved
  in the last one, and each key's best new candidate where it beats the value held;
- any other recursion through a ``group_by``, on every engine, a naive :class:`Loop`
  (DDlog's meaning, :mod:`dl2sql.passes.stratify`): from empty relations, each
  iteration makes the aggregations' helper relations, then every member's rows from
  all its rules (``R__next``), counts the rows that differ from the last iteration's
  (``R__changed``) and replaces the relations, until no member changed.

The policy also sets how many loop bodies run per termination test (one Spark job runs
them all). Every choice shows in ``dl2sql compile --emit plan``; runners execute the
result and decide nothing. A new loop optimisation belongs here, with its test in
``tests/unit/test_loops.py``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

from dl2sql.passes.stratify import Stratum
from dl2sql.plan.build import relation_table, table_name
from dl2sql.plan.lattice import lattice_of
from dl2sql.plan.lattice_loop import lattice_loop
from dl2sql.plan.nodes import (TAG, Append, Changes, Choose, Column, Distribute, EdgeProbe,
                               Fixpoint, Load, Loop, Materialize, Plan, Rename, Rows, Scan,
                               RECURSIVE_QUERY, Subtract, Table, TaggedRecursion, Union,
                               RecursiveUnion, Untagged, tagged_column)
from dl2sql.plan.partitioning import partition_keys
from dl2sql.ra.nodes import Block, GroupBlock, RelationLayout
from dl2sql.types.model import TSigned, TypeEnv


# Doubling pays when paths are long and thin: with at most this many edges per source
# on average (chains, near-functional graphs) each path extends in few ways.
MAX_DOUBLING_DEGREE = 1.5
# the end of the comment of a statement that is one recursive query (progress reports
# name it: its iterations are the engine's, not counted)


@dataclass(frozen=True)
class LoopPolicy:
    """How an engine wants recursive strata evaluated (one per engine, in
    :data:`dl2sql.engines.ENGINES`).

    ``recursive_union``: a linear recursive relation becomes one recursive query (the
    engine's ``WITH RECURSIVE ... UNION`` removes duplicates against every earlier row).
    ``partitioned``: loop tables carry partition keys and variants distribute their
    rows on them. ``steps_per_check`` bodies run per termination test while every delta
    counted so far is below ``fuse_below_rows`` rows; loops whose tables are kept
    partitioned run one (a step there is one job already) unless ``fuse_partitioned``.
    ``closure_by_doubling``: transitive closures may be evaluated by doubling.
    ``constant_rows``: a recursive stratum that reads no input (a constant of the
    program, :mod:`dl2sql.plan.constants`) of at most this many rows is evaluated once
    on the oracle when the plan is made, and loaded as a table (0: never).
    ``search_on_driver_below``: a maintained transitive closure whose edge relation has
    at most this many rows searches it on the driver for the paths a transaction's
    deletions leave, and for the inserted edges that are no path yet
    (:mod:`dl2sql.incremental.closure_search`; 0: never).
    ``lattice``: recursion through a ``min`` or ``max`` that :mod:`dl2sql.plan.lattice`
    accepts is evaluated semi-naively as a lattice fixpoint (else, as every other
    recursion through a ``group_by``, by naive iteration). ``keyed_recursion``: such
    a fixpoint of one aggregate becomes one recursive query that keeps a row per key
    (DuckDB's ``USING KEY``, :class:`~dl2sql.plan.nodes.KeyedRecursion`)."""

    recursive_union: bool = False
    partitioned: bool = False
    steps_per_check: int = 1
    fuse_below_rows: float = float("inf")
    fuse_partitioned: bool = False
    closure_by_doubling: bool = False
    constant_rows: int = 0
    search_on_driver_below: int = 0
    lattice: bool = True
    keyed_recursion: bool = False


@dataclass(frozen=True)
class Program:
    """What loop planning reads of a compiled program."""

    strata: list[Stratum]
    blocks: dict[str, list[Block]]
    layouts: dict[str, RelationLayout]
    closures: dict  # relation -> (Closure, blocks of its doubled rule)
    env: TypeEnv


def plan_loops(plan: Plan, program: Program, policy: LoopPolicy) -> Plan:
    """``plan`` with every :class:`Fixpoint` planned by ``policy``, and the partition
    keys it chose on every table of the keyed relations."""
    keys: dict[str, tuple[str, ...]] = {}
    if policy.partitioned:
        # a lattice loop joins its aggregates' new values as a semi-naive loop joins
        # a delta: they are keyed alike (a naive loop replaces whole relations)
        lattices = {tuple(s.relations) for s in program.strata if s.aggregated and policy.lattice
                    and lattice_of(Fixpoint(tuple(s.relations), s.group_steps), program.blocks,
                                   program.layouts)}
        keys = partition_keys(program.strata, program.blocks, {
            rel: dict(layout.columns) for rel, layout in program.layouts.items()}, program.env,
            lattices)
    planner = _Planner(program, policy, keys)
    statements = []
    for s in plan.statements:
        if isinstance(s, Fixpoint):
            statements += planner.fixpoint(s)
        else:
            statements.append(_keyed(s, keys))
    return dataclasses.replace(
        plan, inputs=tuple(_table(t, keys) for t in plan.inputs),
        statements=tuple(statements),
        relations={r: _table(t, keys) for r, t in plan.relations.items()})


def _table(t: Table, keys: dict) -> Table:
    key = keys.get(t.relation, ())
    return t if key == t.partition_by else dataclasses.replace(t, partition_by=key)


def _keyed(s, keys: dict):
    if isinstance(s, (Materialize, Load)):
        return dataclasses.replace(s, target=_table(s.target, keys))
    return s


class _Planner:
    def __init__(self, program: Program, policy: LoopPolicy, keys: dict):
        self.p, self.policy, self.keys = program, policy, keys

    def table(self, rel: str, version: str = "full", keys: Optional[dict] = None) -> Table:
        return relation_table(self.p.layouts, rel, version, self.keys if keys is None else keys)

    def fixpoint(self, f: Fixpoint) -> list:
        if f.group_steps:
            shape = lattice_of(f, self.p.blocks, self.p.layouts) if self.policy.lattice \
                else None
            return lattice_loop(self, f, shape) if shape else self._naive(f)
        rel = f.relations[0]
        if self.policy.closure_by_doubling and rel in self.p.closures:
            return [self._closure(f, *self.p.closures[rel])]
        return self._recursive(f, self.p.blocks, self.keys)

    def _closure(self, f: Fixpoint, closure, doubled_blocks) -> Choose:
        """Both evaluations of a transitive closure, chosen at run time."""
        rel = f.relations[0]
        base = [b for b in self.p.blocks.get(rel, [])
                if all(src.relation != rel for src in b.sources)]
        doubled = dict(self.p.blocks)
        doubled[rel] = base + list(doubled_blocks)
        count = TSigned(64)
        probe = Table(table_name(rel, "probe"), (Column("edges", count),
                                                 Column("sources", count)), (), rel)
        # Doubling joins the relation with itself on both of its columns, which no one
        # key serves; partitioned, it measured slower (1000-chain: 44.0 s against 37.7 s),
        # so that branch's tables of the relation carry no key.
        unkeyed = {r: k for r, k in self.keys.items() if r != rel}
        return Choose(probe, EdgeProbe(table_name(closure.edge), closure.edge_source),
                      MAX_DOUBLING_DEGREE, tuple(self._recursive(f, doubled, unkeyed)),
                      tuple(self._recursive(f, self.p.blocks, self.keys)), rel)

    def _linear_rules(self, f: Fixpoint, blocks) -> Optional[tuple[list, list]]:
        """The rules of ``f``'s relations as (index of the relation, rows) pairs, the
        non-recursive ones and the recursive ones reading their one stratum source as
        its delta; None where the policy has no recursive query, where a rule reads two
        of the relations or negates one, or where either kind is missing."""
        if not self.policy.recursive_union:
            return None
        members = f.relations
        base, steps = [], []
        for index, rel in enumerate(members):
            for b in blocks.get(rel, []):
                recursive = [i for i, src in enumerate(b.sources) if src.relation in members]
                if len(recursive) > 1 or any(aj.source.relation in members
                                             for aj in getattr(b, "antijoins", ())):
                    return None
                if recursive:
                    steps.append((index, Rows(b.with_delta(recursive[0]))))
                else:
                    base.append((index, Rows(b)))
        return (base, steps) if base and steps else None

    def _recursive_union(self, f: Fixpoint, blocks) -> Optional[Materialize]:
        """A linear recursive relation as one recursive query, where the policy has it."""
        rules = self._linear_rules(f, blocks) if len(f.relations) == 1 else None
        if rules is None:
            return None
        rel = f.relations[0]
        base, steps = (tuple(rows for _, rows in part) for part in rules)
        query = RecursiveUnion(rel, table_name(rel, "delta"), base, steps)
        return Materialize(self.table(rel), query, comment=rel + RECURSIVE_QUERY)

    def _tagged_recursion(self, f: Fixpoint, blocks) -> Optional[list]:
        """Linear mutually recursive relations as one recursive query of tagged rows
        and one statement per relation that reads its rows back, where the policy has
        recursive queries: a loop of a few statements a round costs DuckDB some
        milliseconds a statement (value flow's 55 rounds: 0.6-0.9 s, one query 0.1 s)."""
        members = f.relations
        if len(members) < 2 or any(not self.p.layouts[rel].columns for rel in members):
            return None
        rules = self._linear_rules(f, blocks)
        if rules is None:
            return None
        base, steps = rules
        name = table_name(members[0], "tagged")
        columns = [Column(TAG, TSigned(32))] + [
            Column(tagged_column(i, n), t) for i, rel in enumerate(members)
            for n, t in self.p.layouts[rel].columns]
        query = TaggedRecursion(table_name(members[0], "tagged_delta"), tuple(members),
                                tuple(base), tuple(steps))
        return [Materialize(Table(name, tuple(columns)), query,
                            comment=", ".join(members) + RECURSIVE_QUERY)] + [
            Materialize(self.table(rel), Untagged(name, rel, i),
                        comment=f"{rel}: its rows of the recursive query")
            for i, rel in enumerate(members)]

    def _recursive(self, f: Fixpoint, blocks, keys: dict) -> list:
        single = self._recursive_union(f, blocks)
        if single is not None:
            return [single]
        tagged = self._tagged_recursion(f, blocks)
        if tagged is not None:
            return tagged
        members = set(f.relations)
        init, body = [], []
        for rel in f.relations:
            base = tuple(Rows(b) for b in blocks.get(rel, [])
                         if not any(src.relation in members for src in b.sources))
            init.append(Materialize(self.table(rel, keys=keys), Union(rel, base),
                                    comment=f"{rel}: non-recursive rules"))
            init.append(Materialize(self.table(rel, "delta", keys), Scan(table_name(rel)),
                                    comment=f"{rel}: first delta"))
        for rel in f.relations:
            variants = []
            for b in blocks.get(rel, []):
                for i, src in enumerate(b.sources):
                    if src.relation in members:
                        variants.append(self._variant(b.with_delta(i), keys))
            columns = tuple(n for n, _ in self.p.layouts[rel].columns)
            query = Subtract(Union(rel, tuple(variants)), table_name(rel), columns)
            body.append(Materialize(self.table(rel, "new", keys), query, count=True,
                                    comment=f"{rel}: new facts of this iteration"))
        for rel in f.relations:
            body.append(Append(self.table(rel, keys=keys), self.table(rel, "new", keys)))
            body.append(Rename(self.table(rel, "delta", keys), self.table(rel, "new", keys)))
        until = tuple(table_name(r, "new") for r in f.relations)
        partitioned = any(isinstance(s, Materialize) and s.target.partition_by for s in body)
        fused = not partitioned or self.policy.fuse_partitioned
        steps = self.policy.steps_per_check if fused else 1
        loop = Loop(tuple(body), until, ", ".join(f.relations), steps_per_check=steps,
                    fuse_below_rows=self.policy.fuse_below_rows if steps > 1 else float("inf"))
        return init + [loop]

    def _naive(self, f: Fixpoint) -> list:
        """Recursion through a ``group_by``: every member made again from the last
        iteration's, until none changes. The loop's tables carry no partition key (each
        iteration reads and replaces whole relations: there is no delta to keep
        partitioned)."""
        steps = set(f.group_steps)
        members = [r for r in f.relations if r not in steps]
        name = ", ".join(members)
        init, body, swap = [], [], []
        for rel in members:
            init.append(Materialize(self.table(rel, keys={}), Union(rel, ()),
                                    comment=f"{rel}: empty before the first iteration"))
        for rel in f.group_steps:
            body.append(Materialize(self.table(rel, keys={}), self.all_rules(rel, f.bags),
                                    comment=f"{rel}: a group_by step of this iteration"))
        for rel in members:
            body.append(Materialize(self.table(rel, "next", {}), self.all_rules(rel),
                                    comment=f"{rel}: every rule, on the last iteration"))
        for rel in members:
            columns = tuple(n for n, _ in self.p.layouts[rel].columns)
            full, nxt = table_name(rel), table_name(rel, "next")
            changed = Changes(nxt, full, columns)
            body.append(Materialize(self.table(rel, "changed", {}), changed, count=True,
                                    comment=f"{rel}: rows that differ from the last iteration"))
            swap.append(Rename(self.table(rel, keys={}), self.table(rel, "next", {})))
        until = tuple(table_name(r, "changed") for r in members)
        steps_per_check = self.policy.steps_per_check
        loop = Loop(tuple(body + swap), until, name, steps_per_check=steps_per_check,
                    fuse_below_rows=self.policy.fuse_below_rows if steps_per_check > 1
                    else float("inf"))
        return init + [loop]

    def columns(self, rel: str) -> tuple[str, ...]:
        """The names of ``rel``'s columns."""
        return tuple(n for n, _ in self.p.layouts[rel].columns)

    def all_rules(self, rel: str, bags: tuple[str, ...] = ()) -> Union:
        """Every rule of ``rel``, on the full tables."""
        return Union(rel, tuple(Rows(b) for b in self.p.blocks.get(rel, [])), rel in bags)

    @staticmethod
    def _variant(b: Block, keys: dict):
        """A semi-naive variant's rows, distributed on the relation's partition key
        where it has one."""
        key = keys.get(b.relation)
        if key and not isinstance(b, GroupBlock):
            return Distribute(Rows(b), key)
        return Rows(b)
