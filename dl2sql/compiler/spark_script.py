"""A program as one Spark SQL script: what ``dl2sql compile --dialect spark`` prints.

The script runs by itself, through ``spark.sql(script)``, ``spark-sql -f`` or any JDBC
client of a Spark 4 server (SQL scripting: ``BEGIN ... END``): it reads the input
relations from tables or views (the relation's name, or where ``--input`` points),
in the form ``dl2sql run`` reads a DataFrame (checked and made canonical by the same
projection, :mod:`dl2sql.sqlgen.canonical`), evaluates the strata in order, each
recursive one as a ``WHILE`` loop of semi-naive steps over Parquet tables, and leaves
each output relation as a table in the form ``dl2sql run`` writes it
(:mod:`dl2sql.sqlgen.output_form`). Every table it creates is named with the
``schema`` and ``prefix`` given; the helper tables are dropped at the end.

The plan is Spark's with what only a driver can do left out, each said in the
script's header: one semi-naive step per termination test, no doubling of transitive
closures, no partitioning hints (the tables are files); wide integers are stored wide
from the start (no driver is there to go on with them). The recursive strata that
read no input are evaluated when the script is made, as for a run, and the script
holds their rows as literals.
The DDlog functions SQL cannot express (and extern functions) run in Python as for
``dl2sql run``: the script calls them by name, and says in its header that
``dl2sql.register_functions(spark, program)`` must register them in the session first
(:mod:`dl2sql.api.script_functions`); a script without them needs nothing but Spark. A
user transformer (Python on DataFrames) is a compile-time error.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from sqlglot import exp

from dl2sql.diagnostics import CompileError, Diagnostic, InputError, NO_SPAN
from dl2sql.passes.bags import is_bag
from dl2sql.engines import ENGINES
from dl2sql.io.files import require_record_form
from dl2sql.plan.loops import LoopPolicy
from dl2sql.plan.nodes import (Append, Choose, Load, Loop, Materialize, Refuse, Rename, Table,
                               Transform)
from dl2sql.runner.spark_inline import inline_query
from dl2sql.runner.spark_types import spark_rows
from dl2sql.plan.build import table_name
from dl2sql.sqlgen.canonical import input_projection
from dl2sql.sqlgen.trees import drop_table, table
from dl2sql.sqlgen.output_form import output_projection
from dl2sql.sqlgen.dialects import SPARK
from dl2sql.sqlgen.types import sql_type

# what the script leaves to Spark: plain semi-naive loops, one step per test; the
# recursive strata that read no input evaluated when planned, as for a run, and
# written into the script as tables of literals (thousands of iterations of a loop
# of Parquet tables would take minutes)
SCRIPT_LOOPS = LoopPolicy(constant_rows=ENGINES["spark"].loops.constant_rows)
SPARK_VERSION = "4.0"
_FORMAT = exp.Properties(expressions=[exp.FileFormatProperty(this=exp.Var(this="PARQUET"))])


@dataclass(frozen=True)
class ScriptOptions:
    """Where the script reads and writes: ``inputs`` maps an input relation to the
    table or view holding it (default: the relation's table name, ``m__R`` for
    ``m::R``); every table the script creates is ``schema.prefix<name>``."""

    inputs: dict = field(default_factory=dict)
    schema: str = ""
    prefix: str = ""


def script_program(program):
    """``program`` as its script computes it: with wide integers (bigint, bit<N> and
    signed<N> for N > 64) in their wide form from the start, since no driver is there
    to go on with it once a value outgrows DECIMAL(38,0)."""
    return program.represented(program.integers[-1]) if len(program.integers) > 1 \
        else program


def script_options(program, pairs: list[str], schema: str = "", prefix: str = "") -> ScriptOptions:
    """Options from the command line's ``REL=TABLE`` pairs (``--input``); an unknown
    relation or a pair without ``=`` is an :class:`InputError`."""
    inputs = {}
    known = program.input_relations()
    for pair in pairs:
        rel, eq, table = pair.partition("=")
        if not eq or not rel or not table:
            raise InputError(f"--input `{pair}`: expected RELATION=TABLE")
        if rel not in known:
            raise InputError(f"--input `{pair}`: `{rel}` is not an input relation (inputs: "
                             f"{', '.join(known) or 'none'})")
        inputs[rel] = table
    return ScriptOptions(inputs, schema, prefix)


def spark_script(program, options: ScriptOptions = ScriptOptions()) -> str:
    """The Spark SQL script of ``program`` (a :class:`CompiledProgram`)."""
    program = script_program(program)
    plan = program.engine_stage("spark", "sql", SCRIPT_LOOPS)
    _refuse_python(program, plan)
    writer = _Writer(program, plan, options)
    return writer.script()


def script_outputs(program, options: ScriptOptions = ScriptOptions()) -> dict[str, str]:
    """The table (Spark SQL name) where the script leaves each output relation."""
    program = script_program(program)
    plan = program.engine_stage("spark", "sql", SCRIPT_LOOPS)
    writer = _Writer(program, plan, options)
    return {rel: writer.made(name).sql(dialect="spark") for name, rel in writer.outputs.items()}


def _refuse_python(program, plan) -> None:
    problems = []
    for s in plan.statements:
        if isinstance(s, Transform):
            problems.append(Diagnostic("error", f"transformer `{s.transformer}` (applied at "
                                                f"{s.origin}) is Python code, which a Spark "
                                                f"SQL script cannot run", NO_SPAN))
    if problems:
        raise CompileError(problems)


class _Writer:
    def __init__(self, program, plan, options: ScriptOptions):
        self.p, self.plan, self.o = program, plan, options
        self.lines: list[str] = []
        self.declared: list[str] = []
        self.created: dict[str, None] = {}  # plan table names, in creation order
        self.inputs = {t.name: t for t in plan.inputs}
        self.sources = {t.name: self._source(t) for t in plan.inputs}
        self.outputs = {plan.relations[r].name: r for r in program.output_relations()}
        self.counting: dict[str, str] = {}  # a loop's tables to count -> its variable

    # -- names -----------------------------------------------------------------------
    def _source(self, t: Table) -> exp.Table:
        default = table_name(t.relation)
        given = self.o.inputs.get(t.relation) or self.o.inputs.get(default)
        return exp.to_table(given, dialect="spark") if given else table(default)

    def made(self, name: str) -> exp.Table:
        """The table the script creates for the plan's table ``name``: an input's rows
        are copied to ``R__in``, never written where they are read from."""
        if name in self.inputs:
            name += "__in"
        return exp.Table(this=exp.to_identifier(self.o.prefix + name, quoted=True),
                         db=exp.to_identifier(self.o.schema, quoted=True) if self.o.schema
                         else None)

    def renamed(self, query: exp.Expression) -> exp.Expression:
        """``query`` reading the script's tables instead of the plan's."""
        query = query.copy()
        for t in list(query.find_all(exp.Table)):
            if t.db or t.name not in self.created:
                continue  # a CTE, a lateral view's name, or a table not made yet
            made = self.made(t.name)
            if t.alias:
                made.set("alias", t.args["alias"].copy())
            t.replace(made)
        return query

    # -- statements ------------------------------------------------------------------
    def sql(self, e: exp.Expression, depth: int) -> None:
        pad = "  " * depth
        text = e.sql(dialect="spark", pretty=True)
        self.lines += [pad + line for line in text.splitlines()]
        self.lines[-1] += ";"

    def comment(self, text: str, depth: int) -> None:
        self.lines.append("  " * depth + "-- " + text)

    def create(self, name: str, query: exp.Expression, depth: int,
               reads_itself: bool | None = None) -> None:
        """``name`` := ``query`` (its rows, now, in a table of its own)."""
        if reads_itself is None:
            reads_itself = any(t.name == name and not t.db for t in query.find_all(exp.Table))
        query = self.renamed(query)
        target = name + "__script_tmp" if reads_itself else name
        self.created.setdefault(name, None)
        self.created.setdefault(target, None)
        self.sql(drop_table(self.made(target)), depth)
        self.sql(exp.Create(this=self.made(target), kind="TABLE", expression=query,
                            properties=_FORMAT.copy()), depth)
        if reads_itself:
            self.rename(name, target, depth)

    def rename(self, target: str, source: str, depth: int) -> None:
        self.sql(drop_table(self.made(target)), depth)
        self.sql(exp.Alter(this=self.made(source), kind="TABLE",
                           actions=[exp.AlterRename(this=self.made(target))]), depth)
        self.created.setdefault(target, None)

    def statement(self, s, depth: int) -> None:
        if isinstance(s, Materialize):
            if s.comment:
                self.comment(s.comment, depth)
            self.create(s.target.name, s.query, depth)
            var = self.counting.get(s.target.name)
            if var is not None:  # counted as it is made: a later rename takes its name
                count = exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
                    self.made(s.target.name)))
                self.lines.append(f"{'  ' * depth}SET {var} = {var} + "
                                  f"{count.sql(dialect='spark')};")
        elif isinstance(s, Append):
            self.sql(exp.insert(exp.select("*").from_(self.made(s.source.name)),
                                self.made(s.target.name)), depth)
        elif isinstance(s, Rename):
            self.rename(s.target.name, s.source.name, depth)
        elif isinstance(s, Loop):
            self.loop(s, depth)
        elif isinstance(s, Refuse):
            # an IF of the script: a query that reads raise_error's rows without using
            # their column (a COUNT of them) has the call pruned away, and never fails
            rows = exp.Subquery(this=exp.select(exp.Count(this=exp.Star())).from_(
                self.made(s.table.name)))
            pad = "  " * depth
            self.comment(f"fails when {s.table.name} has a row", depth)
            self.lines.append(f"{pad}IF {rows.sql(dialect='spark')} > 0 THEN")
            self.sql(exp.select(exp.func("raise_error", exp.Literal.string(s.message))),
                     depth + 1)
            self.lines.append(f"{pad}END IF;")
        elif isinstance(s, Load):
            self.load(s, depth)
        elif isinstance(s, (Choose, Transform)):  # the script's policy makes none
            raise TypeError(f"not a statement of a script's plan: {s!r}")
        else:
            raise TypeError(f"not a plan statement: {s!r}")

    def load(self, s: Load, depth: int) -> None:
        """A relation's facts (:mod:`dl2sql.types.check_facts`) or a constant of the
        program (:mod:`dl2sql.plan.constants`): with no driver to load them, the script
        holds them as a table of literals (or fails as their evaluation failed)."""
        self.comment(s.comment or s.target.name, depth)
        columns = [exp.cast(exp.Null(), c.type.copy()).as_(c.name, quoted=True)
                   for c in s.target.columns]
        if s.failure:
            failed = exp.select(exp.func("raise_error", exp.Literal.string(
                " ".join(s.failure.split()))))
            self.sql(failed, depth)
            query = exp.select(*columns).where(exp.false())
        elif not s.rows:
            query = exp.select(*columns).where(exp.false())
        else:
            query = inline_query(s.target, spark_rows(s.target, list(s.rows)))
        if query is None:
            raise CompileError([Diagnostic("error", f"the rows of `{s.target.relation}`, "
                                                    f"computed when the program was planned, "
                                                    f"have values that Spark SQL has no "
                                                    f"literals for", NO_SPAN)])
        self.create(s.target.name, query, depth)

    def loop(self, loop: Loop, depth: int) -> None:
        var = f"dl2sql_rows_{len(self.declared) + 1}"
        self.declared.append(var)
        pad = "  " * depth
        self.comment(f"{loop.stratum}: semi-naive steps until no new rows", depth)
        self.lines.append(f"{pad}SET {var} = 1;")
        self.lines.append(f"{pad}WHILE {var} > 0 DO")
        self.lines.append(f"{pad}  SET {var} = 0;")
        outer, self.counting = self.counting, {name: var for name in loop.until_empty}
        for s in loop.body:
            self.statement(s, depth + 1)
        self.counting = outer
        self.lines.append(f"{pad}END WHILE;")

    # -- the script ------------------------------------------------------------------
    def read_inputs(self, depth: int) -> None:
        for name, t in self.inputs.items():
            rel = t.relation
            require_record_form(self.p, rel, f"input {rel} of the script")
            columns = self.p.layouts[rel].columns
            env = self.p.type_env
            conformed = exp.select(*[exp.alias_(exp.Cast(
                this=exp.column(n, quoted=True), to=sql_type(ty, env, external=True)), n,
                quoted=True) for n, ty in columns]).from_(self.sources[name].copy())
            query = exp.select(*input_projection(rel, list(columns), env, SPARK)).from_(
                exp.Subquery(this=conformed, alias=exp.TableAlias(
                    this=exp.to_identifier("dl2sql_input"))))
            if not is_bag(self.p.relations[rel]):
                query = query.distinct()
            self.comment(f"input {rel}, read from {self.sources[name].sql('spark')}", depth)
            self.create(name, query, depth, reads_itself=False)

    def write_outputs(self, depth: int) -> None:
        for name, rel in self.outputs.items():
            projection = output_projection(self.plan.relations[rel].columns, SPARK)
            if projection is None:
                continue
            self.comment(f"output {rel} in the form `dl2sql run` writes", depth)
            self.create(name, exp.select(*projection).from_(name), depth)

    def script(self) -> str:
        self.read_inputs(1)
        for s in self.plan.statements:
            self.statement(s, 1)
        self.write_outputs(1)
        self._check_names()
        helpers = [n for n in self.created if n not in self.outputs]
        if helpers:
            self.comment("the helper tables", 1)
        for name in helpers:
            self.sql(drop_table(self.made(name)), 1)
        body = [f"  DECLARE {v} BIGINT DEFAULT 1;" for v in self.declared] + self.lines
        return "\n".join(self.header() + ["BEGIN"] + body + ["END;"]) + "\n"

    def _check_names(self) -> None:
        """No table the script creates may be one it reads: refuse before it could."""
        made = {self._key(self.made(n)) for n in self.created}
        for name, source in self.sources.items():
            if self._key(source) in made:
                raise CompileError([Diagnostic(
                    "error", f"the script would write the table "
                             f"{source.sql('spark')} that it reads input "
                             f"{self.inputs[name].relation} from; give --schema or "
                             f"--prefix for the tables it creates", NO_SPAN)])

    def _key(self, t: exp.Table) -> tuple:
        return ((t.db or self.o.schema or "").lower(), t.name.lower())

    def header(self) -> list[str]:
        reads = ", ".join(f"{self.inputs[n].relation} from {s.sql('spark')}"
                          for n, s in self.sources.items()) or "nothing"
        writes = ", ".join(f"{r} as {self.made(n).sql('spark')}"
                           for n, r in self.outputs.items()) or "nothing"
        functions = sorted({_function_name(f) for f in self.plan.functions})
        needs = ([f"-- Calls Python functions ({', '.join(functions)}): register them in "
                  f"the session that runs it first, with",
                  f"--   dl2sql.register_functions(spark, \"{self.p.source.path}\")  "
                  f"(extern functions: extern={{name: callable}})"]
                 if functions else ["-- Needs nothing but Spark: no Python functions."])
        return [
            f"-- {self.p.source.path}: a Spark SQL script made by dl2sql",
            f"-- Needs Spark {SPARK_VERSION} or later (SQL scripting; on 4.0 set "
            f"spark.sql.scripting.enabled=true). Run it with spark.sql(script), "
            f"spark-sql -f, or a JDBC client.",
            f"-- Reads: {reads}.",
            f"-- Writes: {writes}; its helper tables "
            f"({self.made('...').sql('spark')}) are dropped at the end.",
            "-- Evaluates as `dl2sql run --engine spark` does, but: one semi-naive step per "
            "termination test, no doubling of transitive closures, no partitioning, "
            "and wide integers stored wide from the start.",
        ] + needs


def _function_name(spec) -> str:
    """A UDF as the header names it: the DDlog function, or what it evaluates."""
    return "an expression" if spec.func.startswith("<") else spec.func.split("#", 1)[0]
