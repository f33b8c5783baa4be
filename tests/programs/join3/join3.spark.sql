-- Const
CREATE OR REPLACE TEMPORARY VIEW `Const` AS
SELECT DISTINCT
  `t1`.`y`
FROM `A` AS `t1`
JOIN `B` AS `t2`
  ON `t2`.`y` = `t1`.`y` AND `t2`.`z` = CAST(1 AS BIGINT)
WHERE
  `t1`.`x` = CAST(7 AS BIGINT);
-- Same
CREATE OR REPLACE TEMPORARY VIEW `Same` AS
SELECT DISTINCT
  `t1`.`x`
FROM `A` AS `t1`
JOIN `B` AS `t2`
  ON `t2`.`y` = 'k' AND `t2`.`z` = `t1`.`x`
WHERE
  `t1`.`y` = 'k';
-- J
CREATE OR REPLACE TEMPORARY VIEW `J` AS
SELECT DISTINCT
  `t1`.`x`,
  `t1`.`y`,
  `t2`.`z`
FROM `A` AS `t1`
JOIN `B` AS `t2`
  ON `t2`.`y` = `t1`.`y`
JOIN `C` AS `t3`
  ON `t3`.`z` = `t2`.`z` AND `t3`.`w` = TRUE AND `t3`.`x` = `t1`.`x`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
