"""The small-programs benchmark (:mod:`benchmarks.small_spark`) parses its flags, and
its own programs compile and give rows on DuckDB from the inputs it makes (cheap, so
that they cannot rot; the Spark variants and all timings are only run by hand)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from benchmarks import small_spark


def test_help(capsys):
    with pytest.raises(SystemExit) as stop:
        small_spark.main(["--help"])
    assert stop.value.code == 0 and "--cli" in capsys.readouterr().out


def test_own_programs_give_rows_on_duckdb():
    for name, (path, inputs) in small_spark.workloads(small_spark.OWN).items():
        variants = small_spark.make_variants(None, path, inputs)
        _, program, rows = variants["duckdb"]()
        program.close()
        assert set(rows) == set(program.outputs), name
        assert all(rows.values()), name  # every output has rows


def test_rows_compare_across_engines():
    assert small_spark.norm([{"tag": 1, "name": "a"}, Decimal(3)]) == ((1, "a"), 3)
