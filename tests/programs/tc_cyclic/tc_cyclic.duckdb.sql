-- Reach2: non-recursive rules
CREATE OR REPLACE TEMPORARY VIEW "Reach2" AS
SELECT DISTINCT
  "t1"."a",
  "t1"."b"
FROM "Edge" AS "t1";
-- Reach2: first delta
CREATE OR REPLACE TEMPORARY VIEW "Reach2__delta" AS
SELECT
  *
FROM "Reach2";
-- repeat (stratum Reach2):
  -- Reach2: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Reach2__new" AS
  SELECT
    "dl2sql_new"."a",
    "dl2sql_new"."b"
  FROM (
    SELECT
      *
    FROM (
      SELECT
        "t1"."a",
        "t2"."b"
      FROM "Reach2__delta" AS "t1"
      JOIN "Reach2" AS "t2"
        ON "t2"."a" = "t1"."b"
      UNION
      SELECT
        "t1"."a",
        "t2"."b"
      FROM "Reach2" AS "t1"
      JOIN "Reach2__delta" AS "t2"
        ON "t2"."a" = "t1"."b"
    ) AS variants
  ) AS "dl2sql_new"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM "Reach2" AS "dl2sql_old"
      WHERE
        "dl2sql_old"."a" IS NOT DISTINCT FROM "dl2sql_new"."a"
        AND "dl2sql_old"."b" IS NOT DISTINCT FROM "dl2sql_new"."b"
    );
  -- Reach2 := Reach2 UNION ALL Reach2__new
  -- Reach2__delta := Reach2__new
-- until empty: Reach2__new
-- Reach: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Reach" AS
WITH RECURSIVE "Reach__delta"("a", "b") AS (
  SELECT
    "t1"."a",
    "t1"."b"
  FROM "Edge" AS "t1"
  UNION
  SELECT
    "t1"."a",
    "t2"."b"
  FROM "Reach__delta" AS "t1"
  JOIN "Edge" AS "t2"
    ON "t2"."a" = "t1"."b"
)
SELECT
  *
FROM "Reach__delta";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
