-- Reach: non-recursive rules [partitioned by id]
CREATE OR REPLACE TEMPORARY VIEW `Reach` AS
SELECT /*+ REPARTITION(`id`) */
  `dl2sql$0` AS `id`,
  `dl2sql$1` AS `s`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `id` AS `dl2sql$0`,
    `s` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`id`,
      `t1`.`s`
    FROM `Item` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Reach: first delta [partitioned by id]
CREATE OR REPLACE TEMPORARY VIEW `Reach__delta` AS
SELECT /*+ REPARTITION(`id`) */
  `dl2sql$0` AS `id`,
  `dl2sql$1` AS `s`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `id` AS `dl2sql$0`,
    `s` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Reach`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Reach):
  -- Reach: new facts of this iteration [partitioned by id]
  CREATE OR REPLACE TEMPORARY VIEW `Reach__new` AS
  SELECT /*+ REPARTITION(`id`) */
    `dl2sql$0` AS `id`,
    `dl2sql$1` AS `s`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `id` AS `dl2sql$0`,
      `s` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`id`,
        `dl2sql_new`.`s`
      FROM (
        SELECT DISTINCT
          *
        FROM (
          SELECT
            `t2`.`dst` AS `id`,
            STRUCT(
              CAST(0 AS BIGINT) AS tag,
              'via' AS Tag_t,
              `t1`.`id` AS Tag_r,
              STRUCT(CAST(0 AS BIGINT) AS lo, CAST(0 AS BIGINT) AS hi) AS Box_inner
            ) AS `s`
          FROM `Reach__delta` AS `t1`
          JOIN `Edge` AS `t2`
            ON `t2`.`src` = `t1`.`id`
          DISTRIBUTE BY
            `id`
        ) AS `dl2sql_distributed`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Reach` AS `dl2sql_old`
        ON `dl2sql_new`.`id` = `dl2sql_old`.`id` AND `dl2sql_new`.`s` = `dl2sql_old`.`s`
    ) AS `stored`
  ) AS `renamed`;
  -- Reach := Reach UNION ALL Reach__new
  -- Reach__delta := Reach__new
-- until empty: Reach__new
-- ReachedPair
CREATE OR REPLACE TEMPORARY VIEW `ReachedPair` AS
SELECT DISTINCT
  `t1`.`id`,
  CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END AS `r`
FROM `Reach` AS `t1`
JOIN `Edge` AS `t2`
  ON `t2`.`src` = CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END
  AND `t2`.`dst` = `t1`.`id`;
-- Unreached
CREATE OR REPLACE TEMPORARY VIEW `Unreached` AS
SELECT DISTINCT
  `t1`.`id`,
  `t1`.`s`.`Tag_r` AS `r`
FROM `Reach` AS `t1`
WHERE
  `t1`.`s`.`tag` = 0
  AND NOT EXISTS(
    SELECT
      1
    FROM `Item` AS `t2`
    WHERE
      `t2`.`id` = `t1`.`s`.`Tag_r` AND `t2`.`s`.`tag` = 1
  );
-- Shaped
CREATE OR REPLACE TEMPORARY VIEW `Shaped` AS
SELECT
  `t1`.`id`,
  `t1`.`s`
FROM `Item` AS `t1`
UNION
SELECT
  `t1`.`dst` AS `id`,
  STRUCT(
    CAST(0 AS BIGINT) AS tag,
    'edge' AS Tag_t,
    `t1`.`src` AS Tag_r,
    STRUCT(CAST(0 AS BIGINT) AS lo, CAST(0 AS BIGINT) AS hi) AS Box_inner
  ) AS `s`
FROM `Edge` AS `t1`
UNION
SELECT
  `t1`.`dst` AS `id`,
  STRUCT(
    CAST(2 AS BIGINT) AS tag,
    '' AS Tag_t,
    CAST(0 AS BIGINT) AS Tag_r,
    STRUCT(`t1`.`src` AS lo, `t1`.`dst` AS hi) AS Box_inner
  ) AS `s`
FROM `Edge` AS `t1`
WHERE
  `t1`.`src` < `t1`.`dst`;
-- ShapedAnti
CREATE OR REPLACE TEMPORARY VIEW `ShapedAnti` AS
SELECT DISTINCT
  `t1`.`id`,
  CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END AS `k`
FROM `Shaped` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Edge` AS `t2`
    WHERE
      `t2`.`src` = CASE
        WHEN `t1`.`s`.`tag` = 0
        THEN `t1`.`s`.`Tag_r`
        ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
      END
      AND `t2`.`dst` = `t1`.`id`
  );
-- Grouped__group1_rows
CREATE OR REPLACE TEMPORARY VIEW `Grouped__group1_rows` AS
SELECT DISTINCT
  `t1`.`id` AS `i`,
  `t1`.`s`,
  CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END AS `t`,
  `t1`.`id` AS `__value`
FROM `Item` AS `t1`;
-- Grouped__group1
CREATE OR REPLACE TEMPORARY VIEW `Grouped__group1` AS
SELECT
  `t1`.`t` AS `t`,
  CAST(COUNT(*) AS DECIMAL(38, 0)) AS `__grouped1`
FROM `Grouped__group1_rows` AS `t1`
GROUP BY
  `t1`.`t`
HAVING
  COUNT(*) > 0;
-- Grouped
CREATE OR REPLACE TEMPORARY VIEW `Grouped` AS
SELECT DISTINCT
  `t1`.`t`,
  `t1`.`__grouped1` AS `n`
FROM `Grouped__group1` AS `t1`;
-- Semi
CREATE OR REPLACE TEMPORARY VIEW `Semi` AS
SELECT DISTINCT
  `t1`.`id`,
  CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END AS `t`
FROM `Item` AS `t1`
JOIN `Edge` AS `t2`
  ON `t2`.`src` = `t1`.`id`
  AND `t2`.`dst` = CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`lo` END
  END;
-- Anti
CREATE OR REPLACE TEMPORARY VIEW `Anti` AS
SELECT DISTINCT
  `t1`.`id`,
  CASE
    WHEN `t1`.`s`.`tag` = 0
    THEN `t1`.`s`.`Tag_r`
    ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`hi` END
  END AS `t`
FROM `Item` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `Edge` AS `t2`
    WHERE
      `t2`.`src` = `t1`.`id`
      AND `t2`.`dst` = CASE
        WHEN `t1`.`s`.`tag` = 0
        THEN `t1`.`s`.`Tag_r`
        ELSE CASE WHEN `t1`.`s`.`tag` = 1 THEN `t1`.`id` ELSE `t1`.`s`.`Box_inner`.`hi` END
      END
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
