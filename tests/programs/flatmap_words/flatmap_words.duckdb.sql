-- Grid
CREATE OR REPLACE TEMPORARY VIEW "Grid" AS
SELECT DISTINCT
  "t1"."_e" AS "x",
  "t2"."_e" AS "y"
FROM (
  SELECT
    1 AS one
) AS _one
CROSS JOIN UNNEST([CAST(1 AS BIGINT), CAST(2 AS BIGINT)]) AS "t1"("_e")
CROSS JOIN UNNEST([CAST(7 AS BIGINT), CAST(8 AS BIGINT), CAST(7 AS BIGINT)]) AS "t2"("_e")
WHERE
  "t1"."_e" <> CAST(2 AS BIGINT) OR "t2"."_e" = CAST(8 AS BIGINT);
-- Tagged
CREATE OR REPLACE TEMPORARY VIEW "Tagged" AS
SELECT DISTINCT
  "t2"."_e" AS "tag",
  "t1"."id"
FROM "Tags" AS "t1"
CROSS JOIN UNNEST("t1"."tags") AS "t2"("_e");
-- Word
CREATE OR REPLACE TEMPORARY VIEW "Word" AS
SELECT DISTINCT
  "t1"."id",
  "t2"."_e" AS "w"
FROM "Line" AS "t1"
CROSS JOIN UNNEST(DL2SQL_21E9DF70_UDF_1("t1"."text", ' ')) AS "t2"("_e");
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
