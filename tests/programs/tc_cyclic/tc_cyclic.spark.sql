-- Reach2: non-recursive rules [partitioned by a]
CREATE OR REPLACE TEMPORARY VIEW `Reach2` AS
SELECT /*+ REPARTITION(`a`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`a`,
      `t1`.`b`
    FROM `Edge` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Reach2: first delta [partitioned by a]
CREATE OR REPLACE TEMPORARY VIEW `Reach2__delta` AS
SELECT /*+ REPARTITION(`a`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Reach2`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Reach2):
  -- Reach2: new facts of this iteration [partitioned by a]
  CREATE OR REPLACE TEMPORARY VIEW `Reach2__new` AS
  SELECT /*+ REPARTITION(`a`) */
    `dl2sql$0` AS `a`,
    `dl2sql$1` AS `b`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `a` AS `dl2sql$0`,
      `b` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`a`,
        `dl2sql_new`.`b`
      FROM (
        SELECT
          *
        FROM (
          SELECT
            *
          FROM (
            SELECT
              `t1`.`a`,
              `t2`.`b`
            FROM `Reach2__delta` AS `t1`
            JOIN `Reach2` AS `t2`
              ON `t2`.`a` = `t1`.`b`
            DISTRIBUTE BY
              `a`
          ) AS `dl2sql_distributed`
          UNION
          SELECT
            *
          FROM (
            SELECT
              `t1`.`a`,
              `t2`.`b`
            FROM `Reach2` AS `t1`
            JOIN `Reach2__delta` AS `t2`
              ON `t2`.`a` = `t1`.`b`
            DISTRIBUTE BY
              `a`
          ) AS `dl2sql_distributed`
        ) AS variants
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Reach2` AS `dl2sql_old`
        ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`
    ) AS `stored`
  ) AS `renamed`;
  -- Reach2 := Reach2 UNION ALL Reach2__new
  -- Reach2__delta := Reach2__new
-- until empty: Reach2__new
-- if (SELECT COUNT(*) AS `edges`, COUNT(DISTINCT `a`) AS `sources` FROM `Edge`) has at most 1.5 edges per source:
--   -- Reach is a transitive closure: by doubling
  -- Reach: non-recursive rules
  CREATE OR REPLACE TEMPORARY VIEW `Reach` AS
  SELECT DISTINCT
    `t1`.`a`,
    `t1`.`b`
  FROM `Edge` AS `t1`;
  -- Reach: first delta
  CREATE OR REPLACE TEMPORARY VIEW `Reach__delta` AS
  SELECT
    *
  FROM `Reach`;
  -- repeat (stratum Reach; 4 steps per check while every delta is below 10000 rows):
    -- Reach: new facts of this iteration
    CREATE OR REPLACE TEMPORARY VIEW `Reach__new` AS
    SELECT
      `dl2sql_new`.`a`,
      `dl2sql_new`.`b`
    FROM (
      SELECT
        *
      FROM (
        SELECT
          `t1`.`a`,
          `t2`.`b`
        FROM `Reach__delta` AS `t1`
        JOIN `Reach` AS `t2`
          ON `t2`.`a` = `t1`.`b`
        UNION
        SELECT
          `t1`.`a`,
          `t2`.`b`
        FROM `Reach` AS `t1`
        JOIN `Reach__delta` AS `t2`
          ON `t2`.`a` = `t1`.`b`
      ) AS variants
    ) AS `dl2sql_new`
    LEFT ANTI JOIN `Reach` AS `dl2sql_old`
      ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`;
    -- Reach := Reach UNION ALL Reach__new
    -- Reach__delta := Reach__new
  -- until empty: Reach__new
-- else:
  -- Reach: non-recursive rules [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Reach` AS
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
      FROM `Edge` AS `t1`
    ) AS `stored`
  ) AS `renamed`;
  -- Reach: first delta [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Reach__delta` AS
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
      FROM `Reach`
    ) AS `stored`
  ) AS `renamed`;
  -- repeat (stratum Reach):
    -- Reach: new facts of this iteration [partitioned by b]
    CREATE OR REPLACE TEMPORARY VIEW `Reach__new` AS
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
            FROM `Reach__delta` AS `t1`
            JOIN `Edge` AS `t2`
              ON `t2`.`a` = `t1`.`b`
            DISTRIBUTE BY
              `b`
          ) AS `dl2sql_distributed`
        ) AS `dl2sql_new`
        LEFT ANTI JOIN `Reach` AS `dl2sql_old`
          ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`
      ) AS `stored`
    ) AS `renamed`;
    -- Reach := Reach UNION ALL Reach__new
    -- Reach__delta := Reach__new
  -- until empty: Reach__new
-- end if
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
