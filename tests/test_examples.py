"""The programs of examples/: each replays its .dat byte-exact on both engines, and
`dl2sql run` on its input/ folder gives, on both engines, the outputs of the .dat's
first transaction (which loads the same data)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from dl2sql.cli import main
from dl2sql.compiler import compile_file
from dl2sql.evaluate import replay_program

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ["network", "lineage", "rbac"]


def _first_commit_counts(expected: str) -> dict[str, int]:
    """Rows per relation in the first block of changes (relations print sorted)."""
    counts: dict[str, int] = {}
    current = None
    for line in expected.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            name = line[:-1]
            if current is not None and name <= current:
                break
            current = name
            counts[name] = 0
        elif current is not None and line.endswith(": +1"):
            counts[current] += 1
    return counts


@pytest.mark.parametrize("name", NAMES)
def test_example_replays_exactly(name, engine):
    d = EXAMPLES / name
    program = compile_file(str(d / f"{name}.dl"))
    code, out, err = replay_program(program, engine, (d / f"{name}.dat").read_text(),
                                    filename=str(d / f"{name}.dat"))
    assert (code, err) == (0, "")
    assert out == (d / f"{name}.dump.expected").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_example_runs_on_its_input_folder(name, engine, tmp_path):
    d = EXAMPLES / name
    out = tmp_path / "out"
    assert main(["run", str(d / f"{name}.dl"), "--engine", engine.dialect,
                 "--input", str(d / "input"), "--output", str(out), "--format", "json",
                 "--quiet"]) == 0
    expected = _first_commit_counts((d / f"{name}.dump.expected").read_text())
    program = compile_file(str(d / f"{name}.dl"))
    for rel in program.output_relations():
        lines = [x for x in (out / f"{rel}.json").read_text().splitlines() if x]
        assert len({json.dumps(json.loads(x), sort_keys=True) for x in lines}) == \
            expected.get(rel, 0), rel


@pytest.mark.parametrize("name", NAMES)
def test_example_compiles_for_both_dialects(name):
    program = compile_file(str(EXAMPLES / name / f"{name}.dl"))
    for dialect in ("spark", "duckdb"):
        assert program.plan_for(dialect).statements
