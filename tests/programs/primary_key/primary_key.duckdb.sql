-- User: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW "User__clash" AS
SELECT DISTINCT
  "dl2sql_row"."id",
  "dl2sql_row"."name",
  "dl2sql_row"."active"
FROM "User" AS "dl2sql_row"
JOIN "User" AS "dl2sql_other"
  ON "dl2sql_row"."id" = "dl2sql_other"."id"
  AND {'id': "dl2sql_row"."id", 'name': "dl2sql_row"."name", 'active': "dl2sql_row"."active"} <> {'id': "dl2sql_other"."id", 'name': "dl2sql_other"."name", 'active': "dl2sql_other"."active"};
-- fail if User__clash has a row: relation `User`: two rows have the same primary key (DDlog keeps one row per key)
-- ActiveName
CREATE OR REPLACE TEMPORARY VIEW "ActiveName" AS
SELECT DISTINCT
  "t1"."name"
FROM "User" AS "t1"
WHERE
  "t1"."active" = TRUE;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
