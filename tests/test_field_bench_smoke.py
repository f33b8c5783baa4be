"""The field benchmark (benchmarks/field.py) runs on tiny inputs and its variants agree
(dl2sql, DuckDB's own recursive queries, Nemo where installed); a variant that finds
other rows makes it fail. Speed is only measured by running it, never asserted."""
from __future__ import annotations

from benchmarks import field, field_duckdb, field_nemo

PROGRAMS = "tc,cc,sssp"  # a linear closure and the two recursions through group_by min


def test_field_benchmark_variants_agree_duckdb(capsys):
    assert field.main(["--engine", "duckdb", "--quick", "--runs", "1",
                       "--only", PROGRAMS]) == 0
    out = capsys.readouterr().out
    assert "all variants agree" in out
    assert "DuckDB WITH RECURSIVE USING KEY, MIN" in out
    reason = field_nemo.missing()
    if reason:  # said, not failed
        print(f"Nemo variant skipped: {reason}")
        assert f"Nemo: skipped: {reason}" in out
    else:
        assert "tc        Nemo" in out


def test_field_benchmark_fails_on_other_rows(monkeypatch, capsys):
    """Same row count, one label changed: the result sets are compared, not only sizes."""
    real = field_duckdb.run

    def wrong(con, program, inputs):
        counts, rows = real(con, program, inputs)
        node, label = max(rows)
        return counts, rows - {(node, label)} | {(node, label + 1)}
    monkeypatch.setattr(field_duckdb, "run", wrong)
    assert field.main(["--engine", "duckdb", "--quick", "--runs", "1", "--only", "cc",
                       "--no-warmup"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREEMENT: result rows differ between dl2sql/DuckDB and DuckDB" in out
    assert "VARIANTS DISAGREE" in out


def test_field_benchmark_without_nemo(monkeypatch, capsys):
    monkeypatch.setattr(field_nemo, "missing", lambda: "nemo-python is not installed")
    assert field.main(["--engine", "duckdb", "--quick", "--runs", "1", "--only", "reach",
                       "--no-warmup"]) == 0
    assert "Nemo: skipped: nemo-python is not installed" in capsys.readouterr().out
