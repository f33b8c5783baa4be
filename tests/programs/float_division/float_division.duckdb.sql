-- Infinite
CREATE OR REPLACE TEMPORARY VIEW "Infinite" AS
SELECT DISTINCT
  "t1"."a",
  "t1"."b"
FROM "X" AS "t1"
WHERE
  "t1"."a" / "t1"."b" = CAST(1.0 AS DOUBLE) / CAST(0.0 AS DOUBLE);
-- N
CREATE OR REPLACE TEMPORARY VIEW "N" AS
SELECT DISTINCT
  "t1"."a" / "t1"."b" / (
    "t1"."b" / "t1"."a"
  ) AS "x"
FROM "X" AS "t1";
-- F
CREATE OR REPLACE TEMPORARY VIEW "F" AS
SELECT DISTINCT
  "t1"."f",
  "t1"."g",
  CAST("t1"."f" / "t1"."g" AS REAL) AS "q",
  CAST("t1"."f" / CAST(0.0 AS REAL) AS REAL) AS "byzero",
  CAST("t1"."f" / (
    "t1"."f" - "t1"."f"
  ) AS REAL) AS "own"
FROM "X" AS "t1";
-- Q
CREATE OR REPLACE TEMPORARY VIEW "Q" AS
SELECT DISTINCT
  "t1"."a",
  "t1"."b",
  "t1"."a" / "t1"."b" AS "q",
  "t1"."a" / (
    "t1"."b" * CAST(-1.0 AS DOUBLE)
  ) AS "negzero",
  "t1"."a" / CAST(4.0 AS DOUBLE) AS "quarter"
FROM "X" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
