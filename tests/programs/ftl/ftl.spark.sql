-- Note
CREATE OR REPLACE TEMPORARY VIEW `Note` AS
SELECT
  `t1`.`name`,
  'grown' AS `text`
FROM `Person` AS `t1`
WHERE
  NOT (
    `t1`.`age` < CAST(18 AS BIGINT)
  )
UNION
SELECT
  `t1`.`name`,
  'suspended' AS `text`
FROM `Person` AS `t1`
WHERE
  CASE WHEN `t1`.`status`.`tag` = 1 THEN TRUE ELSE FALSE END;
-- Young
CREATE OR REPLACE TEMPORARY VIEW `Young` AS
SELECT DISTINCT
  `t1`.`name`
FROM `Person` AS `t1`
WHERE
  `t1`.`age` < CAST(18 AS BIGINT);
-- Adult
CREATE OR REPLACE TEMPORARY VIEW `Adult` AS
SELECT DISTINCT
  `t1`.`name`,
  CONCAT('adult-', `t1`.`country`) AS `tag`
FROM `Person` AS `t1`
WHERE
  `t1`.`country` = 'NZ'
  AND `t1`.`age` > CAST(17 AS BIGINT)
  AND CASE WHEN `t1`.`status`.`tag` = 0 THEN TRUE ELSE FALSE END;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
