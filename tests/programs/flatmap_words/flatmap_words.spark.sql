-- Grid
CREATE OR REPLACE TEMPORARY VIEW `Grid` AS
SELECT DISTINCT
  `t1`.`_e` AS `x`,
  `t2`.`_e` AS `y`
FROM (
  SELECT
    1 AS one
) AS _one
LATERAL VIEW
EXPLODE(ARRAY(CAST(1 AS BIGINT), CAST(2 AS BIGINT))) t1 AS `_e`
LATERAL VIEW
EXPLODE(ARRAY(CAST(7 AS BIGINT), CAST(8 AS BIGINT), CAST(7 AS BIGINT))) t2 AS `_e`
WHERE
  (
    (
      `t1`.`_e` <> CAST(2 AS BIGINT)
    ) OR (
      `t2`.`_e` = CAST(8 AS BIGINT)
    )
  );
-- Tagged
CREATE OR REPLACE TEMPORARY VIEW `Tagged` AS
SELECT DISTINCT
  `t2`.`_e` AS `tag`,
  `t1`.`id`
FROM `Tags` AS `t1`
LATERAL VIEW
EXPLODE(`t1`.`tags`) t2 AS `_e`;
-- Word
CREATE OR REPLACE TEMPORARY VIEW `Word` AS
SELECT DISTINCT
  `t1`.`id`,
  `t2`.`_e` AS `w`
FROM `Line` AS `t1`
LATERAL VIEW
EXPLODE(DL2SQL_UDF_1(`t1`.`text`, ' ')) t2 AS `_e`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
