"""Replaying DDlog command files (``.dat``) on a runner: incrementally (each commit
applies its changes, :mod:`dl2sql.incremental`) or, as a check, by evaluating the
program from scratch at every commit and comparing its outputs."""
from __future__ import annotations

import io

from dl2sql.api.evaluate import Evaluator, bind_externs, rows_of
from dl2sql.api.maintained import Maintained
from dl2sql.api.speculation import speculate
from dl2sql.compiler import CompiledProgram
from dl2sql.incremental.execute import Choice
from dl2sql.replay.session import replay


class MaintainedEvaluation:
    """What replay drives to maintain a program: ``start`` evaluates it on the first
    committed inputs, ``commit`` applies the inserted and deleted input values of one
    transaction and returns each changed relation's (added, removed) values."""

    def __init__(self, program: CompiledProgram, runner, externs: dict | None = None,
                 progress=None, choice: Choice | None = None):
        self.program, self.runner = program, runner
        self.progress, self.choice = progress, choice or Choice()
        bind_externs(program, externs or {})  # a missing one is an error now, located
        self.externs = externs or {}
        self.type_env = program.type_env
        self.relations = program.relations
        self.indexes = program.indexes
        # a transaction of a program with streams or delays changes it even when no
        # input changed (streams empty, delayed relations move on): every commit is sent
        self.every_commit = program.transactional
        self.live: Maintained | None = None

    def start(self, inputs: dict[str, set]) -> dict[str, list]:
        """Evaluate on ``inputs`` (DDlog values per input relation); the contents of
        every output relation."""
        def attempt(program: CompiledProgram) -> Maintained:
            rows = {rel: rows_of(program, rel, inputs.get(rel, ()))
                    for rel in program.input_relations() if rel not in program.delayed}
            return Maintained(program, self.runner, rows, self.externs, self.progress,
                              self.choice)
        self.program, self.live = speculate(self.program, attempt, self.progress)
        return {rel: self.live.records(rel) for rel in self.program.output_relations()}

    def commit(self, inserted: dict[str, list], deleted: dict[str, list]) -> dict:
        """Apply one transaction; (added, removed) values of each output it changed
        (a stream or multiset: a value once per unit of weight; a stream: its contents,
        which are its changes as DDlog prints them)."""
        self.live.apply_records(inserted, deleted)
        streams = self.program.streams
        out = {rel: self.live.change_records(rel) for rel in self.program.output_relations()
               if rel not in streams and self.live.changed(rel)}
        out.update({rel: (self.live.records(rel), []) for rel in self.program.output_relations()
                    if rel in streams and self.live.updater.size(rel)})
        return out


def replay_program(program: CompiledProgram, runner, commands: str, *,
                   init_snapshot: bool = True, filename: str = "<stdin>",
                   externs: dict | None = None, recompute: bool = False,
                   choice: Choice | None = None):
    """Replay DDlog ``commands`` against ``program`` on ``runner``; returns
    ``(exit code, stdout text, stderr text)``. With ``recompute`` every commit
    evaluates the program from scratch (the check of the incremental default);
    ``choice`` says when a maintained stratum is recomputed instead."""
    out, err = io.StringIO(), io.StringIO()
    code = replay(evaluation(program, runner, externs, recompute, choice=choice), commands,
                  out, err, init_snapshot=init_snapshot, filename=filename)
    return code, out.getvalue(), err.getvalue()


def evaluation(program: CompiledProgram, runner, externs: dict | None = None,
               recompute: bool = False, progress=None, choice: Choice | None = None):
    """What replay drives: incremental maintenance, or recomputation."""
    if recompute:
        return Evaluator(program, runner, progress, externs=externs)
    return MaintainedEvaluation(program, runner, externs, progress, choice)
