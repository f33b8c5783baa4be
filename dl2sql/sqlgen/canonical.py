"""Input columns in dl2sql's canonical form, checked on the way in.

Equality, ``DISTINCT`` and anti-joins compare stored values field by field, so a value
has exactly one stored form (docs/sql-mapping.md): sets sorted without duplicates, maps
sorted by key, the fields of a union's unused constructors holding their defaults, and
no NULL anywhere. Rows computed by dl2sql are built that way; rows read from a
DataFrame, a table or a file are not: a JSON line naturally omits the unused
constructors' fields (NULL), a Parquet writer may store a set unsorted. Taking them as
they are gives silently wrong results, so every input column is read through
:func:`input_projection`, which rewrites the value into canonical form and fails the
query, naming the relation and column and showing the value, where no canonical form
exists: a NULL where a value must be, a tag naming no constructor, a map with two
entries for one key.
"""
from __future__ import annotations

from itertools import count

from sqlglot import exp

from dl2sql.diagnostics import InputError
from dl2sql.sqlgen.exprs import ExprCompiler
from dl2sql.sqlgen.precedence import parenthesize
from dl2sql.sqlgen.trees import dot, struct
from dl2sql.sqlgen.types import is_recursive, struct_slots
from dl2sql.types.model import (GROUP, MAP, SET, VEC, TBit, TNamed, TSigned, TTuple, Type,
                                TypeEnv, unwrapped)
from dl2sql.runtime.defaults import default_value
from dl2sql.types.storage import has_own_order
from dl2sql.sqlgen import wide_ints as sql_wide
from dl2sql.types.text_values import INTEGER, integer_range, sql_pattern
from dl2sql.types.wide_ints import is_wide

# Engine error messages carry this before dl2sql's own text (see :func:`input_failure`).
MARKER = "dl2sql-bad-input:"


def input_projection(relation: str, columns: list[tuple[str, Type]], env: TypeEnv,
                     dialect) -> list[exp.Expression]:
    """One ``expr AS column`` per column of ``relation``: the input column (read by
    name) in canonical form, or a query failure whose message starts with
    :data:`MARKER` where the value has no canonical form."""
    canon = _Canon(env, dialect)
    for name, t in columns:
        if canon.has_own_order(t):
            # a HashSet's stored order is its hash order, which SQL cannot compute
            raise InputError(f"input relation `{relation}`: column `{name}` has type `{t}`, "
                             f"whose HashSet or Set64 values dl2sql cannot read from a "
                             f"DataFrame, a table or a file yet (.dat input can hold them)")
    return [parenthesize(_column(relation, name, t, canon)) for name, t in columns]


def input_failure(error: BaseException) -> str | None:
    """dl2sql's message inside an engine error raised by an input projection, or None
    when ``error`` is something else."""
    text = str(error)
    at = text.find(MARKER)
    if at < 0:
        return None
    rest = text[at + len(MARKER):].strip()
    # engines append context after the message (quotes, SQLSTATE, a newline)
    for end in ("\n", "'. SQLSTATE", "\". SQLSTATE", " SQLSTATE"):
        if end in rest:
            rest = rest[:rest.index(end)]
    return rest.rstrip("'\".")


def _column(relation: str, name: str, t: Type, c: "_Canon") -> exp.Expression:
    col = exp.column(name, quoted=True)
    problems = ["NULL"] + (["a tag that names no constructor"] if c.has_union(t) else []) \
        + (["two entries for one key"] if c.has_map(t) else []) \
        + (["a number out of its type's range"] if c.has_narrow_integer(t) else []) \
        + (["text that is not an integer of its type"] if c.has_wide(t) else [])
    shown = exp.Coalesce(this=exp.Cast(this=col.copy(), to=exp.DataType.build("TEXT")),
                         expressions=[exp.Literal.string("NULL")])
    holds = exp.DPipe(this=exp.Literal.string(
        f"{MARKER} input relation `{relation}`: column `{name}` holds "
        f"{' or '.join(problems)} in value "), expression=shown, safe=True)
    message = exp.Case(ifs=[exp.If(this=exp.Is(this=col.copy(), expression=exp.Null()),
                                   true=exp.Literal.string(
                                       f"{MARKER} input relation `{relation}`: column "
                                       f"`{name}` has no value (missing or NULL)"))],
                       default=holds)
    value = exp.Case(ifs=[exp.If(this=c.invalid(col, t), true=c.dialect.fail(message))],
                     default=c.canonical(col, t))
    return exp.alias_(value, name, quoted=True)


def _range(t: Type) -> tuple[int, int] | None:
    """The range of integer type ``t`` where its SQL column holds more, else None
    (wide integers are read from text, checked by :meth:`_Canon.invalid`)."""
    if not isinstance(t, (TBit, TSigned)) or is_wide(t):
        return None
    low, high = integer_range(t)
    return None if (low, high) == (-2 ** 63, 2 ** 63 - 1) else (low, high)


class _Canon:
    """The canonicalising and checking expressions for one type environment."""

    def __init__(self, env: TypeEnv, dialect):
        self.env, self.dialect = env, dialect
        self.literals = ExprCompiler(env, dialect, {})
        self.names = count()

    # -- what a type contains --------------------------------------------------
    def _parts(self, t: Type) -> list[Type]:
        t = unwrapped(t)
        if is_recursive(t, self.env):
            return []
        if isinstance(t, TNamed) and t.name in (VEC, SET):
            return list(t.args)
        if isinstance(t, TNamed) and t.name == MAP:
            return [TTuple((t.args[0], t.args[1]))]
        if isinstance(t, TNamed) and t.name == GROUP:  # STRUCT<key, vals>
            return [t.args[0], TNamed(VEC, (t.args[1],))]
        return [s.type for s in struct_slots(t, self.env) or () if s.ctor is not None
                or isinstance(t, TTuple)]

    def _any(self, t: Type, test) -> bool:
        return test(unwrapped(t)) or any(self._any(p, test) for p in self._parts(t))

    def _union(self, t: Type) -> bool:
        return isinstance(t, TNamed) and t.name in self.env.defs and \
            not self.env.defs[t.name].extern and len(self.env.ctors(t)) > 1

    def _unit(self, t: Type) -> bool:
        """Values stored as TRUE: the empty tuple, a constructor without fields."""
        if isinstance(t, TTuple):
            return not t.elems
        return isinstance(t, TNamed) and t.name in self.env.defs and \
            not self.env.defs[t.name].extern and struct_slots(t, self.env) is None

    def has_union(self, t: Type) -> bool:
        """Whether values of ``t`` contain tagged unions."""
        return self._any(t, self._union)

    def has_narrow_integer(self, t: Type) -> bool:
        """Whether values of ``t`` contain integers whose type is narrower than their
        SQL column (``bit<8>`` in a BIGINT): the column holds values DDlog cannot."""
        return self._any(t, lambda u: _range(u) is not None)

    def has_wide(self, t: Type) -> bool:
        """Whether values of ``t`` contain wide integers (read from their text)."""
        return self._any(t, is_wide)

    def has_own_order(self, t: Type) -> bool:
        """Whether values of ``t`` contain sets that SQL cannot put in order."""
        return has_own_order(unwrapped(t), self.env)

    def has_map(self, t: Type) -> bool:
        """Whether values of ``t`` contain maps."""
        return self._any(t, lambda u: isinstance(u, TNamed) and u.name == MAP)

    def _needs_rewrite(self, t: Type) -> bool:
        return self._any(t, lambda u: self._union(u) or self._unit(u) or is_wide(u) or (
            isinstance(u, TNamed) and u.name in (SET, MAP)))

    def _ctors(self, t: Type) -> list[str]:
        """Constructor names of ``t`` in declaration order (their tags); none for tuples."""
        return [] if isinstance(t, TTuple) else [c.name for c in self.env.ctors(t)]

    def _in_use(self, e: exp.Expression, t: Type, ctor: str) -> exp.Expression:
        """TRUE where the union value ``e`` of type ``t`` was built with ``ctor``."""
        return exp.EQ(this=dot(e.copy(), "tag"),
                      expression=exp.Literal.number(self._ctors(t).index(ctor)))

    def _lambda(self, body_of) -> exp.Lambda:
        var = exp.to_identifier(f"__in{next(self.names)}")
        return exp.Lambda(this=body_of(var), expressions=[var.copy()])

    def _size(self, e: exp.Expression) -> exp.Expression:
        return self.dialect.groups.size(e)

    # -- canonical form --------------------------------------------------------
    def canonical(self, e: exp.Expression, t: Type) -> exp.Expression:
        """``e`` (of type ``t``, already checked) in canonical form."""
        t = unwrapped(t)
        if not self._needs_rewrite(t):
            return e
        if self._unit(t):
            return exp.true()
        if is_wide(t):  # its stored form: a pair, or NARROW a DECIMAL (beyond: overflow)
            return self.literals.wide.of_text(sql_wide.Text(e))
        if isinstance(t, TNamed) and t.name == GROUP:
            return struct([(name, self.canonical(dot(e.copy(), name), part))
                           for name, part in zip(("key", "vals"), self._parts(t))])
        if isinstance(t, TNamed) and t.name in (VEC, SET, MAP):
            elem = self._parts(t)[0]
            out = e
            if self._needs_rewrite(elem):
                out = self.dialect.hof.transform(e, self._lambda(
                    lambda x: self.canonical(x, elem)))
            return out if t.name == VEC else self.dialect.hof.to_set(out)
        slots = struct_slots(t, self.env)
        if slots is None:
            return e
        union = self._union(t)
        pairs = []
        for s in slots:
            field = dot(e.copy(), s.name)
            if s.ctor is None or not union:
                pairs.append((s.name, self.canonical(field, s.type)))
                continue
            default = self.literals.literal(s.type, default_value(s.type, self.env))
            pairs.append((s.name, exp.Case(ifs=[exp.If(
                this=self._in_use(e, t, s.ctor), true=self.canonical(field, s.type))],
                default=default)))
        return struct(pairs)

    # -- validity --------------------------------------------------------------
    def invalid(self, e: exp.Expression, t: Type) -> exp.Expression:
        """TRUE where ``e`` (of type ``t``) has no canonical form."""
        t = unwrapped(t)
        tests: list[exp.Expression] = [exp.Is(this=e.copy(), expression=exp.Null())]
        if isinstance(t, TNamed) and t.name in (VEC, SET, MAP) and \
                not is_recursive(t, self.env):
            elem = self._parts(t)[-1]
            bad = self.dialect.hof.filter(e.copy(), self._lambda(
                lambda x: self.invalid(x, elem)))
            tests.append(exp.GT(this=self._size(bad), expression=exp.Literal.number(0)))
            if t.name == MAP:
                keys = self.dialect.hof.transform(e.copy(), self._lambda(
                    lambda x: dot(x, "_0")))
                tests.append(exp.NEQ(this=self._size(self.dialect.hof.to_set(keys)),
                                     expression=self._size(self.dialect.hof.to_set(e.copy()))))
        elif isinstance(t, TNamed) and t.name == GROUP:
            tests += [self.invalid(dot(e.copy(), name), part)
                      for name, part in zip(("key", "vals"), self._parts(t))]
        elif is_wide(t):
            tests.append(exp.Not(this=exp.RegexpLike(this=e.copy(), expression=exp.Literal.string(
                sql_pattern(INTEGER)))))
            bounds = integer_range(t)
            if bounds is not None:
                tests.append(exp.Not(this=sql_wide.Text(e.copy()).in_range(*bounds)))
            # a CASE: the range test reads the text as a number only where it is one
            return exp.Case(ifs=[exp.If(this=x, true=exp.true()) for x in tests],
                            default=exp.false())
        elif _range(t) is not None:
            low, high = _range(t)
            tests.append(exp.Not(this=exp.Between(
                this=e.copy(), low=exp.Literal.number(low), high=exp.Literal.number(high))))
        elif not is_recursive(t, self.env):
            tests += self._struct_problems(e, t)
        return exp.or_(*tests) if len(tests) > 1 else tests[0]

    def _struct_problems(self, e: exp.Expression, t: Type) -> list[exp.Expression]:
        slots = struct_slots(t, self.env)
        if slots is None:
            return []
        union = self._union(t)
        out: list[exp.Expression] = []
        for s in slots:
            field = dot(e.copy(), s.name)
            if s.ctor is None and s.name == "tag" and union:
                out.append(exp.Not(this=exp.Between(
                    this=field, low=exp.Literal.number(0),
                    high=exp.Literal.number(len(self._ctors(t)) - 1))))
                out.append(exp.Is(this=field.copy(), expression=exp.Null()))
            elif s.ctor is not None and union:
                out.append(exp.and_(self._in_use(e, t, s.ctor),
                                    self.invalid(field, s.type)))
            else:
                out.append(self.invalid(field, s.type))
        return out
