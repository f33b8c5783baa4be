"""The tables of an update plan whose sizes decide what runs next.

On an engine where counting a table's rows costs an action (Spark), a transaction
counts only these; the others are stored without a count (taken as not empty).
"""
from __future__ import annotations

from dl2sql.incremental.nodes import BySize, Enough, OverDeletion, Refuse, UpdatePlan
from dl2sql.plan.build import table_name
from dl2sql.plan.nodes import Append, Loop, Rename
from dl2sql.plan.statements import children


def decisive_tables(plan: UpdatePlan) -> set[str]:
    """The tables of an update plan whose number of rows decides what runs next: the
    new rows of loops, the tables of ``Enough``, ``BySize`` and ``Refuse``, a
    closure's removed edges not found again, and the changes of input relations."""
    out: set[str] = set()
    renames: list[Rename] = []

    def visit(stmts) -> None:
        for st in stmts:
            if isinstance(st, (Rename, Append)):
                renames.append(st)
            elif isinstance(st, Loop):
                out.update(st.until_empty)
            elif isinstance(st, OverDeletion):
                out.update(t for _, t in st.deleted)
            elif isinstance(st, Enough):
                out.update(t.name for t in st.tables)
            elif isinstance(st, (BySize, Refuse)):
                out.add(st.table.name)
            visit(children(st))
    for s in plan.strata:
        visit(s.statements)
        if s.levels is not None:
            visit(s.levels.deletion + s.levels.dred + s.levels.insertion + s.levels.rebuild)
        if s.lossless is not None:
            out.add(s.lossless.name)
    # the changes of the input relations: which strata run at all, and whether a
    # transaction is large against what it changes (an input stream's size also says
    # whether the next transaction must empty it)
    for rel in plan.changes:
        out.update(table_name(rel, v) for v in ("plus", "minus"))
    # a table renamed or appended into a decisive one is counted where it is made
    grew = True
    while grew:
        grew = False
        for r in renames:
            if r.target.name in out and r.source.name not in out:
                out.add(r.source.name)
                grew = True
    return out
