-- Named
CREATE OR REPLACE TEMPORARY VIEW "Named" AS
SELECT DISTINCT
  "t1"."name",
  "t1"."extra"."Some_x" AS "extra"
FROM "Notes" AS "t1"
WHERE
  "t1"."extra"."tag" = 1;
-- NoteShapes
CREATE OR REPLACE TEMPORARY VIEW "NoteShapes" AS
SELECT DISTINCT
  "t1"."name",
  "t1"."shape" AS "s"
FROM "Notes" AS "t1"
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "Shapes" AS "t2"
    WHERE
      "t2"."s" = "t1"."shape"
  );
-- Grown
CREATE OR REPLACE TEMPORARY VIEW "Grown" AS
SELECT
  "t1"."id",
  {'tag': CAST(0 AS BIGINT), 'Circle_r': (
    "t1"."s"."Circle_r" + CAST(1 AS BIGINT)
  ) & 4294967295, 'Rect_w': CAST(0 AS BIGINT), 'Rect_h': CAST(0 AS BIGINT)} AS "s"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 0
UNION
SELECT
  "t1"."id",
  {'tag': CAST(1 AS BIGINT), 'Circle_r': CAST(0 AS BIGINT), 'Rect_w': "t1"."s"."Rect_h", 'Rect_h': "t1"."s"."Rect_w"} AS "s"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 1;
-- Kinds
CREATE OR REPLACE TEMPORARY VIEW "Kinds" AS
SELECT DISTINCT
  "t1"."s" AS "_v"
FROM "Shapes" AS "t1";
-- Dots
CREATE OR REPLACE TEMPORARY VIEW "Dots" AS
SELECT DISTINCT
  "t1"."id"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 2;
-- Squares
CREATE OR REPLACE TEMPORARY VIEW "Squares" AS
SELECT DISTINCT
  "t1"."id"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 1 AND "t1"."s"."Rect_w" = "t1"."s"."Rect_h";
-- Circles
CREATE OR REPLACE TEMPORARY VIEW "Circles" AS
SELECT DISTINCT
  "t1"."id",
  "t1"."s"."Circle_r" AS "r"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 0;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
