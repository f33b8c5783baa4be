"""A database of its own for each run on a DuckDB connection the user passes.

dl2sql names its tables after the program's relations. On a connection of the user's,
those names would replace the user's own tables (an input table ``Edge`` read and then
overwritten by its deduplicated copy) and the tables of any other program maintained on
the same connection (two programs with an output ``Out`` read each other's rows). A
runner on such a connection therefore attaches an in-memory database of its own
(``ATTACH ':memory:' AS dl2sql_N``) and every statement it prints names its tables
inside it: nothing is written to the user's database (a file stays as it was), the
tables go with the connection at the latest, and ``close`` detaches them sooner.
"""
from __future__ import annotations

import itertools

from sqlglot import exp

# views of the inputs' sources, registered on the connection (io/duckdb_frames.py):
# DuckDB keeps them in its temporary catalog, where unqualified names find them
_REGISTERED = "dl2sql__input__"
_NUMBERS = itertools.count(1)


def attach_own_database(con) -> str:
    """Attach a new in-memory database to ``con``; its name, ``dl2sql_N``, never given
    before in this process (a release of a closed run must not detach a later run's
    database that would have the same name) nor a database the connection has."""
    taken = {row[0] for row in con.execute(exp.select(exp.column("database_name")).from_(
        exp.Table(this=exp.Anonymous(this="duckdb_databases"))).sql(dialect="duckdb"))
        .fetchall()}
    while True:
        name = f"dl2sql_{next(_NUMBERS)}"
        if name not in taken:
            con.execute(exp.Attach(this=exp.alias_(
                exp.Literal.string(":memory:"), name, quoted=True)).sql(dialect="duckdb"))
            return name


def detach(con, name: str) -> None:
    """Detach the database ``name`` (its tables are gone); nothing when the connection
    is closed already."""
    try:
        con.execute(exp.Detach(this=exp.to_identifier(name, quoted=True),
                               exists=True).sql(dialect="duckdb"))
    except Exception:  # the user closed the connection first: the tables went with it
        pass


def in_database(query: exp.Expression, database: str) -> exp.Expression:
    """``query`` with each table it names unqualified put in ``database`` (its ``main``
    schema), except the names of its own CTEs, the registered input views and the new
    name of an ``ALTER TABLE … RENAME`` (which DuckDB takes unqualified)."""
    ctes = {cte.alias for cte in query.find_all(exp.CTE)}

    def qualify(node: exp.Expression) -> exp.Expression:
        if (isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier)
                and not node.args.get("db") and not node.args.get("catalog")
                and node.name not in ctes and not node.name.startswith(_REGISTERED)
                and not isinstance(node.parent, exp.AlterRename)):
            node = node.copy()
            node.set("catalog", exp.to_identifier(database, quoted=True))
            node.set("db", exp.to_identifier("main", quoted=True))
        return node
    return query.transform(qualify)


def tables_of(con, database: str) -> list[str]:
    """The names of the tables in ``database``."""
    return [row[0] for row in con.execute(
        exp.select(exp.column("table_name")).from_(
            exp.Table(this=exp.Anonymous(this="duckdb_tables")))
        .where(exp.column("database_name").eq(exp.Literal.string(database)))
        .sql(dialect="duckdb")).fetchall()]
