-- Four
CREATE OR REPLACE TEMPORARY VIEW "Four" AS
SELECT
  {'tag': CAST(1 AS BIGINT), 'V4_addr4': CAST(0 AS BIGINT), 'V6_addr6': '::'}."V4_addr4" AS "n"
WHERE
  FALSE
UNION
SELECT
  CAST(4 AS BIGINT) AS "n";
-- Out
CREATE OR REPLACE TEMPORARY VIEW "Out" AS
SELECT
  'v4 ' || CAST(CAST(7 AS BIGINT) AS TEXT) AS "text",
  CAST(0 AS BIGINT) = CAST(0 AS BIGINT) AS "zero"
UNION
SELECT
  'v6 ' || '::1' AS "text",
  '::1' = '::' AS "zero"
UNION
SELECT
  'mixed ' || CAST(CAST(1 AS BIGINT) AS TEXT) || ' ' || '::2' AS "text",
  FALSE AS "zero"
UNION
SELECT
  'both v4 ' || CAST(CAST(1 AS BIGINT) + CAST(2 AS BIGINT) AS TEXT) AS "text",
  FALSE AS "zero"
UNION
SELECT
  'other' AS "text",
  TRUE AS "zero"
UNION
SELECT
  CASE
    WHEN "t1"."a"."tag" = 0
    THEN 'v4 ' || CAST("t1"."a"."V4_addr4" AS TEXT)
    ELSE 'v6 ' || "t1"."a"."V6_addr6"
  END AS "text",
  CASE
    WHEN "t1"."a"."tag" = 0
    THEN "t1"."a"."V4_addr4" = CAST(0 AS BIGINT)
    ELSE "t1"."a"."V6_addr6" = '::'
  END AS "zero"
FROM "Input" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
