-- Q: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Q" AS
WITH RECURSIVE "Q__delta"("x", "y") AS (
  SELECT
    "t1"."x",
    "t1"."x" AS "y"
  FROM "E" AS "t1"
  UNION
  SELECT
    "t1"."y" AS "x",
    "t1"."y"
  FROM "F" AS "t1"
  UNION
  SELECT
    *
  FROM (
    SELECT
      "t1"."x",
      "t2"."y"
    FROM "Q__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."x" = "t1"."y" AND "t1"."x" <> "t2"."y"
    UNION
    SELECT
      "t1"."x",
      "t2"."x" AS "y"
    FROM "Q__delta" AS "t1"
    JOIN "F" AS "t2"
      ON "t2"."y" = "t1"."y"
    UNION
    SELECT
      "t2"."x",
      "t1"."y"
    FROM "Q__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."y" = "t1"."x" AND "t2"."x" < CAST(4 AS BIGINT)
  ) AS "steps"
)
SELECT
  *
FROM "Q__delta";
-- P: recursive query
CREATE OR REPLACE TEMPORARY VIEW "P" AS
WITH RECURSIVE "P__delta"("x", "y") AS (
  SELECT
    "t1"."x",
    "t1"."y"
  FROM "E" AS "t1"
  UNION
  SELECT
    *
  FROM (
    SELECT
      "t1"."x",
      "t2"."y"
    FROM "P__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."x" = "t1"."y"
    UNION
    SELECT
      "t1"."x",
      "t2"."y"
    FROM "P__delta" AS "t1"
    JOIN "F" AS "t2"
      ON "t2"."x" = "t1"."y"
  ) AS "steps"
)
SELECT
  *
FROM "P__delta";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
