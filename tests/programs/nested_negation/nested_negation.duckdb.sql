-- Reach: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Reach" AS
WITH RECURSIVE "Reach__delta"("id", "s") AS (
  SELECT
    "t1"."id",
    "t1"."s"
  FROM "Item" AS "t1"
  UNION
  SELECT
    "t2"."dst" AS "id",
    {'tag': CAST(0 AS BIGINT), 'Tag_t': 'via', 'Tag_r': "t1"."id", 'Box_inner': {'lo': CAST(0 AS BIGINT), 'hi': CAST(0 AS BIGINT)}} AS "s"
  FROM "Reach__delta" AS "t1"
  JOIN "Edge" AS "t2"
    ON "t2"."src" = "t1"."id"
)
SELECT
  *
FROM "Reach__delta";
-- ReachedPair
CREATE OR REPLACE TEMPORARY VIEW "ReachedPair" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END AS "r"
FROM "Reach" AS "t1"
JOIN "Edge" AS "t2"
  ON "t2"."src" = CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END
  AND "t2"."dst" = "t1"."id";
-- Unreached
CREATE OR REPLACE TEMPORARY VIEW "Unreached" AS
SELECT DISTINCT
  "t1"."id",
  "t1"."s"."Tag_r" AS "r"
FROM "Reach" AS "t1"
WHERE
  "t1"."s"."tag" = 0
  AND NOT EXISTS(
    SELECT
      1
    FROM "Item" AS "t2"
    WHERE
      "t2"."id" = "t1"."s"."Tag_r" AND "t2"."s"."tag" = 1
  );
-- Shaped
CREATE OR REPLACE TEMPORARY VIEW "Shaped" AS
SELECT
  "t1"."id",
  "t1"."s"
FROM "Item" AS "t1"
UNION
SELECT
  "t1"."dst" AS "id",
  {'tag': CAST(0 AS BIGINT), 'Tag_t': 'edge', 'Tag_r': "t1"."src", 'Box_inner': {'lo': CAST(0 AS BIGINT), 'hi': CAST(0 AS BIGINT)}} AS "s"
FROM "Edge" AS "t1"
UNION
SELECT
  "t1"."dst" AS "id",
  {'tag': CAST(2 AS BIGINT), 'Tag_t': '', 'Tag_r': CAST(0 AS BIGINT), 'Box_inner': {'lo': "t1"."src", 'hi': "t1"."dst"}} AS "s"
FROM "Edge" AS "t1"
WHERE
  "t1"."src" < "t1"."dst";
-- ShapedAnti
CREATE OR REPLACE TEMPORARY VIEW "ShapedAnti" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END AS "k"
FROM "Shaped" AS "t1"
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "Edge" AS "t2"
    WHERE
      "t2"."src" = CASE
        WHEN "t1"."s"."tag" = 0
        THEN "t1"."s"."Tag_r"
        ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
      END
      AND "t2"."dst" = "t1"."id"
  );
-- Grouped__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Grouped__group1_rows" AS
SELECT DISTINCT
  "t1"."id" AS "i",
  "t1"."s",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END AS "t",
  "t1"."id" AS "__value"
FROM "Item" AS "t1";
-- Grouped__group1
CREATE OR REPLACE TEMPORARY VIEW "Grouped__group1" AS
SELECT
  "t1"."t" AS "t",
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "Grouped__group1_rows" AS "t1"
GROUP BY
  "t1"."t"
HAVING
  COUNT(*) > 0;
-- Grouped
CREATE OR REPLACE TEMPORARY VIEW "Grouped" AS
SELECT DISTINCT
  "t1"."t",
  "t1"."__grouped1" AS "n"
FROM "Grouped__group1" AS "t1";
-- Semi
CREATE OR REPLACE TEMPORARY VIEW "Semi" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END AS "t"
FROM "Item" AS "t1"
JOIN "Edge" AS "t2"
  ON "t2"."src" = "t1"."id"
  AND "t2"."dst" = CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."lo" END
  END;
-- Anti
CREATE OR REPLACE TEMPORARY VIEW "Anti" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN "t1"."s"."Tag_r"
    ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."hi" END
  END AS "t"
FROM "Item" AS "t1"
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "Edge" AS "t2"
    WHERE
      "t2"."src" = "t1"."id"
      AND "t2"."dst" = CASE
        WHEN "t1"."s"."tag" = 0
        THEN "t1"."s"."Tag_r"
        ELSE CASE WHEN "t1"."s"."tag" = 1 THEN "t1"."id" ELSE "t1"."s"."Box_inner"."hi" END
      END
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
