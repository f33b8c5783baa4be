-- Kinds__group9_rows
CREATE OR REPLACE TEMPORARY VIEW "Kinds__group9_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost" AS "c",
  CASE
    WHEN "t1"."cost" < CAST(5 AS BIGINT)
    THEN {'tag': CAST(0 AS BIGINT), 'Local_cost': "t1"."cost", 'Remote_host': ''}
    ELSE {'tag': CAST(1 AS BIGINT), 'Local_cost': CAST(0 AS BIGINT), 'Remote_host': "t1"."dst"}
  END AS "k",
  CASE
    WHEN "t1"."cost" < CAST(5 AS BIGINT)
    THEN {'tag': CAST(0 AS BIGINT), 'Local_cost': "t1"."cost", 'Remote_host': ''}
    ELSE {'tag': CAST(1 AS BIGINT), 'Local_cost': CAST(0 AS BIGINT), 'Remote_host': "t1"."dst"}
  END AS "__value"
FROM "Edge" AS "t1";
-- Kinds__group9
CREATE OR REPLACE TEMPORARY VIEW "Kinds__group9" AS
SELECT
  "t1"."s" AS "s",
  {'key': "t1"."s", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "Kinds__group9_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Kinds
CREATE OR REPLACE TEMPORARY VIEW "Kinds" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  "t1"."g"."vals" AS "kinds",
  LIST_EXTRACT("t1"."g"."vals", 1) AS "first"
FROM "Kinds__group9" AS "t1";
-- Neighbours__group8_rows
CREATE OR REPLACE TEMPORARY VIEW "Neighbours__group8_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost" AS "c",
  {'_0': "t1"."dst", '_1': "t1"."cost"} AS "__value"
FROM "Edge" AS "t1";
-- Neighbours__group8
CREATE OR REPLACE TEMPORARY VIEW "Neighbours__group8" AS
SELECT
  "t1"."s" AS "s",
  {'key': "t1"."s", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Neighbours__group8_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Neighbours
CREATE OR REPLACE TEMPORARY VIEW "Neighbours" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  DL2SQL_693CEA16_UDF_1("t1"."__grouped1") AS "by_dst"
FROM "Neighbours__group8" AS "t1";
-- Legacy__group7_rows
CREATE OR REPLACE TEMPORARY VIEW "Legacy__group7_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."dst" AS "__value"
FROM "Edge" AS "t1";
-- Legacy__group7
CREATE OR REPLACE TEMPORARY VIEW "Legacy__group7" AS
SELECT
  "t1"."s" AS "s",
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "Legacy__group7_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Legacy
CREATE OR REPLACE TEMPORARY VIEW "Legacy" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  "t1"."__grouped1" AS "n"
FROM "Legacy__group7" AS "t1";
-- Busy__group6_rows
CREATE OR REPLACE TEMPORARY VIEW "Busy__group6_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."dst" AS "__value"
FROM "Edge" AS "t1";
-- Busy__group6
CREATE OR REPLACE TEMPORARY VIEW "Busy__group6" AS
SELECT
  "t1"."s" AS "s",
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "Busy__group6_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Busy
CREATE OR REPLACE TEMPORARY VIEW "Busy" AS
SELECT DISTINCT
  "t1"."s" AS "src"
FROM "Busy__group6" AS "t1"
WHERE
  "t1"."__grouped1" > CAST(1 AS DECIMAL(38, 0));
-- Cheap__group5_rows
CREATE OR REPLACE TEMPORARY VIEW "Cheap__group5_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."cost" AS "c",
  "t1"."cost" AS "__value"
FROM "Edge" AS "t1";
-- Cheap__group5
CREATE OR REPLACE TEMPORARY VIEW "Cheap__group5" AS
SELECT
  "t1"."s" AS "s",
  {'_0': MIN("t1"."__value")} AS "__grouped1"
FROM "Cheap__group5_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Cheap
CREATE OR REPLACE TEMPORARY VIEW "Cheap" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  (
    CAST((
      CAST("t1"."__grouped1"."_0" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
    ) & 4294967295 AS BIGINT) + CAST(1 AS BIGINT)
  ) & 4294967295 AS "budget"
FROM "Cheap__group5" AS "t1";
-- EdgeCount__group4_rows
CREATE OR REPLACE TEMPORARY VIEW "EdgeCount__group4_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost" AS "c",
  {'_0': "t1"."src", '_1': "t1"."dst", '_2': "t1"."cost"} AS "__value"
FROM "Edge" AS "t1";
-- EdgeCount__group4
CREATE OR REPLACE TEMPORARY VIEW "EdgeCount__group4" AS
SELECT
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "EdgeCount__group4_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- EdgeCount
CREATE OR REPLACE TEMPORARY VIEW "EdgeCount" AS
SELECT DISTINCT
  "t1"."__grouped1" AS "n"
FROM "EdgeCount__group4" AS "t1";
-- Fanout__group3_rows
CREATE OR REPLACE TEMPORARY VIEW "Fanout__group3_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost" AS "c",
  "t1"."cost" AS "__value"
FROM "Edge" AS "t1";
-- Fanout__group3
CREATE OR REPLACE TEMPORARY VIEW "Fanout__group3" AS
SELECT
  "t1"."s" AS "s",
  {'key': "t1"."s", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Fanout__group3_rows" AS "t1"
GROUP BY
  "t1"."s"
HAVING
  COUNT(*) > 0;
-- Fanout
CREATE OR REPLACE TEMPORARY VIEW "Fanout" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  "t1"."__grouped1"."vals" AS "costs"
FROM "Fanout__group3" AS "t1";
-- Path: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Path" AS
WITH RECURSIVE "Path__delta"("src", "dst", "cost") AS (
  SELECT
    "t1"."src",
    "t1"."dst",
    "t1"."cost"
  FROM "Edge" AS "t1"
  UNION
  SELECT
    "t1"."src",
    "t2"."dst",
    (
      "t1"."cost" + "t2"."cost"
    ) & 4294967295 AS "cost"
  FROM "Path__delta" AS "t1"
  JOIN "Edge" AS "t2"
    ON "t2"."src" = "t1"."dst"
    AND (
      "t1"."cost" + "t2"."cost"
    ) & 4294967295 < CAST(20 AS BIGINT)
)
SELECT
  *
FROM "Path__delta";
-- Stats__group2_rows
CREATE OR REPLACE TEMPORARY VIEW "Stats__group2_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost",
  "t1"."cost" AS "__value"
FROM "Path" AS "t1";
-- Stats__group2
CREATE OR REPLACE TEMPORARY VIEW "Stats__group2" AS
SELECT
  "t1"."s" AS "s",
  "t1"."d" AS "d",
  {'key': {'_0': "t1"."s", '_1': "t1"."d"}, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "Stats__group2_rows" AS "t1"
GROUP BY
  "t1"."s",
  "t1"."d"
HAVING
  COUNT(*) > 0;
-- Stats
CREATE OR REPLACE TEMPORARY VIEW "Stats" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  "t1"."d" AS "dst",
  CAST(LEN("t1"."g"."vals") AS DECIMAL(38, 0)) AS "n",
  LIST_EXTRACT("t1"."g"."vals", -1) AS "worst",
  "t1"."g"."vals" AS "all",
  LIST_SORT(LIST_DISTINCT("t1"."g"."vals")) AS "costs",
  DL2SQL_693CEA16_UDF_2("t1"."g") AS "total"
FROM "Stats__group2" AS "t1";
-- Shortest__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Shortest__group1_rows" AS
SELECT DISTINCT
  "t1"."src" AS "s",
  "t1"."dst" AS "d",
  "t1"."cost",
  "t1"."cost" AS "__value"
FROM "Path" AS "t1";
-- Shortest__group1
CREATE OR REPLACE TEMPORARY VIEW "Shortest__group1" AS
SELECT
  "t1"."s" AS "s",
  "t1"."d" AS "d",
  {'_0': MIN("t1"."__value")} AS "__grouped1"
FROM "Shortest__group1_rows" AS "t1"
GROUP BY
  "t1"."s",
  "t1"."d"
HAVING
  COUNT(*) > 0;
-- Shortest
CREATE OR REPLACE TEMPORARY VIEW "Shortest" AS
SELECT DISTINCT
  "t1"."s" AS "src",
  "t1"."d" AS "dst",
  "t1"."__grouped1"."_0" AS "cost"
FROM "Shortest__group1" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
