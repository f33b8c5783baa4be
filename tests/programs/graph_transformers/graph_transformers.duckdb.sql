-- Mutual__group4_rows
CREATE OR REPLACE TEMPORARY VIEW "Mutual__group4_rows" AS
SELECT DISTINCT
  "t1"."_v" AS "e",
  "t1"."_v"."_0" AS "x",
  "t1"."_v"."_1" AS "y",
  CASE
    WHEN "t1"."_v"."_0" < "t1"."_v"."_1"
    THEN "t1"."_v"."_0"
    ELSE "t1"."_v"."_1"
  END AS "lo",
  CASE
    WHEN "t1"."_v"."_0" < "t1"."_v"."_1"
    THEN "t1"."_v"."_1"
    ELSE "t1"."_v"."_0"
  END AS "hi",
  "t1"."_v" AS "__value"
FROM "Link" AS "t1";
-- Mutual__group4
CREATE OR REPLACE TEMPORARY VIEW "Mutual__group4" AS
SELECT
  "t1"."lo" AS "lo",
  "t1"."hi" AS "hi",
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "Mutual__group4_rows" AS "t1"
GROUP BY
  "t1"."lo",
  "t1"."hi"
HAVING
  COUNT(*) > 0;
-- Mutual
CREATE OR REPLACE TEMPORARY VIEW "Mutual" AS
SELECT
  {'_0': "t1"."lo", '_1': "t1"."hi"} AS "_v"
FROM "Mutual__group4" AS "t1"
WHERE
  "t1"."__grouped1" > CAST(1 AS DECIMAL(38, 0))
UNION
SELECT
  {'_0': "t1"."hi", '_1': "t1"."lo"} AS "_v"
FROM "Mutual__group4" AS "t1"
WHERE
  "t1"."__grouped1" > CAST(1 AS DECIMAL(38, 0));
-- MutualGroup__Edges
CREATE OR REPLACE TEMPORARY VIEW "MutualGroup__Edges" AS
SELECT DISTINCT
  {'_0': "t1"."_v"."_1", '_1': "t1"."_v"."_0"} AS "_v"
FROM "Mutual" AS "t1";
-- MutualGroup__Reach: recursive query
CREATE OR REPLACE TEMPORARY VIEW "MutualGroup__Reach" AS
WITH RECURSIVE "MutualGroup__Reach__delta"("_v") AS (
  SELECT
    {'_0': "t1"."_v"."_1", '_1': "t1"."_v"."_1"} AS "_v"
  FROM "MutualGroup__Edges" AS "t1"
  UNION
  SELECT
    {'_0': "t1"."_v"."_0", '_1': "t2"."_v"."_1"} AS "_v"
  FROM "MutualGroup__Reach__delta" AS "t1"
  JOIN "MutualGroup__Edges" AS "t2"
    ON "t2"."_v"."_0" = "t1"."_v"."_1"
)
SELECT
  *
FROM "MutualGroup__Reach__delta";
-- MutualGroup__group5_rows
CREATE OR REPLACE TEMPORARY VIEW "MutualGroup__group5_rows" AS
SELECT DISTINCT
  "t1"."_v"."_0" AS "k",
  "t1"."_v"."_1" AS "n",
  "t1"."_v"."_0" AS "__value"
FROM "MutualGroup__Reach" AS "t1";
-- MutualGroup__group5
CREATE OR REPLACE TEMPORARY VIEW "MutualGroup__group5" AS
SELECT
  "t1"."n" AS "n",
  {'_0': MIN("t1"."__value")} AS "__grouped1"
FROM "MutualGroup__group5_rows" AS "t1"
GROUP BY
  "t1"."n"
HAVING
  COUNT(*) > 0;
-- MutualGroup
CREATE OR REPLACE TEMPORARY VIEW "MutualGroup" AS
SELECT DISTINCT
  {'_0': "t1"."n", '_1': "t1"."__grouped1"."_0"} AS "_v"
FROM "MutualGroup__group5" AS "t1";
-- Reached__Edges
CREATE OR REPLACE TEMPORARY VIEW "Reached__Edges" AS
SELECT DISTINCT
  {'_0': "t1"."src", '_1': "t1"."dst"} AS "_v"
FROM "Edge" AS "t1";
-- Reached__Reach: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Reached__Reach" AS
WITH RECURSIVE "Reached__Reach__delta"("_v") AS (
  SELECT
    {'_0': "t1"."_v"."_1", '_1': "t1"."_v"."_1"} AS "_v"
  FROM "Reached__Edges" AS "t1"
  UNION
  SELECT
    {'_0': "t1"."_v"."_0", '_1': "t2"."_v"."_1"} AS "_v"
  FROM "Reached__Reach__delta" AS "t1"
  JOIN "Reached__Edges" AS "t2"
    ON "t2"."_v"."_0" = "t1"."_v"."_1"
)
SELECT
  *
FROM "Reached__Reach__delta";
-- Reached__group3_rows
CREATE OR REPLACE TEMPORARY VIEW "Reached__group3_rows" AS
SELECT DISTINCT
  "t1"."_v"."_0" AS "k",
  "t1"."_v"."_1" AS "n",
  "t1"."_v"."_0" AS "__value"
FROM "Reached__Reach" AS "t1";
-- Reached__group3
CREATE OR REPLACE TEMPORARY VIEW "Reached__group3" AS
SELECT
  "t1"."n" AS "n",
  {'_0': MIN("t1"."__value")} AS "__grouped1"
FROM "Reached__group3_rows" AS "t1"
GROUP BY
  "t1"."n"
HAVING
  COUNT(*) > 0;
-- Reached
CREATE OR REPLACE TEMPORARY VIEW "Reached" AS
SELECT DISTINCT
  {'_0': "t1"."n", '_1': "t1"."__grouped1"."_0"} AS "_v"
FROM "Reached__group3" AS "t1";
-- Component__Edges
CREATE OR REPLACE TEMPORARY VIEW "Component__Edges" AS
SELECT DISTINCT
  {'_0': "t1"."src", '_1': "t1"."dst"} AS "_v"
FROM "Edge" AS "t1";
-- Component__Path: recursive query
CREATE OR REPLACE TEMPORARY VIEW "Component__Path" AS
WITH RECURSIVE "Component__Path__delta"("_v") AS (
  SELECT
    {'_0': "t1"."_v"."_0", '_1': "t1"."_v"."_1"} AS "_v"
  FROM "Component__Edges" AS "t1"
  UNION
  SELECT
    {'_0': "t1"."_v"."_0", '_1': "t2"."_v"."_1"} AS "_v"
  FROM "Component__Path__delta" AS "t1"
  JOIN "Component__Edges" AS "t2"
    ON "t2"."_v"."_0" = "t1"."_v"."_1"
)
SELECT
  *
FROM "Component__Path__delta";
-- Component__group2_rows
CREATE OR REPLACE TEMPORARY VIEW "Component__group2_rows" AS
SELECT DISTINCT
  "t1"."_v"."_0" AS "n",
  "t1"."_v"."_1" AS "m",
  "t1"."_v"."_1" AS "__value"
FROM "Component__Path" AS "t1"
JOIN "Component__Path" AS "t2"
  ON "t2"."_v"."_0" = "t1"."_v"."_1" AND "t2"."_v"."_1" = "t1"."_v"."_0";
-- Component__group2
CREATE OR REPLACE TEMPORARY VIEW "Component__group2" AS
SELECT
  "t1"."n" AS "n",
  {'_0': MIN("t1"."__value")} AS "__grouped1"
FROM "Component__group2_rows" AS "t1"
GROUP BY
  "t1"."n"
HAVING
  COUNT(*) > 0;
-- Component
CREATE OR REPLACE TEMPORARY VIEW "Component" AS
SELECT DISTINCT
  {'_0': "t1"."n", '_1': "t1"."__grouped1"."_0"} AS "_v"
FROM "Component__group2" AS "t1";
-- Labeled
CREATE OR REPLACE TEMPORARY VIEW "Labeled" AS
SELECT
  "t1"."_v"."_0" AS "node",
  "t1"."_v"."_1" AS "label"
FROM "Component" AS "t1"
UNION
SELECT
  "t1"."name" AS "node",
  "t1"."name" AS "label"
FROM "Node" AS "t1"
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM "Component" AS "t2"
    WHERE
      "t2"."_v"."_0" = "t1"."name"
  );
-- ComponentSize__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "ComponentSize__group1_rows" AS
SELECT DISTINCT
  "t1"."node" AS "n",
  "t1"."label" AS "l",
  "t1"."node" AS "__value"
FROM "Labeled" AS "t1";
-- ComponentSize__group1
CREATE OR REPLACE TEMPORARY VIEW "ComponentSize__group1" AS
SELECT
  "t1"."l" AS "l",
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS "__grouped1"
FROM "ComponentSize__group1_rows" AS "t1"
GROUP BY
  "t1"."l"
HAVING
  COUNT(*) > 0;
-- ComponentSize
CREATE OR REPLACE TEMPORARY VIEW "ComponentSize" AS
SELECT DISTINCT
  "t1"."l" AS "label",
  "t1"."__grouped1" AS "size"
FROM "ComponentSize__group1" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
