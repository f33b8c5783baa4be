-- Adder
CREATE OR REPLACE TEMPORARY VIEW "Adder" AS
SELECT
  {'tag': CAST(0 AS BIGINT), 'lambda0_k': "t1"."k", 'lambda1_k': CAST(0 AS DECIMAL(38, 0))} AS "f"
FROM "Extra" AS "t1"
CROSS JOIN "Arg" AS "t2"
UNION
SELECT
  {'tag': CAST(1 AS BIGINT), 'lambda0_k': CAST(0 AS DECIMAL(38, 0)), 'lambda1_k': CAST("t1"."k" AS DECIMAL(38, 0))} AS "f"
FROM "Offset" AS "t1";
-- Adders__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "Adders__group1_rows" AS
SELECT DISTINCT
  "t1"."f",
  "t1"."f" AS "__value"
FROM "Adder" AS "t1";
-- Adders__group1
CREATE OR REPLACE TEMPORARY VIEW "Adders__group1" AS
SELECT
  {'key': TRUE, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "Adders__group1_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Adders
CREATE OR REPLACE TEMPORARY VIEW "Adders" AS
SELECT DISTINCT
  CAST(LEN("t1"."g"."vals") AS DECIMAL(38, 0)) AS "count",
  CASE
    WHEN LIST_EXTRACT("t1"."g"."vals", 1)."tag" = 0
    THEN CAST(0 AS DECIMAL(38, 0)) + LIST_EXTRACT("t1"."g"."vals", 1)."lambda0_k"
    ELSE CAST(0 AS DECIMAL(38, 0)) + LIST_EXTRACT("t1"."g"."vals", 1)."lambda1_k"
  END AS "least",
  LIST_EXTRACT("t1"."g"."vals", 1) = LIST_EXTRACT("t1"."g"."vals", 1) AS "same"
FROM "Adders__group1" AS "t1";
-- Fn
CREATE OR REPLACE TEMPORARY VIEW "Fn" AS
SELECT
  'double' AS "name",
  {'tag': CAST(0 AS BIGINT), 'lambda2_k': CAST(0 AS BIGINT)} AS "f"
UNION
SELECT
  'square' AS "name",
  {'tag': CAST(1 AS BIGINT), 'lambda2_k': CAST(0 AS BIGINT)} AS "f"
UNION
SELECT
  'plus ' || CAST("t1"."k" AS TEXT) AS "name",
  {'tag': CAST(2 AS BIGINT), 'lambda2_k': "t1"."k"} AS "f"
FROM "Offset" AS "t1";
-- Shifted
CREATE OR REPLACE TEMPORARY VIEW "Shifted" AS
SELECT DISTINCT
  "t1"."name",
  {'f': "t1"."f"} AS "f"
FROM "Fn" AS "t1";
-- ShiftedAt
CREATE OR REPLACE TEMPORARY VIEW "ShiftedAt" AS
SELECT DISTINCT
  "t1"."name",
  CAST(CASE
    WHEN "t1"."f"."f"."tag" = 0
    THEN CAST(3 AS BIGINT) * CAST(2 AS BIGINT)
    ELSE CASE
      WHEN "t1"."f"."f"."tag" = 1
      THEN CAST(3 AS BIGINT) * CAST(3 AS BIGINT)
      ELSE (
        CAST(3 AS BIGINT) + "t1"."f"."f"."lambda2_k"
      ) & 4294967295
    END
  END AS DECIMAL(38, 0)) + CAST(1000 AS DECIMAL(38, 0)) AS "y"
FROM "Shifted" AS "t1";
-- Mapped
CREATE OR REPLACE TEMPORARY VIEW "Mapped" AS
SELECT DISTINCT
  "t1"."name",
  DL2SQL_B2365973_UDF_1([CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)], "t1"."f") AS "v",
  DL2SQL_B2365973_UDF_2("t1"."f") AS "least"
FROM "Fn" AS "t1";
-- Fixed
CREATE OR REPLACE TEMPORARY VIEW "Fixed" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."x",
  CASE
    WHEN "t1"."f"."tag" = 0
    THEN CAST((
      CAST(CASE
        WHEN "t1"."f"."tag" = 0
        THEN CAST((
          CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
        ) & 4294967295 AS BIGINT)
        ELSE CASE
          WHEN "t1"."f"."tag" = 1
          THEN CAST((
            CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
          ) & 4294967295 AS BIGINT)
          ELSE (
            "t2"."x" + "t1"."f"."lambda2_k"
          ) & 4294967295
        END
      END AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
    ) & 4294967295 AS BIGINT)
    ELSE CASE
      WHEN "t1"."f"."tag" = 1
      THEN CAST((
        CAST(CASE
          WHEN "t1"."f"."tag" = 0
          THEN CAST((
            CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
          ) & 4294967295 AS BIGINT)
          ELSE CASE
            WHEN "t1"."f"."tag" = 1
            THEN CAST((
              CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
            ) & 4294967295 AS BIGINT)
            ELSE (
              "t2"."x" + "t1"."f"."lambda2_k"
            ) & 4294967295
          END
        END AS INT128) * CAST(CASE
          WHEN "t1"."f"."tag" = 0
          THEN CAST((
            CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
          ) & 4294967295 AS BIGINT)
          ELSE CASE
            WHEN "t1"."f"."tag" = 1
            THEN CAST((
              CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
            ) & 4294967295 AS BIGINT)
            ELSE (
              "t2"."x" + "t1"."f"."lambda2_k"
            ) & 4294967295
          END
        END AS INT128)
      ) & 4294967295 AS BIGINT)
      ELSE (
        CASE
          WHEN "t1"."f"."tag" = 0
          THEN CAST((
            CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
          ) & 4294967295 AS BIGINT)
          ELSE CASE
            WHEN "t1"."f"."tag" = 1
            THEN CAST((
              CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
            ) & 4294967295 AS BIGINT)
            ELSE (
              "t2"."x" + "t1"."f"."lambda2_k"
            ) & 4294967295
          END
        END + "t1"."f"."lambda2_k"
      ) & 4294967295
    END
  END AS "twice"
FROM "Fn" AS "t1"
JOIN "Arg" AS "t2"
  ON CASE
    WHEN "t1"."f"."tag" = 0
    THEN CAST((
      CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
    ) & 4294967295 AS BIGINT)
    ELSE CASE
      WHEN "t1"."f"."tag" = 1
      THEN CAST((
        CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
      ) & 4294967295 AS BIGINT)
      ELSE (
        "t2"."x" + "t1"."f"."lambda2_k"
      ) & 4294967295
    END
  END = CAST((
    CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
  ) & 4294967295 AS BIGINT);
-- Applied
CREATE OR REPLACE TEMPORARY VIEW "Applied" AS
SELECT DISTINCT
  "t1"."name",
  "t2"."x",
  CASE
    WHEN "t1"."f"."tag" = 0
    THEN CAST((
      CAST("t2"."x" AS INT128) * CAST(CAST(2 AS BIGINT) AS INT128)
    ) & 4294967295 AS BIGINT)
    ELSE CASE
      WHEN "t1"."f"."tag" = 1
      THEN CAST((
        CAST("t2"."x" AS INT128) * CAST("t2"."x" AS INT128)
      ) & 4294967295 AS BIGINT)
      ELSE (
        "t2"."x" + "t1"."f"."lambda2_k"
      ) & 4294967295
    END
  END AS "y"
FROM "Fn" AS "t1"
CROSS JOIN "Arg" AS "t2";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
