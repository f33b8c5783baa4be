-- Q: non-recursive rules [partitioned by y]
CREATE OR REPLACE TEMPORARY VIEW `Q` AS
SELECT /*+ REPARTITION(`y`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT
      `t1`.`x`,
      `t1`.`x` AS `y`
    FROM `E` AS `t1`
    UNION
    SELECT
      `t1`.`y` AS `x`,
      `t1`.`y`
    FROM `F` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Q: first delta [partitioned by y]
CREATE OR REPLACE TEMPORARY VIEW `Q__delta` AS
SELECT /*+ REPARTITION(`y`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Q`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Q):
  -- Q: new facts of this iteration [partitioned by y]
  CREATE OR REPLACE TEMPORARY VIEW `Q__new` AS
  SELECT /*+ REPARTITION(`y`) */
    `dl2sql$0` AS `x`,
    `dl2sql$1` AS `y`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `x` AS `dl2sql$0`,
      `y` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`x`,
        `dl2sql_new`.`y`
      FROM (
        SELECT
          *
        FROM (
          SELECT
            *
          FROM (
            SELECT
              `t1`.`x`,
              `t2`.`y`
            FROM `Q__delta` AS `t1`
            JOIN `E` AS `t2`
              ON `t2`.`x` = `t1`.`y` AND `t1`.`x` <> `t2`.`y`
            DISTRIBUTE BY
              `y`
          ) AS `dl2sql_distributed`
          UNION
          SELECT
            *
          FROM (
            SELECT
              `t1`.`x`,
              `t2`.`x` AS `y`
            FROM `Q__delta` AS `t1`
            JOIN `F` AS `t2`
              ON `t2`.`y` = `t1`.`y`
            DISTRIBUTE BY
              `y`
          ) AS `dl2sql_distributed`
          UNION
          SELECT
            *
          FROM (
            SELECT
              `t2`.`x`,
              `t1`.`y`
            FROM `Q__delta` AS `t1`
            JOIN `E` AS `t2`
              ON `t2`.`y` = `t1`.`x` AND `t2`.`x` < CAST(4 AS BIGINT)
            DISTRIBUTE BY
              `y`
          ) AS `dl2sql_distributed`
        ) AS variants
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Q` AS `dl2sql_old`
        ON `dl2sql_new`.`x` = `dl2sql_old`.`x` AND `dl2sql_new`.`y` = `dl2sql_old`.`y`
    ) AS `stored`
  ) AS `renamed`;
  -- Q := Q UNION ALL Q__new
  -- Q__delta := Q__new
-- until empty: Q__new
-- P: non-recursive rules [partitioned by y]
CREATE OR REPLACE TEMPORARY VIEW `P` AS
SELECT /*+ REPARTITION(`y`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`x`,
      `t1`.`y`
    FROM `E` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- P: first delta [partitioned by y]
CREATE OR REPLACE TEMPORARY VIEW `P__delta` AS
SELECT /*+ REPARTITION(`y`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$1`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `P`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum P):
  -- P: new facts of this iteration [partitioned by y]
  CREATE OR REPLACE TEMPORARY VIEW `P__new` AS
  SELECT /*+ REPARTITION(`y`) */
    `dl2sql$0` AS `x`,
    `dl2sql$1` AS `y`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$1`) */
      `x` AS `dl2sql$0`,
      `y` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`x`,
        `dl2sql_new`.`y`
      FROM (
        SELECT
          *
        FROM (
          SELECT
            *
          FROM (
            SELECT
              `t1`.`x`,
              `t2`.`y`
            FROM `P__delta` AS `t1`
            JOIN `E` AS `t2`
              ON `t2`.`x` = `t1`.`y`
            DISTRIBUTE BY
              `y`
          ) AS `dl2sql_distributed`
          UNION
          SELECT
            *
          FROM (
            SELECT
              `t1`.`x`,
              `t2`.`y`
            FROM `P__delta` AS `t1`
            JOIN `F` AS `t2`
              ON `t2`.`x` = `t1`.`y`
            DISTRIBUTE BY
              `y`
          ) AS `dl2sql_distributed`
        ) AS variants
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `P` AS `dl2sql_old`
        ON `dl2sql_new`.`x` = `dl2sql_old`.`x` AND `dl2sql_new`.`y` = `dl2sql_old`.`y`
    ) AS `stored`
  ) AS `renamed`;
  -- P := P UNION ALL P__new
  -- P__delta := P__new
-- until empty: P__new
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
