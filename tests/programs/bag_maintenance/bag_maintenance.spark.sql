-- input Item with its facts
CREATE OR REPLACE TEMPORARY VIEW `Item` AS
SELECT
  *
FROM `Item__input`
UNION ALL
SELECT
  CAST(9 AS BIGINT) AS `k`,
  CAST(9 AS BIGINT) AS `v`;
-- input Tick with its facts
CREATE OR REPLACE TEMPORARY VIEW `Tick` AS
SELECT
  *
FROM `Tick__input`
UNION ALL
SELECT
  CAST(0 AS BIGINT) AS `k`;
-- Lagged
CREATE OR REPLACE TEMPORARY VIEW `Lagged` AS
SELECT
  `t1`.`k`,
  `t1`.`v`
FROM `Item__prev2` AS `t1`;
-- Weight__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Weight__group1_rows` AS
SELECT
  `t1`.`k`,
  `t1`.`v`,
  `t1`.`v` AS `__value`
FROM `Item` AS `t1`;
-- Weight__group1
CREATE OR REPLACE TEMPORARY VIEW `Weight__group1` AS
SELECT
  `t1`.`k` AS `k`,
  STRUCT(`t1`.`k` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `Weight__group1_rows` AS `t1`
GROUP BY
  `t1`.`k`
HAVING
  COUNT(*) > 0;
-- Weight
CREATE OR REPLACE TEMPORARY VIEW `Weight` AS
SELECT DISTINCT
  `t1`.`k`,
  DL2SQL_0DDF79A8_UDF_1(`t1`.`__grouped1`) AS `total`
FROM `Weight__group1` AS `t1`;
-- Ticked
CREATE OR REPLACE TEMPORARY VIEW `Ticked` AS
SELECT
  `t1`.`k`,
  `t2`.`v`
FROM `Tick` AS `t1`
JOIN `Item` AS `t2`
  ON `t2`.`k` = `t1`.`k`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Block` AS `t3`
    WHERE
      `t3`.`k` = `t1`.`k`
  );
-- Lonely
CREATE OR REPLACE TEMPORARY VIEW `Lonely` AS
SELECT
  `t1`.`k`
FROM `Block` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Item` AS `t2`
    WHERE
      `t2`.`k` = `t1`.`k`
  );
-- Open
CREATE OR REPLACE TEMPORARY VIEW `Open` AS
SELECT
  `t1`.`k`,
  `t1`.`v`
FROM `Item` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Block` AS `t2`
    WHERE
      `t2`.`k` = `t1`.`k`
  );
-- Pair
CREATE OR REPLACE TEMPORARY VIEW `Pair` AS
SELECT
  `t1`.`k`,
  `t1`.`v` AS `a`,
  `t2`.`v` AS `b`
FROM `Item` AS `t1`
JOIN `Item` AS `t2`
  ON `t2`.`k` = `t1`.`k` AND `t1`.`v` <= `t2`.`v`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
