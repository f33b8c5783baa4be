-- Even
CREATE OR REPLACE TEMPORARY VIEW "Even" AS
SELECT DISTINCT
  DL2SQL_EEA28B92_UDF_1(
    [
      CAST(1 AS BIGINT),
      CAST(4 AS BIGINT),
      CAST(7 AS BIGINT),
      CAST(10 AS BIGINT),
      CAST(12 AS BIGINT)
    ],
    CAST(5 AS BIGINT)
  ) AS "x";
-- Literal
CREATE OR REPLACE TEMPORARY VIEW "Literal" AS
SELECT DISTINCT
  CAST(-1 AS BIGINT) AS "x",
  CAST(-128 AS BIGINT) AS "y";
-- Boxed
CREATE OR REPLACE TEMPORARY VIEW "Boxed" AS
SELECT DISTINCT
  {'name': "t1"."set", 'neg': -CAST("t1"."x" AS DOUBLE)} AS "_v"
FROM "Item" AS "t1";
-- Unboxed
CREATE OR REPLACE TEMPORARY VIEW "Unboxed" AS
SELECT DISTINCT
  "t1"."_v"."name"
FROM "Boxed" AS "t1"
WHERE
  "t1"."_v"."neg" = CAST(-2.0 AS DOUBLE);
-- Trees: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Trees" AS
WITH RECURSIVE "Trees__delta"("set", "tree") AS (
  SELECT
    "t1"."set",
    DL2SQL_EEA28B92_UDF_2("t1"."x") AS "tree"
  FROM "Item" AS "t1"
  UNION
  SELECT
    "t1"."set",
    DL2SQL_EEA28B92_UDF_3("t1"."tree", "t2"."x") AS "tree"
  FROM "Trees__delta" AS "t1"
  JOIN "Item" AS "t2"
    ON "t2"."set" = "t1"."set"
    AND DL2SQL_EEA28B92_UDF_4("t1"."tree", "t2"."x") <= CAST(3 AS BIGINT)
)
SELECT
  *
FROM "Trees__delta";
-- Sorted
CREATE OR REPLACE TEMPORARY VIEW "Sorted" AS
SELECT DISTINCT
  "t1"."set",
  DL2SQL_EEA28B92_UDF_5("t1"."tree") AS "items",
  DL2SQL_EEA28B92_UDF_6("t1"."tree") AS "depth"
FROM "Trees" AS "t1"
WHERE
  CAST(LEN(DL2SQL_EEA28B92_UDF_5("t1"."tree")) AS DECIMAL(38, 0)) = CAST(3 AS DECIMAL(38, 0));
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
