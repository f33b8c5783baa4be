-- Shapes: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Shapes" AS
WITH RECURSIVE "Shapes__delta"("n", "big", "wide", "tags", "seen", "o", "d") AS (
  SELECT
    CAST(0 AS BIGINT) AS "n",
    CAST(18446744073709551615 AS DECIMAL(38, 0)) AS "big",
    {'num$': CAST(-12345678901234567890123 AS DECIMAL(38, 0)), 'big$': ''} AS "wide",
    CAST([] AS TEXT[]) AS "tags",
    CAST([] AS STRUCT(_0 TEXT, _1 BIGINT)[]) AS "seen",
    {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)} AS "o",
    CAST(0.5 AS DOUBLE) AS "d"
  UNION
  SELECT
    (
      "t1"."n" + CAST(1 AS BIGINT)
    ) & 4294967295 AS "n",
    CAST(CAST("t1"."big" - CAST(1 AS DECIMAL(38, 0)) AS INT128) & 18446744073709551615 AS DECIMAL(38, 0)) AS "big",
    CASE
      WHEN ABS(CAST("t1"."wide"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
      AND ABS(CAST("t1"."wide"."num$" AS DOUBLE)) * CAST(2.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      THEN {'num$': CAST("t1"."wide"."num$" * CAST(2 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
      ELSE DL2SQL_5FF30C76_WIDE_UDF_1("t1"."wide")
    END AS "wide",
    DL2SQL_5FF30C76_WIDE_UDF_2("t1"."tags", 't' || CAST("t1"."n" AS TEXT)) AS "tags",
    DL2SQL_5FF30C76_WIDE_UDF_3("t1"."seen", 'k' || CAST("t1"."n" AS TEXT), "t1"."n") AS "seen",
    {'tag': CAST(1 AS BIGINT), 'Some_x': CAST(CAST("t1"."n" AS DECIMAL(38, 0)) AS BIGINT) - CAST(5 AS BIGINT)} AS "o",
    "t1"."d" * CAST(3.0 AS DOUBLE) AS "d"
  FROM "Shapes__delta" AS "t1"
  WHERE
    "t1"."n" < CAST(5 AS BIGINT)
)
SELECT
  *
FROM "Shapes__delta";
-- ShapeOf
CREATE OR REPLACE TEMPORARY VIEW "ShapeOf" AS
SELECT DISTINCT
  "t1"."name",
  {'n': "t2"."n", 'big': "t2"."big", 'wide': "t2"."wide", 'tags': "t2"."tags", 'seen': "t2"."seen", 'o': "t2"."o", 'd': "t2"."d"} AS "shape"
FROM "Item" AS "t1"
JOIN "Shapes" AS "t2"
  ON "t2"."n" = "t1"."n";
-- Link
CREATE OR REPLACE TEMPORARY VIEW "Link" AS
SELECT
  CAST(1 AS BIGINT) AS "a",
  CAST(2 AS BIGINT) AS "b"
UNION
SELECT
  CAST(2 AS BIGINT) AS "a",
  CAST(3 AS BIGINT) AS "b"
UNION
SELECT
  CAST(3 AS BIGINT) AS "a",
  CAST(4 AS BIGINT) AS "b"
UNION
SELECT
  CAST(4 AS BIGINT) AS "a",
  CAST(2 AS BIGINT) AS "b";
-- Hops: empty before the first iteration
CREATE OR REPLACE TEMPORARY VIEW "Hops" AS
SELECT
  CAST(NULL AS BIGINT) AS "node",
  CAST(NULL AS BIGINT) AS "hops"
WHERE
  FALSE;
-- repeat (stratum Hops):
  -- Hops__group1_rows: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Hops__group1_rows" AS
  SELECT DISTINCT
    "t1"."node" AS "a",
    "t1"."hops" AS "d",
    "t2"."b",
    (
      "t1"."hops" + CAST(1 AS BIGINT)
    ) & 4294967295 AS "__value"
  FROM "Hops" AS "t1"
  JOIN "Link" AS "t2"
    ON "t2"."a" = "t1"."node";
  -- Hops__group1: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Hops__group1" AS
  SELECT
    "t1"."b" AS "b",
    {'key': "t1"."b", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
  FROM "Hops__group1_rows" AS "t1"
  GROUP BY
    "t1"."b"
  HAVING
    COUNT(*) > 0;
  -- Hops: every rule, on the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Hops__next" AS
  SELECT
    CAST(1 AS BIGINT) AS "node",
    CAST(0 AS BIGINT) AS "hops"
  UNION
  SELECT
    "t1"."b" AS "node",
    LIST_EXTRACT("t1"."__grouped1"."vals", 1) AS "hops"
  FROM "Hops__group1" AS "t1";
  -- Hops: rows that differ from the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Hops__changed" AS
  SELECT
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."node"
      ELSE "dl2sql_old"."node"
    END AS "node",
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."hops"
      ELSE "dl2sql_old"."hops"
    END AS "hops"
  FROM (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Hops__next"
  ) AS "dl2sql_new"
  FULL OUTER JOIN (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Hops"
  ) AS "dl2sql_old"
    ON "dl2sql_new"."node" IS NOT DISTINCT FROM "dl2sql_old"."node"
    AND "dl2sql_new"."hops" IS NOT DISTINCT FROM "dl2sql_old"."hops"
  WHERE
    "dl2sql_new"."dl2sql_side" IS NULL OR "dl2sql_old"."dl2sql_side" IS NULL;
  -- Hops := Hops__next
-- until empty: Hops__changed
-- Distance
CREATE OR REPLACE TEMPORARY VIEW "Distance" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."hops"
FROM "Item" AS "t1"
JOIN "Hops" AS "t2"
  ON "t2"."node" = "t1"."n";
-- Reach: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Reach" AS
WITH RECURSIVE "Reach__delta"("a", "b") AS (
  SELECT
    "t1"."a",
    "t1"."b"
  FROM "Link" AS "t1"
  UNION
  SELECT
    "t1"."a",
    "t2"."b"
  FROM "Reach__delta" AS "t1"
  JOIN "Link" AS "t2"
    ON "t2"."a" = "t1"."b"
)
SELECT
  *
FROM "Reach__delta";
-- Reachable
CREATE OR REPLACE TEMPORARY VIEW "Reachable" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."b"
FROM "Item" AS "t1"
JOIN "Reach" AS "t2"
  ON "t2"."a" = "t1"."n";
-- Word
CREATE OR REPLACE TEMPORARY VIEW "Word" AS
SELECT
  'a' AS "w"
UNION
SELECT
  'bb' AS "w";
-- Grown: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Grown" AS
WITH RECURSIVE "Grown__delta"("w") AS (
  SELECT
    "t1"."w"
  FROM "Word" AS "t1"
  UNION
  SELECT
    "t1"."w" || 'x' AS "w"
  FROM "Grown__delta" AS "t1"
  WHERE
    STRLEN("t1"."w") < CAST(5 AS DECIMAL(38, 0))
)
SELECT
  *
FROM "Grown__delta";
-- Long
CREATE OR REPLACE TEMPORARY VIEW "Long" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."w"
FROM "Item" AS "t1"
JOIN "Grown" AS "t2"
  ON CAST(CAST(STRLEN("t2"."w") AS INT128) & 4294967295 AS BIGINT) = "t1"."n";
-- Even, Odd: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Even__tagged" AS
WITH RECURSIVE "Even__tagged_delta"("dl2sql_tag", "r0_n", "r1_n") AS (
  SELECT
    0 AS "dl2sql_tag",
    "dl2sql_part"."n" AS "r0_n",
    CAST(NULL AS BIGINT) AS "r1_n"
  FROM (
    SELECT
      CAST(0 AS BIGINT) AS "n"
  ) AS dl2sql_part
  UNION
  SELECT
    *
  FROM (
    WITH "Even__delta" AS (
      SELECT
        "r0_n" AS "n"
      FROM "Even__tagged_delta"
      WHERE
        "dl2sql_tag" = 0
    ), "Odd__delta" AS (
      SELECT
        "r1_n" AS "n"
      FROM "Even__tagged_delta"
      WHERE
        "dl2sql_tag" = 1
    )
    SELECT
      *
    FROM (
      SELECT
        0 AS "dl2sql_tag",
        "dl2sql_part"."n" AS "r0_n",
        CAST(NULL AS BIGINT) AS "r1_n"
      FROM (
        SELECT
          (
            "t1"."n" + CAST(1 AS BIGINT)
          ) & 4294967295 AS "n"
        FROM "Odd__delta" AS "t1"
        WHERE
          "t1"."n" < CAST(199 AS BIGINT)
      ) AS dl2sql_part
      UNION
      SELECT
        1 AS "dl2sql_tag",
        CAST(NULL AS BIGINT) AS "r0_n",
        "dl2sql_part"."n" AS "r1_n"
      FROM (
        SELECT
          (
            "t1"."n" + CAST(1 AS BIGINT)
          ) & 4294967295 AS "n"
        FROM "Even__delta" AS "t1"
        WHERE
          "t1"."n" < CAST(199 AS BIGINT)
      ) AS dl2sql_part
    ) AS rules
  ) AS "steps"
)
SELECT
  *
FROM "Even__tagged_delta";
-- Even: its rows of the recursive query
CREATE OR REPLACE TEMPORARY VIEW "Even" AS
SELECT
  "r0_n" AS "n"
FROM "Even__tagged"
WHERE
  "dl2sql_tag" = 0;
-- Odd: its rows of the recursive query
CREATE OR REPLACE TEMPORARY VIEW "Odd" AS
SELECT
  "r1_n" AS "n"
FROM "Even__tagged"
WHERE
  "dl2sql_tag" = 1;
-- Parity
CREATE OR REPLACE TEMPORARY VIEW "Parity" AS
SELECT
  "t1"."name",
  TRUE AS "even"
FROM "Item" AS "t1"
JOIN "Even" AS "t2"
  ON "t2"."n" = "t1"."n"
UNION
SELECT
  "t1"."name",
  FALSE AS "even"
FROM "Item" AS "t1"
JOIN "Odd" AS "t2"
  ON "t2"."n" = "t1"."n";
-- Count: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Count" AS
WITH RECURSIVE "Count__delta"("n") AS (
  SELECT
    CAST(0 AS BIGINT) AS "n"
  UNION
  SELECT
    (
      "t1"."n" + CAST(1 AS BIGINT)
    ) & 4294967295 AS "n"
  FROM "Count__delta" AS "t1"
  WHERE
    "t1"."n" < CAST(2999 AS BIGINT)
)
SELECT
  *
FROM "Count__delta";
-- Chain: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Chain" AS
WITH RECURSIVE "Chain__delta"("n") AS (
  SELECT
    "t1"."n"
  FROM "Item" AS "t1"
  WHERE
    "t1"."n" < CAST(10 AS BIGINT)
  UNION
  SELECT
    (
      "t1"."n" + CAST(1 AS BIGINT)
    ) & 4294967295 AS "n"
  FROM "Chain__delta" AS "t1"
  JOIN "Count" AS "t2"
    ON "t2"."n" = (
      "t1"."n" + CAST(1 AS BIGINT)
    ) & 4294967295
  WHERE
    "t1"."n" < CAST(7 AS BIGINT)
)
SELECT
  *
FROM "Chain__delta";
-- Counted
CREATE OR REPLACE TEMPORARY VIEW "Counted" AS
SELECT DISTINCT
  "t1"."name",
  "t1"."n"
FROM "Item" AS "t1"
JOIN "Count" AS "t2"
  ON "t2"."n" = "t1"."n";
-- Top
CREATE OR REPLACE TEMPORARY VIEW "Top" AS
SELECT DISTINCT
  "t1"."n"
FROM "Count" AS "t1"
WHERE
  "t1"."n" >= CAST(2997 AS BIGINT);
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
