-- T
CREATE OR REPLACE TEMPORARY VIEW `T` AS
SELECT DISTINCT
  DL2SQL_UDF_1(`t1`.`y`) AS `t`
FROM `S` AS `t1`;
-- R
CREATE OR REPLACE TEMPORARY VIEW `R` AS
SELECT DISTINCT
  CAST((
    (
      (
        (
          CAST(`t1`.`y` AS DECIMAL(38, 0))
        ) * (
          CAST(CAST(2 AS BIGINT) AS DECIMAL(38, 0))
        )
      ) % CAST(4294967296 AS DECIMAL(38, 0))
    ) + CAST(4294967296 AS DECIMAL(38, 0))
  ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT) AS `a`,
  (
    (
      (
        (
          `t1`.`y`
        ) + (
          CAST(10 AS BIGINT)
        )
      ) & 4294967295
    ) + (
      CAST(10 AS BIGINT)
    )
  ) & 4294967295 AS `b`,
  CAST((
    (
      (
        (
          CAST(`t1`.`y` AS DECIMAL(38, 0))
        ) * (
          CAST(CAST(3 AS BIGINT) AS DECIMAL(38, 0))
        )
      ) % CAST(4294967296 AS DECIMAL(38, 0))
    ) + CAST(4294967296 AS DECIMAL(38, 0))
  ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT) AS `c`
FROM `S` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
