"""What the DuckDB runner keeps on the driver instead of in DuckDB's tables.

A transaction of a maintained program that changes a few rows spends most of its time
in statements whose work is nothing: making a table of two rows, deleting one row and
inserting another. Each costs DuckDB 0.3-1 ms however little it does. So the runner
keeps two things on the driver until a statement reads them:

* held tables: temporary tables of a few rows made on the driver (``Runner.hold``),
  made in DuckDB when a query reads them, read as parameters by a patch or a frame;
* deferred patches: the changes of a stored table given as held rows, applied (one
  ``DELETE`` and one ``INSERT`` for every change since the last read) when a statement
  next reads the table. A transaction whose changes the driver works out then runs
  no statement at all, and the changes of many such transactions cost two statements.

Both belong to the runner's transactions: :meth:`HeldRows.mark` and
:meth:`HeldRows.restore` put them back as they were when a transaction fails.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

from dl2sql.plan.nodes import Table


class Patch(NamedTuple):
    """The deferred changes of one stored table: every row touched, and whether it is
    present after them (in the order the rows were first touched)."""

    table: Table
    present: dict

    def touched(self) -> list:
        """Every row the changes touched (deleted before the present ones go in)."""
        return list(self.present)

    def inserted(self) -> list:
        """The rows present after the changes."""
        return [row for row, there in self.present.items() if there]


class HeldRows:
    """The held tables and the deferred patches of one runner."""

    def __init__(self):
        self.tables: dict[str, tuple[Table, list]] = {}
        self.patches: dict[str, Patch] = {}

    def hold(self, table: Table, rows: list) -> None:
        """Keep ``table``'s rows (it replaces any table or patch of that name)."""
        self.patches.pop(table.name, None)
        self.tables[table.name] = (table, rows)

    def rows(self, name: str) -> Optional[list]:
        """The rows of held table ``name``, or None when it is not held."""
        held = self.tables.get(name)
        return None if held is None else held[1]

    def forget(self, name: str) -> None:
        """Table ``name`` is replaced or dropped: what was kept of it goes."""
        self.tables.pop(name, None)
        self.patches.pop(name, None)

    def forget_tables(self) -> None:
        """The held tables go (nothing reads them any more); deferred patches stay."""
        self.tables = {}

    def defer(self, target: Table, plus: Optional[list], minus: Optional[list]) -> bool:
        """Record ``target := (target - minus) ∪ plus`` to be applied when ``target`` is
        next read; False (nothing recorded) when a row cannot be a dictionary key."""
        patch = self.patches.get(target.name)
        present = dict(patch.present) if patch is not None else {}
        try:
            for row in minus or ():
                present[row] = False
            for row in plus or ():
                present[row] = True
        except TypeError:  # a row holding a list: applied now instead
            return False
        # a new dictionary: a mark taken before this patch still sees the old one
        self.patches[target.name] = Patch(target, present)
        return True

    def take_patch(self, name: str) -> Optional[Patch]:
        """The deferred patch of stored table ``name`` (no longer deferred), if any."""
        return self.patches.pop(name, None)

    def touched(self, name: str) -> int:
        """How many rows the deferred changes of table ``name`` touch."""
        patch = self.patches.get(name)
        return 0 if patch is None else len(patch.present)

    def mark(self) -> dict:
        """The deferred patches now, for :meth:`restore` (a transaction begins)."""
        return dict(self.patches)

    def restore(self, mark: dict) -> None:
        """The deferred patches at ``mark`` (the transaction failed: DuckDB undid what
        it applied of them, so they are deferred again); the held tables go with the
        rest of the transaction."""
        self.tables = {}
        self.patches = dict(mark)
