"""The compiler's pipeline as data: an ordered list of named passes, each a function
from the program compiled so far to the program with one more stage (after sqlglot's
optimizer ``RULES``). Compiling runs them in order; ``dl2sql compile --emit STAGE``
prints the stage a pass produced (:mod:`dl2sql.compiler.emit`).

The passes of :data:`ENGINE_PASSES` depend on the engine (its loop policy and its SQL
dialect, :mod:`dl2sql.engines`) and on how wide integers are stored (NARROW or WIDE,
:mod:`dl2sql.types.wide_ints`), and run on first use, once per engine and
representation: :meth:`CompiledProgram.plan_for`. A program is compiled in the
representation its runs start in; :meth:`CompiledProgram.represented` gives the same
program in another (its plans kept with the others).
"""
from __future__ import annotations

import dataclasses
import hashlib
import functools
from dataclasses import dataclass, field
from typing import Callable, Optional

from dl2sql.passes.stratify import Stratum, stratify
from dl2sql.ast import nodes as A
from dl2sql.diagnostics import Diagnostics, read_source
from dl2sql.passes.aggregation import split_aggregations
from dl2sql.passes.set_unions import flatten_set_groups
from dl2sql.passes.bags import check_bag_strata, is_bag, mark_bags
from dl2sql.passes.doubling import closures
from dl2sql.passes.intern_order import number_interned
from dl2sql.passes.function_values import defunctionalize
from dl2sql.passes.wide_integers import representations
from dl2sql.engines import ENGINES, ORACLE
from dl2sql.incremental.build import build_update
from dl2sql.incremental.nodes import UpdatePlan
from dl2sql.plan.build import build_plan
from dl2sql.plan.key_checks import check_input_keys
from dl2sql.plan.constants import Program as ConstantProgram
from dl2sql.plan.constants import fold_constants
from dl2sql.plan.limits import counted_policy
from dl2sql.plan.loops import LoopPolicy, plan_loops
from dl2sql.plan.loops import Program as LoopProgram
from dl2sql.plan.nodes import Plan
from dl2sql.compiler.oracle import evaluate_on_oracle
from dl2sql.ra.lower import lower_rules, relation_layout
from dl2sql.ra.nodes import Block, RelationLayout
from dl2sql.sqlgen.dialects import DIALECTS
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.plan_sql import plan_sql
from dl2sql.sqlgen.update_sql import update_sql
from dl2sql.sqlgen.types import sql_type
from dl2sql.syntax.ftl import desugar_ftl
from dl2sql.syntax.loader import load_modules
from dl2sql.types import typed as T
from dl2sql.types.check import check_program
from dl2sql.types.divisions import division_sites
from dl2sql.types.check_whole import foreign_libraries
from dl2sql.types.model import WIDE, RelationInfo, TypeEnv
from dl2sql.types.symbols import Symbols


@dataclass(frozen=True)
class Source:
    """What compiling starts from: the program's ``text``, the ``path`` that names it
    in diagnostics, the directories imports are searched in, and whether internal
    relations are outputs (DDlog's ``--output-internal-relations``)."""

    text: str
    path: str = "<input>"
    lib_dirs: tuple[str, ...] = ()
    output_internal: bool = False


@dataclass
class CompiledProgram:
    """A checked and planned program: what every pass produced, kept for ``--emit``
    and for the runners. Fields are filled pass by pass (:data:`PASSES`)."""

    source: Source
    modules: list[A.Module] = field(default_factory=list)
    symbols: Optional[Symbols] = None
    typed_rules: list[T.CoreRule] = field(default_factory=list)  # as the user wrote them
    rules: list[T.CoreRule] = field(default_factory=list)  # aggregations split
    # relation -> rows written as facts, taken as data (dl2sql.types.check_facts):
    # loaded by the plan, no rule each
    facts: dict = field(default_factory=dict)
    relations: dict[str, RelationInfo] = field(default_factory=dict)
    functions: dict = field(default_factory=dict)  # (name, targs) -> FunctionIR
    indexes: dict = field(default_factory=dict)  # qualified name -> IndexInfo
    transforms: list = field(default_factory=list)  # applications of user transformers
    layouts: dict[str, RelationLayout] = field(default_factory=dict)
    strata: list[Stratum] = field(default_factory=list)
    blocks: dict[str, list[Block]] = field(default_factory=dict)
    # transitive closures: relation -> (Closure, blocks of its doubled rule)
    closures: dict = field(default_factory=dict)
    plan: Optional[Plan] = None  # without SQL, loops not yet planned
    # how wide integers are stored in the runs, in the order a run tries them (a run
    # starts in the first: the type environment's ``integers``)
    integers: tuple[str, ...] = ()
    # by (engine, loop policy, representation): the plan after each engine pass, by
    # pass name (shared by the program in every representation)
    _engine_stages: dict = field(default_factory=dict, repr=False)

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def type_env(self) -> TypeEnv:
        return self.symbols.env

    @property
    def representation(self) -> str:
        """How this program's plans store wide integers (NARROW or WIDE)."""
        return self.type_env.integers

    def represented(self, integers: str) -> "CompiledProgram":
        """This program with wide integers stored ``integers`` (NARROW or WIDE): the
        same relations and rules, its own plans and conversions of values."""
        if integers == self.representation:
            return self
        env = dataclasses.replace(self.type_env, integers=integers)
        return dataclasses.replace(self, symbols=dataclasses.replace(self.symbols, env=env))

    def fallback(self) -> Optional["CompiledProgram"]:
        """The program in the representation a run tries after this one's, if any."""
        later = self.integers[self.integers.index(self.representation) + 1:] \
            if self.representation in self.integers else ()
        return self.represented(later[0]) if later else None

    def plan_for(self, engine: str, loops: Optional[LoopPolicy] = None) -> Plan:
        """The plan ``engine`` runs ("spark" or "duckdb"), its SQL built; ``loops``
        replaces the engine's loop policy (benchmarks and tests compare policies)."""
        return self.engine_stage(engine, "sql", loops)

    @functools.cached_property
    def division_sites(self) -> tuple[str, ...]:
        """The rules (and functions) that divide integers by what may be zero, which a
        run's division by zero names (:mod:`dl2sql.types.divisions`)."""
        return division_sites(self.typed_rules, self.functions)

    def engine_stage(self, engine: str, stage: str, loops: Optional[LoopPolicy] = None) -> Plan:
        """The plan after the engine pass named ``stage`` (:data:`ENGINE_PASSES`)."""
        if loops is None:  # the engine's, counted where an iteration limit is in force
            loops = counted_policy(ENGINES[engine].loops)
        key = (engine, loops, self.representation)
        if key not in self._engine_stages:
            self._engine_stages[key] = run_engine_passes(self, engine, loops)
        return self._engine_stages[key][stage]

    def update_for(self, engine: str) -> UpdatePlan:
        """The plan that applies a transaction on ``engine``, its SQL built (made on
        first use: only maintained programs need it)."""
        policy = counted_policy(ENGINES[engine].loops)  # see dl2sql.plan.limits
        key = (engine, "update", self.representation, policy)
        if key not in self._engine_stages:
            planned = build_update(LoopProgram(self.strata, self.blocks, self.layouts,
                                               self.closures, self.type_env),
                                   {r: self.relations[r] for r in self.input_relations()},
                                   policy, {r: i.kind for r, i in self.relations.items()
                                            if is_bag(i)}, self.delayed)
            ec = ExprCompiler(self.type_env, DIALECTS[ENGINES[engine].dialect],
                              self.functions, udf_prefix=udf_prefix(self, "update_udf_"))
            self._engine_stages[key] = update_sql(planned, self.layouts, ec)
        return self._engine_stages[key]

    @property
    def transactional(self) -> bool:
        """Whether the program has streams, multisets or delayed relations, whose
        meaning depends on the sequence of transactions (:mod:`dl2sql.replay`)."""
        return any(is_bag(i) for i in self.relations.values()) or bool(self.delayed)

    @property
    def streams(self) -> frozenset:
        """The stream relations (each holds the current transaction's rows only)."""
        return frozenset(r for r, i in self.relations.items() if i.kind == "stream")

    @property
    def delayed(self) -> dict:
        """Generated relation -> the :class:`~dl2sql.types.transactional.Delayed`
        relation it holds an earlier state of."""
        return self.symbols.delayed if self.symbols is not None else {}

    def input_relations(self) -> list[str]:
        return [r for r, i in self.relations.items() if i.role == "input"]

    def output_relations(self) -> list[str]:
        return [r for r, i in self.relations.items() if i.role == "output"]


# -- the passes -------------------------------------------------------------------------
def parse(p: CompiledProgram) -> CompiledProgram:
    """Parse the program and every module it imports, the standard library first."""
    s = p.source
    return dataclasses.replace(p, modules=load_modules(s.text, s.path, s.lib_dirs))


def desugar(p: CompiledProgram) -> CompiledProgram:
    """FTL syntax (``for``/``if`` rule bodies, ``var x = ...``) to plain rules."""
    return dataclasses.replace(p, modules=[desugar_ftl(m) for m in p.modules])


def check(p: CompiledProgram) -> CompiledProgram:
    """Resolve names and infer and check types: typed rules and functions."""
    s = p.source
    checked = check_program(p.modules, foreign_libraries(p.modules, s.path, s.lib_dirs))
    relations = dict(checked.symbols.relations)
    if p.source.output_internal:
        relations = {r: dataclasses.replace(i, role="output") if i.role == "internal" else i
                     for r, i in relations.items()}
    rules, functions = number_interned(checked.rules, checked.functions)
    return dataclasses.replace(p, symbols=checked.symbols, typed_rules=rules,
                               rules=rules, relations=relations,
                               functions=functions, indexes=checked.indexes,
                               transforms=checked.transforms, facts=checked.facts)


def function_values(p: CompiledProgram) -> CompiledProgram:
    """Function types stored in relations to unions of their closure literals, applying
    them to a ``match`` (``typed_rules`` keep the closures as written)."""
    spans = {name: syms[0].decl.span for name, syms in p.symbols.functions.items() if syms}
    env, relations, rules, functions = defunctionalize(p.type_env, p.relations, p.rules,
                                                       p.functions, spans)
    if env is p.type_env:
        return p
    symbols = dataclasses.replace(p.symbols, env=env, relations={
        r: relations.get(r, i) for r, i in p.symbols.relations.items()})
    return dataclasses.replace(p, symbols=symbols, relations=relations, rules=rules,
                               functions=functions)


def aggregations(p: CompiledProgram) -> CompiledProgram:
    """Each ``group_by`` to two helper relations (``R__groupN_rows`` and ``R__groupN``,
    after the head ``R``); a set that grows through recursion read from its rows
    (:mod:`dl2sql.passes.set_unions`)."""
    rules, added = split_aggregations(p.rules, p.symbols)
    relations = mark_bags(rules, {**p.relations, **added}, keep_counts=p.transactional)
    rules = flatten_set_groups(rules, relations, p.type_env)
    return dataclasses.replace(p, rules=rules, relations=relations)


def layouts(p: CompiledProgram) -> CompiledProgram:
    """The columns each relation is stored in; a relation whose columns have no SQL
    type is an error here."""
    out = {r: relation_layout(r, i.record_type, p.type_env) for r, i in p.relations.items()}
    diags = Diagnostics()
    for rel, layout in out.items():
        for name, t in layout.columns:
            try:
                sql_type(t, p.type_env)
            except (NotImplementedError, KeyError, AttributeError):
                diags.error(p.relations[rel].span, f"relation `{rel}` cannot be stored: "
                                                   f"column `{name}` has type `{t}`, which "
                                                   f"dl2sql cannot store in a table yet")
    diags.raise_if_errors()
    return dataclasses.replace(p, layouts=out)


def strata(p: CompiledProgram) -> CompiledProgram:
    """The evaluation order: strongly connected relations, negation checked."""
    found = stratify(p.rules, list(p.relations), p.transforms)
    check_bag_strata(found, p.relations)
    return dataclasses.replace(p, strata=found)


def relational_algebra(p: CompiledProgram) -> CompiledProgram:
    """Every rule as join blocks over stored columns."""
    blocks: dict[str, list[Block]] = {}
    for b in lower_rules(p.rules, p.layouts, p.type_env, p.functions):
        blocks.setdefault(b.relation, []).append(b)
    return dataclasses.replace(p, blocks=blocks)


def transitive_closures(p: CompiledProgram) -> CompiledProgram:
    """Transitive closures found, with the blocks of their doubled rule."""
    found = {rel: (c, lower_rules([c.doubled], p.layouts, p.type_env, p.functions))
             for rel, c in closures(p.strata, p.rules).items()}
    return dataclasses.replace(p, closures=found)


def wide_integers(p: CompiledProgram) -> CompiledProgram:
    """The representations of wide integers a run goes through; the program in the
    first (:mod:`dl2sql.passes.wide_integers`)."""
    kinds = representations(p.layouts, p.rules, p.functions, p.type_env)
    return dataclasses.replace(p, integers=kinds).represented(kinds[0])


def udf_prefix(p: CompiledProgram, kind: str) -> str:
    """The start of the SQL names of a plan's UDFs: tagged with a digest of the
    program's text, so that the plans of two programs run or maintained in one session
    (or one DuckDB connection) never call each other's functions under a shared name;
    a WIDE plan's apart from the NARROW one's, since both register on one runner when
    a run switches."""
    tag = hashlib.sha256(p.source.text.encode()).hexdigest()[:8]
    return f"dl2sql_{tag}_" + ("wide_" if p.representation == WIDE and len(p.integers) > 1
                               else "") + kind


def plan(p: CompiledProgram) -> CompiledProgram:
    """The statements that evaluate the strata in order, without SQL; each recursive
    stratum a fixpoint still to be planned."""
    bags = frozenset(r for r, i in p.relations.items() if is_bag(i))
    built = build_plan(p.strata, p.blocks, p.input_relations(), p.layouts, bags, p.facts)
    return dataclasses.replace(p, plan=check_input_keys(built, p.relations, p.layouts))


def constants(p: CompiledProgram, planned: Plan, engine: str, policy: LoopPolicy) -> Plan:
    """Where the engine's loop policy says so, each recursive stratum that reads no input
    evaluated once, on the oracle, and loaded instead of its loop."""
    if policy.constant_rows <= 0:
        return planned
    # the oracle evaluates by its own policy, which must not fold what it is asked for
    oracle = dataclasses.replace(ENGINES[ORACLE].loops, constant_rows=0)

    def evaluate(part: Plan, relations: tuple[str, ...], limit: int):
        lowered = run_engine_passes(p, ORACLE, oracle, part)["sql"]
        return evaluate_on_oracle(lowered, relations, limit, p.type_env, p.functions)

    return fold_constants(planned, constants_program(p), policy.constant_rows, evaluate)


def constants_program(p: CompiledProgram) -> ConstantProgram:
    """What finding constants reads of ``p``: its extern functions bound at run time are
    those outside ``ddlog_std`` (the user's, and library functions a callable of the
    same qualified name replaces, :func:`dl2sql.api.evaluate.bind_externs`)."""
    externs = frozenset(sym.name for syms in p.symbols.functions.values() for sym in syms
                        if sym.decl.extern and not sym.builtin)
    return ConstantProgram(p.relations, p.rules, p.strata, p.functions, externs, p.layouts)


def loops(p: CompiledProgram, planned: Plan, engine: str, policy: LoopPolicy) -> Plan:
    """Each recursive stratum as the engine's loop policy evaluates it."""
    return plan_loops(planned, LoopProgram(p.strata, p.blocks, p.layouts, p.closures,
                                           p.type_env), policy)


def sql(p: CompiledProgram, planned: Plan, engine: str, policy: LoopPolicy) -> Plan:
    """Every query as SQL of the engine's dialect, and the Python UDFs they call."""
    ec = ExprCompiler(p.type_env, DIALECTS[ENGINES[engine].dialect], p.functions,
                      udf_prefix=udf_prefix(p, "udf_"))
    return plan_sql(planned, p.layouts, ec)


@dataclass(frozen=True)
class Pass:
    """One pass: its ``name`` (the ``--emit`` stage that shows its result, where it has
    one) and the function that runs it: program to program for :data:`PASSES`;
    (program, plan, engine, loop policy) to plan for :data:`ENGINE_PASSES`."""

    name: str
    run: Callable


# Compiling runs these in order.
PASSES: tuple[Pass, ...] = (
    Pass("ast", parse),
    Pass("desugar", desugar),
    Pass("types", check),
    Pass("function_values", function_values),
    Pass("aggregations", aggregations),
    Pass("layouts", layouts),
    Pass("strata", strata),
    Pass("ra", relational_algebra),
    Pass("closures", transitive_closures),
    Pass("plan", plan),
    Pass("integers", wide_integers),
)

# Then, once per engine, these, each from the plan the one before made.
ENGINE_PASSES: tuple[Pass, ...] = (
    Pass("constants", constants),
    Pass("loops", loops),
    Pass("sql", sql),
)


def run_engine_passes(p: CompiledProgram, engine: str, policy: Optional[LoopPolicy] = None,
                      planned: Optional[Plan] = None) -> dict[str, Plan]:
    """The plan after each engine pass for ``engine``, by pass name, from ``planned``
    (a plan before the engine passes; the program's by default)."""
    policy = ENGINES[engine].loops if policy is None else policy
    planned, stages = p.plan if planned is None else planned, {}
    for step in ENGINE_PASSES:
        planned = stages[step.name] = step.run(p, planned, engine, policy)
    return stages


def compile_source(text: str, path: str = "<input>", lib_dirs: tuple[str, ...] = (),
                   output_internal: bool = False) -> CompiledProgram:
    """Compile DDlog source ``text``; raises CompileError with every error found.

    With ``output_internal`` every internal relation (``ddlog_std::Singleton``
    included) is treated as an output, like DDlog's ``--output-internal-relations``.
    """
    program = CompiledProgram(Source(text, path, tuple(lib_dirs), output_internal))
    for step in PASSES:
        program = step.run(program)
    # SQL is built now (for the oracle: the other engines' on first use), so that its
    # errors surface here
    program.plan_for(ORACLE)
    return program


def compile_file(path: str, lib_dirs: tuple[str, ...] = (),
                 output_internal: bool = False) -> CompiledProgram:
    """Compile the program in file ``path``."""
    return compile_source(read_source(path), path, lib_dirs, output_internal)
