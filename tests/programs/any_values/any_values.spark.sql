-- Boxed
CREATE OR REPLACE TEMPORARY VIEW `Boxed` AS
SELECT
  'int' AS `kind`,
  DL2SQL_DC19A8AF_UDF_1(`t1`.`n`) AS `v`
FROM `Ints` AS `t1`
UNION
SELECT
  'u32' AS `kind`,
  DL2SQL_DC19A8AF_UDF_2(`t1`.`n`) AS `v`
FROM `Ints` AS `t1`
WHERE
  `t1`.`n` >= CAST(0 AS BIGINT)
UNION
SELECT
  'small' AS `kind`,
  DL2SQL_DC19A8AF_UDF_1(`t1`.`n`) AS `v`
FROM `Ints` AS `t1`
WHERE
  `t1`.`n` < CAST(5 AS BIGINT)
UNION
SELECT
  'name' AS `kind`,
  DL2SQL_DC19A8AF_UDF_3(`t1`.`s`) AS `v`
FROM `Names` AS `t1`
UNION
SELECT
  'point' AS `kind`,
  DL2SQL_DC19A8AF_UDF_4(`t1`.`p`) AS `v`
FROM `Points` AS `t1`
UNION
SELECT
  'pair' AS `kind`,
  DL2SQL_DC19A8AF_UDF_5(`t1`.`n`, `t2`.`s`) AS `v`
FROM `Ints` AS `t1`
CROSS JOIN `Names` AS `t2`
WHERE
  `t1`.`n` < CAST(3 AS BIGINT);
-- Grouped__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Grouped__group1_rows` AS
SELECT DISTINCT
  `t1`.`kind` AS `k`,
  `t1`.`v`,
  `t1`.`v` AS `__value`
FROM `Boxed` AS `t1`;
-- Grouped__group1
CREATE OR REPLACE TEMPORARY VIEW `Grouped__group1` AS
SELECT
  `t1`.`k` AS `k`,
  STRUCT(`t1`.`k` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `g`
FROM `Grouped__group1_rows` AS `t1`
GROUP BY
  `t1`.`k`
HAVING
  COUNT(*) > 0;
-- Grouped
CREATE OR REPLACE TEMPORARY VIEW `Grouped` AS
SELECT DISTINCT
  `t1`.`k` AS `kind`,
  `t1`.`g`.`vals` AS `vs`,
  DL2SQL_DC19A8AF_UDF_6(`t1`.`g`) AS `top`
FROM `Grouped__group1` AS `t1`;
-- BackPoints
CREATE OR REPLACE TEMPORARY VIEW `BackPoints` AS
SELECT DISTINCT
  DL2SQL_DC19A8AF_UDF_7(`t1`.`v`).`Some_x`.`x` AS `x`
FROM `Boxed` AS `t1`
WHERE
  DL2SQL_DC19A8AF_UDF_7(`t1`.`v`).`tag` = 1;
-- BackInts
CREATE OR REPLACE TEMPORARY VIEW `BackInts` AS
SELECT DISTINCT
  `t1`.`kind`,
  DL2SQL_DC19A8AF_UDF_8(`t1`.`v`).`Some_x` AS `n`
FROM `Boxed` AS `t1`
WHERE
  DL2SQL_DC19A8AF_UDF_8(`t1`.`v`).`tag` = 1;
-- AllBoxed
CREATE OR REPLACE TEMPORARY VIEW `AllBoxed` AS
SELECT DISTINCT
  `t1`.`kind`,
  `t1`.`v`
FROM `Boxed` AS `t1`;
-- SameValue
CREATE OR REPLACE TEMPORARY VIEW `SameValue` AS
SELECT DISTINCT
  `t1`.`kind` AS `k1`,
  `t2`.`kind` AS `k2`,
  `t1`.`v`
FROM `Boxed` AS `t1`
JOIN `AllBoxed` AS `t2`
  ON DL2SQL_DC19A8AF_UDF_9(`t2`.`v`, `t1`.`v`) AND `t1`.`kind` < `t2`.`kind`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
