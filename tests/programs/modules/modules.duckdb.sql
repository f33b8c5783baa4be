-- graph::edges::Kinds
CREATE OR REPLACE TEMPORARY VIEW "graph__edges__Kinds" AS
SELECT
  "t1"."a" AS "n",
  {'tag': CAST(0 AS BIGINT)} AS "k"
FROM "graph__edges__Edge" AS "t1"
UNION
SELECT
  "t1"."b" AS "n",
  {'tag': CAST(1 AS BIGINT)} AS "k"
FROM "graph__edges__Edge" AS "t1";
-- Labeled
CREATE OR REPLACE TEMPORARY VIEW "Labeled" AS
SELECT DISTINCT
  "t1"."n",
  "t2"."l",
  "t1"."k"
FROM "graph__edges__Kinds" AS "t1"
JOIN "graph__labels__Label" AS "t2"
  ON "t2"."n" = "t1"."n";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
