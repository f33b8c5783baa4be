-- HasOut
CREATE OR REPLACE TEMPORARY VIEW `HasOut` AS
SELECT DISTINCT
  `t1`.`a`
FROM `Link` AS `t1`;
-- if (SELECT COUNT(*) AS `edges`, COUNT(DISTINCT `a`) AS `sources` FROM `Link`) has at most 1.5 edges per source:
--   -- Conn is a transitive closure: by doubling
  -- Conn: non-recursive rules
  CREATE OR REPLACE TEMPORARY VIEW `Conn` AS
  SELECT DISTINCT
    `t1`.`a`,
    `t1`.`b`
  FROM `Link` AS `t1`;
  -- Conn: first delta
  CREATE OR REPLACE TEMPORARY VIEW `Conn__delta` AS
  SELECT
    *
  FROM `Conn`;
  -- repeat (stratum Conn; 4 steps per check while every delta is below 10000 rows):
    -- Conn: new facts of this iteration
    CREATE OR REPLACE TEMPORARY VIEW `Conn__new` AS
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
        FROM `Conn__delta` AS `t1`
        JOIN `Conn` AS `t2`
          ON `t2`.`a` = `t1`.`b`
        UNION
        SELECT
          `t1`.`a`,
          `t2`.`b`
        FROM `Conn` AS `t1`
        JOIN `Conn__delta` AS `t2`
          ON `t2`.`a` = `t1`.`b`
      ) AS variants
    ) AS `dl2sql_new`
    LEFT ANTI JOIN `Conn` AS `dl2sql_old`
      ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`;
    -- Conn := Conn UNION ALL Conn__new
    -- Conn__delta := Conn__new
  -- until empty: Conn__new
-- else:
  -- Conn: non-recursive rules [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Conn` AS
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
      FROM `Link` AS `t1`
    ) AS `stored`
  ) AS `renamed`;
  -- Conn: first delta [partitioned by b]
  CREATE OR REPLACE TEMPORARY VIEW `Conn__delta` AS
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
      FROM `Conn`
    ) AS `stored`
  ) AS `renamed`;
  -- repeat (stratum Conn):
    -- Conn: new facts of this iteration [partitioned by b]
    CREATE OR REPLACE TEMPORARY VIEW `Conn__new` AS
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
            FROM `Conn__delta` AS `t1`
            JOIN `Link` AS `t2`
              ON `t2`.`a` = `t1`.`b`
            DISTRIBUTE BY
              `b`
          ) AS `dl2sql_distributed`
        ) AS `dl2sql_new`
        LEFT ANTI JOIN `Conn` AS `dl2sql_old`
          ON `dl2sql_new`.`a` = `dl2sql_old`.`a` AND `dl2sql_new`.`b` = `dl2sql_old`.`b`
      ) AS `stored`
    ) AS `renamed`;
    -- Conn := Conn UNION ALL Conn__new
    -- Conn__delta := Conn__new
  -- until empty: Conn__new
-- end if
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
