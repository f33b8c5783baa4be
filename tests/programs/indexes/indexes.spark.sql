-- Hosts: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW `Hosts__clash` AS
SELECT DISTINCT
  `dl2sql_row`.`name`,
  `dl2sql_row`.`zone`,
  `dl2sql_row`.`port`
FROM `Hosts` AS `dl2sql_row`
JOIN `Hosts` AS `dl2sql_other`
  ON `dl2sql_row`.`name` = `dl2sql_other`.`name`
  AND STRUCT(
    `dl2sql_row`.`name` AS name,
    `dl2sql_row`.`zone` AS zone,
    `dl2sql_row`.`port` AS port
  ) <> STRUCT(
    `dl2sql_other`.`name` AS name,
    `dl2sql_other`.`zone` AS zone,
    `dl2sql_other`.`port` AS port
  );
-- fail if Hosts__clash has a row: relation `Hosts`: two rows have the same primary key (DDlog keeps one row per key)
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
