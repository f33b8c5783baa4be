-- Even: non-recursive rules
CREATE OR REPLACE TEMPORARY VIEW "Even" AS
SELECT
  CAST(NULL AS BIGINT) AS "a",
  CAST(NULL AS BIGINT) AS "b"
WHERE
  FALSE;
-- Even: first delta
CREATE OR REPLACE TEMPORARY VIEW "Even__delta" AS
SELECT
  *
FROM "Even";
-- Odd: non-recursive rules
CREATE OR REPLACE TEMPORARY VIEW "Odd" AS
SELECT DISTINCT
  "t1"."a",
  "t1"."b"
FROM "E" AS "t1";
-- Odd: first delta
CREATE OR REPLACE TEMPORARY VIEW "Odd__delta" AS
SELECT
  *
FROM "Odd";
-- repeat (stratum Even, Odd):
  -- Even: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Even__new" AS
  SELECT
    "dl2sql_new"."a",
    "dl2sql_new"."b"
  FROM (
    SELECT DISTINCT
      "t1"."a",
      "t2"."b"
    FROM "Odd__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."a" = "t1"."b"
  ) AS "dl2sql_new"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM "Even" AS "dl2sql_old"
      WHERE
        "dl2sql_old"."a" IS NOT DISTINCT FROM "dl2sql_new"."a"
        AND "dl2sql_old"."b" IS NOT DISTINCT FROM "dl2sql_new"."b"
    );
  -- Odd: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Odd__new" AS
  SELECT
    "dl2sql_new"."a",
    "dl2sql_new"."b"
  FROM (
    SELECT DISTINCT
      "t1"."a",
      "t2"."b"
    FROM "Even__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."a" = "t1"."b"
  ) AS "dl2sql_new"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM "Odd" AS "dl2sql_old"
      WHERE
        "dl2sql_old"."a" IS NOT DISTINCT FROM "dl2sql_new"."a"
        AND "dl2sql_old"."b" IS NOT DISTINCT FROM "dl2sql_new"."b"
    );
  -- Even := Even UNION ALL Even__new
  -- Even__delta := Even__new
  -- Odd := Odd UNION ALL Odd__new
  -- Odd__delta := Odd__new
-- until empty: Even__new, Odd__new
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
