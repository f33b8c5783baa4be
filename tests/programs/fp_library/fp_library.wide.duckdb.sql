-- Parsed
CREATE OR REPLACE TEMPORARY VIEW "Parsed" AS
SELECT DISTINCT
  '2.5' AS "s",
  DL2SQL_WIDE_UDF_1('2.5') AS "r"
UNION
SELECT DISTINCT
  'x' AS "s",
  DL2SQL_WIDE_UDF_1('x') AS "r"
UNION
SELECT DISTINCT
  'nan' AS "s",
  DL2SQL_WIDE_UDF_1('NaN') AS "r";
-- R
CREATE OR REPLACE TEMPORARY VIEW "R" AS
SELECT DISTINCT
  "t1"."x",
  DL2SQL_WIDE_UDF_2("t1"."x") AS "floor",
  DL2SQL_WIDE_UDF_3("t1"."x") AS "round",
  DL2SQL_WIDE_UDF_4("t1"."x") AS "sqrt",
  DL2SQL_WIDE_UDF_5(DL2SQL_WIDE_UDF_4("t1"."x")) AS "nan",
  DL2SQL_WIDE_UDF_6("t1"."x") AS "as_int",
  DL2SQL_WIDE_UDF_7(CAST("t1"."x" AS REAL)) AS "single"
FROM "X" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
