-- HasOut
CREATE OR REPLACE TEMPORARY VIEW "HasOut" AS
SELECT DISTINCT
  "t1"."a"
FROM "Link" AS "t1";
-- Conn: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Conn" AS
WITH RECURSIVE "Conn__delta"("a", "b") AS (
  SELECT
    "t1"."a",
    "t1"."b"
  FROM "Link" AS "t1"
  UNION
  SELECT
    "t1"."a",
    "t2"."b"
  FROM "Conn__delta" AS "t1"
  JOIN "Link" AS "t2"
    ON "t2"."a" = "t1"."b"
)
SELECT
  *
FROM "Conn__delta";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
