-- Lit
CREATE OR REPLACE TEMPORARY VIEW "Lit" AS
SELECT
  'tab	here' || 'raw\n' || CAST((
    (
      -CAST(7 AS BIGINT) + 128
    ) & 255
  ) - 128 AS TEXT) || CAST(TRUE AS TEXT) AS "s"
UNION
SELECT
  'cost: ${price} or ${x}$' AS "s";
-- Joined
CREATE OR REPLACE TEMPORARY VIEW "Joined" AS
SELECT DISTINCT
  "t1"."s" || '+' || "t2"."s" AS "j"
FROM "S" AS "t1"
JOIN "S" AS "t2"
  ON "t1"."s" < "t2"."s"
WHERE
  STRLEN("t1"."s") > CAST(0 AS DECIMAL(38, 0));
-- Info
CREATE OR REPLACE TEMPORARY VIEW "Info" AS
SELECT DISTINCT
  "t1"."s",
  STRLEN("t1"."s") AS "bytes",
  DL2SQL_03407EC9_UDF_1("t1"."s", CAST(0 AS DECIMAL(38, 0)), CAST(2 AS DECIMAL(38, 0))) AS "first2",
  '«' || "t1"."s" || '» has ' || CAST(STRLEN("t1"."s") AS TEXT) || ' bytes, empty: ' || CAST("t1"."s" = '' AS TEXT) AS "shout",
  CAST(LEN(DL2SQL_03407EC9_UDF_2("t1"."s", ',')) AS DECIMAL(38, 0)) AS "parts"
FROM "S" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
