-- SG: recursive query
CREATE OR REPLACE TEMPORARY VIEW "SG" AS
WITH RECURSIVE "SG__delta"("x", "y") AS (
  SELECT
    "t1"."child" AS "x",
    "t2"."child" AS "y"
  FROM "Parent" AS "t1"
  JOIN "Parent" AS "t2"
    ON "t2"."parent" = "t1"."parent" AND "t1"."child" <> "t2"."child"
  UNION
  SELECT
    "t1"."child" AS "x",
    "t2"."child" AS "y"
  FROM "Parent" AS "t1"
  CROSS JOIN "Parent" AS "t2"
  JOIN "SG__delta" AS "t3"
    ON "t3"."x" = "t1"."parent" AND "t3"."y" = "t2"."parent"
)
SELECT
  *
FROM "SG__delta";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
