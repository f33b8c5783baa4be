-- Lit
CREATE OR REPLACE TEMPORARY VIEW `Lit` AS
SELECT
  CONCAT(
    CONCAT(
      CONCAT('tab\there', 'raw\\n'),
      CAST((
        (
          -CAST(7 AS BIGINT) + 128
        ) & 255
      ) - 128 AS STRING)
    ),
    CAST(TRUE AS STRING)
  ) AS `s`
UNION
SELECT
  CONCAT('cost: $', '{price} or $', '{x}$') AS `s`;
-- Joined
CREATE OR REPLACE TEMPORARY VIEW `Joined` AS
SELECT DISTINCT
  CONCAT(CONCAT(`t1`.`s`, '+'), `t2`.`s`) AS `j`
FROM `S` AS `t1`
JOIN `S` AS `t2`
  ON `t1`.`s` < `t2`.`s`
WHERE
  OCTET_LENGTH(`t1`.`s`) > CAST(0 AS DECIMAL(38, 0));
-- Info
CREATE OR REPLACE TEMPORARY VIEW `Info` AS
SELECT DISTINCT
  `t1`.`s`,
  OCTET_LENGTH(`t1`.`s`) AS `bytes`,
  DL2SQL_03407EC9_UDF_1(`t1`.`s`, CAST(0 AS DECIMAL(38, 0)), CAST(2 AS DECIMAL(38, 0))) AS `first2`,
  CONCAT(
    CONCAT(
      CONCAT(CONCAT(CONCAT('«', `t1`.`s`), '» has '), CAST(OCTET_LENGTH(`t1`.`s`) AS STRING)),
      ' bytes, empty: '
    ),
    CAST(`t1`.`s` = '' AS STRING)
  ) AS `shout`,
  CAST(SIZE(DL2SQL_03407EC9_UDF_2(`t1`.`s`, ',')) AS DECIMAL(38, 0)) AS `parts`
FROM `S` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
