"""Running a compiled program on a runner with runtime values in and out."""
from __future__ import annotations

from dl2sql.api.speculation import speculate
from dl2sql.api.transformers import bind_transformers
from dl2sql.compiler import CompiledProgram
from dl2sql.diagnostics import Diagnostics
from dl2sql.passes.bags import is_bag
from dl2sql.plan.interpret import execute
from dl2sql.runner.errors import engine_errors
from dl2sql.runner.functions import register_udfs
from dl2sql.runtime.convert import record_to_row, row_to_record
from dl2sql.types.check_functions import calls_in
from dl2sql.udfs.std import STD


class Evaluator:
    """Evaluates a program from scratch on given inputs (DDlog values in, out).

    This is the object replay drives: ``type_env``, ``relations`` and ``evaluate``.
    ``loops`` replaces the engine's loop policy (:mod:`dl2sql.plan.loops`). ``program``
    is in the representation of wide integers that :meth:`run` uses; :meth:`evaluate`
    goes on to the next where a value outgrows it (:mod:`dl2sql.api.speculation`),
    and stays there.
    """

    def __init__(self, program: CompiledProgram, runner, progress=None,
                 externs: dict | None = None, loops=None):
        self.program, self.runner, self.progress = program, runner, progress
        self.loops = loops
        self.type_env = program.type_env
        self.relations = program.relations
        self.indexes = program.indexes
        self.delayed = program.delayed  # replay fills these relations
        self.externs = bind_externs(program, externs or {})
        self.transforms = bind_transformers(program, externs or {})
        self._registered: set[str] = set()

    def register_udfs(self, plan) -> None:
        """Register the Python UDFs of ``plan`` (or of an update plan) on the runner
        (each once per runner)."""
        register_udfs(self.runner, plan, self.program.type_env, self.program.functions,
                      self.externs, self._registered)

    def evaluate(self, inputs: dict[str, set], relations=None) -> dict[str, set]:
        """Contents of every non-input relation and of the inputs read delayed (or of
        ``relations``) given the full contents of the input relations: sets, or lists
        of rows for streams and multisets (a row as many times as its weight)."""
        def attempt(program):
            self.program = program
            return self._evaluate(inputs, relations)
        self.program, out = speculate(self.program, attempt, self.progress)
        return out

    def _evaluate(self, inputs: dict[str, set], relations) -> dict[str, set]:
        p, env = self.program, self.program.type_env
        with self.runner.running(), engine_errors(self.program.division_sites):
            self.run({rel: rows_of(p, rel, inputs.get(rel, ())) for rel in p.input_relations()})
            plan = p.plan_for(self.runner.engine, self.loops)
            # relations read delayed (`R-1`) too, inputs with their facts: replay keeps
            # their contents for the next commits
            read_delayed = {d.relation for d in p.delayed.values()}
            wanted = relations if relations is not None else [
                r for r, i in p.relations.items() if i.role != "input" or r in read_delayed]
            out = {}
            for rel in wanted:
                # lazily stored tables are computed here: engine errors can surface too
                fetched = self.runner.fetch(plan.relations[rel])
                records = [row_to_record(p.layouts[rel], row, env) for row in fetched]
                # a bag's duplicates are its weights (dl2sql.passes.bags)
                out[rel] = records if is_bag(p.relations[rel]) else set(records)
        return out

    def run(self, inputs: dict, computed: tuple[str, ...] = ()) -> None:
        """Run the plan; ``inputs`` maps input relations to normalised rows or to
        loaders (``load_into(runner, table)``). Results stay in the runner's tables;
        the relations ``computed`` are computed before this returns, also on an engine
        that stores results lazily (so that their failures are raised here)."""
        plan = self.program.plan_for(self.runner.engine, self.loops)
        with self.runner.running(), engine_errors(self.program.division_sites):
            self.register_udfs(plan)
            tables = {_input_table(plan, rel): data for rel, data in inputs.items()}
            execute(plan, self.runner, tables, self.progress, self.transforms)
            self.runner.compute([plan.relations[rel] for rel in computed])


def rows_of(program: CompiledProgram, rel: str, values) -> list[tuple]:
    """DDlog values of relation ``rel`` as normalised rows of its table."""
    layout = program.layouts[rel]
    return [record_to_row(layout, v, program.type_env) for v in values]


def _input_table(plan, rel: str) -> str:
    names = {t.name for t in plan.inputs}
    full = plan.relations[rel].name
    return full if full in names else f"{full}__input"


def bind_externs(program: CompiledProgram, externs: dict) -> dict:
    """Map the user's Python callables to the extern functions the program calls, by
    qualified or plain name; a missing one is a located error."""
    bound, diags = {}, Diagnostics()
    called = {c.func for r in program.rules for c in calls_in(r)}
    called |= {c.func for f in program.functions.values() for c in calls_in(f.body)}
    # functions written in DDlog (also those the compiler generates) are never extern
    called -= {name for name, _ in program.functions}
    for key in sorted(called):
        sym = program.symbols.function(key)
        plain = sym.name.split("#", 1)[0]
        if not sym.decl.extern or sym.builtin or (plain in STD and plain not in externs):
            continue  # dl2sql implements it (std and library modules such as `group`)
        fn = externs.get(plain) or externs.get(plain.rsplit("::", 1)[-1])
        if fn is None:
            diags.error(sym.decl.span, f"extern function `{plain}` has no implementation: "
                                       f"pass a Python function named "
                                       f"`{plain.rsplit('::', 1)[-1]}` (CLI: --externs FILE.py)")
        bound[sym.name] = fn
    diags.raise_if_errors()
    return bound
