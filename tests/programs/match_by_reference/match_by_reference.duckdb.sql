-- Pushed
CREATE OR REPLACE TEMPORARY VIEW "Pushed" AS
SELECT DISTINCT
  [CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)] AS "v";
-- Checked
CREATE OR REPLACE TEMPORARY VIEW "Checked" AS
SELECT DISTINCT
  "t1"."text",
  DL2SQL_912A1F38_UDF_1("t1"."text") AS "r"
FROM "Raw" AS "t1";
-- Parsed
CREATE OR REPLACE TEMPORARY VIEW "Parsed" AS
SELECT DISTINCT
  DL2SQL_912A1F38_UDF_2("t1"."text", ',') AS "texts",
  DL2SQL_912A1F38_UDF_3("t1"."text") AS "numbers"
FROM "Raw" AS "t1";
-- FromGroup__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "FromGroup__group1_rows" AS
SELECT DISTINCT
  "t1"."x" AS "x0",
  "t1"."label" AS "l",
  "t1"."x" AS "__value"
FROM "In" AS "t1";
-- FromGroup__group1
CREATE OR REPLACE TEMPORARY VIEW "FromGroup__group1" AS
SELECT
  "t1"."l" AS "l",
  {'key': "t1"."l", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "FromGroup__group1_rows" AS "t1"
GROUP BY
  "t1"."l"
HAVING
  COUNT(*) > 0;
-- FromGroup
CREATE OR REPLACE TEMPORARY VIEW "FromGroup" AS
SELECT DISTINCT
  "t1"."l" AS "label",
  "t2"."_e" AS "x",
  CAST(1 AS BIGINT) AS "weight"
FROM "FromGroup__group1" AS "t1"
CROSS JOIN UNNEST("t1"."g"."vals") AS "t2"("_e");
-- Doubled
CREATE OR REPLACE TEMPORARY VIEW "Doubled" AS
SELECT DISTINCT
  "t1"."x",
  {'tag': CAST(1 AS BIGINT), 'Some_x': CASE
    WHEN "t1"."x" < CAST(2 AS BIGINT)
    THEN CAST(0 AS BIGINT)
    ELSE CAST((
      (
        CAST("t1"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128) + 2147483648
      ) & 4294967295
    ) - 2147483648 AS BIGINT)
  END} AS "d"
FROM "In" AS "t1";
-- Relabelled
CREATE OR REPLACE TEMPORARY VIEW "Relabelled" AS
SELECT
  DL2SQL_912A1F38_UDF_4("t1"."x", "t1"."label") AS "h"
FROM "In" AS "t1"
UNION
SELECT
  {'p': {'tag': CAST(1 AS BIGINT), 'Some_x': {'x': CAST(7 AS BIGINT), 'label': 'new'}}} AS "h";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
