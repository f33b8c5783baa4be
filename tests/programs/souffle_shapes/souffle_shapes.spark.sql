-- Text
CREATE OR REPLACE TEMPORARY VIEW `Text` AS
SELECT DISTINCT
  `t1`.`n`,
  CAST(`t1`.`n` AS STRING) AS `t`,
  DL2SQL_UDF_1(CAST(`t1`.`n` AS DOUBLE) / CAST(4.0 AS DOUBLE)) AS `d`,
  CAST(`t1`.`n` > CAST(0 AS BIGINT) AS STRING) AS `b`
FROM `N` AS `t1`;
-- Floats
CREATE OR REPLACE TEMPORARY VIEW `Floats` AS
SELECT DISTINCT
  DL2SQL_UDF_2(CAST(0.0 AS FLOAT), CAST(0.35 AS FLOAT), CAST(0.1 AS FLOAT)) AS `xs`
FROM `N` AS `t1`
WHERE
  `t1`.`n` = CAST(0 AS BIGINT);
-- Point
CREATE OR REPLACE TEMPORARY VIEW `Point` AS
SELECT DISTINCT
  `t2`.`_e` AS `x`
FROM `Span` AS `t1`
LATERAL VIEW
EXPLODE(DL2SQL_UDF_3(`t1`.`lo`, `t1`.`hi`, `t1`.`step`)) t2 AS `_e`;
-- Steps
CREATE OR REPLACE TEMPORARY VIEW `Steps` AS
SELECT DISTINCT
  `t1`.`lo`,
  `t1`.`hi`,
  `t1`.`step`,
  DL2SQL_UDF_3(`t1`.`lo`, `t1`.`hi`, `t1`.`step`) AS `xs`
FROM `Span` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
