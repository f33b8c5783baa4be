"""The programs of examples/.

* each replays its .dat byte-exact against its hand-checked .dump.expected, on both
  engines (on Spark incrementally as the README's first command does for reachability,
  and evaluated at every commit for the others: tests/test_programs.py says why);
* each README command `dl2sql run examples/...` works as printed, on both engines, and
  writes exactly the records of the .dat's first transaction (which loads the same data
  as the input/ folder): the written files are read back, turned into DDlog values
  through the program's types and printed as DDlog prints them, so the comparison is
  with the expected dump itself and not with a second run of dl2sql;
* each compiles to SQL for both dialects, and that SQL parses back in its dialect with
  a view for every output relation.
"""
from __future__ import annotations

import csv
import json
import re
import shlex
from pathlib import Path

import pytest
import sqlglot

from dl2sql.cli import main
from dl2sql.compiler import compile_file
from dl2sql.compiler.emit import emit
from dl2sql.api.replaying import replay_program
from dl2sql.runtime.convert import row_to_record
from dl2sql.sqlgen.types import struct_slots
from dl2sql.types.model import TBigInt, TBit, TBool, TSigned, TString, VEC, SET, TNamed
from dl2sql.runtime.printing import format_value

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# reachability is the README's first command; the other three are the README's examples
REPLAYED = ["reachability", "network", "lineage", "rbac"]
MAINTAINED_ON_SPARK = ["reachability"]
RUN_IN_README = ["network", "lineage", "rbac"]


def first_commit(expected: str) -> dict[str, set[str]]:
    """Records inserted by the first `commit dump_changes`, per relation.

    Changed relations print in ascending name order, so the first block ends where a
    relation name does not sort after the previous one (or at an echo line)."""
    block: dict[str, set[str]] = {}
    current = None
    for line in expected.splitlines():
        if re.fullmatch(r"[A-Za-z_][\w:]*:", line):
            name = line[:-1]
            if current is not None and name <= current:
                break
            current = name
            block[name] = set()
        elif current is not None and line.endswith(": +1"):
            block[current].add(line[: -len(": +1")])
        else:
            break  # an echo or a deletion: the first transaction is over
    return block


def readme_run_commands() -> dict[str, list[str]]:
    """The README's `dl2sql run examples/NAME/...` commands, by example name."""
    found = {}
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*dl2sql run examples/(\w+)/", line)
        if m:
            # paths in the README are relative to the repository root
            found[m.group(1)] = [str(ROOT / a) if a.startswith("examples/") else a
                                 for a in shlex.split(line)[1:]]
    return found


def _from_json(t, v, env):
    """A column value read from JSON in the normalised SQL form of type ``t``."""
    if isinstance(v, dict):
        return tuple(_from_json(s.type, v[s.name], env) for s in struct_slots(t, env))
    if isinstance(v, list) and isinstance(t, TNamed) and t.name in (VEC, SET):
        return [_from_json(t.args[0], x, env) for x in v]
    return v


def _from_csv(t, text: str):
    if isinstance(t, TString):
        return text
    if isinstance(t, TBool):
        assert text in ("true", "false"), text
        return text == "true"
    if isinstance(t, (TBit, TSigned, TBigInt)):
        return int(text)
    raise AssertionError(f"no CSV reading for a column of type {t}")


def written_records(program, relation: str, path: Path, fmt: str) -> set[str]:
    """The records in output file ``path``, printed as DDlog prints them."""
    env = program.type_env
    layout = program.layouts[relation]
    text = path.read_text(encoding="utf-8")
    if fmt == "json":
        objects = [json.loads(x) for x in text.splitlines() if x.strip()]
        rows = [tuple(_from_json(t, o[c], env) for c, t in layout.columns) for o in objects]
    else:
        reader = csv.DictReader(text.splitlines())
        assert reader.fieldnames == [c for c, _ in layout.columns] or not text.strip()
        rows = [tuple(_from_csv(t, r[c]) for c, t in layout.columns) for r in reader]
    printed = [format_value(program.relations[relation].record_type,
                            row_to_record(layout, row, env), env) for row in rows]
    assert len(printed) == len(set(printed)), f"{relation}: duplicate rows written"
    return set(printed)


@pytest.mark.parametrize("name", REPLAYED)
def test_example_replays_exactly(name, engine):
    d = EXAMPLES / name
    program = compile_file(str(d / f"{name}.dl"))
    recompute = engine.dialect == "spark" and name not in MAINTAINED_ON_SPARK
    code, out, err = replay_program(program, engine, (d / f"{name}.dat").read_text(),
                                    filename=str(d / f"{name}.dat"), recompute=recompute)
    assert (code, err) == (0, "")
    assert out == (d / f"{name}.dump.expected").read_text(encoding="utf-8")


def test_readme_lists_every_example():
    assert sorted(readme_run_commands()) == sorted(RUN_IN_README)


@pytest.mark.parametrize("name", RUN_IN_README)
def test_readme_run_command_writes_first_transaction(name, engine, tmp_path):
    argv = readme_run_commands()[name]
    fmt = argv[argv.index("--format") + 1] if "--format" in argv else "parquet"
    if fmt == "parquet":
        pytest.skip("reading parquet back is not part of this check")
    out = tmp_path / "out"
    argv[argv.index("--output") + 1] = str(out)
    code = main(argv + ["--engine", engine.dialect, "--quiet"])
    assert code == 0
    d = EXAMPLES / name
    expected = first_commit((d / f"{name}.dump.expected").read_text(encoding="utf-8"))
    program = compile_file(str(d / f"{name}.dl"))
    assert program.output_relations()
    for rel in program.output_relations():
        assert written_records(program, rel, out / f"{rel}.{fmt}", fmt) == \
            expected.get(rel, set()), rel


@pytest.mark.parametrize("name", REPLAYED)
def test_example_sql_parses_in_both_dialects(name):
    program = compile_file(str(EXAMPLES / name / f"{name}.dl"))
    for dialect in ("spark", "duckdb"):
        statements = [s for s in sqlglot.parse(emit(program, "sql", dialect), read=dialect)
                      if s is not None]
        views = {s.this.name for s in statements if isinstance(s, sqlglot.exp.Create)}
        assert set(program.output_relations()) <= views, dialect


def test_user_guide_first_program(engine):
    """The program of the user guide's section 2, on the data shown there, derives the
    single record the guide states."""
    guide = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    section = guide.split("## 2. A first program", 1)[1]
    source = section.split("```", 2)[1]
    from dl2sql.compiler import compile_source

    program = compile_source(source, "user-guide.md")
    commands = """start;
insert Host("web", "dmz"), insert Host("app", "internal"), insert Host("db", "internal"),
insert Link("web", "app"), insert Link("app", "db"),
insert Deny("dmz", "internal");
commit dump_changes;
"""
    code, out, err = replay_program(program, engine, commands, filename="<guide>")
    assert (code, err) == (0, "")
    assert out == 'Reach:\nReach{.src = "app", .dst = "db"}: +1\n'
