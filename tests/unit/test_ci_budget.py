"""The last line of `.ci/run`: the run's time against its budget, and over budget a
warning with the slowest tests, from the times conftest.py records."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "budget.py"
spec = importlib.util.spec_from_file_location("ci_budget", SCRIPT)
budget = importlib.util.module_from_spec(spec)
spec.loader.exec_module(budget)


def _times(tmp_path, n: int) -> str:
    path = tmp_path / "times.jsonl"
    path.write_text("".join(json.dumps({"test": f"tests/t.py::test_{i}", "seconds": i / 2})
                            + "\n" for i in range(n)))
    return str(path)


def test_within_budget_one_line(tmp_path, capsys):
    assert budget.main(["600", "1200", _times(tmp_path, 30)]) == 0
    out = capsys.readouterr().out
    assert out == ("==> CI run took 600 s (10.0 min), 50% of its 20-minute budget\n")


def test_over_budget_a_warning_and_the_20_slowest(tmp_path, capsys):
    assert budget.main(["1500", "1200", _times(tmp_path, 30)]) == 0  # a warning only
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("==> WARNING: CI run took 1500 s (25.0 min), 125% of")
    assert len(lines) == 21
    assert lines[1].split() == ["14.5", "s", "tests/t.py::test_29"]
    assert lines[-1].split() == ["5.0", "s", "tests/t.py::test_10"]


def test_no_times_recorded_still_gives_the_line(tmp_path, capsys):
    assert budget.main(["1300", "1200", str(tmp_path / "absent")]) == 0
    assert capsys.readouterr().out.startswith("==> WARNING: CI run took 1300 s")
