"""The last line of a CI run: its time against the budget, and, when over, the 20
slowest tests (from the times tests/conftest.py writes to ``DL2SQL_TEST_TIMES``).

Usage: python .ci/budget.py SECONDS BUDGET TIMES_FILE"""
from __future__ import annotations

import json
import sys


def slowest(path: str, n: int = 20) -> list[tuple[float, str]]:
    """The ``n`` slowest tests recorded in ``path`` (one JSON object per line)."""
    try:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []
    return sorted(((r["seconds"], r["test"]) for r in rows), reverse=True)[:n]


def main(argv: list[str]) -> int:
    seconds, budget, path = int(argv[0]), int(argv[1]), argv[2]
    took = (f"CI run took {seconds} s ({seconds / 60:.1f} min), {seconds / budget:.0%} "
            f"of its {budget // 60}-minute budget")
    if seconds <= budget:
        print(f"==> {took}")
        return 0
    print(f"==> WARNING: {took}; the 20 slowest tests:")
    for seconds_taken, test in slowest(path):
        print(f"    {seconds_taken:8.1f} s  {test}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
