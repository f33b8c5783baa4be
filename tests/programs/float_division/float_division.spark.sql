-- Infinite
CREATE OR REPLACE TEMPORARY VIEW `Infinite` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`
FROM `X` AS `t1`
WHERE
  COALESCE(TRY_DIVIDE(`t1`.`a`, `t1`.`b`), `t1`.`a` * POWER(`t1`.`b`, -1)) = COALESCE(
    TRY_DIVIDE(CAST(1.0 AS DOUBLE), CAST(0.0 AS DOUBLE)),
    CAST(1.0 AS DOUBLE) * POWER(CAST(0.0 AS DOUBLE), -1)
  );
-- N
CREATE OR REPLACE TEMPORARY VIEW `N` AS
SELECT DISTINCT
  COALESCE(
    TRY_DIVIDE(
      COALESCE(TRY_DIVIDE(`t1`.`a`, `t1`.`b`), `t1`.`a` * POWER(`t1`.`b`, -1)),
      COALESCE(TRY_DIVIDE(`t1`.`b`, `t1`.`a`), `t1`.`b` * POWER(`t1`.`a`, -1))
    ),
    COALESCE(TRY_DIVIDE(`t1`.`a`, `t1`.`b`), `t1`.`a` * POWER(`t1`.`b`, -1)) * POWER(COALESCE(TRY_DIVIDE(`t1`.`b`, `t1`.`a`), `t1`.`b` * POWER(`t1`.`a`, -1)), -1)
  ) AS `x`
FROM `X` AS `t1`;
-- F
CREATE OR REPLACE TEMPORARY VIEW `F` AS
SELECT DISTINCT
  `t1`.`f`,
  `t1`.`g`,
  CAST(COALESCE(TRY_DIVIDE(`t1`.`f`, `t1`.`g`), `t1`.`f` * POWER(`t1`.`g`, -1)) AS FLOAT) AS `q`,
  CAST(COALESCE(TRY_DIVIDE(`t1`.`f`, CAST(0.0 AS FLOAT)), `t1`.`f` * POWER(CAST(0.0 AS FLOAT), -1)) AS FLOAT) AS `byzero`,
  CAST(COALESCE(
    TRY_DIVIDE(`t1`.`f`, `t1`.`f` - `t1`.`f`),
    `t1`.`f` * POWER(`t1`.`f` - `t1`.`f`, -1)
  ) AS FLOAT) AS `own`
FROM `X` AS `t1`;
-- Q
CREATE OR REPLACE TEMPORARY VIEW `Q` AS
SELECT DISTINCT
  `t1`.`a`,
  `t1`.`b`,
  COALESCE(TRY_DIVIDE(`t1`.`a`, `t1`.`b`), `t1`.`a` * POWER(`t1`.`b`, -1)) AS `q`,
  COALESCE(
    TRY_DIVIDE(`t1`.`a`, `t1`.`b` * CAST(-1.0 AS DOUBLE)),
    `t1`.`a` * POWER(`t1`.`b` * CAST(-1.0 AS DOUBLE), -1)
  ) AS `negzero`,
  `t1`.`a` / CAST(4.0 AS DOUBLE) AS `quarter`
FROM `X` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
