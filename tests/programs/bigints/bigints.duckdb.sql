-- ByValue__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "ByValue__group1_rows" AS
SELECT DISTINCT
  "t1"."t",
  "t1"."x",
  "t1"."t" AS "__value"
FROM "Tag" AS "t1";
-- ByValue__group1
CREATE OR REPLACE TEMPORARY VIEW "ByValue__group1" AS
SELECT
  "t1"."x" AS "x",
  {'key': "t1"."x", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "ByValue__group1_rows" AS "t1"
GROUP BY
  "t1"."x"
HAVING
  COUNT(*) > 0;
-- ByValue
CREATE OR REPLACE TEMPORARY VIEW "ByValue" AS
SELECT DISTINCT
  "t1"."x",
  "t1"."__grouped1"."vals" AS "tags"
FROM "ByValue__group1" AS "t1";
-- Wrap
CREATE OR REPLACE TEMPORARY VIEW "Wrap" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CASE
    WHEN CASE
      WHEN NOT (
        "t1"."u" + CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST("t1"."u" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS "u1",
  CASE
    WHEN CASE
      WHEN NOT (
        "t1"."u" - CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST("t1"."u" - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS "u2",
  CASE
    WHEN CASE
      WHEN NOT (
        "t1"."u" * CAST(3 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST("t1"."u" * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS "u3",
  CAST("t1"."s" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "s1",
  CAST("t1"."s" - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "s2",
  CAST(-"t1"."s" AS DECIMAL(38, 0)) AS "s3",
  CAST("t1"."s" * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "s4",
  CAST("t1"."u" + "t1"."s" AS DECIMAL(38, 0)) AS "wide"
FROM "W" AS "t1";
-- Casts
CREATE OR REPLACE TEMPORARY VIEW "Casts" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CAST((
    (
      CAST("t1"."x" AS INT128) + 9223372036854775808
    ) & 18446744073709551615
  ) - 9223372036854775808 AS BIGINT) AS "s",
  CAST(CAST((
    (
      CAST("t1"."x" AS INT128) + 9223372036854775808
    ) & 18446744073709551615
  ) - 9223372036854775808 AS BIGINT) AS DECIMAL(38, 0)) AS "back",
  CAST("t1"."x" AS DECIMAL(38, 0)) AS "s128",
  CASE
    WHEN CASE WHEN NOT (
      "t1"."x" >= CAST(0 AS DECIMAL(38, 0))
    ) THEN FALSE ELSE TRUE END
    THEN CAST("t1"."x" AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS "u128",
  CAST("t1"."x" AS DOUBLE) AS "d"
FROM "N" AS "t1";
-- Misc
CREATE OR REPLACE TEMPORARY VIEW "Misc" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  DL2SQL_46414A2A_UDF_1("t1"."x") AS "shl",
  DL2SQL_46414A2A_UDF_2("t1"."x") AS "shr",
  DL2SQL_46414A2A_UDF_3("t1"."x", CAST(3 AS BIGINT)) AS "cube",
  CASE
    WHEN "t1"."x" IS NULL OR CAST(0 AS DECIMAL(38, 0)) IS NULL
    THEN NULL
    ELSE LEAST("t1"."x", CAST(0 AS DECIMAL(38, 0)))
  END AS "lo",
  CASE
    WHEN "t1"."x" IS NULL OR CAST(0 AS DECIMAL(38, 0)) IS NULL
    THEN NULL
    ELSE GREATEST("t1"."x", CAST(0 AS DECIMAL(38, 0)))
  END AS "hi"
FROM "N" AS "t1";
-- Text
CREATE OR REPLACE TEMPORARY VIEW "Text" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CAST("t1"."x" AS TEXT) || '|' || CAST(CAST(-"t1"."x" AS DECIMAL(38, 0)) AS TEXT) || '|' || CAST(CAST("t1"."x" * CAST(10 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS TEXT) || '|' || CAST(CASE
    WHEN CASE
      WHEN NOT (
        CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(CAST(CAST("t1"."x" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:34:1'
    )
  END AS TEXT) AS "s"
FROM "N" AS "t1";
-- Ordered__group2_rows
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group2_rows" AS
SELECT DISTINCT
  "t1"."x",
  "t1"."x" AS "__value"
FROM "N" AS "t1";
-- Ordered__group2
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group2" AS
SELECT
  {'key': TRUE, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "Ordered__group2_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Ordered
CREATE OR REPLACE TEMPORARY VIEW "Ordered" AS
SELECT DISTINCT
  "t1"."g"."vals" AS "all",
  LIST_EXTRACT("t1"."g"."vals", 1) AS "lo",
  LIST_EXTRACT("t1"."g"."vals", -1) AS "hi"
FROM "Ordered__group2" AS "t1";
-- Succ
CREATE OR REPLACE TEMPORARY VIEW "Succ" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t2"."name" AS "b"
FROM "N" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."x" = CAST("t1"."x" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0));
-- Same
CREATE OR REPLACE TEMPORARY VIEW "Same" AS
SELECT DISTINCT
  "t1"."name" AS "a"
FROM "N" AS "t1"
JOIN "M" AS "t2"
  ON "t2"."x" = "t1"."x";
-- Less
CREATE OR REPLACE TEMPORARY VIEW "Less" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t3"."name" AS "b"
FROM "P" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."name" = "t1"."name"
CROSS JOIN "P" AS "t3"
JOIN "N" AS "t4"
  ON "t4"."name" = "t3"."name" AND "t2"."x" < "t4"."x";
-- Arith
CREATE OR REPLACE TEMPORARY VIEW "Arith" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t3"."name" AS "b",
  CAST("t2"."x" + "t4"."x" AS DECIMAL(38, 0)) AS "sum",
  CAST("t2"."x" - "t4"."x" AS DECIMAL(38, 0)) AS "diff",
  CAST("t2"."x" * "t4"."x" AS DECIMAL(38, 0)) AS "prod",
  CASE
    WHEN CASE WHEN NOT (
      "t4"."x" <> CAST(0 AS DECIMAL(38, 0))
    ) THEN FALSE ELSE TRUE END
    THEN CAST(CAST(CAST("t2"."x" AS INT128) // CAST("t4"."x" AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS "quot",
  CASE
    WHEN CASE WHEN NOT (
      "t4"."x" <> CAST(0 AS DECIMAL(38, 0))
    ) THEN FALSE ELSE TRUE END
    THEN CAST(CAST("t2"."x" % "t4"."x" AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS "rem"
FROM "P" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."name" = "t1"."name"
CROSS JOIN "P" AS "t3"
JOIN "N" AS "t4"
  ON "t4"."name" = "t3"."name";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
