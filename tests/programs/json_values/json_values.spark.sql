-- Events
CREATE OR REPLACE TEMPORARY VIEW `Events` AS
SELECT DISTINCT
  DL2SQL_A2D1EAC9_UDF_1(
    CASE
      WHEN CAST(`t1`.`id` % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
      THEN STRUCT(CAST(0 AS BIGINT) AS tag, `t1`.`id` AS Start_at)
      ELSE STRUCT(CAST(1 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS Start_at)
    END
  ).`Ok_res` AS `json`
FROM `Text` AS `t1`
WHERE
  DL2SQL_A2D1EAC9_UDF_1(
    CASE
      WHEN CAST(`t1`.`id` % CAST(2 AS BIGINT) AS BIGINT) = CAST(0 AS BIGINT)
      THEN STRUCT(CAST(0 AS BIGINT) AS tag, `t1`.`id` AS Start_at)
      ELSE STRUCT(CAST(1 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS Start_at)
    END
  ).`tag` = 0;
-- Field
CREATE OR REPLACE TEMPORARY VIEW `Field` AS
SELECT DISTINCT
  `t1`.`id`,
  DL2SQL_A2D1EAC9_UDF_2(`t1`.`json`) AS `sensor`
FROM `Text` AS `t1`
WHERE
  DL2SQL_A2D1EAC9_UDF_3(`t1`.`json`)
  AND DL2SQL_A2D1EAC9_UDF_4(`t1`.`json`)
  AND DL2SQL_A2D1EAC9_UDF_5(`t1`.`json`);
-- Parsed
CREATE OR REPLACE TEMPORARY VIEW `Parsed` AS
SELECT DISTINCT
  `t1`.`id`,
  DL2SQL_A2D1EAC9_UDF_6(`t1`.`json`) AS `r`
FROM `Text` AS `t1`;
-- Back
CREATE OR REPLACE TEMPORARY VIEW `Back` AS
SELECT DISTINCT
  `t1`.`id`,
  DL2SQL_A2D1EAC9_UDF_7(`t1`.`r`.`Ok_res`).`Ok_res` AS `json`
FROM `Parsed` AS `t1`
WHERE
  `t1`.`r`.`tag` = 0 AND DL2SQL_A2D1EAC9_UDF_7(`t1`.`r`.`Ok_res`).`tag` = 0;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
