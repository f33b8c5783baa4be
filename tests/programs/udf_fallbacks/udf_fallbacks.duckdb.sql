-- Bits
CREATE OR REPLACE TEMPORARY VIEW "Bits" AS
SELECT DISTINCT
  CAST(9223372036854775808 AS DECIMAL(38, 0)) AS "a",
  CAST(2 AS DECIMAL(38, 0)) AS "b",
  CAST(3232235521 AS BIGINT) AS "c",
  CAST((
    -16
  ) AS BIGINT) AS "d",
  CAST((
    (
      CAST(3232235521 AS BIGINT)
    ) // CAST(16777216 AS BIGINT)
  ) % CAST(256 AS BIGINT) AS BIGINT) AS "s";
-- F
CREATE OR REPLACE TEMPORARY VIEW "F" AS
SELECT DISTINCT
  '0.30000000000000004' AS "d",
  '1.5' AS "f",
  (
    (
      CAST(0.1 AS DOUBLE)
    ) + (
      CAST(0.2 AS DOUBLE)
    )
  ) / (
    CAST(3.0 AS DOUBLE)
  ) AS "q";
-- Str
CREATE OR REPLACE TEMPORARY VIEW "Str" AS
SELECT DISTINCT
  "t1"."w",
  STRLEN("t1"."w") AS "bytes",
  DL2SQL_UDF_1("t1"."w", CAST(0 AS DECIMAL(38, 0)), CAST(3 AS DECIMAL(38, 0))) AS "head",
  DL2SQL_UDF_2("t1"."w") AS "trimmed",
  DL2SQL_UDF_3("t1"."w") AS "upper",
  DL2SQL_UDF_4(STRLEN("t1"."w")) AS "hx",
  DL2SQL_UDF_5(DL2SQL_UDF_2("t1"."w")) AS "parsed",
  DL2SQL_UDF_6("t1"."w", CAST(2 AS BIGINT)) AS "sc"
FROM "Word" AS "t1";
-- G
CREATE OR REPLACE TEMPORARY VIEW "G" AS
SELECT DISTINCT
  "t1"."a",
  "t1"."b",
  DL2SQL_UDF_7("t1"."a", "t1"."b") AS "g",
  DL2SQL_UDF_8("t1"."a") AS "steps"
FROM "Pair" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
