-- Given: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW "Given__clash" AS
SELECT DISTINCT
  "dl2sql_row"."k",
  "dl2sql_row"."s"
FROM "Given" AS "dl2sql_row"
JOIN "Given" AS "dl2sql_other"
  ON "dl2sql_row"."k" = "dl2sql_other"."k"
  AND {'k': "dl2sql_row"."k", 's': "dl2sql_row"."s"} <> {'k': "dl2sql_other"."k", 's': "dl2sql_other"."s"};
-- fail if Given__clash has a row: relation `Given`: two rows have the same primary key (DDlog keeps one row per key)
-- GivenSize
CREATE OR REPLACE TEMPORARY VIEW "GivenSize" AS
SELECT DISTINCT
  "t1"."k",
  "t1"."s",
  DL2SQL_F52FF7FE_UDF_1("t1"."s") AS "n",
  DL2SQL_F52FF7FE_UDF_2("t1"."s") AS "vec"
FROM "Given" AS "t1";
-- Tags__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Tags__group1_rows" AS
SELECT DISTINCT
  "t1"."id",
  "t1"."tag",
  "t1"."tag" AS "__value"
FROM "Tagged" AS "t1";
-- Tags__group1
CREATE OR REPLACE TEMPORARY VIEW "Tags__group1" AS
SELECT
  "t1"."id" AS "id",
  {'key': "t1"."id", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "Tags__group1_rows" AS "t1"
GROUP BY
  "t1"."id"
HAVING
  COUNT(*) > 0;
-- Tags
CREATE OR REPLACE TEMPORARY VIEW "Tags" AS
SELECT DISTINCT
  "t1"."id",
  DL2SQL_F52FF7FE_UDF_3("t1"."__grouped1") AS "tags"
FROM "Tags__group1" AS "t1";
-- Ops
CREATE OR REPLACE TEMPORARY VIEW "Ops" AS
SELECT
  'intersection(1,2)' AS "name",
  DL2SQL_F52FF7FE_UDF_4("t1"."tags", "t2"."tags") AS "s"
FROM "Tags" AS "t1"
JOIN "Tags" AS "t2"
  ON "t2"."id" = CAST(2 AS BIGINT)
WHERE
  "t1"."id" = CAST(1 AS BIGINT)
UNION
SELECT
  'difference(1,2)' AS "name",
  DL2SQL_F52FF7FE_UDF_5("t1"."tags", "t2"."tags") AS "s"
FROM "Tags" AS "t1"
JOIN "Tags" AS "t2"
  ON "t2"."id" = CAST(2 AS BIGINT)
WHERE
  "t1"."id" = CAST(1 AS BIGINT)
UNION
SELECT
  'remove_imm(1,red)' AS "name",
  DL2SQL_F52FF7FE_UDF_6("t1"."tags", 'red') AS "s"
FROM "Tags" AS "t1"
WHERE
  "t1"."id" = CAST(1 AS BIGINT)
UNION
SELECT
  'filter(len>3)' AS "name",
  DL2SQL_F52FF7FE_UDF_7("t1"."tags") AS "s"
FROM "Tags" AS "t1"
WHERE
  "t1"."id" = CAST(1 AS BIGINT)
UNION
SELECT
  'map(++!)' AS "name",
  DL2SQL_F52FF7FE_UDF_8("t1"."tags") AS "s"
FROM "Tags" AS "t1"
WHERE
  "t1"."id" = CAST(1 AS BIGINT);
-- AllTags__group2_rows
CREATE OR REPLACE TEMPORARY VIEW "AllTags__group2_rows" AS
SELECT DISTINCT
  "t1"."tags",
  "t1"."tags" AS "__value"
FROM "Tags" AS "t1";
-- AllTags__group2
CREATE OR REPLACE TEMPORARY VIEW "AllTags__group2" AS
SELECT
  {'key': TRUE, 'vals': DL2SQL_F52FF7FE_UDF_9(LIST_SORT(LIST("t1"."__value")))} AS "g"
FROM "AllTags__group2_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- AllTags
CREATE OR REPLACE TEMPORARY VIEW "AllTags" AS
SELECT DISTINCT
  DL2SQL_F52FF7FE_UDF_10("t1"."g") AS "tags",
  LIST_EXTRACT("t1"."g"."vals", 1) AS "smallest",
  DL2SQL_F52FF7FE_UDF_11("t1"."g") AS "sets"
FROM "AllTags__group2" AS "t1";
-- Smaller
CREATE OR REPLACE TEMPORARY VIEW "Smaller" AS
SELECT DISTINCT
  "t1"."id" AS "a",
  "t2"."id" AS "b"
FROM "Tags" AS "t1"
JOIN "Tags" AS "t2"
  ON DL2SQL_F52FF7FE_UDF_12("t1"."tags", "t2"."tags");
-- Joined
CREATE OR REPLACE TEMPORARY VIEW "Joined" AS
SELECT DISTINCT
  "t1"."id",
  DL2SQL_F52FF7FE_UDF_13("t1"."tags") AS "text",
  DL2SQL_F52FF7FE_UDF_14("t1"."tags", CAST(0 AS DECIMAL(38, 0))) AS "first"
FROM "Tags" AS "t1";
-- TagOf
CREATE OR REPLACE TEMPORARY VIEW "TagOf" AS
SELECT DISTINCT
  "t2"."_e" AS "tag",
  "t1"."id"
FROM "Tags" AS "t1"
CROSS JOIN UNNEST("t1"."tags") AS "t2"("_e");
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
