-- Parsed4
CREATE OR REPLACE TEMPORARY VIEW `Parsed4` AS
SELECT DISTINCT
  `t1`.`_e` AS `text`,
  DL2SQL_5ADDE5F4_UDF_1(`t1`.`_e`) AS `result`
FROM (
  SELECT
    1 AS one
) AS _one
LATERAL VIEW
EXPLODE(
  ARRAY('1.2.3.4', '255.255.255.255', '256.0.0.1', '01.2.3.4', '1.2.3', '0.0.0.0', '1.2.3.4 ')
) t1 AS `_e`;
-- Parsed
CREATE OR REPLACE TEMPORARY VIEW `Parsed` AS
SELECT DISTINCT
  `t1`.`_e` AS `text`,
  DL2SQL_5ADDE5F4_UDF_2(`t1`.`_e`) AS `result`
FROM (
  SELECT
    1 AS one
) AS _one
LATERAL VIEW
EXPLODE(
  ARRAY(
    '::',
    '1::',
    '::1:2:0:0:0',
    '1:0:0:2:0:0:0:3',
    'fe80::1:2',
    '::ffff:10.0.0.1',
    '::10.0.0.1',
    '1:2:3:4:5:6:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    ':::',
    '1::2::3',
    '12345::',
    '::01.2.3.4'
  )
) t1 AS `_e`;
-- Printed
CREATE OR REPLACE TEMPORARY VIEW `Printed` AS
SELECT DISTINCT
  `t1`.`text`,
  DL2SQL_5ADDE5F4_UDF_3(`t1`.`text`) AS `back`
FROM `Parsed` AS `t1`;
-- Neighbours
CREATE OR REPLACE TEMPORARY VIEW `Neighbours` AS
SELECT DISTINCT
  DL2SQL_5ADDE5F4_UDF_4(`t1`.`v6`) AS `lo`,
  DL2SQL_5ADDE5F4_UDF_4(`t2`.`v6`) AS `hi`
FROM `Host6` AS `t1`
JOIN `Host6` AS `t2`
  ON `t1`.`v6` < `t2`.`v6`;
-- Lowest__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Lowest__group1_rows` AS
SELECT DISTINCT
  `t1`.`v4` AS `a`,
  `t1`.`v4` AS `__value`
FROM `Host` AS `t1`;
-- Lowest__group1
CREATE OR REPLACE TEMPORARY VIEW `Lowest__group1` AS
SELECT
  STRUCT(TRUE AS key, ARRAY_SORT(COLLECT_LIST(`t1`.`__value`)) AS vals) AS `__grouped1`
FROM `Lowest__group1_rows` AS `t1`
HAVING
  COUNT(*) > 0;
-- Lowest
CREATE OR REPLACE TEMPORARY VIEW `Lowest` AS
SELECT DISTINCT
  ELEMENT_AT(`t1`.`__grouped1`.`vals`, 1) AS `addr`
FROM `Lowest__group1` AS `t1`;
-- Shown
CREATE OR REPLACE TEMPORARY VIEW `Shown` AS
SELECT
  STRUCT(
    CAST(0 AS BIGINT) AS tag,
    `t1`.`v4` AS IpAddrV4_addr4,
    '00000000000000000000000000000000' AS IpAddrV6_addr6
  ) AS `addr`,
  DL2SQL_5ADDE5F4_UDF_5(`t1`.`v4`) AS `text`,
  DL2SQL_5ADDE5F4_UDF_6(`t1`.`v4`) AS `private`
FROM `Host` AS `t1`
UNION
SELECT
  STRUCT(
    CAST(1 AS BIGINT) AS tag,
    CAST(0 AS BIGINT) AS IpAddrV4_addr4,
    `t1`.`v6` AS IpAddrV6_addr6
  ) AS `addr`,
  DL2SQL_5ADDE5F4_UDF_4(`t1`.`v6`) AS `text`,
  FALSE AS `private`
FROM `Host6` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
