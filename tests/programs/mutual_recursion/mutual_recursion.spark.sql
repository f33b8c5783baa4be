-- Even: non-recursive rules [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Even` AS
SELECT
  CAST(NULL AS BIGINT) AS `a`,
  CAST(NULL AS BIGINT) AS `b`
WHERE
  FALSE;
-- Even: first delta [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Even__delta` AS
SELECT
  *
FROM `Even`;
-- Odd: non-recursive rules [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Odd` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`
FROM `E` AS `t1`;
-- Odd: first delta [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Odd__delta` AS
SELECT
  *
FROM `Odd`;
-- repeat (stratum Even, Odd):
  -- Even: new facts of this iteration [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Even__new` AS
  SELECT
    `n`.`a`,
    `n`.`b`
  FROM (
    SELECT DISTINCT
      *
    FROM (
      SELECT
        `t1`.`a`,
        `t2`.`b`
      FROM `Odd__delta` AS `t1`
      JOIN `E` AS `t2`
        ON `t2`.`a` = `t1`.`b`
      DISTRIBUTE BY
        `b`
    ) AS `d`
  ) AS `n`
  LEFT ANTI JOIN `Even` AS `o`
    ON `n`.`a` = `o`.`a` AND `n`.`b` = `o`.`b`;
  -- Odd: new facts of this iteration [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Odd__new` AS
  SELECT
    `n`.`a`,
    `n`.`b`
  FROM (
    SELECT DISTINCT
      *
    FROM (
      SELECT
        `t1`.`a`,
        `t2`.`b`
      FROM `Even__delta` AS `t1`
      JOIN `E` AS `t2`
        ON `t2`.`a` = `t1`.`b`
      DISTRIBUTE BY
        `b`
    ) AS `d`
  ) AS `n`
  LEFT ANTI JOIN `Odd` AS `o`
    ON `n`.`a` = `o`.`a` AND `n`.`b` = `o`.`b`;
  -- Even := Even UNION ALL Even__new
  -- Even__delta := Even__new
  -- Odd := Odd UNION ALL Odd__new
  -- Odd__delta := Odd__new
-- until empty: Even__new, Odd__new
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
