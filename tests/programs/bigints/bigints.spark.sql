-- ByValue__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `ByValue__group1_rows` AS
SELECT DISTINCT
  `t1`.`t`,
  `t1`.`x`,
  `t1`.`t` AS `__value`
FROM `Tag` AS `t1`;
-- ByValue__group1
CREATE OR REPLACE TEMPORARY VIEW `ByValue__group1` AS
SELECT
  `t1`.`x` AS `x`,
  STRUCT(`t1`.`x` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `ByValue__group1_rows` AS `t1`
GROUP BY
  `t1`.`x`
HAVING
  COUNT(*) > 0;
-- ByValue
CREATE OR REPLACE TEMPORARY VIEW `ByValue` AS
SELECT DISTINCT
  `t1`.`x`,
  `t1`.`__grouped1`.`vals` AS `tags`
FROM `ByValue__group1` AS `t1`;
-- Wrap
CREATE OR REPLACE TEMPORARY VIEW `Wrap` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t1`.`u` AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t1`.`u` + CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(`t1`.`u` + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `u1`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t1`.`u` AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t1`.`u` - CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(`t1`.`u` - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `u2`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t1`.`u` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST(`t1`.`u` AS DOUBLE)) * CAST(3.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t1`.`u` * CAST(3 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(`t1`.`u` * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `u3`,
  CASE
    WHEN ABS(CAST(`t1`.`s` AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`s` + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `s1`,
  CASE
    WHEN ABS(CAST(`t1`.`s` AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`s` - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `s2`,
  CASE
    WHEN ABS(CAST(`t1`.`s` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(-`t1`.`s` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `s3`,
  CASE
    WHEN ABS(CAST(`t1`.`s` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST(`t1`.`s` AS DOUBLE)) * CAST(3.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`s` * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `s4`,
  CASE
    WHEN ABS(CAST(`t1`.`u` AS DOUBLE)) + ABS(CAST(`t1`.`s` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`u` + `t1`.`s` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:48:1'
    )
  END AS `wide`
FROM `W` AS `t1`;
-- Casts
CREATE OR REPLACE TEMPORARY VIEW `Casts` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  CASE
    WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST((
      (
        CAST(`t1`.`x` AS DECIMAL(38, 0)) + CAST(9223372036854775808 AS DECIMAL(38, 0))
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) - CAST(9223372036854775808 AS DECIMAL(38, 0)) AS BIGINT)
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS `s`,
  CAST(CASE
    WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST((
      (
        CAST(`t1`.`x` AS DECIMAL(38, 0)) + CAST(9223372036854775808 AS DECIMAL(38, 0))
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) - CAST(9223372036854775808 AS DECIMAL(38, 0)) AS BIGINT)
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS DECIMAL(38, 0)) AS `back`,
  CASE
    WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`x` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS `s128`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t1`.`x` >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(`t1`.`x` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS `u128`,
  CASE
    WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`x` AS DOUBLE)
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:42:1'
    )
  END AS `d`
FROM `N` AS `t1`;
-- Misc
CREATE OR REPLACE TEMPORARY VIEW `Misc` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  DL2SQL_46414A2A_UDF_1(`t1`.`x`) AS `shl`,
  DL2SQL_46414A2A_UDF_2(`t1`.`x`) AS `shr`,
  DL2SQL_46414A2A_UDF_3(`t1`.`x`, CAST(3 AS BIGINT)) AS `cube`,
  LEAST(`t1`.`x`, CAST(0 AS DECIMAL(38, 0))) AS `lo`,
  GREATEST(`t1`.`x`, CAST(0 AS DECIMAL(38, 0))) AS `hi`
FROM `N` AS `t1`;
-- Text
CREATE OR REPLACE TEMPORARY VIEW `Text` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  CONCAT(
    CONCAT(
      CONCAT(
        CONCAT(
          CONCAT(
            CONCAT(CAST(`t1`.`x` AS STRING), '|'),
            CASE
              WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
              THEN CAST(CAST(-`t1`.`x` AS DECIMAL(38, 0)) AS STRING)
              ELSE RAISE_ERROR(
                'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:34:1'
              )
            END
          ),
          '|'
        ),
        CASE
          WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
          AND ABS(CAST(`t1`.`x` AS DOUBLE)) * CAST(10.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
          THEN CAST(CAST(`t1`.`x` * CAST(10 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS STRING)
          ELSE RAISE_ERROR(
            'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:34:1'
          )
        END
      ),
      '|'
    ),
    CAST(CASE
      WHEN CASE
        WHEN NOT (
          ABS(CAST(`t1`.`x` AS DOUBLE)) < CAST(1e+32 AS DOUBLE)
        )
        THEN FALSE
        WHEN NOT (
          CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
        )
        THEN FALSE
        ELSE TRUE
      END
      THEN CAST(CAST((
        `t1`.`x` - `t1`.`x` % CAST(7 AS DECIMAL(38, 0))
      ) / CAST(7 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
      ELSE RAISE_ERROR(
        'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:34:1'
      )
    END AS STRING)
  ) AS `s`
FROM `N` AS `t1`;
-- Ordered__group2_rows
CREATE OR REPLACE TEMPORARY VIEW `Ordered__group2_rows` AS
SELECT DISTINCT
  `t1`.`x`,
  `t1`.`x` AS `__value`
FROM `N` AS `t1`;
-- Ordered__group2
CREATE OR REPLACE TEMPORARY VIEW `Ordered__group2` AS
SELECT
  STRUCT(TRUE AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `g`
FROM `Ordered__group2_rows` AS `t1`
HAVING
  COUNT(*) > 0;
-- Ordered
CREATE OR REPLACE TEMPORARY VIEW `Ordered` AS
SELECT DISTINCT
  `t1`.`g`.`vals` AS `all`,
  ELEMENT_AT(`t1`.`g`.`vals`, 1) AS `lo`,
  ELEMENT_AT(`t1`.`g`.`vals`, -1) AS `hi`
FROM `Ordered__group2` AS `t1`;
-- Succ
CREATE OR REPLACE TEMPORARY VIEW `Succ` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  `t2`.`name` AS `b`
FROM `N` AS `t1`
JOIN `N` AS `t2`
  ON `t2`.`x` = CASE
    WHEN ABS(CAST(`t1`.`x` AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t1`.`x` + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:22:1'
    )
  END;
-- Same
CREATE OR REPLACE TEMPORARY VIEW `Same` AS
SELECT DISTINCT
  `t1`.`name` AS `a`
FROM `N` AS `t1`
JOIN `M` AS `t2`
  ON `t2`.`x` = `t1`.`x`;
-- Less
CREATE OR REPLACE TEMPORARY VIEW `Less` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  `t3`.`name` AS `b`
FROM `P` AS `t1`
JOIN `N` AS `t2`
  ON `t2`.`name` = `t1`.`name`
CROSS JOIN `P` AS `t3`
JOIN `N` AS `t4`
  ON `t4`.`name` = `t3`.`name` AND `t2`.`x` < `t4`.`x`;
-- Arith
CREATE OR REPLACE TEMPORARY VIEW `Arith` AS
SELECT DISTINCT
  `t1`.`name` AS `a`,
  `t3`.`name` AS `b`,
  CASE
    WHEN ABS(CAST(`t2`.`x` AS DOUBLE)) + ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t2`.`x` + `t4`.`x` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS `sum`,
  CASE
    WHEN ABS(CAST(`t2`.`x` AS DOUBLE)) + ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t2`.`x` - `t4`.`x` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS `diff`,
  CASE
    WHEN ABS(CAST(`t2`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST(`t2`.`x` AS DOUBLE)) * ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(`t2`.`x` * `t4`.`x` AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS `prod`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST(`t2`.`x` AS DOUBLE)) < CAST(1e+32 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t4`.`x` <> CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(CAST((
      `t2`.`x` - `t2`.`x` % `t4`.`x`
    ) / `t4`.`x` AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS `quot`,
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST(`t4`.`x` AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST(`t2`.`x` AS DOUBLE)) < CAST(1e+32 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        `t4`.`x` <> CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN CAST(CAST(`t2`.`x` % `t4`.`x` AS DECIMAL(38, 0)) AS DECIMAL(38, 0))
    ELSE RAISE_ERROR(
      'dl2sql-integer-overflow: a value of a wide integer type needs more than the 38 digits of DECIMAL(38,0) in the rule at bigints.dl:12:1'
    )
  END AS `rem`
FROM `P` AS `t1`
JOIN `N` AS `t2`
  ON `t2`.`name` = `t1`.`name`
CROSS JOIN `P` AS `t3`
JOIN `N` AS `t4`
  ON `t4`.`name` = `t3`.`name`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
