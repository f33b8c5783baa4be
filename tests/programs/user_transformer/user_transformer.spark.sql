-- OutDegree, InDegree := transformer Degrees(Edge, Hidden), a Python callable on DataFrames
-- Source
CREATE OR REPLACE TEMPORARY VIEW `Source` AS
SELECT
  `t1`.`node`
FROM `OutDegree` AS `t1`
JOIN `InDegree` AS `t2`
  ON `t2`.`node` = `t1`.`node` AND `t1`.`degree` > `t2`.`degree`
UNION
SELECT
  `t1`.`node`
FROM `OutDegree` AS `t1`
WHERE
  NOT EXISTS(
    SELECT
      1
    FROM `InDegree` AS `t2`
    WHERE
      `t2`.`node` = `t1`.`node`
  );
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
