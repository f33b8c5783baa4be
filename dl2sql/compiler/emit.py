"""Printable forms of every compilation stage (``dl2sql compile --emit STAGE``)."""
from __future__ import annotations

import dataclasses

from sqlglot import exp

from dl2sql.ast import nodes as A
from dl2sql.compiler.pipeline import ENGINE_PASSES, PASSES, CompiledProgram
from dl2sql.plan.nodes import Append, Load, Loop, Materialize, Refuse, Rename, Transform
from dl2sql.plan.walk import walk
from dl2sql.ra.nodes import GroupBlock
from dl2sql.types.pretty import expr_to_str, rule_to_str



def emit_ast(p: CompiledProgram, dialect: str, internal: bool = False) -> str:
    main = next(m for m in p.modules if m.name == "")
    return "\n".join(_ast_lines(d, 0) for d in main.decls) + "\n"


def _ast_lines(node, depth: int) -> str:
    pad = "  " * depth
    if dataclasses.is_dataclass(node):
        fields = [(f.name, getattr(node, f.name)) for f in dataclasses.fields(node)
                  if f.name != "span"]
        simple = [(n, v) for n, v in fields if not _is_complex(v)]
        complex_ = [(n, v) for n, v in fields if _is_complex(v)]
        head = pad + type(node).__name__ + "".join(
            f" {n}={v!r}" for n, v in simple if v not in (None, (), False))
        lines = [head]
        for n, v in complex_:
            items = v if isinstance(v, tuple) else (v,)
            lines.append(f"{pad}  {n}:")
            lines += [_ast_lines(x, depth + 2) for x in items]
        return "\n".join(lines)
    return pad + repr(node)


def _is_complex(v) -> bool:
    if isinstance(v, tuple):
        return any(dataclasses.is_dataclass(x) for x in v)
    return dataclasses.is_dataclass(v)


def is_helper(p: CompiledProgram, relation: str) -> bool:
    """A relation the user did not write: made by the compiler, or one of the standard
    library's own that the user did not declare an output."""
    info = p.relations[relation]
    return info.generated or (relation.startswith("ddlog_std::") and info.role != "output")


def emit_types(p: CompiledProgram, dialect: str, internal: bool = False) -> str:
    out = [f"{info.role} relation {r}: {info.record_type}" for r, info in p.relations.items()
           if internal or not is_helper(p, r)]
    out.append("")
    # the rules that compute an `apply` are the compiler's: the `apply` is shown instead
    applies = [d for m in p.modules for d in m.decls if isinstance(d, A.ApplyDecl)]
    spans = {d.span for d in applies}
    rules = p.rules if internal else [
        r for r in p.typed_rules if not any(is_helper(p, h.relation) for h in r.heads)
        and r.span not in spans]
    text = [rule_to_str(r) for r in rules]
    text += [f"apply {d.transformer}({', '.join(d.args)}) -> ({', '.join(d.outputs)})"
             for d in applies]
    if not internal:  # a delayed atom as the user wrote it, not the relation it reads
        for name, d in p.delayed.items():
            text = [t.replace(f"{name}[", f"{d.relation}-{d.delay}[")
                    .replace(f"{name}(", f"{d.relation}-{d.delay}(") for t in text]
    out += text
    return "\n".join(out) + "\n"


def emit_strata(p: CompiledProgram, dialect: str, internal: bool = False) -> str:
    out, hidden = [], 0
    for i, s in enumerate(p.strata):
        kind = ("recursive through group_by" if s.aggregated else
                "recursive" if s.recursive else "non-recursive")
        shown = [r for r in s.relations if internal or not is_helper(p, r)]
        if shown:
            out.append(f"stratum {i} ({kind}): {', '.join(shown)}")
        else:
            hidden += 1
    if hidden:  # numbers keep the gaps, so that they match the plan's
        out.append(f"({hidden} strata of compiler helper relations not shown; "
                   "dl2sql compile --emit strata --internal shows them)")
    return "\n".join(out) + "\n"


def emit_ra(p: CompiledProgram, dialect: str, internal: bool = False) -> str:
    out: list[str] = []
    for rel in p.blocks:
        if internal or not is_helper(p, rel):
            _ra_lines(p, rel, "", internal, out)
    return "\n".join(out) + "\n"


def _ra_lines(p: CompiledProgram, rel: str, pad: str, internal: bool, out: list,
              within: frozenset = frozenset()) -> None:
    """The blocks deriving ``rel``; a helper relation read is shown under its scan
    (once: ``within`` are those shown around it, recursive helpers read themselves)."""
    within = within | {rel}

    def expand(relation: str) -> bool:
        return (not internal and relation in p.blocks and is_helper(p, relation)
                and relation not in within)

    def source(relation: str, alias: str, line: str) -> None:
        out.append(line)
        if expand(relation):
            _ra_lines(p, relation, pad + "      ", internal, out, within)

    head = rel if not pad else f"where {rel}"
    for b in p.blocks[rel]:
        if isinstance(b, GroupBlock):
            keys = ", ".join(expr_to_str(k) for k in b.keys)
            what = (f"key {expr_to_str(b.key)}; value {expr_to_str(b.value)}"
                    if b.aggregate == "group" else b.aggregate if b.aggregate == "count"
                    else f"{'+'.join(b.aggregate)} of value {expr_to_str(b.value)}")
            out.append(f"{pad}{head} <- Group[keys {keys}; {what}]")
            source(b.source.relation, b.source.alias,
                   f"{pad}    Scan[{b.source.relation} AS {b.source.alias}]")
            continue
        srcs = ", ".join(f"{s.relation} AS {s.alias}" for s in b.sources) or "(one row)"
        out.append(f"{pad}{head} <- Project[{', '.join(expr_to_str(o) for o in b.outputs)}]")
        out.append(f"{pad}    Join[{srcs}]")
        for s in b.sources:
            if expand(s.relation):
                _ra_lines(p, s.relation, pad + "      ", internal, out, within)
        for u in b.unnests:
            out.append(f"{pad}    Unnest[{expr_to_str(u.expr)} AS {u.alias}]")
        for c in b.conditions:
            out.append(f"{pad}    Select[{expr_to_str(c)}]")
        for aj in b.antijoins:
            conds = " and ".join(expr_to_str(c) for c in aj.conditions) or "true"
            source(aj.source.relation, aj.source.alias,
                   f"{pad}    AntiJoin[{aj.source.relation} AS {aj.source.alias} ON {conds}]")


def emit_plan(p: CompiledProgram, dialect: str, sql: bool) -> str:
    """The plan the engine ``dialect`` runs, loops planned; with ``sql`` its statements
    as SQL the user can run or embed."""
    lines: list[str] = []
    if not sql:
        lines.append("inputs: " + ", ".join(t.name + _partitioned(t)
                                            for t in p.plan_for(dialect).inputs))
        _plan_lines(p.engine_stage(dialect, "loops").statements, dialect, sql, lines, 0)
    else:
        _plan_lines(p.plan_for(dialect).statements, dialect, sql, lines, 0)
    return "\n".join(lines) + "\n"


def create_view(s: Materialize) -> exp.Create:
    """``CREATE OR REPLACE TEMPORARY VIEW target AS query`` for a plan statement."""
    return exp.Create(this=exp.Table(this=exp.to_identifier(s.target.name, quoted=True)),
                      kind="VIEW", replace=True, expression=s.query,
                      properties=exp.Properties(expressions=[exp.TemporaryProperty()]))


def _partitioned(t) -> str:
    """`` [partitioned by k]`` for a table with a partition key (a hint to Spark)."""
    return f" [partitioned by {', '.join(t.partition_by)}]" if t.partition_by else ""


def _steps(loop: Loop) -> str:
    """``; 4 steps per check below 10000 rows`` where the loop runs several steps per
    termination test (see dl2sql.plan.fixpoint.steps_for)."""
    if loop.steps_per_check <= 1:
        return ""
    below = ("" if loop.fuse_below_rows == float("inf")
             else f" while every delta is below {loop.fuse_below_rows:g} rows")
    return f"; {loop.steps_per_check} steps per check{below}"


def _plan_lines(stmts, dialect, sql, lines, depth) -> None:
    c = "-- " if sql else ""  # in SQL, what is not a statement is a comment
    for event, s, level in walk(stmts, depth):
        pad = "  " * level
        if event == "loop":
            lines.append(f"{pad}{c}repeat (stratum {s.stratum}{_steps(s)}):")
        elif event == "end loop":
            lines.append(f"{pad}{c}until empty: {', '.join(s.until_empty)}")
        elif event == "choose":
            if sql:
                lines.append(f"{pad}{c}if ({s.probe_query.sql(dialect=dialect)}) has at "
                             f"most {s.max_degree} edges per source:")
            else:
                lines.append(f"{pad}if {s.probe_query.table} has at most {s.max_degree} "
                             f"rows per distinct {s.probe_query.source} (long thin paths):")
            lines.append(f"{pad}{c}  -- {s.stratum} is a transitive closure: by doubling")
        elif event == "else":
            lines.append(f"{pad}{c}else:")
        elif event == "end choose":
            lines.append(f"{pad}{c}end if")
        elif isinstance(s, Materialize):
            if sql:
                if s.comment:
                    lines.append(f"{pad}-- {s.comment}{_partitioned(s.target)}")
                text = create_view(s).sql(dialect=dialect, pretty=True)
                lines += [pad + line for line in text.splitlines()]
                lines[-1] += ";"
            else:
                counted = " (count)" if s.count else ""
                lines.append(f"{pad}{s.target.name} := {s.comment or 'query'}{counted}"
                             f"{_partitioned(s.target)}")
        elif isinstance(s, Append):
            lines.append(f"{pad}{c}{s.target.name} := {s.target.name} UNION ALL {s.source.name}")
        elif isinstance(s, Rename):
            lines.append(f"{pad}{c}{s.target.name} := {s.source.name}")
        elif isinstance(s, Transform):
            lines.append(f"{pad}{c}{transform_text(s)}")
        elif isinstance(s, Load):
            lines.append(f"{pad}{c}{load_text(s)}{_partitioned(s.target)}")
        elif isinstance(s, Refuse):
            lines.append(f"{pad}{c}{refuse_text(s)}")


def transform_text(s: Transform) -> str:
    """One line for a user transformer's statement (it runs Python, not SQL)."""
    return (f"{', '.join(t.name for t in s.outputs)} := transformer {s.transformer}"
            f"({', '.join(t.name for t in s.inputs)}), a Python callable on DataFrames")


def refuse_text(s: Refuse) -> str:
    """One line for a check (the runner reads the table, and fails on a row)."""
    return f"fail if {s.table.name} has a row: {s.message}"


def load_text(s: Load) -> str:
    """One line for a constant's statement (its rows are in the plan: no query)."""
    if s.failure:
        failure = " ".join(s.failure.split())  # one line, also inside a SQL comment
        return f"{s.target.name} := {s.comment}; raises when run: {failure}"
    return f"{s.target.name} := {s.comment} (loaded)"


# the printer of each stage, by the name of the pass that produces it
PRINTERS = {"ast": emit_ast, "types": emit_types, "strata": emit_strata, "ra": emit_ra,
            "plan": lambda p, d, i: emit_plan(p, d, sql=False),
            "sql": lambda p, d, i: emit_plan(p, d, sql=True)}

# what --emit offers: the stages of the pipeline that have a printer, in pipeline order
STAGES = tuple(dict.fromkeys(
    [p.name for p in PASSES + ENGINE_PASSES if p.name in PRINTERS] + ["sql"]))


def emit(program: CompiledProgram, stage: str, dialect: str, internal: bool = False) -> str:
    """The text of ``stage`` for ``program``; SQL is printed for ``dialect``.

    Relations the compiler made (an aggregation's steps, the standard library's own
    relations) are left out of ``types`` and ``strata`` and folded into the rules that
    read them in ``ra``, unless ``internal``; ``plan`` and ``sql`` always show them,
    since they are tables the statements create.
    """
    return PRINTERS[stage](program, dialect, internal)
