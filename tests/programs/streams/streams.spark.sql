-- Total__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Total__group1_rows` AS
SELECT
  `t1`.`zip` AS `z`,
  `t1`.`weight` AS `w`,
  `t1`.`weight` AS `__value`
FROM `Parcel` AS `t1`;
-- Total__group1
CREATE OR REPLACE TEMPORARY VIEW `Total__group1` AS
SELECT
  `t1`.`z` AS `z`,
  STRUCT(`t1`.`z` AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `Total__group1_rows` AS `t1`
GROUP BY
  `t1`.`z`
HAVING
  COUNT(*) > 0;
-- Total
CREATE OR REPLACE TEMPORARY VIEW `Total` AS
SELECT
  `t1`.`z` AS `zip`,
  DL2SQL_308CE1BD_UDF_1(`t1`.`__grouped1`) AS `total`
FROM `Total__group1` AS `t1`;
-- ParcelCity
CREATE OR REPLACE TEMPORARY VIEW `ParcelCity` AS
SELECT
  `t2`.`city`,
  `t1`.`weight`
FROM `Parcel` AS `t1`
JOIN `Zip` AS `t2`
  ON `t2`.`zip` = `t1`.`zip`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
