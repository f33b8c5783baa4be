-- Labels
CREATE OR REPLACE TEMPORARY VIEW "Labels" AS
SELECT DISTINCT
  TRUE AS "f";
-- Rescore
CREATE OR REPLACE TEMPORARY VIEW "Rescore" AS
SELECT
  {'tag': CAST(0 AS BIGINT), 'lambda0_k': "t1"."k"} AS "f"
FROM "Base" AS "t1"
UNION
SELECT
  {'tag': CAST(1 AS BIGINT), 'lambda0_k': CAST(0 AS BIGINT)} AS "f"
UNION
SELECT
  {'tag': CAST(2 AS BIGINT), 'lambda0_k': CAST(0 AS BIGINT)} AS "f";
-- Rescored
CREATE OR REPLACE TEMPORARY VIEW "Rescored" AS
SELECT DISTINCT
  "t1"."f",
  CASE
    WHEN "t1"."f"."tag" = 0
    THEN LIST_TRANSFORM(
      [CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)],
      LAMBDA __x : (
        (
          __x + "t1"."f"."lambda0_k" + 2147483648
        ) & 4294967295
      ) - 2147483648
    )
    ELSE CASE
      WHEN "t1"."f"."tag" = 1
      THEN LIST_TRANSFORM(
        LIST_TRANSFORM(
          [CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)],
          LAMBDA ____arg0 : ____arg0
        ),
        LAMBDA ____arg0 : ____arg0
      )
      ELSE CASE
        WHEN CAST(LEN([CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)]) AS DECIMAL(38, 0)) > CAST(2 AS DECIMAL(38, 0))
        THEN [CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)]
        ELSE [CAST(0 AS BIGINT), CAST(-1 AS BIGINT)]
      END
    END
  END AS "v"
FROM "Rescore" AS "t1";
-- Shown
CREATE OR REPLACE TEMPORARY VIEW "Shown" AS
SELECT
  DL2SQL_41C65D78_UDF_1("t1"."f") AS "text"
FROM "Rescore" AS "t1"
UNION
SELECT
  'label ' || DL2SQL_41C65D78_UDF_2("t1"."f") || ': ' || 'score "' || CAST(CAST(7 AS BIGINT) AS TEXT) || '"' AS "text"
FROM "Labels" AS "t1";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
