-- Event := Event: a constant of the program, 4 rows evaluated once when planned (loaded)
-- Open
CREATE OR REPLACE TEMPORARY VIEW `Open` AS
SELECT DISTINCT
  `t1`.`name`,
  `t1`.`zone`.`Some_x` AS `zone`,
  `t1`.`port`
FROM `Hosts` AS `t1`
WHERE
  `t1`.`zone`.`tag` = 1 AND `t1`.`port` <> CAST(0 AS BIGINT);
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
