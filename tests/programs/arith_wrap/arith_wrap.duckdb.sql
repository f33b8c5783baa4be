-- Derived
CREATE OR REPLACE TEMPORARY VIEW "Derived" AS
SELECT DISTINCT
  "t1"."x",
  (
    (
      "t1"."x"
    ) + (
      CAST(1 AS BIGINT)
    )
  ) & 4294967295 AS "succ",
  CAST((
    (
      (
        (
          (
            -(
              CAST(CAST((
                (
                  (
                    (
                      (
                        CAST("t1"."x" AS DECIMAL(38, 0))
                      ) + CAST(2147483648 AS DECIMAL(38, 0))
                    ) % CAST(4294967296 AS DECIMAL(38, 0))
                  ) + CAST(4294967296 AS DECIMAL(38, 0))
                ) % CAST(4294967296 AS DECIMAL(38, 0))
              ) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS DECIMAL(38, 0))
            )
          ) + CAST(2147483648 AS DECIMAL(38, 0))
        ) % CAST(4294967296 AS DECIMAL(38, 0))
      ) + CAST(4294967296 AS DECIMAL(38, 0))
    ) % CAST(4294967296 AS DECIMAL(38, 0))
  ) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS "neg"
FROM "N" AS "t1";
-- Mul
CREATE OR REPLACE TEMPORARY VIEW "Mul" AS
SELECT DISTINCT
  (
    (
      CAST((
        (
          (
            (
              CAST(CAST(65536 AS BIGINT) AS DECIMAL(38, 0))
            ) * (
              CAST(CAST(65536 AS BIGINT) AS DECIMAL(38, 0))
            )
          ) % CAST(4294967296 AS DECIMAL(38, 0))
        ) + CAST(4294967296 AS DECIMAL(38, 0))
      ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT)
    ) + (
      CAST(7 AS BIGINT)
    )
  ) & 4294967295 AS "a",
  (
    (
      (
        (
          CAST(300 AS BIGINT)
        ) * (
          CAST(300 AS BIGINT)
        )
      ) + 32768
    ) & 65535
  ) - 32768 AS "b",
  CAST((
    (
      (
        (
          CAST(4294967297 AS DECIMAL(38, 0))
        ) * (
          CAST(4294967296 AS DECIMAL(38, 0))
        )
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0))
    ) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "c";
-- Prec
CREATE OR REPLACE TEMPORARY VIEW "Prec" AS
SELECT DISTINCT
  (
    (
      CAST(1 AS BIGINT)
    ) + (
      CAST((
        (
          (
            (
              CAST(CAST(2 AS BIGINT) AS DECIMAL(38, 0))
            ) * (
              CAST(CAST(3 AS BIGINT) AS DECIMAL(38, 0))
            )
          ) % CAST(4294967296 AS DECIMAL(38, 0))
        ) + CAST(4294967296 AS DECIMAL(38, 0))
      ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT)
    )
  ) & 4294967295 AS "a",
  CAST((
    (
      (
        (
          CAST((
            (
              CAST(1 AS BIGINT)
            ) + (
              CAST(2 AS BIGINT)
            )
          ) & 4294967295 AS DECIMAL(38, 0))
        ) * (
          CAST(CAST(3 AS BIGINT) AS DECIMAL(38, 0))
        )
      ) % CAST(4294967296 AS DECIMAL(38, 0))
    ) + CAST(4294967296 AS DECIMAL(38, 0))
  ) % CAST(4294967296 AS DECIMAL(38, 0)) AS BIGINT) AS "b",
  NOT (
    FALSE
  ) = FALSE AS "c",
  (
    TRUE
  ) OR (
    (
      FALSE
    ) AND (
      FALSE
    )
  ) AS "d";
-- Div
CREATE OR REPLACE TEMPORARY VIEW "Div" AS
SELECT DISTINCT
  CAST((
    (
      (
        (
          (
            (
              CAST((
                -7
              ) AS BIGINT)
            ) // (
              CAST(2 AS BIGINT)
            )
          ) + CAST(2147483648 AS DECIMAL(38, 0))
        ) % CAST(4294967296 AS DECIMAL(38, 0))
      ) + CAST(4294967296 AS DECIMAL(38, 0))
    ) % CAST(4294967296 AS DECIMAL(38, 0))
  ) - CAST(2147483648 AS DECIMAL(38, 0)) AS BIGINT) AS "q",
  CAST((
    CAST((
      -7
    ) AS BIGINT)
  ) % (
    CAST(2 AS BIGINT)
  ) AS BIGINT) AS "r",
  (
    CAST(7 AS BIGINT)
  ) // (
    CAST(2 AS BIGINT)
  ) AS "uq",
  CAST((
    CAST(7 AS BIGINT)
  ) % (
    CAST(2 AS BIGINT)
  ) AS BIGINT) AS "ur";
-- W
CREATE OR REPLACE TEMPORARY VIEW "W" AS
SELECT DISTINCT
  (
    (
      CAST(250 AS BIGINT)
    ) + (
      CAST(10 AS BIGINT)
    )
  ) & 255 AS "a",
  (
    (
      (
        (
          CAST(127 AS BIGINT)
        ) + (
          CAST(1 AS BIGINT)
        )
      ) + 128
    ) & 255
  ) - 128 AS "b",
  (
    (
      CAST(0 AS BIGINT)
    ) - (
      CAST(1 AS BIGINT)
    )
  ) & 4294967295 AS "c",
  CAST((
    (
      (
        (
          (
            (
              CAST(CAST(9223372036854775807 AS BIGINT) AS DECIMAL(38, 0))
            ) + (
              CAST(CAST(1 AS BIGINT) AS DECIMAL(38, 0))
            )
          ) + CAST(9223372036854775808 AS DECIMAL(38, 0))
        ) % CAST(18446744073709551616 AS DECIMAL(38, 0))
      ) + CAST(18446744073709551616 AS DECIMAL(38, 0))
    ) % CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) - CAST(9223372036854775808 AS DECIMAL(38, 0)) AS BIGINT) AS "d",
  (
    (
      CAST(4095 AS BIGINT)
    ) + (
      CAST(2 AS BIGINT)
    )
  ) & 4095 AS "e",
  CAST((
    (
      (
        (
          CAST(0 AS DECIMAL(38, 0))
        ) - (
          CAST(1 AS DECIMAL(38, 0))
        )
      ) % CAST(18446744073709551616 AS DECIMAL(38, 0))
    ) + CAST(18446744073709551616 AS DECIMAL(38, 0))
  ) % CAST(18446744073709551616 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS "f";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
