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
