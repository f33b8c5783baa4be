"""The statements of a lattice loop: recursion through ``min`` or ``max`` evaluated
semi-naively, for a stratum :mod:`dl2sql.plan.lattice` accepted (loop planning,
:mod:`dl2sql.plan.loops`, calls it).

Each round, an aggregate ``A``'s new values are the best candidate per key among the
candidates of the last round, where it beats every value ``A`` holds
(:class:`~dl2sql.plan.nodes.Improve`); the next candidates come from those new values
only. During the loop ``A`` keeps every value that improved on the ones before it (a
key's best is the one that counts: the older stay, as rows of a semi-naive loop do).
After it, each aggregate keeps its best value per key, and the other relations of the
stratum are made once from those, as DDlog's naive iteration leaves them. The helper
relations of its ``group_by`` steps (a group's rows, the group) are left empty: only
the aggregates' rules read them, and the loop computes the aggregates without them, so
that storing them (a list of values per key) would cost a run and every transaction
their upkeep for no reader.

Where every rule of the stratum reads one relation of it at most (shortest paths,
components: the common case), the candidates of a round are all the loop needs of
them (``C__delta``, not kept); otherwise a candidate relation accumulates as in any
semi-naive loop, so that a rule joining two of them sees all of each.

On a partitioning engine an aggregate's tables are kept hash-partitioned on the column
its new values are joined on (:mod:`dl2sql.plan.partitioning`), and the candidates on
the column that becomes that key: the best candidate per key and its comparison with
the values held then need no shuffle, and a round shuffles its candidates once.
"""
from __future__ import annotations

from typing import Optional

import dl2sql.types.typed as T
from dl2sql.plan.build import table_name
from dl2sql.plan.lattice import Aggregate, Lattice
from dl2sql.plan.nodes import (Append, Fixpoint, Improve, KeyedRecursion, Loop, Materialize,
                               Named, RECURSIVE_QUERY, Rename, Rows, Scan, Subtract, Union)


def lattice_loop(planner, f: Fixpoint, shape: Lattice) -> list:
    """``f`` as a lattice loop, and the statements that finish its relations;
    ``planner`` is loop planning's (:class:`dl2sql.plan.loops._Planner`)."""
    blocks = planner.p.blocks
    made = [a.relation for a in shape.aggregates]
    members = set(made) | set(shape.candidates)

    def reads(b) -> int:
        return sum(src.relation in members for src in b.sources)

    streamed = all(reads(b) <= 1 for rel in shape.candidates for b in blocks.get(rel, [])) \
        and all(reads(blocks[a.rows][0]) == 1 for a in shape.aggregates)

    keys = _keys(planner, shape)
    if streamed and len(shape.aggregates) == 1 and planner.policy.keyed_recursion \
            and not keys:
        return _one_query(planner, f, shape)

    def table(rel: str, version: str = "full"):
        return planner.table(rel, version, keys)

    def variants(rel: str) -> tuple:
        return tuple(Rows(b.with_delta(i)) for b in blocks.get(rel, [])
                     for i, src in enumerate(b.sources) if src.relation in members)

    init, body, swap, after = [], [], [], []
    for rel in shape.candidates:
        base = Union(rel, tuple(Rows(b) for b in blocks.get(rel, []) if not reads(b)))
        if streamed:
            init.append(Materialize(table(rel, "delta"), base,
                                    comment=f"{rel}: candidates of the non-recursive rules"))
            swap.append(Materialize(table(rel, "delta"), Union(rel, variants(rel), bag=True),
                                    comment=f"{rel}: candidates from the improved values"))
            continue
        init.append(Materialize(table(rel), base, comment=f"{rel}: non-recursive rules"))
        init.append(Materialize(table(rel, "delta"), Scan(table_name(rel)),
                                comment=f"{rel}: first delta"))
        body.append(Materialize(
            table(rel, "new"), Subtract(Union(rel, variants(rel)), table_name(rel),
                                        planner.columns(rel)),
            count=True, comment=f"{rel}: new candidates of this iteration"))
    for a in shape.aggregates:
        for version in ("full", "delta"):
            init.append(Materialize(table(a.relation, version), Union(a.relation, ()),
                                    comment=f"{a.relation}: no value yet"))
        body.append(Materialize(table(a.relation, "new"), _improved(planner, a, variants),
                                count=True, comment=f"{a.relation}: keys whose {a.direction} "
                                                    "improved in this iteration"))
        after += _best(planner, a)
    grown = made if streamed else [*shape.candidates, *made]
    moves = []
    for rel in grown:
        moves.append(Append(table(rel), table(rel, "new")))
        moves.append(Rename(table(rel, "delta"), table(rel, "new")))
    for rel in shape.candidates:  # stored as the plan's relations are
        after.append(Materialize(planner.table(rel), planner.all_rules(rel),
                                 comment=f"{rel}: every rule, on the final values"))
    for rel in f.group_steps:  # read by the aggregates' rules only, which the loop replaced
        after.append(Materialize(planner.table(rel), Union(rel, ()),
                                 comment=f"{rel}: a group_by step the loop replaced, not kept"))
    order = [r for r in f.relations if r in grown]
    # as a semi-naive loop's: partitioned, a step is one job already
    steps = planner.policy.steps_per_check if not keys or planner.policy.fuse_partitioned \
        else 1
    loop = Loop(tuple(body + moves + swap), tuple(table_name(r, "new") for r in order),
                ", ".join(r for r in f.relations if r in members), steps_per_check=steps,
                fuse_below_rows=planner.policy.fuse_below_rows if steps > 1 else float("inf"))
    return init + [loop] + after


def _one_query(planner, f: Fixpoint, shape: Lattice) -> list:
    """The loop of a stratum of one aggregate ``A`` whose candidates read ``A`` only, as
    one keyed recursive query (:func:`rounds_at_once`), its first values the best of
    the candidates of the rules that read no ``A``. One query instead of a handful of
    statements a round; its rows are each key's best already."""
    blocks, [a] = planner.p.blocks, shape.aggregates
    [rows] = blocks[a.rows]
    first = a.best_of_rows((Rows(rows.with_delta(0)),), planner.columns(a.relation))
    for rel in shape.candidates:  # the first round's candidates, as C__delta
        mine = blocks.get(rel, [])
        first = Named(table_name(rel, "delta"), Union(rel, tuple(
            Rows(b) for b in mine if all(src.relation != a.relation for src in b.sources))),
            first)
    query = rounds_at_once(blocks, shape, a, planner.columns(a.relation), "delta", first)
    out = [Materialize(planner.table(a.relation), query,
                       comment=a.relation + RECURSIVE_QUERY)]
    for rel in shape.candidates:
        out.append(Materialize(planner.table(rel), planner.all_rules(rel),
                               comment=f"{rel}: every rule, on the final values"))
    for rel in f.group_steps:
        out.append(Materialize(planner.table(rel), Union(rel, ()),
                               comment=f"{rel}: a group_by step the query replaced, not kept"))
    return out


def rounds_at_once(blocks: dict, shape: Lattice, a: Aggregate, columns: tuple[str, ...],
                   version: str, first, stored: Optional[str] = None) -> KeyedRecursion:
    """The rounds of a lattice loop of the one aggregate ``a`` as one keyed recursive
    query (:class:`~dl2sql.plan.nodes.KeyedRecursion`, ``columns`` ``A``'s): after
    ``first`` (the first values, one row per key), each round's candidates made
    inside the step from the keys the last round improved (``A__<version>``, the
    query's own last rows; the candidates named ``C__<version>`` there), and their
    best per key kept where it beats the value the query holds and, where given, the
    value of table ``stored`` (a maintained stratum's values before the transaction)."""
    [rows] = blocks[a.rows]
    keys = tuple(k for k, _ in a.keys)
    best = a.best_of_rows((Rows(rows.with_version(0, version)),), columns)
    if stored is not None:
        best = Improve(best, stored, keys, a.value[0], a.direction)
    step = Improve(best, table_name(a.relation, version), keys, a.value[0], a.direction,
                   recurring=True)
    return KeyedRecursion(a.relation, table_name(a.relation, version), keys, first,
                          with_candidates(blocks, shape, a, version, version, step))


def with_candidates(blocks: dict, shape: Lattice, a: Aggregate, reads: str, named: str,
                    body):
    """``body`` reading, as ``C__<named>``, each candidate relation's rows made from
    ``A__<reads>`` by its rules that read the aggregate ``a`` (inside the step of a
    recursive query whose rows are ``A__<reads>``)."""
    for rel in shape.candidates:
        further = tuple(Rows(b.with_version(i, reads)) for b in blocks.get(rel, [])
                        for i, src in enumerate(b.sources) if src.relation == a.relation)
        body = Named(table_name(rel, named), Union(rel, further, bag=True), body)
    return body


def _keys(planner, shape: Lattice) -> dict:
    """Partition keys: each aggregate's (loop planning's), and each candidate
    relation's column that its group's rows take as that key."""
    blocks = planner.p.blocks
    keys = {a.relation: planner.keys[a.relation] for a in shape.aggregates
            if planner.keys.get(a.relation)}
    for a in shape.aggregates:
        [rows] = blocks[a.rows]
        key = keys.get(a.relation, ())
        if len(key) != 1 or len(rows.sources) != 1 or \
                rows.sources[0].relation not in shape.candidates:
            continue
        out = dict(zip(planner.columns(a.rows), rows.outputs))[dict(a.keys)[key[0]]]
        if isinstance(out, T.TCol) and out.alias == rows.sources[0].alias:
            keys.setdefault(rows.sources[0].relation, (out.column,))
    return keys


def _improved(planner, a: Aggregate, variants) -> Improve:
    """``A``'s new values: the best of the last round's candidates per key, where it
    beats every value held."""
    best = a.best_of_rows(variants(a.rows), planner.columns(a.relation))
    return Improve(best, table_name(a.relation), tuple(k for k, _ in a.keys), a.value[0],
                   a.direction)


def _best(planner, a: Aggregate) -> list:
    """After the loop: ``A`` with each key's best value only."""
    best = a.best_held(table_name(a.relation), planner.columns(a.relation))
    return [Materialize(planner.table(a.relation, "best"), best,
                        comment=f"{a.relation}: the best value of each key"),
            Rename(planner.table(a.relation), planner.table(a.relation, "best"))]
