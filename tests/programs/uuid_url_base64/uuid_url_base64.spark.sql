-- Defaults
CREATE OR REPLACE TEMPORARY VIEW `Defaults` AS
SELECT DISTINCT
  DL2SQL_1E868F7E_UDF_2(DL2SQL_1E868F7E_UDF_1('no scheme')) AS `u`,
  DL2SQL_1E868F7E_UDF_4(DL2SQL_1E868F7E_UDF_3('')) AS `id`;
-- Decoded
CREATE OR REPLACE TEMPORARY VIEW `Decoded` AS
SELECT DISTINCT
  `t1`.`text`,
  DL2SQL_1E868F7E_UDF_5(`t1`.`text`) AS `bytes`
FROM `Base64Text` AS `t1`;
-- Joined
CREATE OR REPLACE TEMPORARY VIEW `Joined` AS
SELECT DISTINCT
  `t1`.`base`,
  `t1`.`relative`,
  DL2SQL_1E868F7E_UDF_6(`t1`.`base`, `t1`.`relative`) AS `joined`
FROM `Link` AS `t1`;
-- UrlParts
CREATE OR REPLACE TEMPORARY VIEW `UrlParts` AS
SELECT DISTINCT
  DL2SQL_1E868F7E_UDF_7(`t1`.`joined`.`Ok_res`) AS `text`,
  DL2SQL_1E868F7E_UDF_8(`t1`.`joined`.`Ok_res`) AS `host`,
  DL2SQL_1E868F7E_UDF_9(`t1`.`joined`.`Ok_res`) AS `port`,
  DL2SQL_1E868F7E_UDF_10(`t1`.`joined`.`Ok_res`) AS `path`,
  DL2SQL_1E868F7E_UDF_11(`t1`.`joined`.`Ok_res`) AS `cannot_be_a_base`
FROM `Joined` AS `t1`
WHERE
  `t1`.`joined`.`tag` = 0;
-- FromJson
CREATE OR REPLACE TEMPORARY VIEW `FromJson` AS
SELECT DISTINCT
  `t1`.`text`,
  DL2SQL_1E868F7E_UDF_12(`t1`.`text`) AS `id`
FROM `UuidText` AS `t1`;
-- ParsedUuid
CREATE OR REPLACE TEMPORARY VIEW `ParsedUuid` AS
SELECT DISTINCT
  `t1`.`text`,
  DL2SQL_1E868F7E_UDF_3(`t1`.`text`) AS `parsed`
FROM `UuidText` AS `t1`;
-- Wide
CREATE OR REPLACE TEMPORARY VIEW `Wide` AS
SELECT DISTINCT
  DL2SQL_1E868F7E_UDF_14(DL2SQL_1E868F7E_UDF_13(`t1`.`id`)) AS `hex`
FROM `Known` AS `t1`;
-- Encoded
CREATE OR REPLACE TEMPORARY VIEW `Encoded` AS
SELECT DISTINCT
  `t1`.`name`,
  DL2SQL_1E868F7E_UDF_16(DL2SQL_1E868F7E_UDF_15(`t1`.`name`)) AS `text`
FROM `Name` AS `t1`;
-- V5
CREATE OR REPLACE TEMPORARY VIEW `V5` AS
SELECT DISTINCT
  DL2SQL_1E868F7E_UDF_18(DL2SQL_1E868F7E_UDF_17(), DL2SQL_1E868F7E_UDF_15(`t1`.`name`)) AS `id`,
  `t1`.`name`
FROM `Name` AS `t1`;
-- Json
CREATE OR REPLACE TEMPORARY VIEW `Json` AS
SELECT DISTINCT
  `t1`.`name`,
  DL2SQL_1E868F7E_UDF_19(
    STRUCT(`t1`.`id` AS _0, DL2SQL_1E868F7E_UDF_2(DL2SQL_1E868F7E_UDF_1('http://H/a')) AS _1)
  ) AS `json`
FROM `V5` AS `t1`;
-- KnownName
CREATE OR REPLACE TEMPORARY VIEW `KnownName` AS
SELECT DISTINCT
  `t1`.`name`,
  DL2SQL_1E868F7E_UDF_20(`t1`.`id`) AS `hyphenated`
FROM `V5` AS `t1`
JOIN `Known` AS `t2`
  ON `t2`.`id` = `t1`.`id`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
