-- NoneBlocked
CREATE OR REPLACE TEMPORARY VIEW `NoneBlocked` AS
SELECT DISTINCT
  TRUE AS `b`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Blocked` AS `t1`
  );
-- Lonely
CREATE OR REPLACE TEMPORARY VIEW `Lonely` AS
SELECT DISTINCT
  `t1`.`n`
FROM `Node` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Link` AS `t2`
    WHERE
      `t2`.`a` = `t1`.`n`
  )
  AND NOT EXISTS(
    SELECT
      1
    FROM `Link` AS `t3`
    WHERE
      `t3`.`b` = `t1`.`n`
  );
-- Open
CREATE OR REPLACE TEMPORARY VIEW `Open` AS
SELECT DISTINCT
  `t1`.`n`
FROM `Node` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Blocked` AS `t2`
    WHERE
      `t2`.`n` = `t1`.`n`
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
