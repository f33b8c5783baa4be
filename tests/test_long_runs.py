"""Long and endless runs are visible and stoppable (in this process; the command line
stopped by signals in a child is tests/test_interrupt.py): progress lines on stderr off
a terminal, ``--quiet`` silencing them, ``--max-iterations`` and ``max_iterations=``
on both engines, planning that never evaluates a recursion without end, and Ctrl-C
stopping an API run and the writing of outputs."""
from __future__ import annotations

import io
import os
import signal
import threading
import time

import pytest

import dl2sql
from dl2sql.cli import main
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.plan.nodes import Loop
from dl2sql.runner.heartbeat import Heartbeat

# a counter without bound: every iteration makes one new value
ENDLESS = """input relation Start(x: bigint)
output relation R(x: bigint)
R(x) :- Start(x).
R(x + 1) :- R(x).
"""
# the same with no input: a constant of the program, which the planner evaluates
CONSTANT_ENDLESS = """output relation S(s: string)
S("").
S(s ++ "a") :- S(s).
"""


def _files(tmp_path, program: str = ENDLESS):
    (tmp_path / "p.dl").write_text(program)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "Start.csv").write_text("x\n0\n")
    return str(tmp_path / "p.dl"), str(tmp_path / "in"), str(tmp_path / "out")


def _run_cli(tmp_path, engine: str, *extra: str) -> int:
    prog, inp, out = _files(tmp_path)
    return main(["run", prog, "--engine", engine, "--input", inp, "--output", out,
                 "--format", "csv", *extra])


def test_progress_lines_off_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DL2SQL_PROGRESS_AFTER", "0.2")  # the tests' knob (10 s by default)
    assert _run_cli(tmp_path, "duckdb", "--max-iterations", "400") == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("dl2sql: running for ")]
    assert lines, err
    assert any("recursive stratum R, iteration " in line and "rows added in the last: R +1"
               in line for line in lines), err
    assert err.splitlines()[-1].startswith("error: stratum R did not converge within 400 "
                                           "iterations (rows added by its last iteration: "
                                           "R 1)")
    assert "Traceback" not in err


def test_quiet_silences_progress_lines(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DL2SQL_PROGRESS_AFTER", "0.1")
    assert _run_cli(tmp_path, "duckdb", "--max-iterations", "200", "--quiet") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did not converge within 200 iterations" in err, err


def test_replay_takes_quiet_and_max_iterations(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DL2SQL_PROGRESS_AFTER", "0.1")
    prog, _, _ = _files(tmp_path)
    (tmp_path / "cmds.dat").write_text("start;\ninsert Start(0),\ncommit;\n")
    assert main(["replay", prog, "--engine", "duckdb", "--commands",
                 str(tmp_path / "cmds.dat"), "--max-iterations", "150", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "did not converge within 150 iterations" in err and "running for" not in err


def test_max_iterations_on_the_command_line_on_spark(tmp_path, capsys, spark):
    assert _run_cli(tmp_path, "spark", "--max-iterations", "9", "--quiet") == 1
    err = capsys.readouterr().err
    assert err.startswith("error: stratum R did not converge within 9 iterations (rows "
                          "added by its last iteration: R "), err
    assert err.count("\n") == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize("engine_name", ["duckdb", "spark"])
def test_max_iterations_in_the_api(engine_name, request):
    program = dl2sql.compile(ENDLESS)
    options = (dict(spark=request.getfixturevalue("spark")) if engine_name == "spark"
               else dict(engine="duckdb"))
    with program, pytest.raises(RuntimeFailure, match="did not converge within 7 iterations"):
        program.run(inputs={"Start": [0]}, max_iterations=7, **options)
    # a recursion that converges is not held to it, and the limit is gone afterwards
    bounded = dl2sql.compile(ENDLESS.replace("R(x + 1) :- R(x).", "R(x + 1) :- R(x), x < 5."))
    with bounded:
        out = bounded.run(inputs={"Start": [0]}, max_iterations=100, **options)
        rows = out["R"].collect() if engine_name == "spark" else out["R"].fetchall()
        assert sorted(int(r[0]) for r in rows) == [0, 1, 2, 3, 4, 5]  # bigint: text


def test_max_iterations_counts_what_duckdb_would_do_in_one_recursive_query():
    program = dl2sql.compile(ENDLESS)
    # without a limit DuckDB evaluates the relation by one recursive query, which
    # reports no iterations; with one, by a counted loop
    assert not any(isinstance(s, Loop) for s in program.compiled.plan_for("duckdb").statements)
    with program, pytest.raises(RuntimeFailure, match="within 3 iterations"):
        program.maintain(engine="duckdb", inputs={"Start": [0]}, max_iterations=3)


def test_planning_leaves_an_endless_constant_recursion_to_the_run(tmp_path, capsys,
                                                                  monkeypatch):
    # Spark's plan evaluates recursive constants on the oracle when it is made; one
    # that never converges used to keep `dl2sql compile` from ever finishing
    monkeypatch.setenv("DL2SQL_CONSTANT_SECONDS", "1")  # the tests' knob (10 s by default)
    (tmp_path / "p.dl").write_text(CONSTANT_ENDLESS)
    started = time.monotonic()
    assert main(["compile", str(tmp_path / "p.dl"), "--dialect", "spark",
                 "--emit", "plan"]) == 0
    assert time.monotonic() - started < 30
    plan = capsys.readouterr().out
    assert "repeat (stratum S" in plan and "evaluated once" not in plan
    # a constant recursion that converges is still evaluated once, when planned
    (tmp_path / "q.dl").write_text(CONSTANT_ENDLESS.replace(
        'S(s ++ "a") :- S(s).', 'S(s ++ "a") :- S(s), string_len(s) < 20.'))
    assert main(["compile", str(tmp_path / "q.dl"), "--dialect", "spark",
                 "--emit", "plan"]) == 0
    assert "21 rows evaluated once when planned" in capsys.readouterr().out


def _signal_when(condition, signum=signal.SIGINT, timeout=60.0) -> dict:
    """Send ``signum`` to this process once ``condition()`` holds, unless the caller
    set "done" before (a run that ended otherwise: the signal would stop pytest); the
    time it was sent, under "at"."""
    sent: dict = {"done": threading.Event()}

    def wait():
        end = time.monotonic() + timeout
        while not condition() and time.monotonic() < end:
            if sent["done"].wait(0.05):
                return
        sent["at"] = time.monotonic()
        os.kill(os.getpid(), signum)
    threading.Thread(target=wait, daemon=True).start()
    return sent


def test_ctrl_c_stops_an_api_run_on_duckdb_inside_its_recursive_query():
    program = dl2sql.compile(ENDLESS)
    statements = []
    handler = signal.getsignal(signal.SIGINT)  # Python's, or PySpark's once it started

    class Seen:  # the run announces the recursive query before DuckDB starts it
        def on_iteration(self, *args):
            pass

        def on_statement(self, what, stmt):
            statements.append(what)
    sent = _signal_when(lambda: any("recursive query" in s for s in statements))
    try:
        with program, pytest.raises(KeyboardInterrupt):
            program.run(engine="duckdb", inputs={"Start": [0]}, progress=Seen())
    finally:
        sent["done"].set()
    assert time.monotonic() - sent["at"] < 3
    assert signal.getsignal(signal.SIGINT) is handler  # put back


def test_ctrl_c_while_outputs_are_written_leaves_the_folder_as_it_was(tmp_path, capsys,
                                                                      monkeypatch):
    from dl2sql.engines import ENGINES
    from dl2sql.io import duckdb_frames

    prog, inp, out = _files(tmp_path, ENDLESS.replace("R(x + 1) :- R(x).",
                                                      "R(x + 1) :- R(x), x < 3.\n"
                                                      "output relation T(x: bigint)\n"
                                                      "T(x) :- R(x)."))
    os.mkdir(out)
    (tmp_path / "out" / "R.csv").write_text("x\nearlier\n")
    write = duckdb_frames.write_table

    def interrupted_write(runner, table, path, fmt):  # Ctrl-C once a file is written
        write(runner, table, path, fmt)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)  # the handler runs at the next bytecode: never gets here
    monkeypatch.setitem(ENGINES["duckdb"]._loaded, "dl2sql.io.duckdb_frames:write_table",
                        interrupted_write)
    code = main(["run", prog, "--engine", "duckdb", "--input", inp, "--output", out,
                 "--format", "csv"])
    assert code == 130
    assert capsys.readouterr().err == "dl2sql: interrupted\n"
    assert sorted(os.listdir(out)) == ["R.csv"]
    assert (tmp_path / "out" / "R.csv").read_text() == "x\nearlier\n"
    assert sorted(os.listdir(tmp_path)) == ["in", "out", "p.dl"]  # no staging left


def test_heartbeat_says_stratum_iteration_and_rows_added():
    stream = io.StringIO()
    loop = Loop((), ("A__new", "m__B__new"), "A, m::B")
    with Heartbeat(after=0.0, every=0.05, stream=stream) as beat:
        beat.on_statement("A, m::B", loop)
        beat.on_iteration("A, m::B", 7, {"A__new": 3, "m__B__new": 0}, 0.01)
        time.sleep(0.3)
    lines = stream.getvalue().splitlines()
    assert 2 <= len(lines) <= 8, lines  # one per interval at most
    assert lines[-1].startswith("dl2sql: running for 0 s: recursive stratum A, m::B, "
                                "iteration 7; rows added in the last: A +3, m::B +0")
    quiet = io.StringIO()
    with Heartbeat(after=5.0, stream=quiet) as beat:  # a short run says nothing
        beat.on_iteration("A", 1, {"A__new": 1}, 0.01)
    assert quiet.getvalue() == ""


def test_a_transactions_loops_run_as_the_evaluations_do():
    """One driver runs every fixpoint loop (dl2sql/plan/fixpoint.py): an update's loop
    is held to the iteration limit with the evaluation's message, fails its
    transaction alone, and reports its rounds and its end to the progress object."""
    from dl2sql.incremental.execute import Choice
    from dl2sql.plan import limits

    class Rounds:
        def __init__(self):
            self.ends = []

        def on_iteration(self, stratum, iteration, counts, seconds):
            pass

        def on_loop_end(self, stratum, iterations, seconds):
            self.ends.append((stratum, iterations))
    program = dl2sql.compile("""input relation Start(x: bigint)
input relation Bound(b: bigint)
output relation R(x: bigint)
R(x) :- Start(x).
R(x + 1) :- R(x), Bound(b), x < b.
R(x) :- R(x), R(x).
""")  # the last rule makes R non-linear: maintained by DRed, whose insertion loops
    rounds = Rounds()
    with program:
        live = program.maintain(engine="duckdb", inputs={"Start": [0], "Bound": [3]},
                                progress=rounds, choice=Choice.never())
        rounds.ends.clear()
        with limits.iteration_limit(5), \
                pytest.raises(RuntimeFailure, match="did not converge within 5 iterations"):
            live.apply(insert={"Bound": [50]})
        assert sorted(int(r[0]) for r in live.contents("R").fetchall()) == [0, 1, 2, 3]
        live.apply(insert={"Bound": [6]})
        assert sorted(int(r[0]) for r in live.contents("R").fetchall()) == list(range(7))
        assert live.last.methods["R"] == "dred"  # the executor's loops, not a recomputation
        assert rounds.ends and all(n >= 1 for _, n in rounds.ends), rounds.ends
