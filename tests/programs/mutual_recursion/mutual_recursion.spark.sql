-- Even: non-recursive rules [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Even` AS
SELECT /*+ REPARTITION(`b`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(NULL AS BIGINT) AS `a`,
      CAST(NULL AS BIGINT) AS `b`
    WHERE
      FALSE
  ) AS `stored`
) AS `renamed`;
-- Even: first delta [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Even__delta` AS
SELECT /*+ REPARTITION(`b`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Even`
  ) AS `stored`
) AS `renamed`;
-- Odd: non-recursive rules [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Odd` AS
SELECT /*+ REPARTITION(`b`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`a`,
      `t1`.`b`
    FROM `E` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Odd: first delta [partitioned by b]
CREATE OR REPLACE TEMPORARY VIEW `Odd__delta` AS
SELECT /*+ REPARTITION(`b`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Odd`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Even, Odd):
  -- Even: new facts of this iteration [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Even__new` AS
  SELECT /*+ REPARTITION(`b`) */
    `dl2sql$0` AS `a`,
    `dl2sql$1` AS `b`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `a` AS `dl2sql$0`,
      `b` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`a`,
        `dl2sql_new`.`b`
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
        ) AS `dl2sql_distributed`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Even` AS `dl2sql_old`
        ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`
    ) AS `stored`
  ) AS `renamed`;
  -- Odd: new facts of this iteration [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Odd__new` AS
  SELECT /*+ REPARTITION(`b`) */
    `dl2sql$0` AS `a`,
    `dl2sql$1` AS `b`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `a` AS `dl2sql$0`,
      `b` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`a`,
        `dl2sql_new`.`b`
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
        ) AS `dl2sql_distributed`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Odd` AS `dl2sql_old`
        ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`
    ) AS `stored`
  ) AS `renamed`;
  -- Even := Even UNION ALL Even__new
  -- Even__delta := Even__new
  -- Odd := Odd UNION ALL Odd__new
  -- Odd__delta := Odd__new
-- until empty: Even__new, Odd__new
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
