"""What differs between the SQL dialects dl2sql targets, one table per dialect.

The rest of sqlgen builds dialect-neutral sqlglot trees and asks this table only for
the few constructs whose meaning (not just spelling) differs between engines; sqlglot
takes care of spelling when the tree is printed with ``.sql(dialect=name)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from sqlglot import exp

from dl2sql.sqlgen.trees import select_all, table

DECIMAL = "DECIMAL(38, 0)"
# the new and old rows of a set difference; a short alias such as "n" was read by
# DuckDB, inside the correlated EXISTS, as a struct-valued column "n" of the old rows
NEW, OLD = "dl2sql_new", "dl2sql_old"
MARK = "dl2sql_side"  # a constant column that tells a full outer join's sides apart


def _cast(e: exp.Expression, to: str) -> exp.Cast:
    return exp.Cast(this=e, to=exp.DataType.build(to))


def _duckdb_decimal_div(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    # DuckDB divides DECIMALs in DOUBLE; HUGEINT (128-bit) division is exact and
    # truncates toward zero like DDlog.
    q = exp.IntDiv(this=_cast(a, "HUGEINT"), expression=_cast(b, "HUGEINT"))
    return _cast(q, DECIMAL)


def _spark_decimal_div(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    # Spark's DIV returns a 64-bit LONG; subtracting the remainder first makes the
    # DECIMAL quotient exact, and the cast drops its zero fraction.
    exact = exp.Sub(this=a, expression=exp.Mod(this=a.copy(), expression=b))
    return _cast(exp.Div(this=exact, expression=b.copy()), DECIMAL)


def _nonzero_constant(e: exp.Expression) -> bool:
    """Whether ``e`` is a number literal other than zero (possibly cast)."""
    while isinstance(e, (exp.Cast, exp.Paren)):
        e = e.this
    if not (isinstance(e, exp.Literal) and not e.is_string):
        return False
    try:
        return float(e.this) != 0
    except ValueError:
        return False


def _ieee_div(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    return exp.Div(this=a, expression=b)


def _spark_ieee_div(a: exp.Expression, b: exp.Expression) -> exp.Expression:
    # DDlog divides floating-point numbers as IEEE 754 does (x / 0.0 is an infinity or
    # NaN); Spark's `/` fails with DIVIDE_BY_ZERO in ANSI mode (and is NULL without it).
    # try_divide is the exact quotient, NULL for a zero divisor only, and then
    # a * b^-1 is the IEEE result: Java's pow gives +-Infinity for +-0.0 to the power
    # -1, so the sign of a negative zero counts, and 0 or NaN times it is NaN. ANSI
    # mode stays as it is for everything else (integer division by zero still fails).
    if _nonzero_constant(b):
        return exp.Div(this=a, expression=b)
    return exp.Coalesce(
        this=exp.Anonymous(this="try_divide", expressions=[a, b]),
        expressions=[exp.Mul(this=a.copy(), expression=exp.Anonymous(
            this="power", expressions=[b.copy(), exp.Literal.number(-1)]))])


def _spark_explode(select: exp.Select, array: exp.Expression, alias: str) -> exp.Select:
    lateral = exp.Lateral(this=exp.Explode(this=array), view=True, alias=exp.TableAlias(
        this=exp.to_identifier(alias, quoted=True),
        columns=[exp.to_identifier("_e", quoted=True)]))
    select.append("laterals", lateral)
    return select


def _duckdb_explode(select: exp.Select, array: exp.Expression, alias: str) -> exp.Select:
    unnest = exp.Unnest(expressions=[array], alias=exp.TableAlias(
        this=exp.to_identifier(alias, quoted=True),
        columns=[exp.to_identifier("_e", quoted=True)]))
    return select.join(unnest, join_type="CROSS")


def _except(new: exp.Expression, old: str, columns: list[str],
            carried: list[str] = ()) -> exp.Expression:
    if carried:
        raise ValueError("EXCEPT cannot carry columns the other side lacks")
    return exp.except_(new, select_all(old), distinct=True)


def _duckdb_not_exists(new: exp.Expression, old: str, columns: list[str],
                       carried: list[str] = ()) -> exp.Expression:
    # DuckDB hashes both sides of an EXCEPT or INTERSECT; a correlated (NOT) EXISTS
    # becomes a semi- or anti-join that builds on the smaller side. A transaction's new
    # rows are few and the stored ones many: against 640,000 stored rows, 800 new ones
    # took 3.8 ms instead of 31 ms, 600,000 new ones 79 ms instead of 177 ms.
    # IS NOT DISTINCT FROM matches NULLs (inside values too) as the set operations do.
    return _exists_filter(new, old, columns, negated=True, carried=carried)


def _duckdb_exists(new: exp.Expression, old: str, columns: list[str]) -> exp.Expression:
    return _exists_filter(new, old, columns, negated=False)


def _exists_filter(new: exp.Expression, old: str, columns: list[str],
                   negated: bool, carried: list[str] = ()) -> exp.Expression:
    def col(alias: str, c: str) -> exp.Column:
        return exp.column(c, table=alias, quoted=True)
    same = exp.and_(*[exp.NullSafeEQ(this=col(OLD, c), expression=col(NEW, c))
                      for c in columns])
    found = exp.Exists(this=exp.Select(expressions=[exp.Literal.number(1)]).from_(
        table(old, OLD)).where(same))
    return exp.Select(expressions=[col(NEW, c) for c in [*columns, *carried]]).from_(
        exp.Subquery(this=new, alias=exp.TableAlias(this=exp.to_identifier(NEW, quoted=True)))
    ).where(exp.Not(this=found) if negated else found)


def _intersect(new: exp.Expression, old: str, columns: list[str]) -> exp.Expression:
    return exp.intersect(new, select_all(old), distinct=True)


def _spark_semi_join(new: exp.Expression, old: str, columns: list[str]) -> exp.Expression:
    # as for the difference (below): ``new`` is duplicate-free and holds no NULL
    return _spark_join(new, old, columns, "LEFT SEMI")


def _spark_anti_join(new: exp.Expression, old: str, columns: list[str],
                     carried: list[str] = ()) -> exp.Expression:
    # Spark plans EXCEPT as an anti-join on null-safe keys (coalesce(c, 0), isnull(c))
    # even for NOT NULL columns; those keys do not match the hash partitioning that the
    # DISTINCT on the left already produced, so the new rows were shuffled a second
    # time. ``new`` is duplicate-free and no column holds NULL, so a plain anti-join on
    # `=` is the same set difference with one shuffle less.
    return _spark_join(new, old, columns, "LEFT ANTI", carried)


def _spark_join(new: exp.Expression, old: str, columns: list[str], kind: str,
                carried: list[str] = ()) -> exp.Expression:
    def col(alias: str, c: str) -> exp.Column:
        return exp.column(c, table=alias, quoted=True)
    on = exp.and_(*[exp.EQ(this=col(NEW, c), expression=col(OLD, c)) for c in columns])
    return exp.Select(expressions=[col(NEW, c) for c in [*columns, *carried]]).from_(
        exp.Subquery(this=new, alias=exp.TableAlias(this=exp.to_identifier(NEW, quoted=True)))
    ).join(table(old, OLD), on=on, join_type=kind)


def _full_join_changes(equal) -> Callable[..., exp.Expression]:
    """The rows of one table not in the other as one full outer join on ``equal``
    (DuckDB's ``IS NOT DISTINCT FROM``, Spark's ``=``: as for its anti-join, no
    column holds NULL), each side marked by a constant so that a row's side is known
    whatever its values; DuckDB takes 0.55x the time of the two differences on a
    closure of 800 k paths (docs/performance.md)."""
    def changes(new: str, old: str, columns: list[str], side) -> exp.Expression:
        def col(alias: str, c: str) -> exp.Column:
            return exp.column(c, table=alias, quoted=True)

        def marked(name: str, alias: str) -> exp.Subquery:
            rows = exp.Select(expressions=[exp.Star(), exp.alias_(
                exp.true(), MARK, quoted=True)]).from_(table(name))
            return exp.Subquery(this=rows, alias=exp.TableAlias(
                this=exp.to_identifier(alias, quoted=True)))
        in_new = exp.Not(this=exp.Is(this=col(NEW, MARK), expression=exp.Null()))
        outputs = [exp.alias_(exp.If(this=in_new.copy(), true=col(NEW, c), false=col(OLD, c)),
                              c, quoted=True) for c in columns]
        if side is not None:
            outputs.append(exp.alias_(in_new.copy(), side, quoted=True))
        on = exp.and_(*[equal(this=col(NEW, c), expression=col(OLD, c)) for c in columns])
        return exp.Select(expressions=outputs).from_(marked(new, NEW)).join(
            marked(old, OLD), on=on, join_type="FULL OUTER").where(exp.or_(
                exp.Is(this=col(NEW, MARK), expression=exp.Null()),
                exp.Is(this=col(OLD, MARK), expression=exp.Null())))
    return changes


def _beaten(new: exp.Expression, old: str, keys: list[str], value: str,
            direction: str) -> exp.Expression:
    """The condition that a row of ``old`` has the keys of the ``new`` row and a value
    at least as good (a lattice loop's candidate that improves nothing)."""
    def col(alias: str, c: str) -> exp.Column:
        return exp.column(c, table=alias, quoted=True)
    better = exp.LTE if direction == "min" else exp.GTE
    return exp.and_(*[exp.EQ(this=col(OLD, c), expression=col(NEW, c)) for c in keys],
                    better(this=col(OLD, value), expression=col(NEW, value)))


def _new_rows(new: exp.Expression) -> exp.Select:
    star = exp.Column(this=exp.Star(), table=exp.to_identifier(NEW, quoted=True))
    return exp.Select(expressions=[star]).from_(
        exp.Subquery(this=new, alias=exp.TableAlias(this=exp.to_identifier(NEW, quoted=True))))


def _duckdb_recurring(name: str) -> exp.Table:
    """``recurring."name"``: the rows so far of the keyed recursive query ``name``."""
    return exp.Table(this=exp.to_identifier(name, quoted=True),
                     db=exp.to_identifier("recurring"))


def _improvement_not_exists(new: exp.Expression, old: str | exp.Table, keys: list[str],
                            value: str, direction: str) -> exp.Expression:
    # DuckDB makes the correlated NOT EXISTS an anti-join on the keys that builds on
    # the smaller side, the comparison of values a condition of the join
    found = exp.Exists(this=exp.Select(expressions=[exp.Literal.number(1)]).from_(
        table(old, OLD)).where(_beaten(new, old, keys, value, direction)))
    return _new_rows(new).where(exp.Not(this=found))


def _spark_improvement(new: exp.Expression, old: str | exp.Table, keys: list[str],
                       value: str, direction: str) -> exp.Expression:
    # written as the anti-join it is (equal keys, the value a condition of the join),
    # as Spark's set difference is (below)
    return _new_rows(new).join(table(old, OLD), on=_beaten(new, old, keys, value, direction),
                               join_type="LEFT ANTI")


def _spark_distribute(select: exp.Select, columns: list[str]) -> exp.Expression:
    # ``SELECT DISTINCT ... DISTRIBUTE BY`` would shuffle twice (the DISTINCT first, on
    # all columns). Distributing the rows before the DISTINCT gives it, and the set
    # difference after it, input already partitioned on a column of the compared
    # rows: one shuffle in all (see dl2sql.plan.partitioning).
    inner = select.copy()
    inner.set("distinct", None)
    inner.set("distribute", exp.Distribute(
        expressions=[exp.column(c, quoted=True) for c in columns]))
    alias = exp.TableAlias(this=exp.to_identifier("dl2sql_distributed", quoted=True))
    return exp.Select(expressions=[exp.Star()]).distinct().from_(
        exp.Subquery(this=inner, alias=alias))


def _no_distribute(select: exp.Select, columns: list[str]) -> exp.Expression:
    return select


def temporary_names(columns: list[str], key: list[str]) -> tuple[list[str], list[str]]:
    """Temporary names for ``columns`` and those of the ``key`` columns among them:
    ``dl2sql$N`` is not a possible DDlog field name, so never a column's own name."""
    temporary = [f"dl2sql${i}" for i in range(len(columns))]
    position = {c: i for i, c in enumerate(columns)}
    return temporary, [temporary[position[k]] for k in key]


def _spark_store_partitioned(query: exp.Expression, columns: list[str],
                             key: list[str]) -> exp.Expression:
    # A checkpoint keeps its partitioning where a query reads it twice (Spark then
    # gives one of the two reads fresh attributes) only if the attributes of its
    # partitioning are exactly those of its output. A SQL query's are not (they carry
    # other qualifiers, and the optimizer drops an alias such as ``x AS x``, after
    # which the logical and the physical plan name different attributes). So the
    # result is renamed to temporary names and back, hash-partitioned on the key after
    # each renaming: REPARTITION hints, free where the rows are partitioned so already
    # (the plan distributes them on the key), into the session's shuffle partitions
    # (which the runner sets to the loop's partitions while it plans). The inner
    # repartition keeps the optimizer from merging the two renamings into ``x AS x``.
    temporary, temporary_key = temporary_names(columns, key)
    inner = _renamed(query, columns, temporary, "stored")
    _hint_repartition(inner, temporary_key)
    outer = _renamed(inner, temporary, columns, "renamed")
    _hint_repartition(outer, key)
    return outer


def _renamed(query: exp.Expression, names, new_names, alias: str) -> exp.Select:
    """``SELECT n AS new, ... FROM (query) AS alias``."""
    return exp.select(*[
        exp.alias_(exp.column(n, quoted=True), new, quoted=True)
        for n, new in zip(names, new_names)
    ]).from_(exp.Subquery(this=query, alias=exp.TableAlias(
        this=exp.to_identifier(alias, quoted=True))))


def _hint_repartition(select: exp.Select, columns) -> None:
    select.set("hint", exp.Hint(expressions=[exp.Anonymous(
        this="REPARTITION", expressions=[exp.column(c, quoted=True) for c in columns])]))


def _store_as_is(query: exp.Expression, columns: list[str], key: list[str]) -> exp.Expression:
    return query


def _fn(name: str) -> Callable[..., exp.Expression]:
    return lambda *args: exp.Anonymous(this=name, expressions=list(args))


@dataclass(frozen=True)
class Groups:
    """Aggregation into groups (``group_by``): each engine's spelling of sorting an
    aggregated list, indexing it from either end (1-based, negative from the end) and
    its length. Spark's ``array_distinct`` keeps order; DuckDB's ``list_distinct``
    does not, so a set is re-sorted there."""

    sorted_list: Callable[[exp.Expression], exp.Expression]
    element: Callable[[exp.Expression, exp.Expression], exp.Expression]
    size: Callable[[exp.Expression], exp.Expression]
    sorted_distinct: Callable[[exp.Expression], exp.Expression]


SPARK_GROUPS = Groups(lambda x: _fn("array_sort")(_fn("collect_list")(x)),
                      _fn("element_at"), _fn("size"), _fn("array_distinct"))
DUCKDB_GROUPS = Groups(lambda x: _fn("list_sort")(_fn("list")(x)),
                       _fn("list_extract"), _fn("len"),
                       lambda a: _fn("list_sort")(_fn("list_distinct")(a)))


@dataclass(frozen=True)
class HigherOrder:
    """Array functions taking a lambda (Spark ``x -> e``, DuckDB ``lambda x: e``;
    sqlglot prints each lambda in its dialect's syntax)."""

    transform: Callable[[exp.Expression, exp.Expression], exp.Expression]
    filter: Callable[[exp.Expression, exp.Expression], exp.Expression]
    # any array as a Set: sorted ascending, without duplicates
    to_set: Callable[[exp.Expression], exp.Expression]


SPARK_HOF = HigherOrder(_fn("transform"), _fn("filter"),
                        lambda a: _fn("array_sort")(_fn("array_distinct")(a)))
DUCKDB_HOF = HigherOrder(_fn("list_transform"), _fn("list_filter"),
                         lambda a: _fn("list_sort")(_fn("list_distinct")(a)))


@dataclass(frozen=True)
class Dialect:
    """The per-dialect table: sqlglot dialect name and the constructs that differ."""

    name: str
    decimal_int_div: Callable[[exp.Expression, exp.Expression], exp.Expression]
    byte_length: Callable[[exp.Expression], exp.Expression]
    # one row per element of an array, as column `_e` of the given alias (FlatMap)
    explode: Callable[[exp.Select, exp.Expression, str], exp.Select]
    groups: Groups = SPARK_GROUPS
    hof: HigherOrder = SPARK_HOF
    # rows of a duplicate-free query not in a table: (query, table, columns) -> query
    # (query, table, columns compared, more columns of the query kept) -> query
    difference: Callable[..., exp.Expression] = _except
    # the rows of either of two tables not in the other, with a column true for the
    # first's: (new table, old table, columns compared, that column or None) -> query
    changes: Callable[..., exp.Expression] = _full_join_changes(exp.EQ)
    # the rows of a query (one per key) whose value beats every row of a table with
    # the same keys: (query, table, keys, value column, "min" or "max") -> query
    improvement: Callable[..., exp.Expression] = _improvement_not_exists
    # a keyed recursive query's own rows so far, read in its step (DuckDB's
    # ``recurring.name``); None where the dialect has no keyed recursion
    recurring: Optional[Callable[[str], exp.Table]] = None
    # the rows of a duplicate-free query that a table also holds
    intersection: Callable[[exp.Expression, str, list[str]], exp.Expression] = _intersect
    # an expression that fails the query with the given message
    fail: Callable[[exp.Expression], exp.Expression] = _fn("raise_error")
    # makes a SELECT DISTINCT's rows come out hash-partitioned on the given columns
    # (the plan's Distribute; dialects without it keep the query as it is)
    distribute: Callable[[exp.Select, list[str]], exp.Expression] = _no_distribute
    # the query storing a table that the plan keeps partitioned on ``key``:
    # (query, columns, key) -> query
    store_partitioned: Callable[[exp.Expression, list[str], list[str]],
                                exp.Expression] = _store_as_is
    # whether a Python UDF under a CASE runs only for the rows that reach it (DuckDB);
    # Spark runs every UDF of a query on every row before the CASE decides
    lazy_udfs: bool = False
    # whether a Python UDF's NaN result arrives as NULL (DuckDB's Python UDFs): a
    # floating-point result, never NULL in DDlog, is then read back as NaN
    udf_nan_is_null: bool = False
    # a / b of floating-point numbers with IEEE 754's results for b = 0
    float_div: Callable[[exp.Expression, exp.Expression], exp.Expression] = _ieee_div
    # |dividend| below which decimal_int_div is exact (Spark's quotient has 32 digits)
    exact_division: float = 1e32
    # whether DECIMAL + - * always fail the query where a result overflows (DuckDB;
    # Spark only in ANSI mode, which a user's session may turn off: NULL otherwise)
    checked_decimals: bool = False
    # the exact integer type of 128 bits in which sums and products of 64-bit integers
    # are taken before they wrap (DuckDB's HUGEINT wraps by a mask; Spark has only
    # DECIMAL(38,0), which wraps by a remainder)
    exact_int: str = "DECIMAL(38, 0)"
    # whether a 64-bit sum that might overflow is taken in BIGINT by its 32-bit halves
    # (exprs._sum_by_halves; Spark: its DECIMAL remainders cost 0.8 us a value)
    sums_by_halves: bool = False
    # a string constant
    string: Callable[[str], exp.Expression] = exp.Literal.string
    # the strings of an array joined with a separator between them
    array_join: Callable[[exp.Expression, exp.Expression], exp.Expression] = _fn("array_join")


def _spark_string(text: str) -> exp.Expression:
    # Spark substitutes `${name}` in SQL text before parsing it, inside string
    # literals too (spark.sql.variable.substitute, on by default): `${` is kept
    # from appearing by cutting the constant between `$` and `{`.
    if "${" not in text:
        return exp.Literal.string(text)
    pieces = text.split("${")
    parts = [pieces[0] + "$"] + ["{" + p + "$" for p in pieces[1:-1]] + ["{" + pieces[-1]]
    return exp.Concat(expressions=[exp.Literal.string(p) for p in parts])


SPARK = Dialect("spark", _spark_decimal_div,
                lambda s: exp.Anonymous(this="octet_length", expressions=[s]),
                _spark_explode, difference=_spark_anti_join,
                improvement=_spark_improvement,
                intersection=_spark_semi_join, distribute=_spark_distribute,
                store_partitioned=_spark_store_partitioned, string=_spark_string,
                float_div=_spark_ieee_div, sums_by_halves=True)
# DuckDB's strlen counts bytes (length counts characters)
DUCKDB = Dialect("duckdb", _duckdb_decimal_div,
                 lambda s: exp.Anonymous(this="strlen", expressions=[s]),
                 _duckdb_explode, groups=DUCKDB_GROUPS,
                 hof=DUCKDB_HOF, fail=_fn("error"), difference=_duckdb_not_exists,
                 changes=_full_join_changes(exp.NullSafeEQ),
                 intersection=_duckdb_exists, lazy_udfs=True, exact_division=1e38,
                 recurring=_duckdb_recurring,
                 checked_decimals=True, array_join=_fn("array_to_string"),
                 exact_int="HUGEINT",
                 udf_nan_is_null=True)
DIALECTS = {"spark": SPARK, "duckdb": DUCKDB}
