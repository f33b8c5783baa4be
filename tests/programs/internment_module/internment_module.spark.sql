-- Joined
CREATE OR REPLACE TEMPORARY VIEW `Joined` AS
SELECT DISTINCT
  DL2SQL_1DC797A7_UDF_1(ARRAY(`t1`.`w`, 'x'), '+') AS `s`
FROM `Word` AS `t1`
WHERE
  DL2SQL_1DC797A7_UDF_4(
    DL2SQL_1DC797A7_UDF_3(DL2SQL_1DC797A7_UDF_2(ARRAY(`t1`.`w`, 'x'), CAST(0 AS DECIMAL(38, 0)))),
    'a'
  );
-- Facts
CREATE OR REPLACE TEMPORARY VIEW `Facts` AS
SELECT DISTINCT
  DL2SQL_1DC797A7_UDF_5(`t1`.`w`) AS `n`,
  `t1`.`w` AS `s`,
  DL2SQL_1DC797A7_UDF_6(`t1`.`w`) AS `up`,
  DL2SQL_1DC797A7_UDF_7(`t1`.`w`, 'b') AS `parts`,
  DL2SQL_1DC797A7_UDF_8(`t1`.`w`) AS `num`,
  `t1`.`w` = `t1`.`w` AS `same`
FROM `Word` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
