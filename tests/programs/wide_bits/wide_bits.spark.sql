-- Complement
CREATE OR REPLACE TEMPORARY VIEW `Complement` AS
SELECT DISTINCT
  `t1`.`x`,
  ~`t1`.`x` AS `flipped`,
  ~(
    (
      SHIFTLEFT(
        (
          (
            SHIFTRIGHT((
              ~`t1`.`x`
            ), 32)
          ) + (
            SHIFTRIGHT(CAST(1 AS BIGINT), 32)
          ) + (
            SHIFTRIGHT(
              (
                (
                  (
                    ~`t1`.`x`
                  ) & 4294967295
                ) + (
                  CAST(1 AS BIGINT) & 4294967295
                )
              ),
              32
            )
          )
        ),
        32
      )
    ) | (
      (
        (
          (
            ~`t1`.`x`
          ) & 4294967295
        ) + (
          CAST(1 AS BIGINT) & 4294967295
        )
      ) & 4294967295
    )
  ) AS `twice`
FROM `Signed` AS `t1`;
-- Product
CREATE OR REPLACE TEMPORARY VIEW `Product` AS
SELECT DISTINCT
  `t1`.`x`,
  `t1`.`y`,
  CAST((
    (
      CAST((
        `t1`.`x` - `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0))
      ) / CAST(4294967296 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) * `t1`.`y` % CAST(18446744073709551616 AS DECIMAL(38, 0)) * CAST(4294967296 AS DECIMAL(38, 0)) + `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0)) * `t1`.`y`
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS `product`,
  CAST((
    (
      CAST((
        CAST((
          (
            CAST((
              `t1`.`x` - `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0))
            ) / CAST(4294967296 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) * `t1`.`x` % CAST(18446744073709551616 AS DECIMAL(38, 0)) * CAST(4294967296 AS DECIMAL(38, 0)) + `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0)) * `t1`.`x`
          ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
        ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) - CAST((
          (
            CAST((
              `t1`.`x` - `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0))
            ) / CAST(4294967296 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) * `t1`.`x` % CAST(18446744073709551616 AS DECIMAL(38, 0)) * CAST(4294967296 AS DECIMAL(38, 0)) + `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0)) * `t1`.`x`
          ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
        ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) % CAST(4294967296 AS DECIMAL(38, 0))
      ) / CAST(4294967296 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) * `t1`.`y` % CAST(18446744073709551616 AS DECIMAL(38, 0)) * CAST(4294967296 AS DECIMAL(38, 0)) + CAST((
        (
          CAST((
            `t1`.`x` - `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0))
          ) / CAST(4294967296 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) * `t1`.`x` % CAST(18446744073709551616 AS DECIMAL(38, 0)) * CAST(4294967296 AS DECIMAL(38, 0)) + `t1`.`x` % CAST(4294967296 AS DECIMAL(38, 0)) * `t1`.`x`
        ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) % CAST(4294967296 AS DECIMAL(38, 0)) * `t1`.`y`
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS `square`
FROM `Wide` AS `t1`;
-- Bits
CREATE OR REPLACE TEMPORARY VIEW `Bits` AS
SELECT DISTINCT
  `t1`.`x`,
  `t1`.`y`,
  DL2SQL_D56B8C09_UDF_1(`t1`.`x`, `t1`.`y`) AS `both`,
  DL2SQL_D56B8C09_UDF_2(`t1`.`x`, `t1`.`y`) AS `either`,
  DL2SQL_D56B8C09_UDF_3(`t1`.`x`, `t1`.`y`) AS `differ`,
  DL2SQL_D56B8C09_UDF_4(`t1`.`x`) AS `flipped`
FROM `Wide` AS `t1`;
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW `ddlog_std__Singleton` AS
SELECT DISTINCT
  TRUE AS `_unit`;
