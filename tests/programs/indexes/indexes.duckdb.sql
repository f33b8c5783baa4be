-- Hosts: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW "Hosts__clash" AS
SELECT DISTINCT
  "dl2sql_row"."name",
  "dl2sql_row"."zone",
  "dl2sql_row"."port"
FROM "Hosts" AS "dl2sql_row"
JOIN "Hosts" AS "dl2sql_other"
  ON "dl2sql_row"."name" = "dl2sql_other"."name"
  AND {'name': "dl2sql_row"."name", 'zone': "dl2sql_row"."zone", 'port': "dl2sql_row"."port"} <> {'name': "dl2sql_other"."name", 'zone': "dl2sql_other"."zone", 'port': "dl2sql_other"."port"};
-- fail if Hosts__clash has a row: relation `Hosts`: two rows have the same primary key (DDlog keeps one row per key)
-- Event: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Event" AS
WITH RECURSIVE "Event__delta"("_v") AS (
  SELECT
    {'tag': CAST(0 AS BIGINT), 'Event_id': CAST(1 AS BIGINT)} AS "_v"
  UNION
  SELECT
    {'tag': CAST(1 AS BIGINT), 'Event_id': CAST(0 AS BIGINT)} AS "_v"
  UNION
  SELECT
    {'tag': CAST(0 AS BIGINT), 'Event_id': (
      "t1"."_v"."Event_id" + CAST(1 AS BIGINT)
    ) & 4294967295} AS "_v"
  FROM "Event__delta" AS "t1"
  WHERE
    "t1"."_v"."tag" = 0 AND "t1"."_v"."Event_id" < CAST(3 AS BIGINT)
)
SELECT
  *
FROM "Event__delta";
-- Open
CREATE OR REPLACE TEMPORARY VIEW "Open" AS
SELECT DISTINCT
  "t1"."name",
  "t1"."zone"."Some_x" AS "zone",
  "t1"."port"
FROM "Hosts" AS "t1"
WHERE
  "t1"."zone"."tag" = 1 AND "t1"."port" <> CAST(0 AS BIGINT);
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
