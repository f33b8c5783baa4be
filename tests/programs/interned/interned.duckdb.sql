-- Named
CREATE OR REPLACE TEMPORARY VIEW "Named" AS
SELECT DISTINCT
  "t1"."_v"."name"
FROM "Hosts" AS "t1"
WHERE
  "t1"."_v"."port" = CAST(80 AS BIGINT);
-- Ports
CREATE OR REPLACE TEMPORARY VIEW "Ports" AS
SELECT DISTINCT
  "t1"."_v"."name",
  "t1"."_v"."port"
FROM "Hosts" AS "t1"
WHERE
  "t1"."_v"."port" > CAST(0 AS BIGINT);
-- Pairs
CREATE OR REPLACE TEMPORARY VIEW "Pairs" AS
SELECT DISTINCT
  {'a': {'_0': CAST((
    (
      CAST(CAST((
        (
          CAST(DL2SQL_F8DAB62C_UDF_1("t1"."ix") AS INT128) + 9223372036854775808
        ) & 18446744073709551615
      ) - 9223372036854775808 AS BIGINT) AS INT128) + 2147483648
    ) & 4294967295
  ) - 2147483648 AS BIGINT), '_1': "t1"."ix"}, 'r': 'r' || "t1"."ix"} AS "p",
  {'_0': CAST((
    (
      CAST(CAST((
        (
          CAST(DL2SQL_F8DAB62C_UDF_1("t1"."ix") AS INT128) + 9223372036854775808
        ) & 18446744073709551615
      ) - 9223372036854775808 AS BIGINT) AS INT128) + 2147483648
    ) & 4294967295
  ) - 2147483648 AS BIGINT), '_1': "t1"."ix"}."_1" || '/' || CAST({'_0': CAST((
    (
      CAST(CAST((
        (
          CAST(DL2SQL_F8DAB62C_UDF_1("t1"."ix") AS INT128) + 9223372036854775808
        ) & 18446744073709551615
      ) - 9223372036854775808 AS BIGINT) AS INT128) + 2147483648
    ) & 4294967295
  ) - 2147483648 AS BIGINT), '_1': "t1"."ix"}."_0" AS TEXT) || '/' || 'r' || "t1"."ix" AS "s"
FROM "Name" AS "t1";
-- Inside
CREATE OR REPLACE TEMPORARY VIEW "Inside" AS
SELECT DISTINCT
  "t1"."p"."a"."_1" AS "s",
  "t1"."p"."r"
FROM "Pairs" AS "t1";
-- Upper
CREATE OR REPLACE TEMPORARY VIEW "Upper" AS
SELECT
  "t1"."ix" AS "x",
  "t1"."ix",
  DL2SQL_F8DAB62C_UDF_1("t1"."ix") AS "n",
  DL2SQL_F8DAB62C_UDF_2("t1"."ix") AS "up"
FROM "Name" AS "t1"
UNION
SELECT
  'lit' AS "x",
  'lit' AS "ix",
  CAST(3 AS DECIMAL(38, 0)) AS "n",
  CAST(CAST(1 AS DECIMAL(38, 0)) + CAST(1 AS DECIMAL(38, 0)) AS TEXT) AS "up"
FROM "Name" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
