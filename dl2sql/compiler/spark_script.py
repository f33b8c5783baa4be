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
from dl2sql.compiler.script_steps import (CountRows, Fail, FailIfRows, Note, Repeat, Script,
                                          Statement, pyspark_script, sql_script)

# what the script leaves to Spark: plain semi-naive loops, one step per test; the
# recursive strata that read no input evaluated when planned, as for a run, and
# written into the script as tables of literals (thousands of iterations of a loop
# of Parquet tables would take minutes)
SCRIPT_LOOPS = LoopPolicy(constant_rows=ENGINES["spark"].loops.constant_rows)
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


def script_steps(program, options: ScriptOptions = ScriptOptions()) -> Script:
    """The steps of ``program``'s script (a :class:`CompiledProgram`), to print in
    either form of :mod:`dl2sql.compiler.script_steps`."""
    program = script_program(program)
    plan = program.engine_stage("spark", "sql", SCRIPT_LOOPS)
    _refuse_python(program, plan)
    return _Writer(program, plan, options).script()


def spark_script(program, options: ScriptOptions = ScriptOptions()) -> str:
    """The Spark SQL script of ``program`` (a :class:`CompiledProgram`)."""
    return sql_script(script_steps(program, options))


def pyspark_program(program, options: ScriptOptions = ScriptOptions()) -> str:
    """The standalone PySpark script of ``program``: the same statements, its loops in
    Python, for Spark 3.5 and later."""
    return pyspark_script(script_steps(program, options))


def script_outputs(program, options: ScriptOptions = ScriptOptions()) -> dict[str, str]:
    """The table (Spark SQL name) where the script leaves each output relation."""
    program = script_program(program)
    plan = program.engine_stage("spark", "sql", SCRIPT_LOOPS)
    writer = _Writer(program, plan, options)
    return {rel: writer.made(name).sql(dialect="spark") for name, rel in writer.outputs.items()}


def _refuse_python(program, plan) -> None:
    """A user transformer is Python code on DataFrames: an error located at its
    ``apply``."""
    if not any(isinstance(s, Transform) for s in plan.statements):
        return
    raise CompileError([Diagnostic(
        "error", f"transformer `{s.transform.transformer}` is Python code on DataFrames, "
                 f"which a Spark SQL script cannot run; use `dl2sql run` or the Python API "
                 f"for this program", s.transform.decl.span)
        for s in program.strata if s.transform is not None])


class _Writer:
    def __init__(self, program, plan, options: ScriptOptions):
        self.p, self.plan, self.o = program, plan, options
        self.steps: list = []
        self.declared: list[str] = []
        self.created: dict[str, None] = {}  # plan table names, in creation order
        self.inputs = {t.name: t for t in plan.inputs}
        # an input with facts: its rows and facts together, in a table of another name
        # than the one its rows are read from by default
        self.with_facts = {table_name(t.relation) for t in plan.inputs
                           if t.name != table_name(t.relation)}
        # a delayed relation's earlier contents (R-N reads R__prevN) are empty in one
        # evaluation, as for `dl2sql run` without a file of them, unless --input gives them
        self.sources = {t.name: self._source(t) for t in plan.inputs
                        if t.relation not in program.delayed or self._given(t)}
        self.outputs = {plan.relations[r].name: r for r in program.output_relations()}
        self.counting: dict[str, str] = {}  # a loop's tables to count -> its variable

    # -- names -----------------------------------------------------------------------
    def _given(self, t: Table) -> str | None:
        return self.o.inputs.get(t.relation) or self.o.inputs.get(table_name(t.relation))

    def _source(self, t: Table) -> exp.Table:
        given = self._given(t)
        return exp.to_table(given, dialect="spark") if given else table(table_name(t.relation))

    def made(self, name: str) -> exp.Table:
        """The table the script creates for the plan's table ``name``: an input's rows
        are copied to ``R__in``, never written where they are read from."""
        if name in self.inputs:
            name += "__in"
        elif name in self.with_facts:
            name += "__with_facts"
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
    def sql(self, e: exp.Expression) -> None:
        self.steps.append(Statement(e.sql(dialect="spark", pretty=True)))

    def comment(self, text: str) -> None:
        self.steps.append(Note(text))

    def create(self, name: str, query: exp.Expression,
               reads_itself: bool | None = None, literal: bool = False) -> None:
        """``name`` := ``query`` (its rows, now, in a table of its own); a ``literal``
        query reads no table and calls no function (its thousands of values are not
        walked, nor copied)."""
        if literal:
            reads_itself = False
        elif reads_itself is None:
            reads_itself = any(t.name == name and not t.db for t in query.find_all(exp.Table))
        if not literal:
            query = self.renamed(query)
        target = name + "__script_tmp" if reads_itself else name
        self.created.setdefault(name, None)
        self.created.setdefault(target, None)
        self.sql(drop_table(self.made(target)))
        self.sql(exp.Create(this=self.made(target), kind="TABLE", expression=query,
                            properties=_FORMAT.copy()))
        if reads_itself:
            self.rename(name, target)

    def rename(self, target: str, source: str) -> None:
        self.sql(drop_table(self.made(target)))
        self.sql(exp.Alter(this=self.made(source), kind="TABLE",
                           actions=[exp.AlterRename(this=self.made(target))]))
        self.created.setdefault(target, None)

    def statement(self, s) -> None:
        if isinstance(s, Materialize):
            if s.comment:
                self.comment(s.comment)
            self.create(s.target.name, s.query)
            var = self.counting.get(s.target.name)
            if var is not None:  # counted as it is made: a later rename takes its name
                self.steps.append(CountRows(var, self.made(s.target.name).sql("spark")))
        elif isinstance(s, Append):
            self.sql(exp.insert(exp.select("*").from_(self.made(s.source.name)),
                                self.made(s.target.name)))
        elif isinstance(s, Rename):
            self.rename(s.target.name, s.source.name)
        elif isinstance(s, Loop):
            self.loop(s)
        elif isinstance(s, Refuse):
            self.comment(f"fails when {s.table.name} has a row")
            self.steps.append(FailIfRows(self.made(s.table.name).sql("spark"), s.message))
        elif isinstance(s, Load):
            self.load(s)
        elif isinstance(s, (Choose, Transform)):  # the script's policy makes none
            raise TypeError(f"not a statement of a script's plan: {s!r}")
        else:
            raise TypeError(f"not a plan statement: {s!r}")

    def load(self, s: Load) -> None:
        """A relation's facts (:mod:`dl2sql.types.check_facts`) or a constant of the
        program (:mod:`dl2sql.plan.constants`): with no driver to load them, the script
        holds them as a table of literals (or fails as their evaluation failed)."""
        self.comment(s.comment or s.target.name)
        if s.failure:
            self.steps.append(Fail(" ".join(s.failure.split())))
            query = _empty(s.target)
        elif not s.rows:
            query = _empty(s.target)
        else:
            # sorted: a constant computed into a set would print in a different order each time
            query = inline_query(s.target, spark_rows(s.target, sorted(s.rows, key=repr)))
        if query is None:
            decl = self.p.symbols.relation_decls.get(s.target.relation) \
                if self.p.symbols is not None else None
            raise CompileError([Diagnostic("error", f"the rows of `{s.target.relation}`, "
                                                    f"computed when the program was planned, "
                                                    f"have values that Spark SQL has no "
                                                    f"literals for",
                                           decl.span if decl is not None else NO_SPAN)])
        self.create(s.target.name, query, literal=True)

    def loop(self, loop: Loop) -> None:
        var = f"dl2sql_rows_{len(self.declared) + 1}"
        self.declared.append(var)
        self.comment(f"{loop.stratum}: semi-naive steps until no new rows")
        outer, self.counting = self.counting, {name: var for name in loop.until_empty}
        outer_steps, self.steps = self.steps, []
        for s in loop.body:
            self.statement(s)
        body, self.steps, self.counting = tuple(self.steps), outer_steps, outer
        self.steps.append(Repeat(var, body))

    # -- the script ------------------------------------------------------------------
    def read_inputs(self) -> None:
        for name, t in self.inputs.items():
            rel = t.relation
            require_record_form(self.p, rel, f"input {rel} of the script")
            if name not in self.sources:
                d = self.p.delayed[rel]
                self.comment(f"{d.relation}-{d.delay} ({rel}): empty in one evaluation "
                             f"(--input {rel}=TABLE gives its rows)")
                self.create(name, _empty(t), reads_itself=False)
                continue
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
            self.comment(f"input {rel}, read from {self.sources[name].sql('spark')}")
            self.create(name, query, reads_itself=False)

    def write_outputs(self) -> None:
        for name, rel in self.outputs.items():
            projection = output_projection(self.plan.relations[rel].columns, SPARK)
            if projection is None:
                continue
            self.comment(f"output {rel} in the form `dl2sql run` writes")
            self.create(name, exp.select(*projection).from_(name))

    def script(self) -> Script:
        self.read_inputs()
        for s in self.plan.statements:
            self.statement(s)
        self.write_outputs()
        self._check_names()
        helpers = [n for n in self.created if n not in self.outputs]
        if helpers:
            self.comment("the helper tables")
        for name in helpers:
            self.sql(drop_table(self.made(name)))
        functions = tuple(sorted({_function_name(f) for f in self.plan.functions}))
        return Script(self.p.source.path, tuple(self.about()), functions,
                      tuple(self.declared), tuple(self.steps))

    def _check_names(self) -> None:
        """No table the script creates may be one it reads: refuse before it could."""
        made = {self._key(self.made(n)) for n in self.created}
        for name, source in self.sources.items():
            if self._key(source) in made:
                raise InputError(f"the script would write the table {source.sql('spark')} "
                                 f"that it reads input {self.inputs[name].relation} from; "
                                 f"give --schema or --prefix for the tables it creates")

    def _key(self, t: exp.Table) -> tuple:
        return ((t.db or self.o.schema or "").lower(), t.name.lower())

    def about(self) -> list[str]:
        reads = ", ".join(f"{self.inputs[n].relation} from {s.sql('spark')}"
                          for n, s in self.sources.items()) or "nothing"
        writes = ", ".join(f"{r} as {self.made(n).sql('spark')}"
                           for n, r in self.outputs.items()) or "nothing"
        return [
            f"Reads: {reads}.",
            f"Writes: {writes}; its helper tables "
            f"({self.made('...').sql('spark')}) are dropped at the end.",
            "Evaluates as `dl2sql run --engine spark` does, but: one semi-naive step per "
            "termination test, no doubling of transitive closures, no partitioning, "
            "and wide integers stored wide from the start.",
        ]


def _empty(t: Table) -> exp.Select:
    """A query of no rows in the columns of ``t``."""
    return exp.select(*[exp.cast(exp.Null(), c.type.copy()).as_(c.name, quoted=True)
                        for c in t.columns]).where(exp.false())


def _function_name(spec) -> str:
    """A UDF as the header names it: the DDlog function, or what it evaluates."""
    return "an expression" if spec.func.startswith("<") else spec.func.split("#", 1)[0]
