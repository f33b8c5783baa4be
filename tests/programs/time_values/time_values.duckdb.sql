-- Zoned
CREATE OR REPLACE TEMPORARY VIEW "Zoned" AS
SELECT
  "t1"."_e" AS "text",
  DL2SQL_7973E42D_UDF_1("t1"."_e") AS "result"
FROM (
  SELECT
    1 AS one
) AS _one
CROSS JOIN UNNEST([
  '2021-03-07T07:08:09.250+05:30',
  '2021-03-07T07:08:09Z',
  '2021-03-07T07:08:09',
  '2021-03-07T07:08:09+24:00'
]) AS "t1"("_e")
UNION
SELECT
  "t1"."_e" AS "text",
  DL2SQL_7973E42D_UDF_2("t1"."_e") AS "result"
FROM (
  SELECT
    1 AS one
) AS _one
CROSS JOIN UNNEST([
  'Sun, 7 Mar 2021 07:08:09 -0800',
  '7 Mar 21 07:08 EST',
  'Mon, 7 Mar 2021 07:08:09 +0000'
]) AS "t1"("_e")
UNION
SELECT
  "t1"."_e" AS "text",
  DL2SQL_7973E42D_UDF_3("t1"."_e", '%Y-%m-%d %H:%M %z') AS "result"
FROM (
  SELECT
    1 AS one
) AS _one
CROSS JOIN UNNEST(['2021-03-07 07:08 +0100', '2021-03-07 07:08 -01:30', '2021-03-07 07:08']) AS "t1"("_e");
-- Dates
CREATE OR REPLACE TEMPORARY VIEW "Dates" AS
SELECT
  'ymd 2020-02-29' AS "what",
  DL2SQL_7973E42D_UDF_4(CAST(2020 AS BIGINT), CAST(2 AS BIGINT), CAST(29 AS BIGINT)) AS "date"
UNION
SELECT
  'ymd 2021-02-29' AS "what",
  DL2SQL_7973E42D_UDF_4(CAST(2021 AS BIGINT), CAST(2 AS BIGINT), CAST(29 AS BIGINT)) AS "date"
UNION
SELECT
  'ymd -44-03-15' AS "what",
  DL2SQL_7973E42D_UDF_4(CAST(-44 AS BIGINT), CAST(3 AS BIGINT), CAST(15 AS BIGINT)) AS "date"
UNION
SELECT
  'ymd 12345-01-01' AS "what",
  DL2SQL_7973E42D_UDF_4(CAST(12345 AS BIGINT), CAST(1 AS BIGINT), CAST(1 AS BIGINT)) AS "date"
UNION
SELECT
  'iso 2020 week 53 Sunday' AS "what",
  DL2SQL_7973E42D_UDF_5(CAST(2020 AS BIGINT), CAST(53 AS BIGINT), {'tag': CAST(6 AS BIGINT)}) AS "date"
UNION
SELECT
  'iso 2021 week 53 Monday' AS "what",
  DL2SQL_7973E42D_UDF_5(CAST(2021 AS BIGINT), CAST(53 AS BIGINT), {'tag': CAST(0 AS BIGINT)}) AS "date"
UNION
SELECT
  'yo 2020 366' AS "what",
  DL2SQL_7973E42D_UDF_6(CAST(2020 AS BIGINT), CAST(366 AS BIGINT)) AS "date"
UNION
SELECT
  'next of 1999-12-31' AS "what",
  {'tag': CAST(0 AS BIGINT), 'Ok_res': DL2SQL_7973E42D_UDF_8(
    DL2SQL_7973E42D_UDF_7(
      DL2SQL_7973E42D_UDF_4(CAST(1999 AS BIGINT), CAST(12 AS BIGINT), CAST(31 AS BIGINT))
    )
  ), 'Err_err': ''} AS "date"
UNION
SELECT
  'julian 2459281' AS "what",
  {'tag': CAST(0 AS BIGINT), 'Ok_res': DL2SQL_7973E42D_UDF_9(CAST(2459281 AS BIGINT)), 'Err_err': ''} AS "date";
-- Parsed
CREATE OR REPLACE TEMPORARY VIEW "Parsed" AS
SELECT DISTINCT
  "t1"."_e"."_0" AS "text",
  "t1"."_e"."_1" AS "format",
  DL2SQL_7973E42D_UDF_10("t1"."_e"."_0", "t1"."_e"."_1") AS "result"
FROM (
  SELECT
    1 AS one
) AS _one
CROSS JOIN UNNEST([
  {'_0': '2021-02-28 23:59:60.5', '_1': '%Y-%m-%d %H:%M:%S%.f'},
  {'_0': '2021-02-29 10:00', '_1': '%Y-%m-%d %H:%M'},
  {'_0': '2021-13-01 10:00', '_1': '%Y-%m-%d %H:%M'},
  {'_0': 'Sun 2021-03-07 07:08', '_1': '%a %Y-%m-%d %H:%M'},
  {'_0': 'Mon 2021-03-07 07:08', '_1': '%a %Y-%m-%d %H:%M'},
  {'_0': '2021-066 7:8', '_1': '%Y-%j %H:%M'},
  {'_0': '2021-W09-7 07:08:09', '_1': '%G-W%V-%u %H:%M:%S'},
  {'_0': '2021-03-07', '_1': '%Y-%m-%d'},
  {'_0': '2021-03-07 07:08 extra', '_1': '%Y-%m-%d %H:%M'},
  {'_0': '  2021-03-07   07:08', '_1': '%Y-%m-%d %H:%M'},
  {'_0': '07:08 PM 21/3/7', '_1': '%I:%M %p %y/%m/%d'},
  {'_0': '1615100888', '_1': '%s'}
]) AS "t1"("_e");
-- Local
CREATE OR REPLACE TEMPORARY VIEW "Local" AS
SELECT DISTINCT
  "t1"."at",
  DL2SQL_7973E42D_UDF_11("t1"."at") AS "utc",
  DL2SQL_7973E42D_UDF_12("t1"."at") || ' / ' || DL2SQL_7973E42D_UDF_13("t1"."at") || ' / ' || DL2SQL_7973E42D_UDF_15(DL2SQL_7973E42D_UDF_14("t1"."at")) AS "shown"
FROM "Stamp" AS "t1";
-- Weekdays
CREATE OR REPLACE TEMPORARY VIEW "Weekdays" AS
SELECT DISTINCT
  "t1"."day" AS "date",
  DL2SQL_7973E42D_UDF_16("t1"."day") AS "weekday",
  DL2SQL_7973E42D_UDF_17("t1"."day") AS "week",
  DL2SQL_7973E42D_UDF_18("t1"."day") AS "ordinal"
FROM "Meeting" AS "t1";
-- Formatted
CREATE OR REPLACE TEMPORARY VIEW "Formatted" AS
SELECT DISTINCT
  "t2"."_e" AS "what",
  DL2SQL_7973E42D_UDF_19("t1"."day", "t1"."start", "t2"."_e") AS "text"
FROM "Meeting" AS "t1"
CROSS JOIN UNNEST([
  '%Y-%m-%d %H:%M:%S%.f',
  '%a %A %b %B %e|%-d|%_m|%j',
  '%U %W %V %G %u %w',
  '%I:%M %p %P',
  '%D %F %T %R',
  '%y %C %s',
  '%.3f %6f %%',
  '%c',
  '%H %q',
  '%z'
]) AS "t2"("_e")
WHERE
  "t1"."name" = 'leap';
-- Before
CREATE OR REPLACE TEMPORARY VIEW "Before" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t2"."name" AS "b"
FROM "Meeting" AS "t1"
JOIN "Meeting" AS "t2"
  ON "t1"."start" < "t2"."start";
-- Earliest__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Earliest__group1_rows" AS
SELECT DISTINCT
  "t1"."day" AS "d",
  "t1"."start" AS "t",
  {'_0': "t1"."day", '_1': "t1"."start"} AS "__value"
FROM "Meeting" AS "t1";
-- Earliest__group1
CREATE OR REPLACE TEMPORARY VIEW "Earliest__group1" AS
SELECT
  {'key': TRUE, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Earliest__group1_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Earliest
CREATE OR REPLACE TEMPORARY VIEW "Earliest" AS
SELECT DISTINCT
  LIST_EXTRACT("t1"."__grouped1"."vals", 1)."_0" AS "day",
  LIST_EXTRACT("t1"."__grouped1"."vals", 1)."_1" AS "start"
FROM "Earliest__group1" AS "t1";
-- Starts
CREATE OR REPLACE TEMPORARY VIEW "Starts" AS
SELECT DISTINCT
  "t1"."name",
  {'date': "t1"."day", 'time': "t1"."start"} AS "when",
  DL2SQL_7973E42D_UDF_20({'date': "t1"."day", 'time': "t1"."start"}) AS "text"
FROM "Meeting" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
