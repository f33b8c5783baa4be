"""The update plan of a program (:mod:`dl2sql.incremental.nodes`), without SQL.

Per stratum, by kind:

- an input relation: the caller's inserted rows that were absent, and its deleted rows
  that were present (and not facts of the program);
- rules (a non-recursive relation): delta rules. Rows that may have lost their last
  derivation (``del``) are checked for a derivation in the new state (``redo``); the
  rows of new derivations not stored yet are added. A row's set membership changes only where no derivation is
  left or the first one appears, so no derivation counts are stored;
- group (a ``group_by``): the groups of every key the source's changes touch,
  recomputed from the source and compared with the stored ones;
- dred (a recursive stratum): delete and rederive. Over-delete semi-naively from the
  removed rows, remove them, put back those with a derivation from what is left,
  and insert semi-naively from those and from the new derivations. A transaction that
  only adds rows only runs the last phase;
- recursion through a ``group_by``: recomputed. Its naive iteration (DDlog's meaning,
  :mod:`dl2sql.passes.stratify`) is not monotone: a new row may remove an aggregate
  row, and whether a row is still derived depends on the whole iteration history,
  which delta rules and DRed do not see.

Each stratum can also be recomputed from scratch; the executor chooses per stratum
and per transaction (:mod:`dl2sql.incremental.execute`).
"""
from __future__ import annotations

import dataclasses

from dl2sql.incremental.closure import closure_update
from dl2sql.incremental.dred import dred, levels
from dl2sql.incremental.driver_variants import on_driver
from dl2sql.incremental.nodes import (CountChange, Enough, InputOnDriver, Lookup, Refuse,
                                      StratumUpdate, UpdatePlan)
from dl2sql.incremental.variants import (deletion_seeds, insertion_seeds, key_of, narrowed,
                                         reads, rederivations)
from dl2sql.incremental.bags import BagBuilder
from dl2sql.incremental.lattice_update import LATTICE, lattice_update
from dl2sql.plan.lattice import lattice_of
from dl2sql.passes.stratify import Stratum
from dl2sql.plan.build import relation_table, table_name, transform_statement
from dl2sql.plan.loops import LoopPolicy, plan_loops
from dl2sql.plan.loops import Program as LoopProgram
from dl2sql.plan.walk import walk
from dl2sql.plan.nodes import (Append, Changes, Column, Fixpoint, Intersect, Materialize, Part,
                               Parts, Patch, Plan, Rename, Rows, Scan, Subtract, Table,
                               Transform, Union)
from dl2sql.ra.lower import record_of
from dl2sql.ra.nodes import AntiJoin, Block, GroupBlock, RelationLayout, Source
from dl2sql.types import typed as T
from dl2sql.types.model import BOOL, TBit, TBool, TSigned, TString, unwrapped

KEYS_ALIAS, STORED_ALIAS, REMOVED_ALIAS = "dl2sql_keys", "dl2sql_stored", "dl2sql_removed"
# the method of a stratum that recurses through a group_by: recomputed whenever a
# relation it reads changed (a naive loop, as in the first evaluation)
RECURSIVE_AGGREGATION = "recompute (recursive aggregation)"
ADDED = "dl2sql_added"  # true for a recomputed stratum's rows added, false for removed


def build_update(program: LoopProgram, inputs: dict, policy: LoopPolicy,
                 kinds: dict | None = None, delayed: dict | None = None) -> UpdatePlan:
    """The update plan of ``program`` (strata, blocks, layouts as compiled) whose input
    relations are ``inputs`` (name -> RelationInfo, for primary keys); ``policy``
    plans the loops of strata recomputed. ``kinds`` (bag relation -> ``stream`` or
    ``multiset``) and ``delayed`` (generated ``R-N`` relation -> what it delays) are
    built by :mod:`dl2sql.incremental.bags`."""
    b = _Builder(program, policy)
    # relations whose rows repeat (a row's copies are its derivations)
    b.repeated = frozenset(kinds or ()) | frozenset(delayed or ())
    bags = BagBuilder(b, kinds or {}, delayed or {}) if kinds or delayed else None
    init, changes = [], {}
    strata = []
    for rel, info in inputs.items():
        changes[rel] = {kind: b.table(rel, kind) for kind in ("insert", "delete")}
        if info.key is not None:
            changes[rel]["insert_or_update"] = b.table(rel, "upsert")
            changes[rel]["delete_key"] = b.key_table(rel, info.key_type)
        facts = program.blocks.get(rel, [])
        if facts:
            init.append(Materialize(b.table(rel, "facts"), Union(rel, tuple(
                Rows(x) for x in facts)), comment=f"{rel}: rows from facts"))
        strata.append(bags.input(rel, bool(facts), info) if bags and bags.owns_input(rel)
                      else b.input(rel, bool(facts), info))
    for s in program.strata:
        if s.relations[0] in inputs:
            continue
        strata.append(bags.stratum(s) if bags and bags.owns(s) else b.stratum(s))
    return UpdatePlan(changes, tuple(init), tuple(strata), b.tables, {
        r: relation_table(program.layouts, r) for r in program.layouts}, b.helper_layouts,
        bags=bags.plan() if bags else None, lookups=b.lookups)


class _Builder:
    def __init__(self, program: LoopProgram, policy: LoopPolicy):
        self.p, self.policy = program, policy
        self.tables: dict[str, Table] = {}
        self.helper_layouts: dict[str, RelationLayout] = {}
        self.repeated: frozenset[str] = frozenset()  # bags, set by build_update
        self.lookups: dict[str, Lookup] = {}  # primary-key inputs' rows by key
        self.on_driver: set[str] = set()  # inputs whose changes the driver may work out

    def table(self, rel: str, version: str = "full") -> Table:
        t = relation_table(self.p.layouts, rel, version)
        self.tables[t.name] = t
        return t

    def columns(self, rel: str) -> tuple[str, ...]:
        return tuple(n for n, _ in self.p.layouts[rel].columns)

    def scan(self, rel: str, version: str) -> Parts:
        """The rows of a version, as a query that is empty when that table is."""
        name = self.table(rel, version).name
        return Parts(rel, (Part(Scan(name), (name,)),))

    def minus(self, query, rel: str, *versions: str):
        for v in versions:
            query = Subtract(query, self.table(rel, v).name, self.columns(rel))
        return query

    def made(self, rel: str, version: str, query, comment: str) -> Materialize:
        return Materialize(self.table(rel, version), query, count=True, comment=comment)

    def changes(self, rel: str, plus, minus) -> list:
        """``plus`` and ``minus`` made and applied to the stored relation."""
        return [self.made(rel, "plus", plus, f"{rel}: rows added"),
                self.made(rel, "minus", minus, f"{rel}: rows removed"),
                Patch(self.table(rel), self.table(rel, "plus"), self.table(rel, "minus"))]

    # -- strata ------------------------------------------------------------------------
    def input(self, rel: str, facts: bool, info) -> StratumUpdate:
        """An input relation's changes: the rows inserted that were absent, and those
        deleted (by value; by key, or replaced by a row of the same key, for a
        primary-key relation) that were present; deletions apply first."""
        self.table(rel, "wide")
        added = [Part(Scan(table_name(rel, "insert")), (table_name(rel, "insert"),))]
        present = Intersect(self.scan(rel, "delete"), table_name(rel), self.columns(rel))
        if info.key is None:  # one statement fewer: on Spark each costs some 30 ms
            stmts, minus = [], present
        else:
            stmts = [self.made(rel, "present", present, f"{rel}: rows deleted that were present")]
            minus = self.keyed_removals(rel, info, stmts, added)
        plus = self.minus(Parts(rel, tuple(added)), rel, "full")
        versions = ("insert",) + (("upsert",) if info.key is not None else ()) + (
            ("facts",) if facts else ())
        changes = self.changes(rel, plus, self.minus(minus, rel, *versions))
        if info.key is None and not facts and self._held_as_rows(rel):
            changes[:2] = [InputOnDriver(self.table(rel), self.table(rel, "insert"),
                                         self.table(rel, "delete"), self.table(rel, "plus"),
                                         self.table(rel, "minus"), tuple(changes[:2]))]
            self.on_driver.add(rel)
        stmts += changes
        return StratumUpdate((rel,), "input", (), tuple(stmts))

    def _held_as_rows(self, rel: str) -> bool:
        """Whether the driver may hold ``rel``'s rows as a Python set: its values are
        integers of up to 64 bits, booleans and strings, which Python compares as SQL
        does (a float's NaN equals itself in SQL and in no Python set; wider integers
        have representations of their own, :mod:`dl2sql.types.wide_ints`)."""
        def plain(t) -> bool:
            t = unwrapped(t)
            return isinstance(t, (TBool, TString)) or (
                isinstance(t, (TBit, TSigned)) and t.width <= 64)
        return all(plain(t) for _, t in self.p.layouts[rel].columns)

    def keyed_removals(self, rel: str, info, stmts: list, added: list) -> Parts:
        """The stored rows a primary-key relation's transaction removes: those deleted
        (made as ``present`` in ``stmts``), those whose key is deleted and those whose
        key a row inserted or updated takes; ``stmts`` gains their statements and the
        check of clashing keys, ``added`` the rows inserted or updated."""
        removed = [table_name(rel, "present")]
        upsert = key_of(info.key, self.p.layouts[rel], "dl2sql_new")
        for version, other, equal, what in (
                ("replaced", Source("dl2sql_new", rel, "upsert"), upsert,
                 "stored rows whose key a row inserted or updated has"),
                ("dropped", Source(KEYS_ALIAS, rel, "delete_key"), self.key_column(info),
                 "stored rows whose key is deleted")):
            stmts.append(self.made(rel, version, self.stored_with_key(rel, info, other, equal),
                                   f"{rel}: {what}"))
            removed.append(table_name(rel, version))
        upserted = table_name(rel, "upsert")
        added.append(Part(Scan(upserted), (upserted,)))
        stmts += self.key_clashes(rel, info, ("present", "replaced", "dropped"))
        self.lookups[rel] = self.lookup(rel, info)
        return Parts(rel, tuple(Part(Scan(n), (n,)) for n in removed))

    def key_clashes(self, rel: str, info, removed: tuple[str, ...]) -> list:
        """The check that no inserted row takes a primary key another row holds: a
        stored row this transaction does not remove (its ``removed`` versions), another
        inserted row, or a row inserted or updated."""
        layout = self.p.layouts[rel]
        new, other = "dl2sql_new", "dl2sql_other"
        outs = tuple(T.TCol(t, new, n) for n, t in layout.columns)
        same_key = T.TBin(BOOL, "==", key_of(info.key, layout, new),
                          key_of(info.key, layout, other))

        def gone(version: str, i: int) -> AntiJoin:
            alias = f"dl2sql_gone{i}"
            return AntiJoin(Source(alias, rel, version), tuple(
                T.TBin(BOOL, "==", T.TCol(t, alias, n), T.TCol(t, other, n))
                for n, t in layout.columns))
        clashes = []
        for version, extra, antijoins in (
                ("full", (), tuple(gone(v, i) for i, v in enumerate(removed))),
                ("insert", (T.TBin(BOOL, "!=", record_of(layout, new),
                                   record_of(layout, other)),), ()),
                ("upsert", (), ())):
            block = Block(rel, (Source(new, rel, "insert"), Source(other, rel, version)),
                          (same_key,) + extra, antijoins, outs, info.span)
            needs = tuple(dict.fromkeys(table_name(rel, v) for v in ("insert", version)
                                        if v != "full"))
            clashes.append(Part(Rows(block), needs))
        clash = self.table(rel, "clash")
        return [self.made(rel, "clash", Parts(rel, tuple(clashes)),
                          f"{rel}: inserted rows whose primary key another row holds"),
                Refuse(clash, f"relation `{rel}`: an inserted row has the primary key of "
                              f"another row (stored, or given in this transaction); "
                              f"`insert_or_update` replaces the row of a key")]

    def key_table(self, rel: str, key_type, version: str = "delete_key") -> Table:
        """The table of the keys a transaction deletes from a primary-key relation (or,
        as ``version``, of other keys given with a transaction)."""
        layout = RelationLayout(f"{rel}#key", key_type, (("key", key_type),), None)
        self.helper_layouts[layout.relation] = layout
        return self._helper(rel, version, layout)

    def lookup(self, rel: str, info) -> Lookup:
        """The query of a primary-key relation's stored rows whose keys are in a table
        (what ``modify`` changes, read before the transaction)."""
        keys = self.key_table(rel, info.key_type, "lookup_key")
        found = self.stored_with_key(rel, info, Source(KEYS_ALIAS, rel, "lookup_key"),
                                     self.key_column(info))
        return Lookup(keys, Materialize(self.table(rel, "looked_up"), found,
                                        comment=f"{rel}: stored rows of the keys given"))

    @staticmethod
    def key_column(info) -> T.TCol:
        """The column of a key table (:meth:`key_table`) read as source KEYS_ALIAS."""
        return T.TCol(info.key_type, KEYS_ALIAS, "key")

    def stored_with_key(self, rel: str, info, other: Source, equal) -> Parts:
        """The stored rows of primary-key relation ``rel`` whose key is ``equal``, an
        expression over the rows of source ``other`` (made only where it has rows)."""
        key = key_of(info.key, self.p.layouts[rel], STORED_ALIAS)
        return self.stored_where(rel, other, (T.TBin(BOOL, "==", key, equal),), info.span)

    def stored_where(self, rel: str, other: Source, conditions: tuple, span) -> Parts:
        """The stored rows of ``rel`` that some row of source ``other`` meets on
        ``conditions`` (made only where ``other``'s table has rows)."""
        layout = self.p.layouts[rel]
        block = Block(rel, (Source(STORED_ALIAS, rel, "full"), other), conditions, (),
                      tuple(T.TCol(t, STORED_ALIAS, n) for n, t in layout.columns), span)
        return Parts(rel, (Part(Rows(block), (table_name(other.relation, other.version),)),))

    def stratum(self, s: Stratum) -> StratumUpdate:
        for rel in s.relations:
            for version in ("plus", "minus", "wide", "old"):
                self.table(rel, version)
        blocks = [b for rel in s.relations for b in self.p.blocks.get(rel, [])]
        members = frozenset(s.relations)
        read = tuple(sorted(reads(blocks) - members))
        recompute, diff = self.recompute(s)
        if s.transform is not None:  # a Python callable: run again on the new inputs
            return StratumUpdate(tuple(s.relations), "recompute",
                                 tuple(sorted(set(s.transform.relations))), (), recompute,
                                 diff)
        if s.aggregated:  # an aggregate row may go when its group grows: no delta rules
            lattice = self.lattice(s)
            if lattice is not None:  # but min and max only improve while rows are added
                negated = {aj.source.relation for b in blocks
                           for aj in getattr(b, "antijoins", ())}
                return StratumUpdate(tuple(s.relations), LATTICE, read, tuple(lattice),
                                     recompute, diff, tuple(sorted(negated - members)))
            return StratumUpdate(tuple(s.relations), RECURSIVE_AGGREGATION, read, (),
                                 recompute, diff)
        closure = None
        if s.recursive and len(s.relations) == 1 and s.relations[0] in self.p.closures:
            closure = closure_update(self, self.p.closures[s.relations[0]][0], blocks[0].span)
        if closure is not None:
            method, stmts = "closure", list(closure.statements)
        elif s.recursive:
            deletion, insertion = dred(self, s.relations, members)
            method, stmts = "dred", deletion + insertion
        elif any(isinstance(b, GroupBlock) for b in blocks):
            method, stmts = "group", self.group(s.relations[0], blocks[0])
        else:
            method, stmts = "rules", self.rules(s.relations[0], blocks)
        negated = {aj.source.relation for b in blocks for aj in getattr(b, "antijoins", ())}
        return StratumUpdate(tuple(s.relations), method, read, tuple(stmts), recompute, diff,
                             tuple(sorted(negated - members)),
                             closure.undo if closure else (),
                             closure.pending if closure else None,
                             levels(self, s.relations, members) if method == "dred" else None)

    def lattice(self, s: Stratum):
        """A lattice stratum's statements for transactions that only add to what it
        reads (:mod:`dl2sql.incremental.lattice_update`), or None."""
        if not self.policy.lattice:
            return None
        bags = tuple(r for r in s.group_steps if r in self.repeated)
        shape = lattice_of(Fixpoint(tuple(s.relations), s.group_steps, bags), self.p.blocks,
                           self.p.layouts)
        return shape and lattice_update(self, shape, s.group_steps)

    def recompute(self, s: Stratum) -> tuple[tuple, tuple]:
        """The stratum evaluated from scratch, and its changes against ``R__old``."""
        if s.recursive:
            # a group step over a multiset keeps its copies (a group sees the weights),
            # as in the program's own plan (dl2sql.plan.build)
            fixpoint = Fixpoint(tuple(s.relations), s.group_steps,
                                tuple(r for r in s.group_steps if r in self.repeated))
            planned = plan_loops(Plan((), (fixpoint,), {}), self.p, self.policy).statements
        elif s.transform is not None:
            planned = (transform_statement(s.transform, self.p.layouts),)
        else:
            rel = s.relations[0]
            query = Union(rel, tuple(Rows(b) for b in self.p.blocks.get(rel, [])))
            planned = (Materialize(self.table(rel), query, comment=rel),)
        for t in written(planned):  # the loop's own tables may be made empty too
            self.tables[t.name] = dataclasses.replace(t, partition_by=())
        diff = []
        for rel in s.relations:
            changes = self.made(rel, "changes", Changes(table_name(rel), table_name(rel, "old"),
                                                         self.columns(rel), ADDED),
                                f"{rel}: rows added or removed")
            changes = dataclasses.replace(changes, target=self._helper(
                rel, "changes", self.widened(rel, "changes", ADDED, BOOL)))
            diff.append(changes)
            for version, added in (("plus", True), ("minus", False)):
                side = T.TCol(BOOL, "c", ADDED)
                block = Block(rel, (Source("c", rel, "changes"),),
                              (side if added else T.TUn(BOOL, "not", side),), (),
                              tuple(T.TCol(t, "c", n) for n, t in self.p.layouts[rel].columns),
                              None)
                diff.append(self.made(rel, version, Parts(rel, (Part(
                    Rows(block), (changes.target.name,)),)),
                    f"{rel}: rows {'added' if added else 'removed'}"))
        return tuple(planned), tuple(diff)

    def widened(self, rel: str, tag: str, column: str, ty) -> RelationLayout:
        """The layout ``rel#tag``: the columns of ``rel`` and one more, ``column`` of
        type ``ty`` (a recomputation's side, a row's level), registered once."""
        name = f"{rel}#{tag}"
        if name not in self.helper_layouts:
            layout = self.p.layouts[rel]
            self.helper_layouts[name] = RelationLayout(
                name, layout.record_type, layout.columns + ((column, ty),), None)
        return self.helper_layouts[name]

    def rules(self, rel: str, blocks: list[Block]) -> list:
        none = frozenset()
        layout = self.p.layouts[rel]
        if len(blocks) == 1 and self.injective(blocks[0]):
            # one derivation per row: a new derivation is a new row, a lost one a lost row
            block = blocks[0]
            if self.keyed(block):
                return self.keyed_rules(rel, block)
            plus = Parts(rel, tuple(insertion_seeds(block, none)))
            deleted = Parts(rel, tuple(deletion_seeds(block, none)))
            # seeds joining new rows of a later source, or rows a negation held back
            # before the transaction: only the stored ones are removed
            if len(block.sources) > 1 or block.antijoins:
                deleted = Intersect(deleted, table_name(rel), self.columns(rel))
            made = self.changes(rel, plus, deleted)
            return [on_driver(self, made[0], block, False),
                    on_driver(self, made[1], block, True), made[2]]
        deleted = Parts(rel, tuple(p for b in blocks for p in deletion_seeds(b, none)))
        stmts = [
            self.made(rel, "del", Intersect(deleted, table_name(rel), self.columns(rel)),
                      f"{rel}: rows that may have lost their derivations"),
            self.made(rel, "redo", self.among(rel, "del", blocks, Parts(rel, tuple(
                rederivations(b, layout, "del") for b in blocks))),
                      f"{rel}: of those, rows derived still"),
        ]
        # a row derived anew is derived still: the rows removed are those not redone
        plus = self.minus(Parts(rel, tuple(p for b in blocks for p in insertion_seeds(b, none))),
                          rel, "full")
        minus = self.minus(self.scan(rel, "del"), rel, "redo")
        return stmts + self.changes(rel, plus, minus)

    def among(self, rel: str, version: str, blocks, query):
        """The rows of ``query`` (the rederivations of ``blocks``) that the ``version``
        table of ``rel`` holds: those of a narrowed block hold others too."""
        if any(narrowed(b) for b in blocks):
            return Intersect(query, table_name(rel, version), self.columns(rel))
        return query

    def injective(self, block: Block) -> bool:
        """Whether each row of ``block`` comes from one combination of source rows: its
        outputs hold a key of every source (every column; a ``group_by``'s groups, one
        row per key, their key columns: an aggregate's rule), no source holds copies of
        a row (a bag), and nothing else adds rows (an unnest).

        A negation may take rows away: a row's one derivation is then lost exactly
        when its source rows are removed or a negated row is added, and made exactly
        when its source rows are added or the negated rows go, since every relation's
        ``plus`` and ``minus`` are its net changes. So the rows that lost a derivation
        and were stored are the rows removed, with no search for another derivation
        (``redo``: for ``Unreached(s, d) :- Edge(d, s), not Path(s, d)`` a second probe
        of all of ``Path`` per transaction)."""
        if block.unnests or not block.sources or any(
                s.relation in self.repeated for s in block.sources):
            return False
        outputs = {(o.alias, o.column) for o in block.outputs if isinstance(o, T.TCol)}
        return all((s.alias, name) in outputs for s in block.sources
                   for name in self.key_columns(s.relation))

    def keyed(self, block: Block) -> bool:
        """Whether a source of ``block`` is identified by some of its columns only (a
        ``group_by``'s groups by their keys)."""
        return any(len(self.key_columns(s.relation)) < len(self.columns(s.relation))
                   for s in block.sources)

    def keyed_rules(self, rel: str, block: Block) -> list:
        """An injective block (:meth:`injective`) with a source identified by its keys
        (an aggregate's rule over its groups): a row's one derivation may change while
        the row stays (a group's new value giving the same count), so the rows of the
        new derivations and of the lost ones are made, and each side is what the other
        lacks. Where the block reads one source and negates nothing, the rows its
        removed source rows made are the stored rows with their keys, found without
        evaluating the block's outputs (a group function in the interpreter) again."""
        none = frozenset()
        made = Parts(rel, tuple(insertion_seeds(block, none)))
        if len(block.sources) == 1 and not block.antijoins:
            lost = self.stored_of_removed(rel, block)
        else:
            lost = Intersect(Parts(rel, tuple(deletion_seeds(block, none))), table_name(rel),
                             self.columns(rel))
        return [self.made(rel, "ins", made, f"{rel}: rows of new derivations"),
                self.made(rel, "del", lost, f"{rel}: rows of lost derivations"),
                *self.changes(rel, self.minus(self.scan(rel, "ins"), rel, "del"),
                              self.minus(self.scan(rel, "del"), rel, "ins"))]

    def stored_of_removed(self, rel: str, block: Block) -> Parts:
        """The stored rows of ``rel`` that ``block``'s one source's removed rows made:
        those whose columns output from the source's key columns hold a removed row's
        key."""
        [src] = block.sources
        names = self.columns(rel)
        at = {o.column: names[i] for i, o in enumerate(block.outputs)
              if isinstance(o, T.TCol) and o.alias == src.alias}
        types = dict(self.p.layouts[src.relation].columns)
        equal = tuple(T.TBin(BOOL, "==", T.TCol(types[k], STORED_ALIAS, at[k]),
                             T.TCol(types[k], REMOVED_ALIAS, k))
                      for k in self.key_columns(src.relation))
        return self.stored_where(rel, Source(REMOVED_ALIAS, src.relation, "minus"), equal,
                                 block.span)

    def key_columns(self, rel: str) -> tuple[str, ...]:
        """Columns of ``rel`` that no two of its rows share: a ``group_by``'s key
        columns (all but the group), else all."""
        columns = self.columns(rel)
        made = self.p.blocks.get(rel, ())
        if len(made) == 1 and isinstance(made[0], GroupBlock):
            return columns[:-1]
        return columns

    def group(self, rel: str, block: GroupBlock) -> list:
        """A ``group_by``'s groups: those of the touched keys made again (counted ones
        by their change, :meth:`counted_group`)."""
        if block.aggregate == "count":
            return self.counted_group(rel, block)
        src = block.source
        if not block.keys:  # one group: made again whole
            fresh = Parts(rel, (Part(Rows(block), ()),))
            return [self.made(rel, "fresh", fresh, f"{rel}: the group"),
                    *self.changes(rel, self.minus(self.scan(rel, "fresh"), rel, "full"),
                                  self.minus(Parts(rel, (Part(Scan(table_name(rel)), ()),)),
                                             rel, "fresh"))]
        keys_table, touched_keys, with_keys = self._touched(rel, block)
        source_layout = dataclasses.replace(self.p.layouts[src.relation],
                                            relation=f"{rel}#source")
        self.helper_layouts[source_layout.relation] = source_layout
        source_table = self._helper(rel, "source", source_layout)
        touched = with_keys(src, source_layout.relation, source_layout.columns, block.keys)
        fresh = dataclasses.replace(block, source=Source(src.alias, rel, "source"))
        return [
            touched_keys,
            Enough((keys_table,), rel),
            Materialize(source_table, Parts(rel, (Part(Rows(touched), (keys_table.name,)),)),
                        count=True, comment=f"{rel}: the rows of those groups"),
            self.made(rel, "fresh", Parts(rel, (Part(Rows(fresh), (source_table.name,)),)),
                      f"{rel}: those groups now"),
            self._prior(rel, keys_table, with_keys),
            *self.changes(rel, self.minus(self.scan(rel, "fresh"), rel, "full"),
                          self.minus(self.scan(rel, "prior"), rel, "fresh")),
        ]

    def counted_group(self, rel: str, block: GroupBlock) -> list:
        """A group that is only counted (:mod:`dl2sql.passes.group_counts`): each touched
        key's count, plus the rows the transaction added to its group, less those it
        removed; no row of the groups is read."""
        src = block.source.relation
        if block.keys:
            keys_table, touched_keys, with_keys = self._touched(rel, block)
            stmts = [touched_keys, self._prior(rel, keys_table, with_keys)]
        else:
            stmts = [self.made(rel, "prior", Parts(rel, (Part(Scan(table_name(rel)), ()),)),
                               f"{rel}: the count before")]
        fresh = CountChange(block, table_name(rel, "prior"), table_name(src, "plus"),
                            table_name(src, "minus"))
        stmts.append(self.made(rel, "fresh", fresh, f"{rel}: those counts now"))
        return stmts + self.changes(rel, self.minus(self.scan(rel, "fresh"), rel, "full"),
                                    self.minus(self.scan(rel, "prior"), rel, "fresh"))

    def _touched(self, rel: str, block: GroupBlock):
        """The table of the keys of the groups a transaction touches, the statement
        that makes it, and a function joining a source with it."""
        src = block.source
        key_layout = RelationLayout(f"{rel}#keys", block.key.type, tuple(
            (f"k{i}", k.type) for i, k in enumerate(block.keys)), None)
        self.helper_layouts[key_layout.relation] = key_layout
        keys_table = self._helper(rel, "keys", key_layout)

        def keys_of(version: str) -> Part:
            b = Block(key_layout.relation, (Source(src.alias, src.relation, version),), (),
                      (), block.keys, block.span)
            return Part(Rows(b), (table_name(src.relation, version),))

        def with_keys(source: Source, relation: str, columns, keys) -> Block:
            on = tuple(T.TBin(BOOL, "==", k, T.TCol(t, KEYS_ALIAS, name))
                       for k, (name, t) in zip(keys, key_layout.columns))
            outs = tuple(T.TCol(t, source.alias, n) for n, t in columns)
            return Block(relation, (Source(KEYS_ALIAS, rel, "keys"), source), on, (), outs,
                         block.span)
        made = Materialize(keys_table, Parts(rel, (keys_of("plus"), keys_of("minus"))),
                           count=True, comment=f"{rel}: the keys of the groups the changes touch")
        return keys_table, made, with_keys

    def _prior(self, rel: str, keys_table: Table, with_keys) -> Materialize:
        """The stored rows of the touched keys."""
        stored = self.p.layouts[rel].columns
        prior = with_keys(Source(STORED_ALIAS, rel, "full"), rel, stored, tuple(
            T.TCol(t, STORED_ALIAS, n) for n, t in stored[:-1]))
        return self.made(rel, "prior", Parts(rel, (Part(Rows(prior), (keys_table.name,)),)),
                         f"{rel}: those groups before")

    def _helper(self, rel: str, version: str, layout: RelationLayout) -> Table:
        t = Table(table_name(rel, version), tuple(Column(n, ty) for n, ty in layout.columns),
                  (), rel)
        self.tables[t.name] = t
        return t


def written(stmts):
    """Every table plan statements write (both tables of an append or a rename)."""
    for event, s, _ in walk(stmts):
        if event == "choose":
            yield s.probe
        elif event == "stmt" and isinstance(s, Transform):
            yield from s.outputs
        elif event == "stmt":
            yield s.target
            if isinstance(s, (Append, Rename)):
                yield s.source
