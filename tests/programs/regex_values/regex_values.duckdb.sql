-- GivenMatches
CREATE OR REPLACE TEMPORARY VIEW "GivenMatches" AS
SELECT DISTINCT
  "t1"."r",
  DL2SQL_FA44ADA3_UDF_1("t1"."r", "t2"."t") AS "all"
FROM "Given" AS "t1"
CROSS JOIN "Text" AS "t2";
-- Numbered
CREATE OR REPLACE TEMPORARY VIEW "Numbered" AS
SELECT
  'second' AS "s",
  DL2SQL_FA44ADA3_UDF_2('second', ['second', 'first']) AS "n"
FROM "Text" AS "t1"
UNION
SELECT
  'first' AS "s",
  DL2SQL_FA44ADA3_UDF_2('first', ['second', 'first']) AS "n"
FROM "Text" AS "t1";
-- AnyOf
CREATE OR REPLACE TEMPORARY VIEW "AnyOf" AS
SELECT
  DL2SQL_FA44ADA3_UDF_3(['[0-9]{3}', '^x']) AS "set",
  "t1"."t",
  DL2SQL_FA44ADA3_UDF_4(DL2SQL_FA44ADA3_UDF_3(['[0-9]{3}', '^x']), "t1"."t") AS "found"
FROM "Text" AS "t1"
UNION
SELECT
  DL2SQL_FA44ADA3_UDF_6(DL2SQL_FA44ADA3_UDF_5(['a', '(?=b)'])) AS "set",
  "t1"."t",
  DL2SQL_FA44ADA3_UDF_4(DL2SQL_FA44ADA3_UDF_6(DL2SQL_FA44ADA3_UDF_5(['a', '(?=b)'])), "t1"."t") AS "found"
FROM "Text" AS "t1";
-- Invalid
CREATE OR REPLACE TEMPORARY VIEW "Invalid" AS
SELECT DISTINCT
  "t1"."re",
  DL2SQL_FA44ADA3_UDF_7("t1"."re")."Err_err" AS "message"
FROM "Pattern" AS "t1"
WHERE
  DL2SQL_FA44ADA3_UDF_7("t1"."re")."tag" = 1;
-- Compiled
CREATE OR REPLACE TEMPORARY VIEW "Compiled" AS
SELECT DISTINCT
  "t1"."re",
  DL2SQL_FA44ADA3_UDF_8("t1"."re") AS "compiled"
FROM "Pattern" AS "t1";
-- Matches
CREATE OR REPLACE TEMPORARY VIEW "Matches" AS
SELECT DISTINCT
  "t1"."re",
  "t2"."t",
  DL2SQL_FA44ADA3_UDF_9("t1"."compiled", "t2"."t") AS "found",
  DL2SQL_FA44ADA3_UDF_10("t1"."compiled", "t2"."t") AS "first",
  DL2SQL_FA44ADA3_UDF_1("t1"."compiled", "t2"."t") AS "all"
FROM "Compiled" AS "t1"
CROSS JOIN "Text" AS "t2";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
