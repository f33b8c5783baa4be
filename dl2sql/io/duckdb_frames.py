"""pandas DataFrames, DuckDB relations and files as the contents of input relations
on DuckDB. Validation is by column name, like on Spark; values are cast to the
relation's column types, and a value that does not fit fails with an InputError."""
from __future__ import annotations

from dl2sql.diagnostics import InputError
from dl2sql.plan.nodes import Table


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _relation(con, relation: str, src):
    """``src`` as a DuckDB relation."""
    try:
        if isinstance(src, str):
            lower = src.lower()
            if lower.endswith(".parquet"):
                return con.read_parquet(src)
            if lower.endswith((".json", ".jsonl")):
                return con.read_json(src, format="newline_delimited")
            if lower.endswith(".csv"):
                # CSV has no types: read text and cast to the declared ones (DuckDB's
                # guesses would turn a string column "030" into the number 30)
                return con.read_csv(src, header=True, all_varchar=True)
            return con.table(src)
        if hasattr(src, "columns") and hasattr(src, "dtypes") and not hasattr(src, "types"):
            return con.from_df(src)  # pandas
        if hasattr(src, "types") and hasattr(src, "columns"):
            return src  # a DuckDB relation
    except InputError:
        raise
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise InputError(f"input relation `{relation}`: cannot read `{src}`: {first}") \
            from None
    raise InputError(f"input relation `{relation}`: expected a pandas DataFrame, a DuckDB "
                     f"relation, a table name or a file path, found {type(src).__name__}")


_INTEGERS = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
             "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT")


def _kind(t: str) -> str:
    """A DuckDB type's family, for deciding what may be cast without loss."""
    t = t.upper()
    if t.endswith("[]"):
        return "list"
    if t.startswith("STRUCT"):
        return "struct"
    if t in _INTEGERS or (t.startswith("DECIMAL") and t.replace(" ", "").endswith(",0)")):
        return "integer"
    if t in ("FLOAT", "REAL"):
        return "float"
    if t == "DOUBLE":
        return "double"
    if t in ("VARCHAR", "TEXT", "STRING"):
        return "string"
    return t


def _fits(found: str, expected: str) -> bool:
    f, e = _kind(found), _kind(expected)
    return f == e or (e == "double" and f == "float")


class DuckDBInput:
    """An input relation's contents on DuckDB."""

    def __init__(self, relation: str, source):
        self.relation, self.source = relation, source

    def load_into(self, runner, table: Table) -> None:
        """Create ``table`` from the source, casting each column to its type."""
        con = runner.con
        rel = _relation(con, self.relation, self.source)
        found = dict(zip(rel.columns, (str(t) for t in rel.types)))
        select = []
        for c in table.columns:
            expected = c.type.sql(dialect="duckdb")
            if c.name not in found:
                raise InputError(
                    f"input relation `{self.relation}`: column `{c.name}` is missing "
                    f"(expected {expected}; found columns: {', '.join(found) or 'none'})")
            from_csv = isinstance(self.source, str) and self.source.lower().endswith(".csv")
            if not from_csv and not _fits(found[c.name], expected):
                raise InputError(f"input relation `{self.relation}`: column `{c.name}` has "
                                 f"type {found[c.name]}, expected {expected}")
            select.append(f"CAST({_quote(c.name)} AS {expected}) AS {_quote(c.name)}")
        extra = sorted(set(found) - {c.name for c in table.columns})
        if extra:
            raise InputError(f"input relation `{self.relation}`: unexpected column "
                             f"`{extra[0]}` (expected "
                             f"{', '.join(c.name for c in table.columns)})")
        view = f"__dl2sql_input_{table.name}"
        con.register(view, rel)
        try:
            runner.con.execute(f"CREATE OR REPLACE TABLE {_quote(table.name)} AS "
                               f"SELECT DISTINCT {', '.join(select)} FROM {_quote(view)}")
        except Exception as e:
            first = str(e).strip().splitlines()[0]
            raise InputError(f"input relation `{self.relation}`: its values do not fit the "
                             f"declared column types: {first}") from None
        finally:
            con.unregister(view)
