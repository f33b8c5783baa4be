-- User: rows whose primary key another row has
CREATE OR REPLACE TEMPORARY VIEW `User__clash` AS
SELECT DISTINCT
  `dl2sql_row`.`id`,
  `dl2sql_row`.`name`,
  `dl2sql_row`.`active`
FROM `User` AS `dl2sql_row`
JOIN `User` AS `dl2sql_other`
  ON `dl2sql_row`.`id` = `dl2sql_other`.`id`
  AND STRUCT(
    `dl2sql_row`.`id` AS id,
    `dl2sql_row`.`name` AS name,
    `dl2sql_row`.`active` AS active
  ) <> STRUCT(
    `dl2sql_other`.`id` AS id,
    `dl2sql_other`.`name` AS name,
    `dl2sql_other`.`active` AS active
  );
-- fail if User__clash has a row: relation `User`: two rows have the same primary key (DDlog keeps one row per key)
-- ActiveName
CREATE OR REPLACE TEMPORARY VIEW `ActiveName` AS
SELECT DISTINCT
  `t1`.`name`
FROM `User` AS `t1`
WHERE
  `t1`.`active` = TRUE;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
