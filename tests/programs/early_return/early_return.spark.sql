-- Port
CREATE OR REPLACE TEMPORARY VIEW `Port` AS
SELECT DISTINCT
  `t1`.`proto`,
  CASE
    WHEN `t1`.`proto` = 'FTP'
    THEN CONCAT('port ', CAST(CAST(20 AS BIGINT) AS STRING))
    ELSE CASE
      WHEN `t1`.`preferred` <> CAST(0 AS BIGINT)
      THEN CONCAT('port ', CAST(`t1`.`preferred` AS STRING))
      ELSE 'default'
    END
  END AS `text`
FROM `Endpoint` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
