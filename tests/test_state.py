"""A maintained program's state saved to a directory and opened by a later process
(``Maintained.save``, ``Program.maintain(state=...)``, ``dl2sql run --state``)."""
from __future__ import annotations

import pytest

import dl2sql
from dl2sql.engines import engine_of
from dl2sql.cli.main import main
from dl2sql.diagnostics import InputError
from dl2sql.plan.nodes import Load
from engines import collected, maintain_on, sorted_rows

TC = """
input relation Edge(s: u32, d: u32)
output relation Reach(s: u32, d: u32)
Reach(s, d) :- Edge(s, d).
Reach(s, d) :- Reach(s, m), Edge(m, d).
output relation Count(n: u64)
Count(n) :- Reach(s, d), var n = (s, d).group_by(()).count_distinct().
"""


def test_saved_state_is_opened_by_a_later_process(engine, tmp_path):
    program = dl2sql.compile(TC)
    live = maintain_on(program, engine, {"Edge": [(1, 2), (2, 3)]})
    live.save(str(tmp_path / "state"))
    live.close()
    if engine.dialect == "spark":
        again = program.maintain(spark=engine.spark, state=str(tmp_path / "state"))
    else:
        again = program.maintain(engine="duckdb", state=str(tmp_path / "state"))
    assert sorted_rows(again.contents("Reach")) == [(1, 2), (1, 3), (2, 3)]
    changes = again.apply(insert={"Edge": [(3, 4)]}, delete={"Edge": [(1, 2)]})
    assert sorted_rows(changes["Reach"]) == [(1, 2, -1), (1, 3, -1), (2, 4, 1), (3, 4, 1)]
    assert sorted_rows(changes["Count"]) == [(3, -1), (3, 1)] or \
        sorted_rows(changes["Count"]) == []  # three paths before and after
    again.save(str(tmp_path / "state"))
    assert sorted(p.name for p in (tmp_path / "state").iterdir()) == ["CURRENT", "v2"]


CONSTANT = """
relation Count(n: u32)
Count(0).
Count(n + 1) :- Count(n), n < 499.
input relation Item(n: u32)
output relation Counted(n: u32)
Counted(n) :- Item(n), Count(n).
"""


def test_a_constant_is_saved_opened_and_never_updated(engine, tmp_path):
    # Count reads no input: on Spark its rows are loaded (dl2sql.plan.constants), on
    # DuckDB a recursive query makes them; a transaction never touches it
    program = dl2sql.compile(CONSTANT)
    loaded = [s for s in program.compiled.plan_for(engine.engine).statements
              if isinstance(s, Load)]
    assert [s.target.relation for s in loaded] == (["Count"] if engine.engine == "spark"
                                                    else [])
    live = maintain_on(program, engine, {"Item": [(1,), (600,)]})
    changes = live.apply(insert={"Item": [(499,), (500,)]}, delete={"Item": [(1,)]})
    assert sorted_rows(changes["Counted"]) == [(1, -1), (499, 1)]
    assert "Count" not in live.last.methods and "Counted" in live.last.methods
    live.save(str(tmp_path / "state"))
    live.close()
    if engine.dialect == "spark":
        again = program.maintain(spark=engine.spark, state=str(tmp_path / "state"))
    else:
        again = program.maintain(engine="duckdb", state=str(tmp_path / "state"))
    assert sorted_rows(again.contents("Count")) == [(n,) for n in range(500)]
    changes = again.apply(insert={"Item": [(7,)]}, delete={"Item": [(600,)]})
    assert sorted_rows(changes["Counted"]) == [(7, 1)]
    assert "Count" not in again.last.methods
    assert sorted_rows(again.contents("Counted")) == [(7,), (499,)]


def test_a_different_program_is_refused(tmp_path):
    live = dl2sql.compile(TC).maintain(engine="duckdb", inputs={"Edge": [(1, 2)]})
    live.save(str(tmp_path))
    other = dl2sql.compile(TC.replace("Reach(s, m), Edge(m, d)", "Edge(s, m), Reach(m, d)"))
    with pytest.raises(InputError, match="saved by a different program.*the rules differ"):
        other.maintain(engine="duckdb", state=str(tmp_path))
    wider = dl2sql.compile("""
input relation Edge(s: u32, d: u32)
output relation Reach(s: u32, d: u64)
Reach(s, d as u64) :- Edge(s, d).
output relation Count(n: u64)
Count(n) :- Reach(s, d), var n = (s, d).group_by(()).count_distinct().
""")
    with pytest.raises(InputError, match="relation `Reach` has columns"):
        wider.maintain(engine="duckdb", state=str(tmp_path))
    with pytest.raises(InputError, match="holds a saved state"):
        dl2sql.compile(TC).maintain(engine="duckdb", state=str(tmp_path),
                                    inputs={"Edge": [(5, 6)]})


def test_a_failed_save_leaves_the_state_as_it_was(tmp_path, monkeypatch):
    program = dl2sql.compile(TC)
    live = program.maintain(engine="duckdb", inputs={"Edge": [(1, 2)]})
    live.save(str(tmp_path))
    live.apply(insert={"Edge": [(2, 3)]})
    written = []

    def failing(runner, table, path, fmt):
        if written:
            raise OSError("disk full")
        written.append(path)
        open(path, "w").close()
    monkeypatch.setattr(type(engine_of(live.runner)), "writer",
                        property(lambda self: failing))
    with pytest.raises(InputError, match="cannot save the state to .*disk full"):
        live.save(str(tmp_path))
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CURRENT", "v1"]
    again = program.maintain(engine="duckdb", state=str(tmp_path))
    assert sorted_rows(again.contents("Reach")) == [(1, 2)]


def test_not_a_state_directory_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="holds files but no CURRENT marker"):
        dl2sql.compile(TC).maintain(engine="duckdb", state=str(tmp_path))


@pytest.mark.parametrize("manifest, what", [
    ("", "manifest.json is not JSON"),
    ('{"format": 1, "relations": ', "manifest.json is not JSON"),
    ("[1, 2]", "manifest.json holds no object"),
])
def test_a_damaged_manifest_is_refused_saying_so(tmp_path, capsys, manifest, what):
    program = tmp_path / "tc.dl"
    program.write_text(TC)
    day0, out, state = (tmp_path / n for n in ("day0", "out", "state"))
    day0.mkdir()
    (day0 / "Edge.csv").write_text("s,d\n1,2\n")
    args = ["run", str(program), "--engine", "duckdb", "--state", str(state),
            "--output", str(out), "--format", "csv", "--quiet", "--input", str(day0)]
    assert main(args) == 0
    capsys.readouterr()
    (version,) = [p for p in state.iterdir() if p.is_dir()]
    (version / "manifest.json").write_text(manifest)
    written = sorted((p.name, p.read_bytes()) for p in out.iterdir())
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: state directory `{state}` is damaged: {what}"), err
    assert "restore it from a copy" in err and "Traceback" not in err
    assert sorted((p.name, p.read_bytes()) for p in out.iterdir()) == written


def test_a_manifest_without_its_relations_is_refused(tmp_path):
    live = dl2sql.compile(TC).maintain(engine="duckdb", inputs={"Edge": [(1, 2)]})
    live.save(str(tmp_path))
    (version,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    (version / "manifest.json").write_text('{"format": %d}' % _format())
    with pytest.raises(InputError, match="manifest.json has no fingerprint and no relations"):
        dl2sql.compile(TC).maintain(engine="duckdb", state=str(tmp_path))


def test_a_missing_relation_file_is_named_as_the_states(tmp_path):
    live = dl2sql.compile(TC).maintain(engine="duckdb", inputs={"Edge": [(1, 2)]})
    live.save(str(tmp_path))
    (version,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    (reach,) = version.glob("relation.Reach.*")
    reach.unlink()
    # a derived relation's file, not an input: said as the state's, not as an input's
    with pytest.raises(InputError, match=rf"state directory `.*` is damaged: the file of "
                                         rf"relation `Reach` \({reach.name}\) is missing"):
        dl2sql.compile(TC).maintain(engine="duckdb", state=str(tmp_path))


def _format() -> int:
    from dl2sql.api.state import FORMAT
    return FORMAT


def test_cli_run_with_state_applies_files_of_changes(tmp_path, capsys):
    program = tmp_path / "tc.dl"
    program.write_text(TC)
    day0, day1, out, state = (tmp_path / n for n in ("day0", "day1", "out", "state"))
    day0.mkdir()
    day1.mkdir()
    (day0 / "Edge.csv").write_text("s,d\n1,2\n2,3\n")
    (day1 / "Edge.insert.csv").write_text("s,d\n3,1\n")
    (day1 / "Edge.delete.json").write_text('{"s": 1, "d": 2}\n')
    args = ["run", str(program), "--engine", "duckdb", "--state", str(state),
            "--output", str(out), "--format", "csv", "--quiet"]
    assert main(args + ["--input", str(day1)]) == 1
    assert "holds no state yet" in capsys.readouterr().err
    assert not state.exists() or not any(state.iterdir())
    assert main(args + ["--input", str(day0)]) == 0
    assert sorted((out / "Reach.csv").read_text().splitlines()[1:]) == [
        "1,2,1", "1,3,1", "2,3,1"]
    assert main(args + ["--input", str(day1), "--explain"]) == 0
    assert "Reach:" in capsys.readouterr().out
    assert sorted((out / "Reach.csv").read_text().splitlines()[1:]) == [
        "1,2,-1", "1,3,-1", "2,1,1", "3,1,1"]
    (day1 / "Edgy.insert.csv").write_text("s,d\n")
    assert main(args + ["--input", str(day1)]) == 1
    assert "RELATION.{insert,delete,insert_or_update}.ext" in capsys.readouterr().err


def test_state_at_a_hadoop_url(spark, tmp_path):
    url = (tmp_path / "state").as_uri()  # file:///...: through Hadoop's file systems
    program = dl2sql.compile(TC)
    live = program.maintain(spark=spark, inputs={"Edge": [(1, 2), (2, 3)]})
    live.save(url)
    live.close()
    again = program.maintain(spark=spark, state=url)
    assert sorted_rows(again.contents("Reach")) == [(1, 2), (1, 3), (2, 3)]
    changes = again.apply(insert={"Edge": [(3, 4)]})
    assert sorted_rows(changes["Reach"]) == [(1, 4, 1), (2, 4, 1), (3, 4, 1)]
    # a save that dies before its commit: the half-written version is never current
    (tmp_path / "state" / "v2").mkdir()
    (tmp_path / "state" / "v2" / "relation.Edge.parquet").write_text("partial")
    again.save(url)  # v3 commits and removes v1 and the partial v2
    assert sorted(p.name for p in (tmp_path / "state").iterdir()) == ["v3"]
    files = {p.name for p in (tmp_path / "state" / "v3").iterdir()}
    assert "manifest.json" in files and ".manifest.json.tmp" not in files
    again.close()
    third = program.maintain(spark=spark, state=url)
    assert sorted_rows(third.contents("Reach")) == [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4),
                                                    (3, 4)]
    third.close()
    with pytest.raises(InputError, match="needs the Spark engine"):
        program.maintain(engine="duckdb", state=url)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(InputError, match="holds files but no saved version"):
        program.maintain(spark=spark, state=(tmp_path / "other").as_uri())


GROUPED = """
input relation Tag(t: string, x: bigint)
output relation ByValue(x: bigint, tags: Vec<string>)
ByValue(x, tags) :- Tag(t, x), var tags = t.group_by(x).to_vec().
"""


def test_a_saved_group_of_wide_integers_is_read_back(engine, tmp_path):
    # the group_by's helper relation holds Group<bigint, string> values, which a saved
    # state reads back from its files like any other value (their keys were read as
    # text, not as the integers' stored form)
    huge = 10 ** 50 + 1
    program = dl2sql.compile(GROUPED)
    live = maintain_on(program, engine, {"Tag": [("a", huge), ("b", huge), ("c", 1)]})
    live.save(str(tmp_path / "state"))
    live.close()
    if engine.dialect == "spark":
        again = program.maintain(spark=engine.spark, state=str(tmp_path / "state"))
    else:
        again = program.maintain(engine="duckdb", con=engine.con, state=str(tmp_path / "state"))
    changes = again.apply(insert={"Tag": [("d", huge)]})
    assert sorted((int(x), list(tags), w) for x, tags, w in collected(changes["ByValue"])) == [
        (huge, ["a", "b"], -1), (huge, ["a", "b", "d"], 1)]
    again.close()
