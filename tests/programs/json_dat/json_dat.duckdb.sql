-- Nested: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW "Nested__clash" AS
SELECT DISTINCT
  "dl2sql_row"."key",
  "dl2sql_row"."m"
FROM "Nested" AS "dl2sql_row"
JOIN "Nested" AS "dl2sql_other"
  ON "dl2sql_row"."key" = "dl2sql_other"."key"
  AND {'key': "dl2sql_row"."key", 'm': "dl2sql_row"."m"} <> {'key': "dl2sql_other"."key", 'm': "dl2sql_other"."m"};
-- fail if Nested__clash has a row: relation `Nested`: two rows have the same primary key (DDlog keeps one row per key)
-- Objects
CREATE OR REPLACE TEMPORARY VIEW "Objects" AS
SELECT DISTINCT
  DL2SQL_5F6ACEBB_UDF_2(DL2SQL_5F6ACEBB_UDF_1()) AS "json";
-- Before
CREATE OR REPLACE TEMPORARY VIEW "Before" AS
SELECT DISTINCT
  "t1"."n" AS "a",
  "t2"."n" AS "b"
FROM "Names" AS "t1"
JOIN "Names" AS "t2"
  ON DL2SQL_5F6ACEBB_UDF_3("t1"."n", "t2"."n");
-- Ordered__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group1_rows" AS
SELECT DISTINCT
  "t1"."n",
  "t1"."n" AS "__value"
FROM "Names" AS "t1";
-- Ordered__group1
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group1" AS
SELECT
  {'key': TRUE, 'vals': DL2SQL_5F6ACEBB_UDF_4(LIST_SORT(LIST("t1"."__value")))} AS "g"
FROM "Ordered__group1_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Ordered
CREATE OR REPLACE TEMPORARY VIEW "Ordered" AS
SELECT DISTINCT
  "t1"."g"."vals" AS "v",
  DL2SQL_5F6ACEBB_UDF_5("t1"."g") AS "s",
  LIST_EXTRACT("t1"."g"."vals", 1) AS "least"
FROM "Ordered__group1" AS "t1";
-- ONested
CREATE OR REPLACE TEMPORARY VIEW "ONested" AS
SELECT DISTINCT
  "t1"."key",
  "t1"."m"
FROM "Nested" AS "t1";
-- Read
CREATE OR REPLACE TEMPORARY VIEW "Read" AS
SELECT
  DL2SQL_5F6ACEBB_UDF_6(
    '{"name": "r", "items": [{"key": 2, "payload": "b"}, ' || '{"key": 1, "payload": "a"}, {"key": 2, "payload": "c"}]}'
  ) AS "r"
UNION
SELECT
  DL2SQL_5F6ACEBB_UDF_6('{"name": "bad"}') AS "r";
-- Written
CREATE OR REPLACE TEMPORARY VIEW "Written" AS
SELECT DISTINCT
  "t1"."name",
  DL2SQL_5F6ACEBB_UDF_2(DL2SQL_5F6ACEBB_UDF_7({'name': "t1"."name", 'items': "t1"."items"})) AS "json"
FROM "Catalogs" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
