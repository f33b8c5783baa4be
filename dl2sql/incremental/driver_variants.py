"""Rule variants the driver evaluates: a negated transitive closure probed by rows it
worked out itself (:class:`~dl2sql.incremental.nodes.VariantsOnDriver`).

Where the edges of a closure ``P = E+`` are held on the driver
(:mod:`dl2sql.incremental.held`) and a rule negates ``P`` for each row of an input
whose changes the driver works out, as in ``Unreached(s, d) :- Edge(d, s), not
Path(s, d)``, the variants over the input's rows added and removed are a search of
the held edges per row, where the engine probes every row of ``P`` (630,000 rows in
the benchmark, for one changed edge). The statements stay as the fallback: a variant
over a change of ``P`` itself, or a transaction whose changes the driver did not work
out, runs on the engine.
"""
from __future__ import annotations

from typing import Optional

from dl2sql.incremental.nodes import Absent, DriverPart, VariantsOnDriver
from dl2sql.plan.nodes import Intersect, Materialize, Parts
from dl2sql.ra.nodes import AntiJoin, Block
from dl2sql.types import typed as T


def on_driver(b, stmt: Materialize, block: Block, removed: bool):
    """``stmt`` (made by the builder ``b`` from the variants of ``block``, a rule with
    one derivation per row) as :class:`VariantsOnDriver` where some of its variants
    can run on the driver, else as it is. ``removed``: ``stmt`` makes the rows removed,
    the seeds over the removed source rows (where the rule negates a relation, those
    the relation stored). For a rule of one source those are exactly the seeds whose
    negated rows were absent before the transaction (a row's one derivation held
    then), which the driver checks on the edges as they were; the seeds over rows
    added to a negated relation stay on the engine."""
    query = stmt.query
    if removed and isinstance(query, Intersect):
        if len(block.sources) != 1:
            return stmt
        query = query.query
    if not isinstance(query, Parts) or not b.policy.search_on_driver_below:
        return stmt
    parts = []
    for part in query.parts:
        variant = part.query.block if hasattr(part.query, "block") else None
        parts.append(None if variant is None else _driver_part(
            b, variant, block.antijoins if removed else variant.antijoins, removed))
    if not any(parts):
        return stmt
    return VariantsOnDriver(stmt, tuple(parts))


def _driver_part(b, variant: Block, antijoins: tuple[AntiJoin, ...],
                 before: bool) -> Optional[DriverPart]:
    """``variant`` as a :class:`DriverPart`: one source, a change of an input the
    driver holds, its outputs columns of it, no condition, and every negation in
    ``antijoins`` a closure of held edges probed at columns of the source."""
    if len(variant.sources) != 1 or variant.conditions or variant.unnests:
        return None
    src = variant.sources[0]
    if src.relation not in b.on_driver or src.version not in ("plus", "minus"):
        return None
    columns = b.columns(src.relation)
    outputs = [_column_of(o, src.alias, columns) for o in variant.outputs]
    if None in outputs:
        return None
    absent = [_absent(b, aj, src.alias, columns, before) for aj in antijoins]
    if None in absent:
        return None
    return DriverPart(b.table(src.relation, src.version), tuple(outputs), tuple(absent))


def _column_of(e, alias: str, columns: tuple[str, ...]) -> Optional[int]:
    """The place of the source column ``e`` reads, if it reads one of ``alias``."""
    if isinstance(e, T.TCol) and e.alias == alias and e.column in columns:
        return columns.index(e.column)
    return None


def _absent(b, aj: AntiJoin, alias: str, columns: tuple[str, ...],
            before: bool) -> Optional[Absent]:
    """The negation ``aj`` as a search of held edges: it negates a transitive closure
    of an input the driver holds, at its state now, equating each of its two columns
    with a column of the source ``alias``."""
    probed = aj.source
    found = b.p.closures.get(probed.relation)
    if probed.version != "full" or found is None or found[0].edge not in b.on_driver:
        return None
    closure = found[0]
    first, second = b.columns(probed.relation)
    bound: dict[str, int] = {}
    for c in aj.conditions:
        if not (isinstance(c, T.TBin) and c.op == "=="):
            return None
        for mine, other in ((c.left, c.right), (c.right, c.left)):
            if isinstance(mine, T.TCol) and mine.alias == probed.alias:
                at = _column_of(other, alias, columns)
                if at is None or mine.column in bound:
                    return None
                bound[mine.column] = at
                break
        else:
            return None
    if set(bound) != {first, second}:
        return None
    edge_columns = b.columns(closure.edge)
    ends = (closure.edge_source, next(c for c in edge_columns if c != closure.edge_source))
    return Absent(b.table(closure.edge), ends, bound[first], bound[second], before)
