-- Component: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Component" AS
WITH RECURSIVE "Component__delta"("n", "least") USING KEY ("n") AS (
  SELECT
    *
  FROM (
    WITH "Reach__delta" AS (
      SELECT
        "t1"."a" AS "n",
        "t1"."a" AS "l"
      FROM "Road" AS "t1"
      UNION
      SELECT
        "t1"."b" AS "n",
        "t1"."b" AS "l"
      FROM "Road" AS "t1"
    )
    SELECT
      "n" AS "n",
      MIN("__value") AS "least"
    FROM (
      SELECT
        "t1"."n",
        "t1"."l",
        "t1"."l" AS "__value"
      FROM "Reach__delta" AS "t1"
    ) AS dl2sql_rows
    GROUP BY
      "n"
  ) AS dl2sql_named
  UNION
  SELECT
    *
  FROM (
    WITH "Reach__delta" AS (
      SELECT
        "t2"."b" AS "n",
        "t1"."least" AS "l"
      FROM "Component__delta" AS "t1"
      JOIN "Road" AS "t2"
        ON "t2"."a" = "t1"."n"
      UNION ALL
      SELECT
        "t2"."a" AS "n",
        "t1"."least" AS "l"
      FROM "Component__delta" AS "t1"
      JOIN "Road" AS "t2"
        ON "t2"."b" = "t1"."n"
    )
    SELECT
      "dl2sql_new".*
    FROM (
      SELECT
        "n" AS "n",
        MIN("__value") AS "least"
      FROM (
        SELECT
          "t1"."n",
          "t1"."l",
          "t1"."l" AS "__value"
        FROM "Reach__delta" AS "t1"
      ) AS dl2sql_rows
      GROUP BY
        "n"
    ) AS "dl2sql_new"
    WHERE
      NOT EXISTS(
        SELECT
          1
        FROM recurring."Component__delta" AS "dl2sql_old"
        WHERE
          "dl2sql_old"."n" = "dl2sql_new"."n"
          AND "dl2sql_old"."least" <= "dl2sql_new"."least"
      )
  ) AS dl2sql_named
)
SELECT
  *
FROM "Component__delta";
-- Reach: every rule, on the final values
CREATE OR REPLACE TEMPORARY VIEW "Reach" AS
SELECT
  "t1"."a" AS "n",
  "t1"."a" AS "l"
FROM "Road" AS "t1"
UNION
SELECT
  "t1"."b" AS "n",
  "t1"."b" AS "l"
FROM "Road" AS "t1"
UNION
SELECT
  "t2"."b" AS "n",
  "t1"."least" AS "l"
FROM "Component" AS "t1"
JOIN "Road" AS "t2"
  ON "t2"."a" = "t1"."n"
UNION
SELECT
  "t2"."a" AS "n",
  "t1"."least" AS "l"
FROM "Component" AS "t1"
JOIN "Road" AS "t2"
  ON "t2"."b" = "t1"."n";
-- Component__group2_rows: a group_by step the query replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW "Component__group2_rows" AS
SELECT
  CAST(NULL AS BIGINT) AS "n",
  CAST(NULL AS BIGINT) AS "l",
  CAST(NULL AS BIGINT) AS "__value"
WHERE
  FALSE;
-- Component__group2: a group_by step the query replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW "Component__group2" AS
SELECT
  CAST(NULL AS BIGINT) AS "n",
  CAST(NULL AS STRUCT(key BIGINT, vals BIGINT[])) AS "__grouped1"
WHERE
  FALSE;
-- Dist: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Dist" AS
WITH RECURSIVE "Dist__delta"("n", "d") USING KEY ("n") AS (
  SELECT
    *
  FROM (
    WITH "Cand__delta" AS (
      SELECT DISTINCT
        "t1"."n",
        CAST(0 AS BIGINT) AS "d"
      FROM "Source" AS "t1"
    )
    SELECT
      "n" AS "n",
      MIN("__value") AS "d"
    FROM (
      SELECT
        "t1"."n",
        "t1"."d",
        "t1"."d" AS "__value"
      FROM "Cand__delta" AS "t1"
    ) AS dl2sql_rows
    GROUP BY
      "n"
  ) AS dl2sql_named
  UNION
  SELECT
    *
  FROM (
    WITH "Cand__delta" AS (
      SELECT
        "t2"."b" AS "n",
        (
          "t1"."d" + "t2"."w"
        ) & 4294967295 AS "d"
      FROM "Dist__delta" AS "t1"
      JOIN "Road" AS "t2"
        ON "t2"."a" = "t1"."n"
    )
    SELECT
      "dl2sql_new".*
    FROM (
      SELECT
        "n" AS "n",
        MIN("__value") AS "d"
      FROM (
        SELECT
          "t1"."n",
          "t1"."d",
          "t1"."d" AS "__value"
        FROM "Cand__delta" AS "t1"
      ) AS dl2sql_rows
      GROUP BY
        "n"
    ) AS "dl2sql_new"
    WHERE
      NOT EXISTS(
        SELECT
          1
        FROM recurring."Dist__delta" AS "dl2sql_old"
        WHERE
          "dl2sql_old"."n" = "dl2sql_new"."n" AND "dl2sql_old"."d" <= "dl2sql_new"."d"
      )
  ) AS dl2sql_named
)
SELECT
  *
FROM "Dist__delta";
-- Cand: every rule, on the final values
CREATE OR REPLACE TEMPORARY VIEW "Cand" AS
SELECT
  "t1"."n",
  CAST(0 AS BIGINT) AS "d"
FROM "Source" AS "t1"
UNION
SELECT
  "t2"."b" AS "n",
  (
    "t1"."d" + "t2"."w"
  ) & 4294967295 AS "d"
FROM "Dist" AS "t1"
JOIN "Road" AS "t2"
  ON "t2"."a" = "t1"."n";
-- Dist__group1_rows: a group_by step the query replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW "Dist__group1_rows" AS
SELECT
  CAST(NULL AS BIGINT) AS "n",
  CAST(NULL AS BIGINT) AS "d",
  CAST(NULL AS BIGINT) AS "__value"
WHERE
  FALSE;
-- Dist__group1: a group_by step the query replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW "Dist__group1" AS
SELECT
  CAST(NULL AS BIGINT) AS "n",
  CAST(NULL AS STRUCT(key BIGINT, vals BIGINT[])) AS "__grouped1"
WHERE
  FALSE;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
