-- Matched
CREATE OR REPLACE TEMPORARY VIEW `Matched` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`,
  CASE
    WHEN (
      `t1`.`a` < `t1`.`b`
    ) = TRUE
    AND `t1`.`a` & CAST(1 AS BIGINT) = CAST(0 AS BIGINT)
    THEN 'less, even'
    ELSE CASE
      WHEN (
        `t1`.`a` < `t1`.`b`
      ) = TRUE
      THEN 'less, odd'
      ELSE CASE
        WHEN `t1`.`a` & CAST(1 AS BIGINT) = CAST(0 AS BIGINT)
        THEN 'not less, even'
        ELSE 'not less, odd'
      END
    END
  END AS `kind`
FROM `Pair` AS `t1`;
-- Signed
CREATE OR REPLACE TEMPORARY VIEW `Signed` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`,
  (
    NOT (
      `t1`.`a` = `t1`.`b`
    )
  ) = (
    `t1`.`a` <> `t1`.`b`
  ) AS `flipped`,
  CAST((
    (
      CAST(CAST((
        (
          -CAST(CAST(CAST(`t1`.`a` AS DECIMAL(38, 0)) AS BIGINT) - CAST(CAST(`t1`.`b` AS DECIMAL(38, 0)) AS BIGINT) AS DECIMAL(38, 0)) + CAST(9223372036854775808 AS DECIMAL(38, 0))
        ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) - CAST(9223372036854775808 AS DECIMAL(38, 0)) AS BIGINT) AS DECIMAL(38, 0)) * CAST(CAST(2 AS BIGINT) AS DECIMAL(38, 0)) + CAST(9223372036854775808 AS DECIMAL(38, 0))
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) - CAST(9223372036854775808 AS DECIMAL(38, 0)) AS BIGINT) AS `diff`
FROM `Pair` AS `t1`;
-- Bits
CREATE OR REPLACE TEMPORARY VIEW `Bits` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`,
  `t1`.`a` & `t1`.`b` = CAST(0 AS BIGINT) AS `clear`,
  CASE
    WHEN `t1`.`a` > `t1`.`b`
    THEN (
      `t1`.`a` - `t1`.`b`
    ) & 4294967295
    ELSE (
      `t1`.`b` - `t1`.`a`
    ) & 4294967295
  END | (
    (
      `t1`.`a` ^ `t1`.`b`
    ) & CAST(1 AS BIGINT)
  ) AS `picked`
FROM `Pair` AS `t1`;
-- Orders
CREATE OR REPLACE TEMPORARY VIEW `Orders` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`,
  (
    `t1`.`a` < `t1`.`b`
  ) = (
    `t1`.`b` < `t1`.`a`
  ) AS `same`,
  (
    (
      `t1`.`a` <= `t1`.`b`
    ) <> (
      `t1`.`a` >= `t1`.`b`
    )
  ) = (
    `t1`.`a` = `t1`.`b`
  ) AS `chained`
FROM `Pair` AS `t1`;
-- Equal
CREATE OR REPLACE TEMPORARY VIEW `Equal` AS
SELECT DISTINCT
  `t1`.`a`
FROM `Pair` AS `t1`
WHERE
  (
    `t1`.`a` = `t1`.`b`
  ) = TRUE;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
