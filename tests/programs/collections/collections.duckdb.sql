-- Smallest__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Smallest__group1_rows" AS
SELECT DISTINCT
  "t1"."v",
  "t1"."v" AS "__value"
FROM "Vecs" AS "t1";
-- Smallest__group1
CREATE OR REPLACE TEMPORARY VIEW "Smallest__group1" AS
SELECT
  {'key': TRUE, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Smallest__group1_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Smallest
CREATE OR REPLACE TEMPORARY VIEW "Smallest" AS
SELECT DISTINCT
  LIST_EXTRACT("t1"."__grouped1"."vals", 1) AS "v"
FROM "Smallest__group1" AS "t1";
-- Empties
CREATE OR REPLACE TEMPORARY VIEW "Empties" AS
SELECT DISTINCT
  CAST([] AS BIGINT[]) AS "v",
  CAST([] AS TEXT[]) AS "s",
  CAST([] AS STRUCT(_0 TEXT, _1 BIGINT[][])[]) AS "m";
-- Nested
CREATE OR REPLACE TEMPORARY VIEW "Nested" AS
SELECT DISTINCT
  "t1"."name",
  DL2SQL_DA6DC5AF_UDF_1("t1"."shapes") AS "groups"
FROM "Drawing" AS "t1";
-- ManyKeys
CREATE OR REPLACE TEMPORARY VIEW "ManyKeys" AS
SELECT DISTINCT
  DL2SQL_DA6DC5AF_UDF_3(DL2SQL_DA6DC5AF_UDF_2(CAST(1000 AS BIGINT))) AS "size",
  DL2SQL_DA6DC5AF_UDF_4(DL2SQL_DA6DC5AF_UDF_2(CAST(1000 AS BIGINT)), CAST(999 AS BIGINT)) AS "at999",
  DL2SQL_DA6DC5AF_UDF_4(DL2SQL_DA6DC5AF_UDF_2(CAST(1000 AS BIGINT)), CAST(1000 AS BIGINT)) AS "at1000",
  CAST(332833500 AS DECIMAL(38, 0)) AS "sum"
FROM "Drawing" AS "t1"
WHERE
  "t1"."name" = 'many';
-- Areas
CREATE OR REPLACE TEMPORARY VIEW "Areas" AS
SELECT DISTINCT
  "t1"."name",
  DL2SQL_DA6DC5AF_UDF_5("t1"."shapes") AS "by_shape"
FROM "Drawing" AS "t1";
-- Big
CREATE OR REPLACE TEMPORARY VIEW "Big" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."_e"."_0" AS "s",
  "t2"."_e"."_1" AS "a"
FROM "Areas" AS "t1"
CROSS JOIN UNNEST("t1"."by_shape") AS "t2"("_e")
WHERE
  "t2"."_e"."_1" > CAST(10 AS BIGINT);
-- Kinds
CREATE OR REPLACE TEMPORARY VIEW "Kinds" AS
SELECT DISTINCT
  "t1"."name",
  LIST_SORT(LIST_DISTINCT("t1"."shapes")) AS "kinds",
  CAST(LEN(LIST_SORT(LIST_DISTINCT("t1"."shapes"))) AS DECIMAL(38, 0)) AS "n",
  DL2SQL_DA6DC5AF_UDF_6(LIST_SORT(LIST_DISTINCT("t1"."shapes"))) AS "empty"
FROM "Drawing" AS "t1";
-- Each
CREATE OR REPLACE TEMPORARY VIEW "Each" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."_e" AS "s"
FROM "Kinds" AS "t1"
CROSS JOIN UNNEST("t1"."kinds") AS "t2"("_e");
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
