"""End-to-end programs: every ``tests/programs/NAME/`` case is replayed on DuckDB and on
Spark and must print exactly ``NAME.dump.expected``.

On DuckDB every case is maintained incrementally, as replay does by default
(tests/test_incremental_replay.py checks that recomputing prints the same). On Spark the
cases of ``SPARK_MAINTAINED`` are maintained too, and the others evaluated from scratch
at every commit (``replay --recompute``): every program runs on Spark, and the cases
maintained there use, between them, every way a stratum or relation is maintained
(test_spark_maintains_every_way_a_case_does). A transaction's statements are the
program's own expressions in the shapes of those ways; maintaining a small program
costs Spark four to seven times what recomputing it does (docs/testing.md).

What a case folder holds: tests/replays.py.
"""
from __future__ import annotations

import pytest

from replays import CASES, PROGRAMS, compile_case, expected_dump, replay_case

# maintained on Spark: closure and DRed (no path lost, rederived), recursion through
# group_by and through min (the lattice method), rules with negation, primary keys, streams, weights and delays, a
# transformer, semi and anti joins on nested fields of tables stored in pieces (which
# Spark planned wrongly, see nested_negation.dl); see the module's docstring
SPARK_MAINTAINED = ("constants", "derivation_counts", "mutual_recursion", "negation",
                    "nested_negation", "primary_key", "retract_keep", "streams",
                    "user_transformer", "lattice_paths")


@pytest.mark.parametrize("case", CASES)
def test_program(case: str, engine) -> None:
    folder = PROGRAMS / case
    recompute = engine.dialect == "spark" and case not in SPARK_MAINTAINED
    code, out, err = replay_case(folder, engine, recompute=recompute)
    assert err == "" and code == 0, err
    assert out == expected_dump(folder)


def _ways(case: str) -> set[str]:
    """How the update plan of a case maintains its strata and relations."""
    return {s.method for s in compile_case(PROGRAMS / case).update_for("spark").strata}


def test_spark_maintains_every_way_a_case_does() -> None:
    """The cases maintained on Spark use every way of maintaining that any case uses:
    a case with a new one is added to SPARK_MAINTAINED (or another case is)."""
    assert set(SPARK_MAINTAINED) <= set(CASES)
    on_spark = set().union(*(_ways(case) for case in SPARK_MAINTAINED))
    missing = {case: ways - on_spark for case in CASES
               if (ways := _ways(case)) - on_spark}
    assert not missing, f"ways maintained only on DuckDB: {missing}"
