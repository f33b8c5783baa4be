-- Built
CREATE OR REPLACE TEMPORARY VIEW `Built` AS
SELECT DISTINCT
  DL2SQL_D74B39F7_UDF_1() AS `s`,
  DL2SQL_D74B39F7_UDF_2(DL2SQL_D74B39F7_UDF_1(), CAST(7 AS BIGINT)) AS `has7`;
-- Groups__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Groups__group1_rows` AS
SELECT DISTINCT
  `t1`.`group` AS `g`,
  `t1`.`x`,
  `t1`.`x` AS `__value`
FROM `Member` AS `t1`;
-- Groups__group1
CREATE OR REPLACE TEMPORARY VIEW `Groups__group1` AS
SELECT
  `t1`.`g` AS `g`,
  STRUCT(`t1`.`g` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `Groups__group1_rows` AS `t1`
GROUP BY
  `t1`.`g`
HAVING
  COUNT(*) > 0;
-- Groups
CREATE OR REPLACE TEMPORARY VIEW `Groups` AS
SELECT DISTINCT
  `t1`.`g` AS `group`,
  DL2SQL_D74B39F7_UDF_3(`t1`.`__grouped1`) AS `members`
FROM `Groups__group1` AS `t1`;
-- Overall__group2_rows
CREATE OR REPLACE TEMPORARY VIEW `Overall__group2_rows` AS
SELECT DISTINCT
  `t1`.`members` AS `s`,
  `t1`.`members` AS `__value`
FROM `Groups` AS `t1`;
-- Overall__group2
CREATE OR REPLACE TEMPORARY VIEW `Overall__group2` AS
SELECT
  STRUCT(
    TRUE AS key,
    DL2SQL_D74B39F7_UDF_4(ARRAY_SORT(COLLECT_LIST(`t1`.`__value`))) AS vals
  ) AS `g`
FROM `Overall__group2_rows` AS `t1`
HAVING
  COUNT(*) > 0;
-- Overall
CREATE OR REPLACE TEMPORARY VIEW `Overall` AS
SELECT DISTINCT
  DL2SQL_D74B39F7_UDF_5(`t1`.`g`) AS `all`,
  ELEMENT_AT(`t1`.`g`.`vals`, 1) AS `smallest`
FROM `Overall__group2` AS `t1`;
-- Pairs
CREATE OR REPLACE TEMPORARY VIEW `Pairs` AS
SELECT DISTINCT
  `t1`.`group` AS `a`,
  `t2`.`group` AS `b`,
  DL2SQL_D74B39F7_UDF_6(`t1`.`members`, `t2`.`members`) AS `both`,
  DL2SQL_D74B39F7_UDF_7(`t1`.`members`, `t2`.`members`) AS `only_a`,
  DL2SQL_D74B39F7_UDF_8(`t1`.`members`, `t2`.`members`) AS `either`
FROM `Groups` AS `t1`
JOIN `Groups` AS `t2`
  ON `t1`.`group` < `t2`.`group`;
-- Smaller
CREATE OR REPLACE TEMPORARY VIEW `Smaller` AS
SELECT DISTINCT
  `t1`.`group` AS `a`,
  `t2`.`group` AS `b`
FROM `Groups` AS `t1`
JOIN `Groups` AS `t2`
  ON DL2SQL_D74B39F7_UDF_9(`t1`.`members`, `t2`.`members`);
-- Summary
CREATE OR REPLACE TEMPORARY VIEW `Summary` AS
SELECT DISTINCT
  `t1`.`group`,
  DL2SQL_D74B39F7_UDF_10(`t1`.`members`) AS `size`,
  DL2SQL_D74B39F7_UDF_11(`t1`.`members`) AS `total`,
  DL2SQL_D74B39F7_UDF_12(`t1`.`members`, CAST(1 AS DECIMAL(38, 0))) AS `second`
FROM `Groups` AS `t1`;
-- Spread
CREATE OR REPLACE TEMPORARY VIEW `Spread` AS
SELECT DISTINCT
  `t1`.`group`,
  `t2`.`_e` AS `x`
FROM `Groups` AS `t1`
LATERAL VIEW
EXPLODE(`t1`.`members`) t2 AS `_e`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
