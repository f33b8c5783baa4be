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
    "n"."a",
    "n"."b"
  FROM (
    SELECT DISTINCT
      "t1"."a",
      "t2"."b"
    FROM "Odd__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."a" = "t1"."b"
  ) AS "n"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM "Even" AS "o"
      WHERE
        "o"."a" IS NOT DISTINCT FROM "n"."a" AND "o"."b" IS NOT DISTINCT FROM "n"."b"
    );
  -- Odd: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW "Odd__new" AS
  SELECT
    "n"."a",
    "n"."b"
  FROM (
    SELECT DISTINCT
      "t1"."a",
      "t2"."b"
    FROM "Even__delta" AS "t1"
    JOIN "E" AS "t2"
      ON "t2"."a" = "t1"."b"
  ) AS "n"
  WHERE
    NOT EXISTS(
      SELECT
        1
      FROM "Odd" AS "o"
      WHERE
        "o"."a" IS NOT DISTINCT FROM "n"."a" AND "o"."b" IS NOT DISTINCT FROM "n"."b"
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
