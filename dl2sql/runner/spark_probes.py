"""Narrowing a large table that a few rows probe, before Spark joins them.

A rule's negation, and a test that a row exists, print as
``[NOT] EXISTS (SELECT 1 FROM P AS p WHERE p.a = t.x AND ...)``. Spark plans that as
an anti or a semi join whose hash table is built from ``P``, the probed side, whatever
the sizes: it can neither broadcast nor hash the outer side of those joins. In a
transaction the outer side is a handful of changed rows and ``P`` may be a relation of
630,000 paths, which every such query shuffled and hashed whole (docs/performance.md,
run 23). Here the probed table is first narrowed to the rows that match a key of the
outer table, a semi join whose small side is broadcast, so ``P`` is only scanned:

    NOT EXISTS (SELECT 1 FROM (SELECT /*+ BROADCAST(dl2sql_keys) */ dl2sql_probed.*
                               FROM P AS dl2sql_probed LEFT SEMI JOIN
                               (SELECT DISTINCT t.x AS k0, ... FROM T AS t) AS dl2sql_keys
                               ON dl2sql_probed.a = dl2sql_keys.k0 AND ...) AS p
                WHERE p.a = t.x AND ...)

The answer is the same: a row of ``P`` that equals an outer row on the compared columns
matches a key of the outer table, so it is kept. Only equalities between the probed
table and one table of the enclosing query (not a subquery) count, and only where the
sizes say it pays (:func:`narrows`).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional

from sqlglot import exp

def narrows(outer: Optional[int], probed: Optional[int], thresholds) -> bool:
    """Whether a probe of ``probed`` rows by ``outer`` rows is narrowed first (sizes
    unknown: no), by ``thresholds``' ``narrow_rows`` and ``narrow_factor``
    (:class:`~dl2sql.plan.thresholds.SparkThresholds`)."""
    return (outer is not None and probed is not None and outer <= thresholds.narrow_rows
            and probed >= thresholds.narrow_factor * max(outer, 1))


class _Probe(NamedTuple):
    """An ``EXISTS`` subquery that reads one table, ``probed``, and compares some of its
    columns with those of ``outer``, one table of the enclosing query: ``pairs`` of
    (probed column, outer column)."""

    probed: exp.Table
    outer: exp.Table
    pairs: list


def _from(select: exp.Select) -> Optional[exp.From]:
    return select.args.get("from_") or select.args.get("from")  # named so in sqlglot 30


def _probe(node: exp.Exists) -> Optional[_Probe]:
    sub = node.this
    if not isinstance(sub, exp.Select) or sub.args.get("joins") or _from(sub) is None:
        return None
    probed = _from(sub).this
    where = sub.args.get("where")
    if not isinstance(probed, exp.Table) or where is None:
        return None
    inner = probed.alias_or_name
    pairs, outer_alias = [], None
    for cond in where.this.flatten() if isinstance(where.this, exp.And) else [where.this]:
        if not isinstance(cond, exp.EQ):
            continue
        a, b = cond.this, cond.expression
        if not (isinstance(a, exp.Column) and isinstance(b, exp.Column)):
            continue
        if b.table == inner:
            a, b = b, a
        if a.table != inner or not b.table or b.table == inner:
            continue
        if outer_alias not in (None, b.table):
            return None  # compared with two tables: no single table of keys
        outer_alias = b.table
        pairs.append((a.name, b.name))
    enclosing = node.parent and node.parent.find_ancestor(exp.Select)
    if not pairs or enclosing is None:
        return None
    sources = [_from(enclosing).this] if _from(enclosing) is not None else []
    sources += [j.this for j in enclosing.args.get("joins") or []]
    for source in sources:
        if isinstance(source, exp.Table) and source.alias_or_name == outer_alias:
            return _Probe(probed, source, pairs)
    return None


def narrowed(query: exp.Expression, rows: Callable[[str], Optional[int]],
             cache: dict, thresholds) -> exp.Expression:
    """``query`` with each ``EXISTS`` probe whose sizes (``rows`` of a table name) pay
    narrowed, as above (by ``thresholds``); ``query`` itself where none does.
    Rewritten trees are kept in ``cache`` by the query's identity and the probes
    chosen, and so are its probes (a loop plans the same query at every step)."""
    hit = cache.get(id(query))
    if hit is None or hit[0] is not query:
        hit = cache[id(query)] = (query, [_probe(n) for n in query.find_all(exp.Exists)])
    probes = hit[1]
    chosen = tuple(p is not None and narrows(rows(p.outer.name), rows(p.probed.name),
                                             thresholds) for p in probes)
    if not any(chosen):
        return query
    key = (id(query), chosen)
    hit = cache.get(key)
    if hit is not None and hit[0] is query:
        return hit[1]
    copy = query.copy()
    for node, take in zip(list(copy.find_all(exp.Exists)), chosen):
        probe = _probe(node) if take else None
        if probe is not None:
            probe.probed.replace(_narrowing(probe))
    cache[key] = (query, copy)
    return copy


def _narrowing(probe: _Probe) -> exp.Subquery:
    """The probed table narrowed to the outer table's keys, under the probed alias."""
    keys = exp.select(*[exp.alias_(exp.column(outer, "dl2sql_outer", quoted=True),
                                   f"k{i}", quoted=True)
                        for i, (_, outer) in enumerate(probe.pairs)]).distinct().from_(
        _aliased(probe.outer, "dl2sql_outer"))
    on = exp.and_(*[exp.EQ(this=exp.column(inner, "dl2sql_probed", quoted=True),
                           expression=exp.column(f"k{i}", "dl2sql_keys", quoted=True))
                    for i, (inner, _) in enumerate(probe.pairs)])
    narrow = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier("dl2sql_probed"))) \
        .from_(_aliased(probe.probed, "dl2sql_probed")) \
        .join(exp.Subquery(this=keys, alias=exp.TableAlias(
            this=exp.to_identifier("dl2sql_keys"))), on=on, join_type="left semi")
    narrow.set("hint", exp.Hint(expressions=[exp.JoinHint(
        this="BROADCAST", expressions=[exp.to_table("dl2sql_keys")])]))
    return exp.Subquery(this=narrow, alias=exp.TableAlias(
        this=exp.to_identifier(probe.probed.alias_or_name, quoted=True)))


def _aliased(table: exp.Table, alias: str) -> exp.Table:
    copy = table.copy()
    copy.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
    return copy
