-- Previous
CREATE OR REPLACE TEMPORARY VIEW `Previous` AS
SELECT DISTINCT
  `t1`.`shop`,
  `t1`.`total`
FROM `Total__prev1` AS `t1`;
-- Amount
CREATE OR REPLACE TEMPORARY VIEW `Amount` AS
SELECT
  `t1`.`shop`,
  `t1`.`amount`
FROM `Sale` AS `t1`;
-- Counted
CREATE OR REPLACE TEMPORARY VIEW `Counted` AS
SELECT
  `t1`.`shop`,
  `t1`.`amount`
FROM `Amount` AS `t1`;
-- Total__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Total__group1_rows` AS
SELECT
  `t1`.`shop`,
  `t1`.`amount`,
  `t1`.`amount` AS `__value`
FROM `Counted` AS `t1`;
-- Total__group1
CREATE OR REPLACE TEMPORARY VIEW `Total__group1` AS
SELECT
  `t1`.`shop` AS `shop`,
  STRUCT(`t1`.`shop` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `g`
FROM `Total__group1_rows` AS `t1`
GROUP BY
  `t1`.`shop`
HAVING
  COUNT(*) > 0;
-- Total
CREATE OR REPLACE TEMPORARY VIEW `Total` AS
SELECT DISTINCT
  `t1`.`shop`,
  DL2SQL_86EB6BBA_UDF_1(`t1`.`g`) AS `total`,
  CAST(SIZE(ARRAY_DISTINCT(`t1`.`g`.`vals`)) AS DECIMAL(38, 0)) AS `distinct_amounts`
FROM `Total__group1` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
