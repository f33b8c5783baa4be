-- Even, Odd: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Even__tagged" AS
WITH RECURSIVE "Even__tagged_delta"("dl2sql_tag", "r0_a", "r0_b", "r1_a", "r1_b") AS (
  SELECT
    1 AS "dl2sql_tag",
    CAST(NULL AS BIGINT) AS "r0_a",
    CAST(NULL AS BIGINT) AS "r0_b",
    "dl2sql_part"."a" AS "r1_a",
    "dl2sql_part"."b" AS "r1_b"
  FROM (
    SELECT
      "t1"."a",
      "t1"."b"
    FROM "E" AS "t1"
  ) AS dl2sql_part
  UNION
  SELECT
    *
  FROM (
    WITH "Even__delta" AS (
      SELECT
        "r0_a" AS "a",
        "r0_b" AS "b"
      FROM "Even__tagged_delta"
      WHERE
        "dl2sql_tag" = 0
    ), "Odd__delta" AS (
      SELECT
        "r1_a" AS "a",
        "r1_b" AS "b"
      FROM "Even__tagged_delta"
      WHERE
        "dl2sql_tag" = 1
    )
    SELECT
      *
    FROM (
      SELECT
        0 AS "dl2sql_tag",
        "dl2sql_part"."a" AS "r0_a",
        "dl2sql_part"."b" AS "r0_b",
        CAST(NULL AS BIGINT) AS "r1_a",
        CAST(NULL AS BIGINT) AS "r1_b"
      FROM (
        SELECT
          "t1"."a",
          "t2"."b"
        FROM "Odd__delta" AS "t1"
        JOIN "E" AS "t2"
          ON "t2"."a" = "t1"."b"
      ) AS dl2sql_part
      UNION
      SELECT
        1 AS "dl2sql_tag",
        CAST(NULL AS BIGINT) AS "r0_a",
        CAST(NULL AS BIGINT) AS "r0_b",
        "dl2sql_part"."a" AS "r1_a",
        "dl2sql_part"."b" AS "r1_b"
      FROM (
        SELECT
          "t1"."a",
          "t2"."b"
        FROM "Even__delta" AS "t1"
        JOIN "E" AS "t2"
          ON "t2"."a" = "t1"."b"
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
  "r0_a" AS "a",
  "r0_b" AS "b"
FROM "Even__tagged"
WHERE
  "dl2sql_tag" = 0;
-- Odd: its rows of the recursive query
CREATE OR REPLACE TEMPORARY VIEW "Odd" AS
SELECT
  "r1_a" AS "a",
  "r1_b" AS "b"
FROM "Even__tagged"
WHERE
  "dl2sql_tag" = 1;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
