"""What a transaction works out on the driver instead of on the engine, for the
executor (:mod:`dl2sql.incremental.execute`): an input's rows added and removed from
the rows the driver holds (:class:`~dl2sql.incremental.nodes.InputOnDriver`), a
transitive closure's search (:class:`~dl2sql.incremental.nodes.DriverSearch`), and rule
variants that negate such a closure for rows of those changes
(:class:`~dl2sql.incremental.nodes.VariantsOnDriver`). Each answers the rows of the
tables it makes, or None where the engine must make them.
"""
from __future__ import annotations

from typing import Callable, Container, Optional

from dl2sql.incremental.closure_search import Graph, driver_rows, graph_of, reaches
from dl2sql.incremental.held import HeldRows, Successors
from dl2sql.incremental.nodes import DriverSearch, InputOnDriver, UpdatePlan, VariantsOnDriver
from dl2sql.plan.nodes import Parts, Table


def _ends(table: Table, ends: tuple[str, str]) -> tuple[int, int]:
    """The places of the columns ``ends`` (where an edge leaves and arrives)."""
    names = [c.name for c in table.columns]
    return names.index(ends[0]), names.index(ends[1])


class DriverWork:
    """The rows the driver holds between transactions (``held``), and in a transaction
    the rows given for their relations and those of the tables made on the driver."""

    def __init__(self, plan: UpdatePlan):
        on_driver = [x for s in plan.strata for x in s.statements
                     if isinstance(x, InputOnDriver)]
        self.held = HeldRows(x.relation.name for x in on_driver)
        # the relation whose inserted or deleted rows each table of changes holds
        self._held_by = {t.name: x.relation.name for x in on_driver
                         for t in (x.inserted, x.deleted)}
        self.begin()

    def begin(self) -> None:
        """A transaction starts: nothing given or made yet."""
        self._given: dict[str, list] = {}  # the rows of this transaction's changes
        self._unloaded: dict[str, list] = {}  # those of them not loaded (yet)
        self._known: dict[str, list] = {}  # the rows of the tables made on the driver

    def given(self, table: Table, rows: list) -> bool:
        """``rows`` given for change table ``table``; whether they stay unloaded (the
        driver holds their relation: loaded only if the engine works its changes out
        after all, :meth:`unloaded`)."""
        self._given[table.name] = rows
        if self.held.holds(self._held_by.get(table.name)):
            self._unloaded[table.name] = rows
            return True
        return False

    def unloaded(self, table: Table) -> Optional[list]:
        """The rows given for ``table`` and not loaded, once (the caller loads them)."""
        return self._unloaded.pop(table.name, None)

    def made(self, table: Table, rows: list) -> None:
        """``table`` made of ``rows`` on the driver in this transaction."""
        self._known[table.name] = rows

    def input_changes(self, stmt: InputOnDriver,
                      loaded: Container[str]) -> Optional[tuple[list, list]]:
        """The rows the input gains and loses, from the rows held; None where the
        engine works them out (``loaded``: the tables loaded from elsewhere than
        rows, which the driver does not know)."""
        def given(table: Table) -> Optional[list]:  # None: loaded from elsewhere
            return self._given.get(table.name, None if table.name in loaded else [])
        return self.held.changes(stmt.relation.name, given(stmt.inserted),
                                 given(stmt.deleted))

    def search(self, stmt: DriverSearch, empty: Container[str],
               fetch_all: Callable[[list], list]) -> tuple[list, list, list]:
        """The rows of the search's ``new_edges``, ``reached`` and ``pending``, from the
        held edges, or from the edges ``fetch_all`` fetches (then held from the commit
        on, where they may be)."""
        at = _ends(stmt.edges, stmt.ends)

        def edges(rows: list) -> list:
            return [(r[at[0]], r[at[1]]) for r in rows]
        now, before = self._graph(stmt.edges, at), self._graph(stmt.edges, at, True)
        change = self.held.changed(stmt.edges.name)
        if now is None or change is None:
            versions = [t for t in (stmt.edges, stmt.added, stmt.removed)
                        if t.name not in empty]
            fetched = dict(zip((t.name for t in versions), fetch_all(versions)))
            rows, *change = [fetched.get(t.name, [])
                             for t in (stmt.edges, stmt.added, stmt.removed)]
            self.held.fetched(stmt.edges.name, rows)
            now = graph_of(edges(rows))
            added, removed = map(edges, change)
            # the edges before: those now less the added ones, with the removed ones
            before = Graph(Successors(now.ahead, removed, added, (0, 1)),
                           Successors(now.behind, removed, added, (1, 0)))
            return driver_rows(now, before, added, removed)
        return driver_rows(now, before, *map(edges, change))

    def _graph(self, table: Table, at: tuple[int, int],
               before: bool = False) -> Optional[Graph]:
        """The held edges of ``table`` both ways, now or ``before`` the transaction
        (None where the driver does not hold them)."""
        ahead = self.held.graph(table.name, at, before)
        if ahead is None:
            return None
        return Graph(ahead, self.held.graph(table.name, (at[1], at[0]), before))

    def variants(self, stmt: VariantsOnDriver, empty: Container[str]) -> Optional[list]:
        """The rows of ``stmt``'s variants a transaction leaves (those that need no
        ``empty`` table); None where one of them cannot run on the driver
        (:mod:`dl2sql.incremental.driver_variants`)."""
        node = stmt.statement.query.node
        parts = node.parts if isinstance(node, Parts) else node.query.parts
        made: dict[tuple, None] = {}
        for part, on_driver in zip(parts, stmt.parts):
            if any(n in empty for n in part.needs):
                continue
            source = None if on_driver is None else self._known.get(on_driver.source.name)
            if source is None:
                return None
            graphs = [self._graph(a.edges, _ends(a.edges, a.ends), a.before)
                      for a in on_driver.absent]
            if None in graphs:
                return None
            for r in source:
                if not any(reaches(g, r[a.start], r[a.end])
                           for g, a in zip(graphs, on_driver.absent)):
                    made[tuple(r[i] for i in on_driver.outputs)] = None
        return list(made)
