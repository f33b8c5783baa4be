-- Sold
CREATE OR REPLACE TEMPORARY VIEW `Sold` AS
SELECT DISTINCT
  `t1`.`item`
FROM `Sale` AS `t1`;
-- SaleAisle
CREATE OR REPLACE TEMPORARY VIEW `SaleAisle` AS
SELECT
  `t2`.`aisle`,
  `t1`.`qty`
FROM `Sale` AS `t1`
JOIN `Shelf` AS `t2`
  ON `t2`.`item` = `t1`.`item`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
