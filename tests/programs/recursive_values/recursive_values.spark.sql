-- Even
CREATE OR REPLACE TEMPORARY VIEW `Even` AS
SELECT DISTINCT
  DL2SQL_EEA28B92_UDF_1(
    ARRAY(
      CAST(1 AS BIGINT),
      CAST(4 AS BIGINT),
      CAST(7 AS BIGINT),
      CAST(10 AS BIGINT),
      CAST(12 AS BIGINT)
    ),
    CAST(5 AS BIGINT)
  ) AS `x`;
-- Literal
CREATE OR REPLACE TEMPORARY VIEW `Literal` AS
SELECT DISTINCT
  CAST(-1 AS BIGINT) AS `x`,
  CAST(-128 AS BIGINT) AS `y`;
-- Boxed
CREATE OR REPLACE TEMPORARY VIEW `Boxed` AS
SELECT DISTINCT
  STRUCT(`t1`.`set` AS name, -CAST(`t1`.`x` AS DOUBLE) AS neg) AS `_v`
FROM `Item` AS `t1`;
-- Unboxed
CREATE OR REPLACE TEMPORARY VIEW `Unboxed` AS
SELECT DISTINCT
  `t1`.`_v`.`name`
FROM `Boxed` AS `t1`
WHERE
  `t1`.`_v`.`neg` = CAST(-2.0 AS DOUBLE);
-- Trees: non-recursive rules [partitioned by set]
CREATE OR REPLACE TEMPORARY VIEW `Trees` AS
SELECT /*+ REPARTITION(`set`) */
  `dl2sql$0` AS `set`,
  `dl2sql$1` AS `tree`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `set` AS `dl2sql$0`,
    `tree` AS `dl2sql$1`
  FROM (
    SELECT DISTINCT
      `t1`.`set`,
      DL2SQL_EEA28B92_UDF_2(`t1`.`x`) AS `tree`
    FROM `Item` AS `t1`
  ) AS `stored`
) AS `renamed`;
-- Trees: first delta [partitioned by set]
CREATE OR REPLACE TEMPORARY VIEW `Trees__delta` AS
SELECT /*+ REPARTITION(`set`) */
  `dl2sql$0` AS `set`,
  `dl2sql$1` AS `tree`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `set` AS `dl2sql$0`,
    `tree` AS `dl2sql$1`
  FROM (
    SELECT
      *
    FROM `Trees`
  ) AS `stored`
) AS `renamed`;
-- repeat (stratum Trees):
  -- Trees: new facts of this iteration [partitioned by set]
  CREATE OR REPLACE TEMPORARY VIEW `Trees__new` AS
  SELECT /*+ REPARTITION(`set`) */
    `dl2sql$0` AS `set`,
    `dl2sql$1` AS `tree`
  FROM (
    SELECT /*+ REPARTITION(`dl2sql$0`) */
      `set` AS `dl2sql$0`,
      `tree` AS `dl2sql$1`
    FROM (
      SELECT
        `dl2sql_new`.`set`,
        `dl2sql_new`.`tree`
      FROM (
        SELECT DISTINCT
          *
        FROM (
          SELECT
            `t1`.`set`,
            DL2SQL_EEA28B92_UDF_3(`t1`.`tree`, `t2`.`x`) AS `tree`
          FROM `Trees__delta` AS `t1`
          JOIN `Item` AS `t2`
            ON `t2`.`set` = `t1`.`set`
            AND DL2SQL_EEA28B92_UDF_4(`t1`.`tree`, `t2`.`x`) <= CAST(3 AS BIGINT)
          DISTRIBUTE BY
            `set`
        ) AS `dl2sql_distributed`
      ) AS `dl2sql_new`
      LEFT ANTI JOIN `Trees` AS `dl2sql_old`
        ON `dl2sql_new`.`set` = `dl2sql_old`.`set`
        AND `dl2sql_new`.`tree` = `dl2sql_old`.`tree`
    ) AS `stored`
  ) AS `renamed`;
  -- Trees := Trees UNION ALL Trees__new
  -- Trees__delta := Trees__new
-- until empty: Trees__new
-- Sorted
CREATE OR REPLACE TEMPORARY VIEW `Sorted` AS
SELECT DISTINCT
  `t1`.`set`,
  DL2SQL_EEA28B92_UDF_5(`t1`.`tree`) AS `items`,
  DL2SQL_EEA28B92_UDF_6(`t1`.`tree`) AS `depth`
FROM `Trees` AS `t1`
WHERE
  CAST(SIZE(DL2SQL_EEA28B92_UDF_5(`t1`.`tree`)) AS DECIMAL(38, 0)) = CAST(3 AS DECIMAL(38, 0));
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
