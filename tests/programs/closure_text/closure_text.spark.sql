-- Labels
CREATE OR REPLACE TEMPORARY VIEW `Labels` AS
SELECT DISTINCT
  TRUE AS `f`;
-- Rescore
CREATE OR REPLACE TEMPORARY VIEW `Rescore` AS
SELECT
  STRUCT(CAST(0 AS BIGINT) AS tag, `t1`.`k` AS lambda0_k) AS `f`
FROM `Base` AS `t1`
UNION
SELECT
  STRUCT(CAST(1 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS lambda0_k) AS `f`
UNION
SELECT
  STRUCT(CAST(2 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS lambda0_k) AS `f`;
-- Rescored
CREATE OR REPLACE TEMPORARY VIEW `Rescored` AS
SELECT DISTINCT
  `t1`.`f`,
  CASE
    WHEN `t1`.`f`.`tag` = 0
    THEN TRANSFORM(
      ARRAY(CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)),
      __x -> (
        (
          __x + `t1`.`f`.`lambda0_k` + 2147483648
        ) & 4294967295
      ) - 2147483648
    )
    ELSE CASE
      WHEN `t1`.`f`.`tag` = 1
      THEN TRANSFORM(
        TRANSFORM(
          ARRAY(CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT)),
          ____arg0 -> ____arg0
        ),
        ____arg0 -> ____arg0
      )
      ELSE CASE
        WHEN CAST(SIZE(ARRAY(CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT))) AS DECIMAL(38, 0)) > CAST(2 AS DECIMAL(38, 0))
        THEN ARRAY(CAST(1 AS BIGINT), CAST(2 AS BIGINT), CAST(3 AS BIGINT))
        ELSE ARRAY(CAST(0 AS BIGINT), CAST(-1 AS BIGINT))
      END
    END
  END AS `v`
FROM `Rescore` AS `t1`;
-- Shown
CREATE OR REPLACE TEMPORARY VIEW `Shown` AS
SELECT
  DL2SQL_41C65D78_UDF_1(`t1`.`f`) AS `text`
FROM `Rescore` AS `t1`
UNION
SELECT
  CONCAT(
    CONCAT(CONCAT('label ', DL2SQL_41C65D78_UDF_2(`t1`.`f`)), ': '),
    CONCAT(CONCAT('score "', CAST(CAST(7 AS BIGINT) AS STRING)), '"')
  ) AS `text`
FROM `Labels` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
