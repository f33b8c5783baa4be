-- Named
CREATE OR REPLACE TEMPORARY VIEW `Named` AS
SELECT DISTINCT
  `t1`.`_v`.`name`
FROM `Hosts` AS `t1`
WHERE
  `t1`.`_v`.`port` = CAST(80 AS BIGINT);
-- Ports
CREATE OR REPLACE TEMPORARY VIEW `Ports` AS
SELECT DISTINCT
  `t1`.`_v`.`name`,
  `t1`.`_v`.`port`
FROM `Hosts` AS `t1`
WHERE
  `t1`.`_v`.`port` > CAST(0 AS BIGINT);
-- Pairs
CREATE OR REPLACE TEMPORARY VIEW `Pairs` AS
SELECT DISTINCT
  STRUCT(
    STRUCT(
      CAST((
        (
          CAST(DL2SQL_UDF_1(`t1`.`ix`) AS DECIMAL(38, 0)) + CAST(2147483648 AS DECIMAL(38, 0))
        ) % CAST(4294967296 AS DECIMAL(38, 0)) + CAST(4294967296 AS DECIMAL(38, 0))
      ) % CAST(4294967296 AS DECIMAL(38, 0)) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS _0,
      `t1`.`ix` AS _1
    ) AS a,
    CONCAT('r', `t1`.`ix`) AS r
  ) AS `p`,
  CONCAT(
    CONCAT(
      CONCAT(
        CONCAT(
          STRUCT(
            CAST((
              (
                CAST(DL2SQL_UDF_1(`t1`.`ix`) AS DECIMAL(38, 0)) + CAST(2147483648 AS DECIMAL(38, 0))
              ) % CAST(4294967296 AS DECIMAL(38, 0)) + CAST(4294967296 AS DECIMAL(38, 0))
            ) % CAST(4294967296 AS DECIMAL(38, 0)) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS _0,
            `t1`.`ix` AS _1
          ).`_1`,
          '/'
        ),
        CAST(STRUCT(
          CAST((
            (
              CAST(DL2SQL_UDF_1(`t1`.`ix`) AS DECIMAL(38, 0)) + CAST(2147483648 AS DECIMAL(38, 0))
            ) % CAST(4294967296 AS DECIMAL(38, 0)) + CAST(4294967296 AS DECIMAL(38, 0))
          ) % CAST(4294967296 AS DECIMAL(38, 0)) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS _0,
          `t1`.`ix` AS _1
        ).`_0` AS STRING)
      ),
      '/'
    ),
    CONCAT('r', `t1`.`ix`)
  ) AS `s`
FROM `Name` AS `t1`;
-- Inside
CREATE OR REPLACE TEMPORARY VIEW `Inside` AS
SELECT DISTINCT
  `t1`.`p`.`a`.`_1` AS `s`,
  `t1`.`p`.`r`
FROM `Pairs` AS `t1`;
-- Upper
CREATE OR REPLACE TEMPORARY VIEW `Upper` AS
SELECT DISTINCT
  `t1`.`ix` AS `x`,
  `t1`.`ix`,
  DL2SQL_UDF_1(`t1`.`ix`) AS `n`,
  DL2SQL_UDF_2(`t1`.`ix`) AS `up`
FROM `Name` AS `t1`
UNION
SELECT DISTINCT
  'lit' AS `x`,
  'lit' AS `ix`,
  CAST(3 AS DECIMAL(38, 0)) AS `n`,
  CAST(CAST((
    (
      CAST(1 AS DECIMAL(38, 0)) + CAST(1 AS DECIMAL(38, 0))
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS STRING) AS `up`
FROM `Name` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
