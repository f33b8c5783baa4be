-- SG: non-recursive rules [partitioned by x]
CREATE OR REPLACE TEMPORARY VIEW `SG` AS
SELECT /*+ REPARTITION(`x`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`child` AS `x`,
      `t2`.`child` AS `y`
    FROM `Parent` AS `t1`
    JOIN `Parent` AS `t2`
      ON `t2`.`parent` = `t1`.`parent` AND `t1`.`child` <> `t2`.`child`
  ) AS `stored`
) AS `renamed`;
-- SG: first delta [partitioned by x]
CREATE OR REPLACE TEMPORARY VIEW `SG__delta` AS
SELECT /*+ REPARTITION(`x`) */
  `dl2sql$0` AS `x`,
  `dl2sql$1` AS `y`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `x` AS `dl2sql$0`,
    `y` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `SG`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum SG):
  -- SG: new facts of this iteration [partitioned by x]
  CREATE OR REPLACE TEMPORARY VIEW `SG__new` AS
  SELECT /*+ REPARTITION(`x`) */
    `dl2sql$0` AS `x`,
    `dl2sql$1` AS `y`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `x` AS `dl2sql$0`,
      `y` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`x`,
        `dl2sql_new`.`y`
      FROM (
        SELECT DISTINCT
          *
        FROM (
          SELECT
            `t1`.`child` AS `x`,
            `t2`.`child` AS `y`
          FROM `Parent` AS `t1`
          CROSS JOIN `Parent` AS `t2`
          JOIN `SG__delta` AS `t3`
            ON `t3`.`x` = `t1`.`parent` AND `t3`.`y` = `t2`.`parent`
          DISTRIBUTE BY
            `x`
        ) AS `dl2sql_distributed`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `SG` AS `dl2sql_old`
        ON `dl2sql_new`.`x` = `dl2sql_old`.`x` AND `dl2sql_new`.`y` = `dl2sql_old`.`y`
    ) AS `stored`
  ) AS `renamed`;
  -- SG := SG UNION ALL SG__new
  -- SG__delta := SG__new
-- until empty: SG__new
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
