"""Running a compiled program on a runner with runtime values in and out."""
from __future__ import annotations

from dl2sql.compiler import CompiledProgram
from dl2sql.diagnostics import RuntimeFailure
from dl2sql.plan.interpret import execute
from dl2sql.runner.convert import record_to_row, row_to_record


class Evaluator:
    """Evaluates a program from scratch on given inputs (DDlog values in, out).

    This is the object replay drives: ``type_env``, ``relations`` and ``evaluate``.
    """

    def __init__(self, program: CompiledProgram, runner, progress=None):
        self.program, self.runner, self.progress = program, runner, progress
        self.type_env = program.type_env
        self.relations = program.relations

    def evaluate(self, inputs: dict[str, set], relations=None) -> dict[str, set]:
        """Contents of every non-input relation (or of ``relations``) given the full
        contents of the input relations."""
        p, env = self.program, self.type_env
        plan = p.plan_for(self.runner.dialect)
        rows = {}
        for rel in p.input_relations():
            table = plan.inputs[[t.name for t in plan.inputs].index(
                _input_table(plan, rel))]
            rows[table.name] = [record_to_row(p.layouts[rel], v, env)
                                for v in inputs.get(rel, ())]
        try:
            execute(plan, self.runner, rows, self.progress)
        except RuntimeFailure:
            raise
        except Exception as e:  # engine errors: overflow, division by zero, ...
            raise RuntimeFailure(_engine_message(e)) from e
        wanted = relations if relations is not None else [
            r for r, i in p.relations.items() if i.role != "input"]
        out = {}
        for rel in wanted:
            fetched = self.runner.fetch(plan.relations[rel])
            out[rel] = {row_to_record(p.layouts[rel], row, env) for row in fetched}
        return out


def _input_table(plan, rel: str) -> str:
    names = {t.name for t in plan.inputs}
    full = plan.relations[rel].name
    return full if full in names else f"{full}__input"


def _engine_message(e: Exception) -> str:
    text = str(e).strip().splitlines()
    first = text[0] if text else type(e).__name__
    return f"the engine failed while evaluating the program: {first}"


def replay_program(program: CompiledProgram, runner, commands: str, *,
                   init_snapshot: bool = True, filename: str = "<stdin>"):
    """Replay DDlog ``commands`` against ``program`` on ``runner``; returns
    ``(exit code, stdout text, stderr text)``."""
    import io

    from dl2sql.replay.session import replay

    out, err = io.StringIO(), io.StringIO()
    code = replay(Evaluator(program, runner), commands, out, err,
                  init_snapshot=init_snapshot, filename=filename)
    return code, out.getvalue(), err.getvalue()
