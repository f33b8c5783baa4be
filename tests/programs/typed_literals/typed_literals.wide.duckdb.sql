-- Pairs
CREATE OR REPLACE TEMPORARY VIEW "Pairs" AS
SELECT
  {'_0': CAST(-128 AS BIGINT), '_1': CAST(-1.0 AS DOUBLE)} AS "p"
UNION
SELECT
  {'_0': CAST(127 AS BIGINT), '_1': CAST(0.5 AS DOUBLE)} AS "p";
-- Nested
CREATE OR REPLACE TEMPORARY VIEW "Nested" AS
SELECT DISTINCT
  [
    [
      {'_0': CAST(-4 AS BIGINT), '_1': [CAST(-1.5 AS DOUBLE), CAST(3.0 AS DOUBLE)]},
      {'_0': CAST(4 AS BIGINT), '_1': CAST([] AS DOUBLE[])}
    ],
    [{'_0': CAST(0 AS BIGINT), '_1': [CAST(-0.75 AS DOUBLE)]}]
  ] AS "v";
-- Scores
CREATE OR REPLACE TEMPORARY VIEW "Scores" AS
SELECT
  [
    {'_0': {'_0': CAST(1 AS BIGINT), '_1': {'num$': CAST(-99999999999999999999999 AS DECIMAL(38, 0)), 'big$': ''}}, '_1': CAST(-0.25 AS DOUBLE)},
    {'_0': {'_0': CAST(7 AS BIGINT), '_1': {'num$': CAST(-3 AS DECIMAL(38, 0)), 'big$': ''}}, '_1': CAST(-2.5 AS DOUBLE)},
    {'_0': {'_0': CAST(7 AS BIGINT), '_1': {'num$': CAST(3 AS DECIMAL(38, 0)), 'big$': ''}}, '_1': CAST(2.0 AS DOUBLE)}
  ] AS "m"
UNION
SELECT
  [
    {'_0': {'_0': CAST(2 AS BIGINT), '_1': {'num$': CAST(-1 AS DECIMAL(38, 0)), 'big$': ''}}, '_1': CAST(-1.0 AS DOUBLE)}
  ] AS "m";
-- ddlog_std::Singleton
CREATE OR REPLACE TEMPORARY VIEW "ddlog_std__Singleton" AS
SELECT DISTINCT
  TRUE AS "_unit";
