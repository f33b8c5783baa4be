-- Event: non-recursive rules
CREATE OR REPLACE TEMPORARY VIEW `Event` AS
SELECT DISTINCT
  STRUCT(CAST(0 AS BIGINT) AS tag, CAST(1 AS BIGINT) AS Event_id) AS `_v`
UNION
SELECT DISTINCT
  STRUCT(CAST(1 AS BIGINT) AS tag, CAST(0 AS BIGINT) AS Event_id) AS `_v`;
-- Event: first delta
CREATE OR REPLACE TEMPORARY VIEW `Event__delta` AS
SELECT
  *
FROM `Event`;
-- repeat (stratum Event; 4 steps per check while every delta is below 10000 rows):
  -- Event: new facts of this iteration
  CREATE OR REPLACE TEMPORARY VIEW `Event__new` AS
  SELECT
    `n`.`_v`
  FROM (
    SELECT DISTINCT
      STRUCT(
        CAST(0 AS BIGINT) AS tag,
        (
          `t1`.`_v`.`Event_id` + CAST(1 AS BIGINT)
        ) & 4294967295 AS Event_id
      ) AS `_v`
    FROM `Event__delta` AS `t1`
    WHERE
      `t1`.`_v`.`tag` = 0 AND `t1`.`_v`.`Event_id` < CAST(3 AS BIGINT)
  ) AS `n`
  LEFT ANTI JOIN `Event` AS `o`
    ON `n`.`_v` = `o`.`_v`;
  -- Event := Event UNION ALL Event__new
  -- Event__delta := Event__new
-- until empty: Event__new
-- Open
CREATE OR REPLACE TEMPORARY VIEW `Open` AS
SELECT DISTINCT
  `t1`.`name`,
  `t1`.`zone`.`Some_x` AS `zone`,
  `t1`.`port`
FROM `Hosts` AS `t1`
WHERE
  `t1`.`zone`.`tag` = 1 AND `t1`.`port` <> CAST(0 AS BIGINT);
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
