-- Moved
CREATE OR REPLACE TEMPORARY VIEW "Moved" AS
SELECT DISTINCT
  '(' || CAST((
    (
      "t1"."p"."x" + CAST(-5 AS BIGINT) + 2147483648
    ) & 4294967295
  ) - 2147483648 AS TEXT) || ', ' || CAST("t1"."p"."y" AS TEXT) || ')' AS "text",
  CASE
    WHEN "t1"."p"."x" < CAST(0 AS BIGINT)
    THEN 'negative'
    ELSE CASE WHEN "t1"."p"."x" = CAST(0 AS BIGINT) THEN 'zero' ELSE 'positive' END
  END AS "s"
FROM "Points" AS "t1";
-- Sum
CREATE OR REPLACE TEMPORARY VIEW "Sum" AS
SELECT DISTINCT
  "t1"."id",
  DL2SQL_FEF859BF_UDF_1("t1"."id") AS "x"
FROM "Shapes" AS "t1";
-- Q
CREATE OR REPLACE TEMPORARY VIEW "Q" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN CASE
      WHEN CAST("t1"."id" % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
      THEN {'tag': CAST(1 AS BIGINT), 'Some_x': "t1"."id" // CAST(2 AS BIGINT)}
      ELSE {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)}
    END."tag" = 1
    THEN CASE
      WHEN CAST(CASE
        WHEN CAST("t1"."id" % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
        THEN {'tag': CAST(1 AS BIGINT), 'Some_x': "t1"."id" // CAST(2 AS BIGINT)}
        ELSE {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)}
      END."Some_x" % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
      THEN {'tag': CAST(1 AS BIGINT), 'Some_x': CASE
        WHEN CAST("t1"."id" % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
        THEN {'tag': CAST(1 AS BIGINT), 'Some_x': "t1"."id" // CAST(2 AS BIGINT)}
        ELSE {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)}
      END."Some_x" // CAST(2 AS BIGINT)}
      ELSE {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)}
    END
    ELSE {'tag': CAST(0 AS BIGINT), 'Some_x': CAST(0 AS BIGINT)}
  END AS "q"
FROM "Shapes" AS "t1";
-- Radius
CREATE OR REPLACE TEMPORARY VIEW "Radius" AS
SELECT DISTINCT
  "t1"."id",
  "t1"."s"."Circle_r" AS "r"
FROM "Shapes" AS "t1"
WHERE
  "t1"."s"."tag" = 0;
-- Kind
CREATE OR REPLACE TEMPORARY VIEW "Kind" AS
SELECT DISTINCT
  "t1"."id",
  CASE WHEN "t1"."s"."tag" = 2 THEN 'D' ELSE 'other' END AS "k"
FROM "Shapes" AS "t1";
-- Info
CREATE OR REPLACE TEMPORARY VIEW "Info" AS
SELECT DISTINCT
  "t1"."id",
  CASE
    WHEN "t1"."s"."tag" = 0
    THEN CAST((
      CAST(CAST((
        CAST(CAST(3 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
      ) & 4294967295 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
    ) & 4294967295 AS BIGINT)
    ELSE CASE
      WHEN "t1"."s"."tag" = 1
      THEN CAST((
        CAST("t1"."s"."Rect_w" AS INT128) * CAST("t1"."s"."Rect_h" AS INT128)
      ) & 4294967295 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END
  END AS "area",
  CASE
    WHEN CASE
      WHEN "t1"."s"."tag" = 0
      THEN CAST((
        CAST(CAST((
          CAST(CAST(3 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
        ) & 4294967295 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
      ) & 4294967295 AS BIGINT)
      ELSE CASE
        WHEN "t1"."s"."tag" = 1
        THEN CAST((
          CAST("t1"."s"."Rect_w" AS INT128) * CAST("t1"."s"."Rect_h" AS INT128)
        ) & 4294967295 AS BIGINT)
        ELSE CAST(0 AS BIGINT)
      END
    END > CAST(20 AS BIGINT)
    THEN CAST(20 AS BIGINT)
    ELSE (
      CASE
        WHEN "t1"."s"."tag" = 0
        THEN CAST((
          CAST(CAST((
            CAST(CAST(3 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
          ) & 4294967295 AS BIGINT) AS INT128) * CAST("t1"."s"."Circle_r" AS INT128)
        ) & 4294967295 AS BIGINT)
        ELSE CASE
          WHEN "t1"."s"."tag" = 1
          THEN CAST((
            CAST("t1"."s"."Rect_w" AS INT128) * CAST("t1"."s"."Rect_h" AS INT128)
          ) & 4294967295 AS BIGINT)
          ELSE CAST(0 AS BIGINT)
        END
      END + CAST(1 AS BIGINT) - CAST(1 AS BIGINT)
    ) & 4294967295
  END AS "capped",
  CASE
    WHEN "t1"."s"."tag" = 0 AND "t1"."s"."Circle_r" = CAST(0 AS BIGINT)
    THEN 'point-like circle'
    ELSE CASE
      WHEN "t1"."s"."tag" = 0
      THEN 'circle of radius ' || CAST("t1"."s"."Circle_r" AS TEXT)
      ELSE CASE
        WHEN "t1"."s"."tag" = 1
        THEN CASE
          WHEN "t1"."s"."Rect_w" = "t1"."s"."Rect_h"
          THEN 'square ' || CAST("t1"."s"."Rect_w" AS TEXT)
          ELSE 'rect ' || CAST("t1"."s"."Rect_w" AS TEXT) || 'x' || CAST("t1"."s"."Rect_h" AS TEXT)
        END
        ELSE 'dot'
      END
    END
  END AS "text"
FROM "Shapes" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
