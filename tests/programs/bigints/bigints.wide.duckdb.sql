-- ByValue__group1_rows
CREATE OR REPLACE TEMPORARY VIEW "ByValue__group1_rows" AS
SELECT DISTINCT
  "t1"."t",
  "t1"."x",
  "t1"."t" AS "__value"
FROM "Tag" AS "t1";
-- ByValue__group1
CREATE OR REPLACE TEMPORARY VIEW "ByValue__group1" AS
SELECT
  "t1"."x" AS "x",
  {'key': "t1"."x", 'vals': LIST_SORT(LIST("t1"."__value"))} AS "__grouped1"
FROM "ByValue__group1_rows" AS "t1"
GROUP BY
  "t1"."x"
HAVING
  COUNT(*) > 0;
-- ByValue
CREATE OR REPLACE TEMPORARY VIEW "ByValue" AS
SELECT DISTINCT
  "t1"."x",
  "t1"."__grouped1"."vals" AS "tags"
FROM "ByValue__group1" AS "t1";
-- Wrap
CREATE OR REPLACE TEMPORARY VIEW "Wrap" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t1"."u"."num$" AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t1"."u"."num$" + CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST("t1"."u"."num$" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_1("t1"."u")
  END AS "u1",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t1"."u"."num$" AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t1"."u"."num$" - CAST(1 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST("t1"."u"."num$" - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_2("t1"."u")
  END AS "u2",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t1"."u"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST("t1"."u"."num$" AS DOUBLE)) * CAST(3.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t1"."u"."num$" * CAST(3 AS DECIMAL(38, 0)) >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST("t1"."u"."num$" * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_3("t1"."u")
  END AS "u3",
  CASE
    WHEN ABS(CAST("t1"."s"."num$" AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."s"."num$" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_4("t1"."s")
  END AS "s1",
  CASE
    WHEN ABS(CAST("t1"."s"."num$" AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."s"."num$" - CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_5("t1"."s")
  END AS "s2",
  CASE
    WHEN ABS(CAST("t1"."s"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST(-"t1"."s"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_6("t1"."s")
  END AS "s3",
  CASE
    WHEN ABS(CAST("t1"."s"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST("t1"."s"."num$" AS DOUBLE)) * CAST(3.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."s"."num$" * CAST(3 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_7("t1"."s")
  END AS "s4",
  CASE
    WHEN ABS(CAST("t1"."u"."num$" AS DOUBLE)) + ABS(CAST("t1"."s"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."u"."num$" + "t1"."s"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_8("t1"."u", "t1"."s")
  END AS "wide"
FROM "W" AS "t1";
-- Casts
CREATE OR REPLACE TEMPORARY VIEW "Casts" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST((
      (
        CAST("t1"."x"."num$" AS INT128) + 9223372036854775808
      ) & 18446744073709551615
    ) - 9223372036854775808 AS BIGINT)
    ELSE DL2SQL_46414A2A_WIDE_UDF_9("t1"."x")
  END AS "s",
  {'num$': CAST(CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST((
      (
        CAST("t1"."x"."num$" AS INT128) + 9223372036854775808
      ) & 18446744073709551615
    ) - 9223372036854775808 AS BIGINT)
    ELSE DL2SQL_46414A2A_WIDE_UDF_9("t1"."x")
  END AS DECIMAL(38, 0)), 'big$': ''} AS "back",
  CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."x"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_10("t1"."x")
  END AS "s128",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t1"."x"."num$" >= CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST("t1"."x"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_11("t1"."x")
  END AS "u128",
  CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST("t1"."x"."num$" AS DOUBLE)
    ELSE COALESCE(DL2SQL_46414A2A_WIDE_UDF_12("t1"."x"), CAST('NaN' AS DOUBLE))
  END AS "d"
FROM "N" AS "t1";
-- Misc
CREATE OR REPLACE TEMPORARY VIEW "Misc" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  DL2SQL_46414A2A_WIDE_UDF_13("t1"."x") AS "shl",
  DL2SQL_46414A2A_WIDE_UDF_14("t1"."x") AS "shr",
  DL2SQL_46414A2A_WIDE_UDF_15("t1"."x", CAST(3 AS BIGINT)) AS "cube",
  CASE
    WHEN "t1"."x" IS NULL OR {'num$': CAST(0 AS DECIMAL(38, 0)), 'big$': ''} IS NULL
    THEN NULL
    ELSE LEAST("t1"."x", {'num$': CAST(0 AS DECIMAL(38, 0)), 'big$': ''})
  END AS "lo",
  CASE
    WHEN "t1"."x" IS NULL OR {'num$': CAST(0 AS DECIMAL(38, 0)), 'big$': ''} IS NULL
    THEN NULL
    ELSE GREATEST("t1"."x", {'num$': CAST(0 AS DECIMAL(38, 0)), 'big$': ''})
  END AS "hi"
FROM "N" AS "t1";
-- Text
CREATE OR REPLACE TEMPORARY VIEW "Text" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  CASE
    WHEN "t1"."x"."big$" = ''
    THEN CAST("t1"."x"."num$" AS TEXT)
    WHEN "t1"."x"."num$" > 0
    THEN SUBSTRING("t1"."x"."big$", 11)
    ELSE '-' || TRANSLATE(SUBSTRING("t1"."x"."big$", 11), '0123456789', '9876543210')
  END || '|' || CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN CAST(CAST(-"t1"."x"."num$" AS DECIMAL(38, 0)) AS TEXT)
    ELSE DL2SQL_46414A2A_WIDE_UDF_16("t1"."x")
  END || '|' || CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST("t1"."x"."num$" AS DOUBLE)) * CAST(10.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN CAST(CAST("t1"."x"."num$" * CAST(10 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)) AS TEXT)
    ELSE DL2SQL_46414A2A_WIDE_UDF_17("t1"."x")
  END || '|' || CASE
    WHEN CASE
      WHEN CASE
        WHEN NOT (
          ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        )
        THEN FALSE
        WHEN NOT (
          CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
        )
        THEN FALSE
        ELSE TRUE
      END
      THEN {'num$': CAST(CAST(CAST("t1"."x"."num$" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
      ELSE DL2SQL_46414A2A_WIDE_UDF_18("t1"."x")
    END."big$" = ''
    THEN CAST(CASE
      WHEN CASE
        WHEN NOT (
          ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        )
        THEN FALSE
        WHEN NOT (
          CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
        )
        THEN FALSE
        ELSE TRUE
      END
      THEN {'num$': CAST(CAST(CAST("t1"."x"."num$" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
      ELSE DL2SQL_46414A2A_WIDE_UDF_18("t1"."x")
    END."num$" AS TEXT)
    WHEN CASE
      WHEN CASE
        WHEN NOT (
          ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        )
        THEN FALSE
        WHEN NOT (
          CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
        )
        THEN FALSE
        ELSE TRUE
      END
      THEN {'num$': CAST(CAST(CAST("t1"."x"."num$" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
      ELSE DL2SQL_46414A2A_WIDE_UDF_18("t1"."x")
    END."num$" > 0
    THEN SUBSTRING(
      CASE
        WHEN CASE
          WHEN NOT (
            ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
          )
          THEN FALSE
          WHEN NOT (
            CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
          )
          THEN FALSE
          ELSE TRUE
        END
        THEN {'num$': CAST(CAST(CAST("t1"."x"."num$" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
        ELSE DL2SQL_46414A2A_WIDE_UDF_18("t1"."x")
      END."big$",
      11
    )
    ELSE '-' || TRANSLATE(
      SUBSTRING(
        CASE
          WHEN CASE
            WHEN NOT (
              ABS(CAST("t1"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
            )
            THEN FALSE
            WHEN NOT (
              CAST(7 AS DECIMAL(38, 0)) <> CAST(0 AS DECIMAL(38, 0))
            )
            THEN FALSE
            ELSE TRUE
          END
          THEN {'num$': CAST(CAST(CAST("t1"."x"."num$" AS INT128) // CAST(CAST(7 AS DECIMAL(38, 0)) AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
          ELSE DL2SQL_46414A2A_WIDE_UDF_18("t1"."x")
        END."big$",
        11
      ),
      '0123456789',
      '9876543210'
    )
  END AS "s"
FROM "N" AS "t1";
-- Ordered__group2_rows
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group2_rows" AS
SELECT DISTINCT
  "t1"."x",
  "t1"."x" AS "__value"
FROM "N" AS "t1";
-- Ordered__group2
CREATE OR REPLACE TEMPORARY VIEW "Ordered__group2" AS
SELECT
  {'key': TRUE, 'vals': LIST_SORT(LIST("t1"."__value"))} AS "g"
FROM "Ordered__group2_rows" AS "t1"
HAVING
  COUNT(*) > 0;
-- Ordered
CREATE OR REPLACE TEMPORARY VIEW "Ordered" AS
SELECT DISTINCT
  "t1"."g"."vals" AS "all",
  LIST_EXTRACT("t1"."g"."vals", 1) AS "lo",
  LIST_EXTRACT("t1"."g"."vals", -1) AS "hi"
FROM "Ordered__group2" AS "t1";
-- Succ
CREATE OR REPLACE TEMPORARY VIEW "Succ" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t2"."name" AS "b"
FROM "N" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."x" = CASE
    WHEN ABS(CAST("t1"."x"."num$" AS DOUBLE)) + CAST(1.0 AS DOUBLE) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t1"."x"."num$" + CAST(1 AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_19("t1"."x")
  END;
-- Same
CREATE OR REPLACE TEMPORARY VIEW "Same" AS
SELECT DISTINCT
  "t1"."name" AS "a"
FROM "N" AS "t1"
JOIN "M" AS "t2"
  ON "t2"."x" = "t1"."x";
-- Less
CREATE OR REPLACE TEMPORARY VIEW "Less" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t3"."name" AS "b"
FROM "P" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."name" = "t1"."name"
CROSS JOIN "P" AS "t3"
JOIN "N" AS "t4"
  ON "t4"."name" = "t3"."name" AND "t2"."x" < "t4"."x";
-- Arith
CREATE OR REPLACE TEMPORARY VIEW "Arith" AS
SELECT DISTINCT
  "t1"."name" AS "a",
  "t3"."name" AS "b",
  CASE
    WHEN ABS(CAST("t2"."x"."num$" AS DOUBLE)) + ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t2"."x"."num$" + "t4"."x"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_20("t2"."x", "t4"."x")
  END AS "sum",
  CASE
    WHEN ABS(CAST("t2"."x"."num$" AS DOUBLE)) + ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t2"."x"."num$" - "t4"."x"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_21("t2"."x", "t4"."x")
  END AS "diff",
  CASE
    WHEN ABS(CAST("t2"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    AND ABS(CAST("t2"."x"."num$" AS DOUBLE)) * ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
    THEN {'num$': CAST("t2"."x"."num$" * "t4"."x"."num$" AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_22("t2"."x", "t4"."x")
  END AS "prod",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST("t2"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t4"."x"."num$" <> CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST(CAST(CAST("t2"."x"."num$" AS INT128) // CAST("t4"."x"."num$" AS INT128) AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_23("t2"."x", "t4"."x")
  END AS "quot",
  CASE
    WHEN CASE
      WHEN NOT (
        ABS(CAST("t4"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
        AND ABS(CAST("t2"."x"."num$" AS DOUBLE)) < CAST(9e+37 AS DOUBLE)
      )
      THEN FALSE
      WHEN NOT (
        "t4"."x"."num$" <> CAST(0 AS DECIMAL(38, 0))
      )
      THEN FALSE
      ELSE TRUE
    END
    THEN {'num$': CAST(CAST("t2"."x"."num$" % "t4"."x"."num$" AS DECIMAL(38, 0)) AS DECIMAL(38, 0)), 'big$': ''}
    ELSE DL2SQL_46414A2A_WIDE_UDF_24("t2"."x", "t4"."x")
  END AS "rem"
FROM "P" AS "t1"
JOIN "N" AS "t2"
  ON "t2"."name" = "t1"."name"
CROSS JOIN "P" AS "t3"
JOIN "N" AS "t4"
  ON "t4"."name" = "t3"."name";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
