-- Four
CREATE OR REPLACE TEMPORARY VIEW `Four` AS
SELECT
  STRUCT(CAST(1 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS V4_addr4, '::' AS V6_addr6).`V4_addr4` AS `n`
WHERE
  FALSE
UNION
SELECT
  CAST(4 AS BIGINT) AS `n`;
-- Out
CREATE OR REPLACE TEMPORARY VIEW `Out` AS
SELECT
  CONCAT('v4 ', CAST(CAST(7 AS BIGINT) AS STRING)) AS `text`,
  CAST(0 AS BIGINT) = CAST(0 AS BIGINT) AS `zero`
UNION
SELECT
  CONCAT('v6 ', '::1') AS `text`,
  '::1' = '::' AS `zero`
UNION
SELECT
  CONCAT(CONCAT(CONCAT('mixed ', CAST(CAST(1 AS BIGINT) AS STRING)), ' '), '::2') AS `text`,
  FALSE AS `zero`
UNION
SELECT
  CONCAT('both v4 ', CAST(CAST(1 AS BIGINT) + CAST(2 AS BIGINT) AS STRING)) AS `text`,
  FALSE AS `zero`
UNION
SELECT
  'other' AS `text`,
  TRUE AS `zero`
UNION
SELECT
  CASE
    WHEN `t1`.`a`.`tag` = 0
    THEN CONCAT('v4 ', CAST(`t1`.`a`.`V4_addr4` AS STRING))
    ELSE CONCAT('v6 ', `t1`.`a`.`V6_addr6`)
  END AS `text`,
  CASE
    WHEN `t1`.`a`.`tag` = 0
    THEN `t1`.`a`.`V4_addr4` = CAST(0 AS BIGINT)
    ELSE `t1`.`a`.`V6_addr6` = '::'
  END AS `zero`
FROM `Input` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
