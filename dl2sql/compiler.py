"""The compilation pipeline, from source text to a Plan, with every stage kept."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from dl2sql.analysis.stratify import Stratum, stratify
from dl2sql.ast import nodes as A
from dl2sql.syntax.loader import load_modules
from dl2sql.plan.build import PlanBuilder
from dl2sql.plan.nodes import Plan
from dl2sql.ra.lower import lower_rules, relation_layout
from dl2sql.ra.nodes import Block, RelationLayout
from dl2sql.sqlgen.dialects import DIALECTS
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.types import typed as T
from dl2sql.passes.aggregation import split_aggregations
from dl2sql.passes.doubling import closures
from dl2sql.types.check import check_program
from dl2sql.types.model import RelationInfo, TypeEnv
from dl2sql.types.symbols import Symbols


@dataclass
class CompiledProgram:
    """A checked and planned program; every intermediate stage is kept for ``--emit``."""

    path: str
    modules: list[A.Module]
    symbols: Symbols
    rules: list[T.CoreRule]
    strata: list[Stratum]
    layouts: dict[str, RelationLayout]
    blocks: dict[str, list[Block]]
    relations: dict[str, RelationInfo] = field(default_factory=dict)
    functions: dict = field(default_factory=dict)  # (name, targs) -> FunctionIR
    indexes: dict = field(default_factory=dict)  # qualified name -> IndexInfo
    # transitive closures: relation -> (Closure, blocks of its doubled rule)
    closures: dict = field(default_factory=dict)
    typed_rules: list = field(default_factory=list)  # before aggregations are split
    _plans: dict[str, Plan] = field(default_factory=dict)

    def plan_for(self, dialect: str) -> Plan:
        """The plan with its SQL built for ``dialect`` ("spark" or "duckdb")."""
        if dialect not in self._plans:
            inputs = [r for r, i in self.relations.items() if i.role == "input"]
            ec = ExprCompiler(self.symbols.env, DIALECTS[dialect], self.functions)
            plan = PlanBuilder(self.layouts, ec).build(self.strata, self.blocks, inputs,
                                                       self.closures)
            self._plans[dialect] = dataclasses.replace(plan, functions=tuple(ec.udfs.values()))
        return self._plans[dialect]

    @property
    def type_env(self) -> TypeEnv:
        return self.symbols.env

    def input_relations(self) -> list[str]:
        return [r for r, i in self.relations.items() if i.role == "input"]

    def output_relations(self) -> list[str]:
        return [r for r, i in self.relations.items() if i.role == "output"]


def compile_source(text: str, path: str = "<input>", lib_dirs: tuple[str, ...] = (),
                   output_internal: bool = False) -> CompiledProgram:
    """Compile DDlog source ``text``; raises CompileError with every error found.

    With ``output_internal`` every internal relation (``ddlog_std::Singleton``
    included) is treated as an output, like DDlog's ``--output-internal-relations``.
    """
    modules = load_modules(text, path, lib_dirs)
    checked = check_program(modules)
    syms = checked.symbols
    typed_rules = checked.rules
    rules, added = split_aggregations(checked.rules, syms)
    checked = dataclasses.replace(checked, rules=rules)
    relations = {**syms.relations, **added}
    if output_internal:
        relations = {r: dataclasses.replace(i, role="output")
                     if i.role == "internal" and r not in added else i
                     for r, i in relations.items()}
    layouts = {r: relation_layout(r, i.record_type, syms.env) for r, i in relations.items()}
    _check_storable(layouts, relations, syms.env)
    strata = stratify(checked.rules, list(relations))
    blocks: dict[str, list[Block]] = {}
    for b in lower_rules(checked.rules, layouts, syms.env, checked.functions):
        blocks.setdefault(b.relation, []).append(b)
    doubled = {rel: (c, lower_rules([c.doubled], layouts, syms.env, checked.functions))
               for rel, c in closures(strata, checked.rules).items()}
    program = CompiledProgram(path, modules, syms, checked.rules, strata, layouts, blocks,
                              relations, functions=checked.functions,
                              indexes=checked.indexes, closures=doubled,
                              typed_rules=typed_rules)
    program.plan_for("duckdb")  # builds the SQL once, so that errors surface here
    return program


def _check_storable(layouts, relations, env) -> None:
    """Every relation's columns must have a SQL type (functions and opaque extern
    types cannot be stored)."""
    from dl2sql.diagnostics import Diagnostics
    from dl2sql.sqlgen.types import sql_type

    diags = Diagnostics()
    for rel, layout in layouts.items():
        for name, t in layout.columns:
            try:
                sql_type(t, env)
            except (NotImplementedError, KeyError, AttributeError):
                diags.error(relations[rel].span, f"relation `{rel}` cannot be stored: "
                                                 f"column `{name}` has type `{t}`, which "
                                                 f"dl2sql cannot store in a table yet")
    diags.raise_if_errors()


def compile_file(path: str, lib_dirs: tuple[str, ...] = (),
                 output_internal: bool = False) -> CompiledProgram:
    """Compile the program in file ``path``."""
    text = Path(path).read_text(encoding="utf-8")
    return compile_source(text, path, lib_dirs, output_internal)
