-- Shapes := Shapes: a constant of the program, 6 rows evaluated once when planned (loaded)
-- ShapeOf
CREATE OR REPLACE TEMPORARY VIEW `ShapeOf` AS
SELECT DISTINCT
  `t1`.`name`,
  STRUCT(
    `t2`.`n` AS n,
    `t2`.`big` AS big,
    `t2`.`wide` AS wide,
    `t2`.`tags` AS tags,
    `t2`.`seen` AS seen,
    `t2`.`o` AS o,
    `t2`.`d` AS d
  ) AS `shape`
FROM `Item` AS `t1`
JOIN `Shapes` AS `t2`
  ON `t2`.`n` = `t1`.`n`;
-- Link [partitioned by a]
CREATE OR REPLACE TEMPORARY VIEW `Link` AS
SELECT /*+ REPARTITION(`a`) */
  `dl2sql$0` AS `a`,
  `dl2sql$1` AS `b`
FROM (
  SELECT /*+ REPARTITION(`dl2sql$0`) */
    `a` AS `dl2sql$0`,
    `b` AS `dl2sql$1`
  FROM (
    SELECT
      CAST(1 AS BIGINT) AS `a`,
      CAST(2 AS BIGINT) AS `b`
    UNION
    SELECT
      CAST(2 AS BIGINT) AS `a`,
      CAST(3 AS BIGINT) AS `b`
    UNION
    SELECT
      CAST(3 AS BIGINT) AS `a`,
      CAST(4 AS BIGINT) AS `b`
    UNION
    SELECT
      CAST(4 AS BIGINT) AS `a`,
      CAST(2 AS BIGINT) AS `b`
  ) AS `stored`
) AS `renamed`;
-- Hops := Hops: a constant of the program, 4 rows evaluated once when planned (loaded)
-- Hops__group1 := Hops__group1: a constant of the program, 3 rows evaluated once when planned (loaded)
-- Hops__group1_rows := Hops__group1_rows: a constant of the program, 4 rows evaluated once when planned (loaded)
-- Distance
CREATE OR REPLACE TEMPORARY VIEW `Distance` AS
SELECT DISTINCT
  `t1`.`name`,
  `t2`.`hops`
FROM `Item` AS `t1`
JOIN `Hops` AS `t2`
  ON `t2`.`node` = `t1`.`n`;
-- Reach := Reach: a constant of the program, 12 rows evaluated once when planned (loaded) [partitioned by b]
-- Reachable
CREATE OR REPLACE TEMPORARY VIEW `Reachable` AS
SELECT DISTINCT
  `t1`.`name`,
  `t2`.`b`
FROM `Item` AS `t1`
JOIN `Reach` AS `t2`
  ON `t2`.`a` = `t1`.`n`;
-- Word
CREATE OR REPLACE TEMPORARY VIEW `Word` AS
SELECT
  'a' AS `w`
UNION
SELECT
  'bb' AS `w`;
-- Grown := Grown: a constant of the program, 9 rows evaluated once when planned (loaded)
-- Long
CREATE OR REPLACE TEMPORARY VIEW `Long` AS
SELECT DISTINCT
  `t1`.`name`,
  `t2`.`w`
FROM `Item` AS `t1`
JOIN `Grown` AS `t2`
  ON CAST((
    CAST(OCTET_LENGTH(`t2`.`w`) AS DECIMAL(38, 0)) % CAST(4294967296 AS DECIMAL(38, 0)) + CAST(4294967296 AS DECIMAL(38, 0))
  ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT) = `t1`.`n`;
-- Even := Even: a constant of the program, 100 rows evaluated once when planned (loaded)
-- Odd := Odd: a constant of the program, 100 rows evaluated once when planned (loaded)
-- Parity
CREATE OR REPLACE TEMPORARY VIEW `Parity` AS
SELECT
  `t1`.`name`,
  TRUE AS `even`
FROM `Item` AS `t1`
JOIN `Even` AS `t2`
  ON `t2`.`n` = `t1`.`n`
UNION
SELECT
  `t1`.`name`,
  FALSE AS `even`
FROM `Item` AS `t1`
JOIN `Odd` AS `t2`
  ON `t2`.`n` = `t1`.`n`;
-- Count := Count: a constant of the program, 3000 rows evaluated once when planned (loaded)
-- Chain: non-recursive rules
CREATE OR REPLACE TEMPORARY VIEW `Chain` AS
SELECT DISTINCT
  `t1`.`n`
FROM `Item` AS `t1`
WHERE
  `t1`.`n` < CAST(10 AS BIGINT);
-- Chain: first delta
CREATE OR REPLACE TEMPORARY VIEW `Chain__delta` AS
SELECT
  *
FROM `Chain`;
-- repeat (stratum Chain; 4 steps per check while every delta is below 10000 rows):
  -- Chain: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW `Chain__new` AS
  SELECT
    `dl2sql_new`.`n`
  FROM (
    SELECT DISTINCT
      (
        `t1`.`n` + CAST(1 AS BIGINT)
      ) & 4294967295 AS `n`
    FROM `Chain__delta` AS `t1`
    JOIN `Count` AS `t2`
      ON `t2`.`n` = (
        `t1`.`n` + CAST(1 AS BIGINT)
      ) & 4294967295
    WHERE
      `t1`.`n` < CAST(7 AS BIGINT)
  ) AS `dl2sql_new`
  LEFT ANTI JOIN `Chain` AS `dl2sql_old`
    ON `dl2sql_new`.`n` = `dl2sql_old`.`n`;
  -- Chain := Chain UNION ALL Chain__new
  -- Chain__delta := Chain__new
-- until empty: Chain__new
-- Counted
CREATE OR REPLACE TEMPORARY VIEW `Counted` AS
SELECT DISTINCT
  `t1`.`name`,
  `t1`.`n`
FROM `Item` AS `t1`
JOIN `Count` AS `t2`
  ON `t2`.`n` = `t1`.`n`;
-- Top
CREATE OR REPLACE TEMPORARY VIEW `Top` AS
SELECT DISTINCT
  `t1`.`n`
FROM `Count` AS `t1`
WHERE
  `t1`.`n` >= CAST(2997 AS BIGINT);
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
