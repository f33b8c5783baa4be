-- Reach: candidates of the non-recursive rules [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Reach__delta` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `l`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `l` AS `dl2sql$1`
  FROM (
    SELECT
      `t1`.`a` AS `n`,
      `t1`.`a` AS `l`
    FROM `Road` AS `t1`
    UNION
    SELECT
      `t1`.`b` AS `n`,
      `t1`.`b` AS `l`
    FROM `Road` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Component: no value yet [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Component` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `least`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `least` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(NULL AS BIGINT) AS `n`,
      CAST(NULL AS BIGINT) AS `least`
    WHERE
      FALSE
  ) AS `stored`
) AS `renamed`;
-- Component: no value yet [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Component__delta` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `least`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `least` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(NULL AS BIGINT) AS `n`,
      CAST(NULL AS BIGINT) AS `least`
    WHERE
      FALSE
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Component, Reach):
  -- Component: keys whose min improved in this iteration [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Component__new` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `n`,
    `dl2sql$1` AS `least`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `n` AS `dl2sql$0`,
      `least` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.*
      FROM (
        SELECT
          `n` AS `n`,
          MIN(`__value`) AS `least`
        FROM (
          SELECT
            `t1`.`n`,
            `t1`.`l`,
            `t1`.`l` AS `__value`
          FROM `Reach__delta` AS `t1`
        ) AS dl2sql_rows
        GROUP BY
          `n`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Component` AS `dl2sql_old`
        ON `dl2sql_old`.`n` = `dl2sql_new`.`n`
        AND `dl2sql_old`.`least` <= `dl2sql_new`.`least`
    ) AS `stored`
  ) AS `renamed`;
  -- Component := Component UNION ALL Component__new
  -- Component__delta := Component__new
  -- Reach: candidates from the improved values [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Reach__delta` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `n`,
    `dl2sql$1` AS `l`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `n` AS `dl2sql$0`,
      `l` AS `dl2sql$1`
    FROM (
      SELECT
        `t2`.`b` AS `n`,
        `t1`.`least` AS `l`
      FROM `Component__delta` AS `t1`
      JOIN `Road` AS `t2`
        ON `t2`.`a` = `t1`.`n`
      UNION ALL
      SELECT
        `t2`.`a` AS `n`,
        `t1`.`least` AS `l`
      FROM `Component__delta` AS `t1`
      JOIN `Road` AS `t2`
        ON `t2`.`b` = `t1`.`n`
    ) AS `stored`
  ) AS `renamed`;
-- until empty: Component__new
-- Component: the best value of each key [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Component__best` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `least`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `least` AS `dl2sql$1`
  FROM (
    SELECT
      `n` AS `n`,
      MIN(`least`) AS `least`
    FROM (
      SELECT
        *
      FROM `Component`
    ) AS dl2sql_rows
    GROUP BY
      `n`
  ) AS `stored`
) AS `renamed`;
-- Component := Component__best
-- Reach: every rule, on the final values
CREATE OR REPLACE TEMPORARY VIEW `Reach` AS
SELECT
  `t1`.`a` AS `n`,
  `t1`.`a` AS `l`
FROM `Road` AS `t1`
UNION
SELECT
  `t1`.`b` AS `n`,
  `t1`.`b` AS `l`
FROM `Road` AS `t1`
UNION
SELECT
  `t2`.`b` AS `n`,
  `t1`.`least` AS `l`
FROM `Component` AS `t1`
JOIN `Road` AS `t2`
  ON `t2`.`a` = `t1`.`n`
UNION
SELECT
  `t2`.`a` AS `n`,
  `t1`.`least` AS `l`
FROM `Component` AS `t1`
JOIN `Road` AS `t2`
  ON `t2`.`b` = `t1`.`n`;
-- Component__group2_rows: a group_by step the loop replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW `Component__group2_rows` AS
SELECT
  CAST(NULL AS BIGINT) AS `n`,
  CAST(NULL AS BIGINT) AS `l`,
  CAST(NULL AS BIGINT) AS `__value`
WHERE
  FALSE;
-- Component__group2: a group_by step the loop replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW `Component__group2` AS
SELECT
  CAST(NULL AS BIGINT) AS `n`,
  CAST(NULL AS STRUCT<key: BIGINT, vals: ARRAY<BIGINT>>) AS `__grouped1`
WHERE
  FALSE;
-- Cand: candidates of the non-recursive rules [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Cand__delta` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `d`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `d` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`n`,
      CAST(0 AS BIGINT) AS `d`
    FROM `Source` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Dist: no value yet [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Dist` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `d`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `d` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(NULL AS BIGINT) AS `n`,
      CAST(NULL AS BIGINT) AS `d`
    WHERE
      FALSE
  ) AS `stored`
) AS `renamed`;
-- Dist: no value yet [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Dist__delta` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `d`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `d` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(NULL AS BIGINT) AS `n`,
      CAST(NULL AS BIGINT) AS `d`
    WHERE
      FALSE
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Cand, Dist):
  -- Dist: keys whose min improved in this iteration [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Dist__new` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `n`,
    `dl2sql$1` AS `d`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `n` AS `dl2sql$0`,
      `d` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.*
      FROM (
        SELECT
          `n` AS `n`,
          MIN(`__value`) AS `d`
        FROM (
          SELECT
            `t1`.`n`,
            `t1`.`d`,
            `t1`.`d` AS `__value`
          FROM `Cand__delta` AS `t1`
        ) AS dl2sql_rows
        GROUP BY
          `n`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Dist` AS `dl2sql_old`
        ON `dl2sql_old`.`n` = `dl2sql_new`.`n` AND `dl2sql_old`.`d` <= `dl2sql_new`.`d`
    ) AS `stored`
  ) AS `renamed`;
  -- Dist := Dist UNION ALL Dist__new
  -- Dist__delta := Dist__new
  -- Cand: candidates from the improved values [partitioned by n]
  CREATE OR REPLACE TEMPORARY VIEW `Cand__delta` AS
  SELECT /*+ REPARTITION(`n`) */
    `dl2sql$0` AS `n`,
    `dl2sql$1` AS `d`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `n` AS `dl2sql$0`,
      `d` AS `dl2sql$1`
    FROM (
      SELECT
        `t2`.`b` AS `n`,
        (
          `t1`.`d` + `t2`.`w`
        ) & 4294967295 AS `d`
      FROM `Dist__delta` AS `t1`
      JOIN `Road` AS `t2`
        ON `t2`.`a` = `t1`.`n`
    ) AS `stored`
  ) AS `renamed`;
-- until empty: Dist__new
-- Dist: the best value of each key [partitioned by n]
CREATE OR REPLACE TEMPORARY VIEW `Dist__best` AS
SELECT /*+ REPARTITION(`n`) */
  `dl2sql$0` AS `n`,
  `dl2sql$1` AS `d`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `n` AS `dl2sql$0`,
    `d` AS `dl2sql$1`
  FROM (
    SELECT
      `n` AS `n`,
      MIN(`d`) AS `d`
    FROM (
      SELECT
        *
      FROM `Dist`
    ) AS dl2sql_rows
    GROUP BY
      `n`
  ) AS `stored`
) AS `renamed`;
-- Dist := Dist__best
-- Cand: every rule, on the final values
CREATE OR REPLACE TEMPORARY VIEW `Cand` AS
SELECT
  `t1`.`n`,
  CAST(0 AS BIGINT) AS `d`
FROM `Source` AS `t1`
UNION
SELECT
  `t2`.`b` AS `n`,
  (
    `t1`.`d` + `t2`.`w`
  ) & 4294967295 AS `d`
FROM `Dist` AS `t1`
JOIN `Road` AS `t2`
  ON `t2`.`a` = `t1`.`n`;
-- Dist__group1_rows: a group_by step the loop replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW `Dist__group1_rows` AS
SELECT
  CAST(NULL AS BIGINT) AS `n`,
  CAST(NULL AS BIGINT) AS `d`,
  CAST(NULL AS BIGINT) AS `__value`
WHERE
  FALSE;
-- Dist__group1: a group_by step the loop replaced, not kept
CREATE OR REPLACE TEMPORARY VIEW `Dist__group1` AS
SELECT
  CAST(NULL AS BIGINT) AS `n`,
  CAST(NULL AS STRUCT<key: BIGINT, vals: ARRAY<BIGINT>>) AS `__grouped1`
WHERE
  FALSE;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
