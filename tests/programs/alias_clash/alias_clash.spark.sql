-- if (SELECT COUNT(*) AS `edges`, COUNT(DISTINCT `t1`) AS `sources` FROM `Link`) has at most 1.5 edges per source:
--   -- Reached is a transitive closure: by doubling
  -- Reached: non-recursive rules
  CREATE OR REPLACE TEMPORARY VIEW `Reached` AS
  SELECT DISTINCT
    `t3`.`t1` AS `o`,
    `t3`.`t2` AS `n`
  FROM `Link` AS `t3`;
  -- Reached: first delta
  CREATE OR REPLACE TEMPORARY VIEW `Reached__delta` AS
  SELECT
    *
  FROM `Reached`;
  -- repeat (stratum Reached; 4 steps per check while every delta is below 10000 rows):
    -- Reached: new facts of this iteration
    CREATE OR REPLACE TEMPORARY VIEW `Reached__new` AS
    SELECT
      `dl2sql_new`.`o`,
      `dl2sql_new`.`n`
    FROM (
      SELECT
        *
      FROM (
        SELECT
          `t3`.`o`,
          `t4`.`n`
        FROM `Reached__delta` AS `t3`
        JOIN `Reached` AS `t4`
          ON `t4`.`o` = `t3`.`n`
        UNION
        SELECT
          `t3`.`o`,
          `t4`.`n`
        FROM `Reached` AS `t3`
        JOIN `Reached__delta` AS `t4`
          ON `t4`.`o` = `t3`.`n`
      ) AS variants
    ) AS `dl2sql_new`
    LEFT ANTI JOIN `Reached` AS `dl2sql_old`
      ON `dl2sql_new`.`o` = `dl2sql_old`.`o` AND `dl2sql_new`.`n` = `dl2sql_old`.`n`;
    -- Reached := Reached UNION ALL Reached__new
    -- Reached__delta := Reached__new
  -- until empty: Reached__new
-- else:
  -- Reached: non-recursive rules [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Reached` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `o`,
    `dl2sql$1` AS `n`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `o` AS `dl2sql$0`,
      `n` AS `dl2sql$1`
    FROM (
      SELECT DISTINCT
        `t3`.`t1` AS `o`,
        `t3`.`t2` AS `n`
      FROM `Link` AS `t3`
    ) AS `stored`
  ) AS `renamed`;
  -- Reached: first delta [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Reached__delta` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `o`,
    `dl2sql$1` AS `n`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `o` AS `dl2sql$0`,
      `n` AS `dl2sql$1`
    FROM (
      SELECT
        *
      FROM `Reached`
    ) AS `stored`
  ) AS `renamed`;
  -- repeat (stratum Reached):
    -- Reached: new facts of this iteration [partitioned by n]
    CREATE OR REPLACE TEMPORARY VIEW `Reached__new` AS
    SELECT /*+ REPARTITION(`n`) */
      `dl2sql$0` AS `o`,
      `dl2sql$1` AS `n`
    FROM (
      SELECT /*+ REPARTITION(`dl2sql$1`) */
        `o` AS `dl2sql$0`,
        `n` AS `dl2sql$1`
      FROM (
        SELECT
          `dl2sql_new`.`o`,
          `dl2sql_new`.`n`
        FROM (
          SELECT DISTINCT
            *
          FROM (
            SELECT
              `t3`.`o`,
              `t4`.`t2` AS `n`
            FROM `Reached__delta` AS `t3`
            JOIN `Link` AS `t4`
              ON `t4`.`t1` = `t3`.`n`
            DISTRIBUTE BY
              `n`
          ) AS `dl2sql_distributed`
        ) AS `dl2sql_new`
        LEFT ANTI JOIN `Reached` AS `dl2sql_old`
          ON `dl2sql_new`.`o` = `dl2sql_old`.`o` AND `dl2sql_new`.`n` = `dl2sql_old`.`n`
      ) AS `stored`
    ) AS `renamed`;
    -- Reached := Reached UNION ALL Reached__new
    -- Reached__delta := Reached__new
  -- until empty: Reached__new
-- end if
-- Spread__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Spread__group1_rows` AS
SELECT DISTINCT
  `t3`.`t1` AS `n`,
  `t3`.`t2` AS `m`,
  `t3`.`t2`.`y` AS `__value`
FROM `Link` AS `t3`;
-- Spread__group1
CREATE OR REPLACE TEMPORARY VIEW `Spread__group1` AS
SELECT
  `t3`.`n` AS `n`,
  STRUCT(`t3`.`n` AS key, ARRAY_SORT(COLLECT_LIST(`t3`.`__value`)) AS vals) AS `__grouped1`
FROM `Spread__group1_rows` AS `t3`
GROUP BY
  `t3`.`n`
HAVING
  COUNT(*) > 0;
-- Spread
CREATE OR REPLACE TEMPORARY VIEW `Spread` AS
SELECT DISTINCT
  `t3`.`n`,
  `t3`.`__grouped1`.`vals` AS `ys`
FROM `Spread__group1` AS `t3`;
-- Lonely
CREATE OR REPLACE TEMPORARY VIEW `Lonely` AS
SELECT DISTINCT
  `t3`.`n`
FROM `Node` AS `t3`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Link` AS `t4`
    WHERE
      `t4`.`t1` = `t3`.`n`
  )
  AND NOT EXISTS(
    SELECT
      1
    FROM `Link` AS `t5`
    WHERE
      `t5`.`t2` = `t3`.`n`
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
