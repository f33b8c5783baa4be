-- Reached: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Reached" AS
WITH RECURSIVE "Reached__delta"("o", "n") AS (
  SELECT
    "t3"."t1" AS "o",
    "t3"."t2" AS "n"
  FROM "Link" AS "t3"
  UNION
  SELECT
    "t3"."o",
    "t4"."t2" AS "n"
  FROM "Reached__delta" AS "t3"
  JOIN "Link" AS "t4"
    ON "t4"."t1" = "t3"."n"
)
SELECT
  *
FROM "Reached__delta";
-- Spread__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Spread__group1_rows" AS
SELECT DISTINCT
  "t3"."t1" AS "n",
  "t3"."t2" AS "m",
  "t3"."t2"."y" AS "__value"
FROM "Link" AS "t3";
-- Spread__group1
CREATE OR REPLACE TEMPORARY VIEW "Spread__group1" AS
SELECT
  "t3"."n" AS "n",
  {'key': "t3"."n", 'vals': LIST_SORT(LIST("t3"."__value"))} AS "__grouped1"
FROM "Spread__group1_rows" AS "t3"
GROUP BY
  "t3"."n"
HAVING
  COUNT(*) > 0;
-- Spread
CREATE OR REPLACE TEMPORARY VIEW "Spread" AS
SELECT DISTINCT
  "t3"."n",
  "t3"."__grouped1"."vals" AS "ys"
FROM "Spread__group1" AS "t3";
-- Lonely
CREATE OR REPLACE TEMPORARY VIEW "Lonely" AS
SELECT DISTINCT
  "t3"."n"
FROM "Node" AS "t3"
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "Link" AS "t4"
    WHERE
      "t4"."t1" = "t3"."n"
  )
  AND NOT EXISTS(
    SELECT
      1
    FROM "Link" AS "t5"
    WHERE
      "t5"."t2" = "t3"."n"
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
