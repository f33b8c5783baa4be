-- Fanin: empty before the first iteration
CREATE OR REPLACE TEMPORARY VIEW "Fanin" AS
SELECT
  CAST(NULL AS BIGINT) AS "node",
  CAST(NULL AS DECIMAL(38, 0)) AS "open_children"
WHERE
  FALSE;
-- Open: empty before the first iteration
CREATE OR REPLACE TEMPORARY VIEW "Open" AS
SELECT
  CAST(NULL AS BIGINT) AS "id"
WHERE
  FALSE;
-- repeat (stratum Fanin, Open):
  -- Fanin__group5_rows: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Fanin__group5_rows" AS
  SELECT DISTINCT
    "t1"."id" AS "c",
    "t2"."parent" AS "p",
    "t1"."id" AS "__value"
  FROM "Open" AS "t1"
  JOIN "Edge" AS "t2"
    ON "t2"."child" = "t1"."id";
  -- Fanin__group5: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Fanin__group5" AS
  SELECT
    "t1"."p" AS "p",
    CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
  FROM "Fanin__group5_rows" AS "t1"
  GROUP BY
    "t1"."p"
  HAVING
    COUNT(*) > 0;
  -- Fanin: every rule, on the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Fanin__next" AS
  SELECT DISTINCT
    "t1"."p" AS "node",
    "t1"."__grouped1" AS "open_children"
  FROM "Fanin__group5" AS "t1";
  -- Open: every rule, on the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Open__next" AS
  SELECT
    "t1"."id"
  FROM "Root" AS "t1"
  UNION
  SELECT
    "t1"."node" AS "id"
  FROM "Fanin" AS "t1"
  WHERE
    "t1"."open_children" <= CAST(2 AS DECIMAL(38, 0));
  -- Fanin: rows that differ from the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Fanin__changed" AS
  SELECT
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."node"
      ELSE "dl2sql_old"."node"
    END AS "node",
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."open_children"
      ELSE "dl2sql_old"."open_children"
    END AS "open_children"
  FROM (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Fanin__next"
  ) AS "dl2sql_new"
  FULL OUTER JOIN (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Fanin"
  ) AS "dl2sql_old"
    ON "dl2sql_new"."node" IS NOT DISTINCT FROM "dl2sql_old"."node"
    AND "dl2sql_new"."open_children" IS NOT DISTINCT FROM "dl2sql_old"."open_children"
  WHERE
    "dl2sql_new"."dl2sql_side" IS NULL OR "dl2sql_old"."dl2sql_side" IS NULL;
  -- Open: rows that differ from the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Open__changed" AS
  SELECT
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."id"
      ELSE "dl2sql_old"."id"
    END AS "id"
  FROM (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Open__next"
  ) AS "dl2sql_new"
  FULL OUTER JOIN (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Open"
  ) AS "dl2sql_old"
    ON "dl2sql_new"."id" IS NOT DISTINCT FROM "dl2sql_old"."id"
  WHERE
    "dl2sql_new"."dl2sql_side" IS NULL OR "dl2sql_old"."dl2sql_side" IS NULL;
  -- Fanin := Fanin__next
  -- Open := Open__next
-- until empty: Fanin__changed, Open__changed
-- Lowest: empty before the first iteration
CREATE OR REPLACE TEMPORARY VIEW "Lowest" AS
SELECT
  CAST(NULL AS BIGINT) AS "node",
  CAST(NULL AS BIGINT) AS "low"
WHERE
  FALSE;
-- repeat (stratum Lowest):
  -- Lowest__group3_rows: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__group3_rows" AS
  SELECT DISTINCT
    "t1"."child" AS "c",
    "t1"."parent" AS "p",
    "t2"."low" AS "l",
    "t2"."low" AS "__value"
  FROM "Edge" AS "t1"
  JOIN "Lowest" AS "t2"
    ON "t2"."node" = "t1"."child";
  -- Lowest__group3: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__group3" AS
  SELECT
    "t1"."p" AS "p",
    "t1"."c" AS "c",
    {'key': {'_0': "t1"."p", '_1': "t1"."c"}, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
  FROM "Lowest__group3_rows" AS "t1"
  GROUP BY
    "t1"."p",
    "t1"."c"
  HAVING
    COUNT(*) > 0;
  -- Lowest__group4_rows: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__group4_rows" AS
  SELECT DISTINCT
    "t1"."p",
    "t1"."c",
    "t1"."__grouped1",
    LIST_EXTRACT("t1"."__grouped1"."vals", 1) AS "per_child",
    LIST_EXTRACT("t1"."__grouped1"."vals", 1) AS "__value"
  FROM "Lowest__group3" AS "t1";
  -- Lowest__group4: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__group4" AS
  SELECT
    "t1"."p" AS "p",
    {'key': "t1"."p", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped2"
  FROM "Lowest__group4_rows" AS "t1"
  GROUP BY
    "t1"."p"
  HAVING
    COUNT(*) > 0;
  -- Lowest: every rule, on the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__next" AS
  SELECT
    "t1"."id" AS "node",
    "t1"."id" AS "low"
  FROM "Node" AS "t1"
  UNION
  SELECT
    "t1"."p" AS "node",
    LIST_EXTRACT("t1"."__grouped2"."vals", 1) AS "low"
  FROM "Lowest__group4" AS "t1";
  -- Lowest: rows that differ from the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Lowest__changed" AS
  SELECT
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."node"
      ELSE "dl2sql_old"."node"
    END AS "node",
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."low"
      ELSE "dl2sql_old"."low"
    END AS "low"
  FROM (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Lowest__next"
  ) AS "dl2sql_new"
  FULL OUTER JOIN (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Lowest"
  ) AS "dl2sql_old"
    ON "dl2sql_new"."node" IS NOT DISTINCT FROM "dl2sql_old"."node"
    AND "dl2sql_new"."low" IS NOT DISTINCT FROM "dl2sql_old"."low"
  WHERE
    "dl2sql_new"."dl2sql_side" IS NULL OR "dl2sql_old"."dl2sql_side" IS NULL;
  -- Lowest := Lowest__next
-- until empty: Lowest__changed
-- Span__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Span__group1_rows" AS
SELECT DISTINCT
  "t1"."id" AS "n",
  "t2"."tag" AS "t",
  "t2"."tag" AS "__value"
FROM "Node" AS "t1"
JOIN "Tag" AS "t2"
  ON "t2"."node" = "t1"."id";
-- Span__group1
CREATE OR REPLACE TEMPORARY VIEW "Span__group1" AS
SELECT
  "t1"."n" AS "n",
  {'key': "t1"."n", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Span__group1_rows" AS "t1"
GROUP BY
  "t1"."n"
HAVING
  COUNT(*) > 0;
-- Span: empty before the first iteration
CREATE OR REPLACE TEMPORARY VIEW "Span" AS
SELECT
  CAST(NULL AS BIGINT) AS "node",
  CAST(NULL AS TEXT[]) AS "tags"
WHERE
  FALSE;
-- repeat (stratum Span):
  -- Span__group2_rows: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Span__group2_rows" AS
  SELECT DISTINCT
    "t1"."id" AS "p",
    "t2"."child" AS "c",
    "t3"."tags" AS "ts",
    "t3"."tags" AS "__value"
  FROM "Node" AS "t1"
  JOIN "Edge" AS "t2"
    ON "t2"."parent" = "t1"."id"
  JOIN "Span" AS "t3"
    ON "t3"."node" = "t2"."child";
  -- Span__group2: a group_by step of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Span__group2" AS
  SELECT
    "t1"."p" AS "p",
    {'key': "t1"."p", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
  FROM "Span__group2_rows" AS "t1"
  GROUP BY
    "t1"."p"
  HAVING
    COUNT(*) > 0;
  -- Span: every rule, on the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Span__next" AS
  SELECT
    "t1"."n" AS "node",
    LIST_SORT(LIST_DISTINCT("t1"."__grouped1"."vals")) AS "tags"
  FROM "Span__group1" AS "t1"
  UNION
  SELECT
    "t1"."p" AS "node",
    DL2SQL_79ECAF0B_UDF_1("t1"."__grouped1") AS "tags"
  FROM "Span__group2" AS "t1";
  -- Span: rows that differ from the last iteration
  CREATE OR REPLACE TEMPORARY VIEW "Span__changed" AS
  SELECT
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."node"
      ELSE "dl2sql_old"."node"
    END AS "node",
    CASE
      WHEN NOT "dl2sql_new"."dl2sql_side" IS NULL
      THEN "dl2sql_new"."tags"
      ELSE "dl2sql_old"."tags"
    END AS "tags"
  FROM (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Span__next"
  ) AS "dl2sql_new"
  FULL OUTER JOIN (
    SELECT
      *,
      TRUE AS "dl2sql_side"
    FROM "Span"
  ) AS "dl2sql_old"
    ON "dl2sql_new"."node" IS NOT DISTINCT FROM "dl2sql_old"."node"
    AND "dl2sql_new"."tags" IS NOT DISTINCT FROM "dl2sql_old"."tags"
  WHERE
    "dl2sql_new"."dl2sql_side" IS NULL OR "dl2sql_old"."dl2sql_side" IS NULL;
  -- Span := Span__next
-- until empty: Span__changed
-- SpanSize
CREATE OR REPLACE TEMPORARY VIEW "SpanSize" AS
SELECT DISTINCT
  "t1"."node",
  DL2SQL_79ECAF0B_UDF_2("t1"."tags") AS "n"
FROM "Span" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
