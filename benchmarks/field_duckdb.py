"""DuckDB's own recursive queries for the field benchmark (:mod:`benchmarks.field`),
written by hand, one per program.

* tc, sg, reach: ``WITH RECURSIVE ... UNION`` (set semantics: DuckDB drops a row
  already in the result, so the query ends on cyclic graphs too).
* cc, sssp: ``WITH RECURSIVE t(k, v) USING KEY (k)`` (DuckDB 1.3+): the result is a
  table keyed by node whose rows a later iteration replaces; the recursive term reads
  the rows changed by the last iteration (the working table, ``t``) and the whole
  keyed table (``recurring.t``), and emits a node's new label or distance only where
  it is smaller, so that only changed nodes propagate (``MIN`` in the recursive term).
* andersen, cspa: a plain recursive CTE cannot express them. Its recursive term sees
  only the last iteration's rows, so a rule that joins the relation with itself
  (non-linear) joins new rows with new rows only and misses facts: on a 4-cycle
  ``p(x, z) :- p(x, y), p(y, z)`` finds 12 of the 16 paths, silently. ``USING KEY``
  with every column as the key and ``recurring`` does express them: the recursive
  term is the semi-naive delta rule written by hand (new rows joined with all rows,
  each recursive atom in turn), less the rows already there (``NOT EXISTS`` on
  ``recurring``); cspa's three mutually recursive relations share one table with a
  tag column. That is semi-naive evaluation spelled out in SQL, not DuckDB's own
  recursion, and is labelled so.

Each function takes a connection and the inputs as Python rows, loads them and
returns ``(counts by relation, result rows or None)``.
"""
from __future__ import annotations

# input relation -> columns (all BIGINT), per program
SCHEMAS = {
    "tc": {"Edge": ("x", "y")},
    "sg": {"Parent": ("p", "c")},
    "reach": {"Source": ("n",), "Edge": ("x", "y")},
    "cc": {"Node": ("n",), "Edge": ("x", "y")},
    "sssp": {"Source": ("n",), "Edge": ("x", "y", "w")},
    "andersen": {"AddressOf": ("p", "a"), "Assign": ("p", "q"), "Load": ("p", "q"),
                 "Store": ("p", "q")},
    "cspa": {"Assign": ("x", "y"), "Dereference": ("x", "y")},
}

_CHUNK = 500_000  # rows per INSERT: bounds the parameter lists Python builds

COUNT_QUERIES = {
    "tc": ("Path", """
        WITH RECURSIVE Path(x, y) AS (
          SELECT x, y FROM Edge
          UNION
          SELECT Path.x, Edge.y FROM Path JOIN Edge ON Path.y = Edge.x)
        SELECT count(*) FROM Path"""),
    "sg": ("SG", """
        WITH RECURSIVE SG(x, y) AS (
          SELECT a.c, b.c FROM Parent a JOIN Parent b ON a.p = b.p WHERE a.c <> b.c
          UNION
          SELECT pa.c, pb.c FROM SG JOIN Parent pa ON pa.p = SG.x
                                    JOIN Parent pb ON pb.p = SG.y)
        SELECT count(*) FROM SG"""),
    "reach": ("Reach", """
        WITH RECURSIVE Reach(n) AS (
          SELECT n FROM Source
          UNION
          SELECT Edge.y FROM Reach JOIN Edge ON Reach.n = Edge.x)
        SELECT count(*) FROM Reach"""),
    "andersen": ("PointsTo", """
        WITH RECURSIVE PT(p, a) USING KEY (p, a) AS (
          SELECT p, a FROM AddressOf
          UNION
          SELECT DISTINCT c.p, c.a FROM (
            SELECT Assign.p, d.a FROM Assign JOIN PT d ON Assign.q = d.p
            UNION ALL
            SELECT Load.p, r.a FROM Load JOIN PT d ON Load.q = d.p
                                        JOIN recurring.PT r ON d.a = r.p
            UNION ALL
            SELECT Load.p, d.a FROM Load JOIN recurring.PT q ON Load.q = q.p
                                        JOIN PT d ON q.a = d.p
            UNION ALL
            SELECT d.a, s.a FROM Store JOIN PT d ON Store.p = d.p
                                       JOIN recurring.PT s ON Store.q = s.p
            UNION ALL
            SELECT r.a, d.a FROM Store JOIN recurring.PT r ON Store.p = r.p
                                       JOIN PT d ON Store.q = d.p
          ) c
          WHERE NOT EXISTS (SELECT 1 FROM recurring.PT o WHERE o.p = c.p AND o.a = c.a))
        SELECT count(*) FROM PT"""),
}

# cc and sssp return their result rows, so that the sets can be compared
ROW_QUERIES = {
    "cc": ("Label", """
        WITH RECURSIVE Label(n, l) USING KEY (n) AS (
          SELECT n, n FROM Node
          UNION
          SELECT c.n, c.l
          FROM (SELECT Edge.y AS n, min(Label.l) AS l
                FROM Label JOIN Edge ON Label.n = Edge.x GROUP BY Edge.y) c
          JOIN recurring.Label cur ON cur.n = c.n
          WHERE c.l < cur.l)
        SELECT n, l FROM Label"""),
    "sssp": ("Dist", """
        WITH RECURSIVE Dist(n, d) USING KEY (n) AS (
          SELECT n, 0::BIGINT FROM Source
          UNION
          SELECT c.n, c.d
          FROM (SELECT Edge.y AS n, min(Dist.d + Edge.w) AS d
                FROM Dist JOIN Edge ON Dist.n = Edge.x GROUP BY Edge.y) c
          LEFT JOIN recurring.Dist cur ON cur.n = c.n
          WHERE cur.d IS NULL OR c.d < cur.d)
        SELECT n, d FROM Dist"""),
}

# cspa: tag 0 ValueFlow, 1 MemoryAlias, 2 ValueAlias, in one keyed table T(r, a, b).
# d_X / f_X are the last iteration's rows (delta) and all rows (full) of relation X.
_CSPA_PARTS = {
    "d_vf": "(SELECT a, b FROM T WHERE r = 0)",
    "d_ma": "(SELECT a, b FROM T WHERE r = 1)",
    "d_va": "(SELECT a, b FROM T WHERE r = 2)",
    "f_vf": "(SELECT a, b FROM recurring.T WHERE r = 0)",
    "f_ma": "(SELECT a, b FROM recurring.T WHERE r = 1)",
}
CSPA_QUERY = """
    WITH RECURSIVE T(r, a, b) USING KEY (r, a, b) AS (
      SELECT DISTINCT * FROM (
        SELECT 0::INT, x, y FROM Assign UNION ALL SELECT 0, x, x FROM Assign
        UNION ALL SELECT 0, y, y FROM Assign UNION ALL SELECT 1, y, y FROM Assign
        UNION ALL SELECT 1, x, x FROM Assign)
      UNION
      SELECT DISTINCT c.r, c.a, c.b FROM (
        -- ValueFlow(x, y) :- Assign(x, z), MemoryAlias(z, y)
        SELECT 0 AS r, s.x AS a, m.b FROM Assign s JOIN {d_ma} m ON s.y = m.a
        -- ValueFlow(x, y) :- ValueFlow(x, z), ValueFlow(z, y)
        UNION ALL SELECT 0, p.a, q.b FROM {d_vf} p JOIN {f_vf} q ON p.b = q.a
        UNION ALL SELECT 0, p.a, q.b FROM {f_vf} p JOIN {d_vf} q ON p.b = q.a
        -- MemoryAlias(x, w) :- Dereference(y, x), ValueAlias(y, z), Dereference(z, w)
        UNION ALL SELECT 1, d1.y, d2.y FROM Dereference d1 JOIN {d_va} v ON d1.x = v.a
                                         JOIN Dereference d2 ON v.b = d2.x
        -- ValueAlias(x, y) :- ValueFlow(z, x), ValueFlow(z, y)
        UNION ALL SELECT 2, p.b, q.b FROM {d_vf} p JOIN {f_vf} q ON p.a = q.a
        UNION ALL SELECT 2, p.b, q.b FROM {f_vf} p JOIN {d_vf} q ON p.a = q.a
        -- ValueAlias(x, y) :- ValueFlow(z, x), MemoryAlias(z, w), ValueFlow(w, y)
        UNION ALL SELECT 2, p.b, q.b FROM {d_vf} p JOIN {f_ma} m ON p.a = m.a
                                      JOIN {f_vf} q ON m.b = q.a
        UNION ALL SELECT 2, p.b, q.b FROM {f_vf} p JOIN {d_ma} m ON p.a = m.a
                                      JOIN {f_vf} q ON m.b = q.a
        UNION ALL SELECT 2, p.b, q.b FROM {f_vf} p JOIN {f_ma} m ON p.a = m.a
                                      JOIN {d_vf} q ON m.b = q.a
      ) c
      WHERE NOT EXISTS (SELECT 1 FROM recurring.T o
                        WHERE o.r = c.r AND o.a = c.a AND o.b = c.b))
    SELECT r, count(*) FROM T GROUP BY r""".format(**_CSPA_PARTS)
CSPA_NAMES = {0: "ValueFlow", 1: "MemoryAlias", 2: "ValueAlias"}

# what each query is, for the printed table and the JSON
KIND = {"tc": "WITH RECURSIVE UNION", "sg": "WITH RECURSIVE UNION",
        "reach": "WITH RECURSIVE UNION", "cc": "WITH RECURSIVE USING KEY, MIN",
        "sssp": "WITH RECURSIVE USING KEY, MIN",
        "andersen": "USING KEY semi-naive by hand", "cspa": "USING KEY semi-naive by hand"}


def load(con, program: str, inputs: dict) -> None:
    """Create the input tables of ``program`` on ``con`` from Python rows, as dl2sql
    loads them (``unnest`` of one list per column, a chunk at a time)."""
    for name, cols in SCHEMAS[program].items():
        con.execute(f"CREATE OR REPLACE TABLE {name} ("
                    + ", ".join(f"{c} BIGINT" for c in cols) + ")")
        rows = inputs[name]
        select = ", ".join(f"unnest(${i + 1}::BIGINT[])" for i in range(len(cols)))
        for start in range(0, len(rows), _CHUNK):
            chunk = rows[start:start + _CHUNK]
            con.execute(f"INSERT INTO {name} SELECT {select}",
                        [[r[i] for r in chunk] for i in range(len(cols))])


def supports(program: str) -> bool:
    """Whether this module has a query for ``program``."""
    return program in COUNT_QUERIES or program in ROW_QUERIES or program == "cspa"


def run(con, program: str, inputs: dict) -> tuple[dict, frozenset | None]:
    """Load ``inputs`` and run ``program``'s query: (counts by relation, the result
    rows for cc/sssp, else None)."""
    load(con, program, inputs)
    if program == "cspa":
        got = dict(con.execute(CSPA_QUERY).fetchall())
        return {name: got.get(tag, 0) for tag, name in CSPA_NAMES.items()}, None
    if program in ROW_QUERIES:
        relation, query = ROW_QUERIES[program]
        rows = frozenset(con.execute(query).fetchall())
        return {relation: len(rows)}, rows
    relation, query = COUNT_QUERIES[program]
    return {relation: con.execute(query).fetchall()[0][0]}, None
