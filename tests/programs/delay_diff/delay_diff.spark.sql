-- FlagTwoAgo
CREATE OR REPLACE TEMPORARY VIEW `FlagTwoAgo` AS
SELECT DISTINCT
  `t1`.`x`
FROM `Flag__prev2` AS `t1`;
-- FlagBefore
CREATE OR REPLACE TEMPORARY VIEW `FlagBefore` AS
SELECT DISTINCT
  `t1`.`x`
FROM `Flag__prev1` AS `t1`;
-- Fold
CREATE OR REPLACE TEMPORARY VIEW `Fold` AS
SELECT
  `t1`.`account`,
  `t1`.`amount`
FROM `Balance__prev1` AS `t1`
UNION ALL
SELECT
  `t1`.`account`,
  `t1`.`amount`
FROM `Deposit` AS `t1`;
-- Balance__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Balance__group1_rows` AS
SELECT
  `t1`.`account` AS `a`,
  `t1`.`amount` AS `x`,
  `t1`.`amount` AS `__value`
FROM `Fold` AS `t1`;
-- Balance__group1
CREATE OR REPLACE TEMPORARY VIEW `Balance__group1` AS
SELECT
  `t1`.`a` AS `a`,
  STRUCT(`t1`.`a` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `Balance__group1_rows` AS `t1`
GROUP BY
  `t1`.`a`
HAVING
  COUNT(*) > 0;
-- Balance
CREATE OR REPLACE TEMPORARY VIEW `Balance` AS
SELECT DISTINCT
  `t1`.`a` AS `account`,
  DL2SQL_34C9C646_UDF_1(`t1`.`__grouped1`) AS `amount`
FROM `Balance__group1` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
