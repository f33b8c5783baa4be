"""Typed scalar expressions to sqlglot expressions (dialect-neutral trees)."""
from __future__ import annotations

import itertools
import math

from sqlglot import exp

from dl2sql.runtime.defaults import default_value
from dl2sql.runtime.encoded import encode
from dl2sql.runtime.values import Record
from dl2sql.ra.inline import has_effects
from dl2sql.ra.patterns import conjunction, match_pattern
from dl2sql.sqlgen.calls import CallCompiler
from dl2sql.sqlgen.dialects import SPARK, Dialect
from dl2sql.sqlgen.int_ranges import exact_range, value_range, within
from dl2sql.sqlgen.int_wrap import widen, wrap
from dl2sql.sqlgen.wide_ints import representation
from dl2sql.sqlgen.wide_arith import WideArith, guarded
from dl2sql.sqlgen.trees import cast, dot, struct
from dl2sql.sqlgen.types import (is_decimal, is_recursive, sql_type,
                                 struct_slots)
from dl2sql.types.storage import extern_storage
from dl2sql.types.storage import has_own_order
from dl2sql.types import typed as T
from dl2sql.types.substitute import substitute_vars
from dl2sql.types.wide_ints import is_wide
from dl2sql.types.model import (unwrapped, SET_KINDS, TRANSPARENT, MAP, VEC, TBigInt, TBit, TBool,
                                TDouble, TFloat, TNamed, TSigned, TString, TTuple, Type,
                                TypeEnv)

_COMPARE = {"==": exp.EQ, "!=": exp.NEQ, "<": exp.LT, "<=": exp.LTE, ">": exp.GT,
            ">=": exp.GTE}
_ORDERING = ("<", "<=", ">", ">=")
_BITWISE = {"&": exp.BitwiseAnd, "|": exp.BitwiseOr, "^": exp.BitwiseXor}


class ExprCompiler(WideArith, CallCompiler):
    """Compiles typed expressions for one program (needs its type environment and its
    function instances); collects the Python UDFs the expressions need in ``udfs``."""

    def __init__(self, env: TypeEnv, dialect: Dialect = SPARK, functions=None,
                 udf_prefix: str = "dl2sql_udf_"):
        self.env, self.dialect = env, dialect
        self.functions = functions or {}
        self.udfs: dict = {}
        # the UDFs' SQL names: a second set of queries of the same program (the update
        # plan) names its own apart, as both register on one runner
        self.udf_prefix = udf_prefix
        self.rule_span = None  # the rule being compiled (recorded in UdfSpecs)
        self.lambda_vars: dict = {}  # closure parameters inside a SQL lambda
        self._recursive_types: dict = {}  # type -> is_recursive (asked per node)
        # how wide integers are stored (dl2sql.sqlgen.wide_ints), and their arithmetic
        # (dl2sql.sqlgen.wide_arith): how the fallback beyond its guard is joined
        # ("lazy", "eager", or "split" while a rule's SELECT collects ``guards``; a
        # NARROW plan's fallback is failing the query: "fail")
        self.wide = representation(env, dialect)
        self.guard_mode = "fail" if self.wide.narrow else "lazy" if dialect.lazy_udfs \
            else "eager"
        self.guards: list = []
        self.lazy_udfs: set[str] = set()  # UDFs that run only where a CASE reaches them

    # ------------------------------------------------------------------ literals
    def literal(self, t: Type, v) -> exp.Expression:
        """The SQL expression for runtime value ``v`` of type ``t``."""
        if is_recursive(t, self.env):
            return self.dialect.string(encode(v, self.env))
        if isinstance(t, TBool):
            return exp.Boolean(this=bool(v))
        if isinstance(t, TString):
            return self.dialect.string(v)
        if is_wide(t):
            return self.wide.literal(v)
        if isinstance(t, (TBit, TSigned, TBigInt)):
            lit = exp.Literal.number(abs(v))
            return cast(exp.Neg(this=lit) if v < 0 else lit,
                        sql_type(t, self.env))
        if isinstance(t, (TFloat, TDouble)):
            if math.isnan(v) or math.isinf(v):
                text = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
                return cast(exp.Literal.string(text), sql_type(t, self.env))
            return cast(exp.Literal.number(repr(float(v))), sql_type(t, self.env))
        if isinstance(t, TNamed) and (t.name in (VEC, MAP) or t.name in SET_KINDS):
            elem = t.args[0] if t.name != MAP else TTuple((t.args[0], t.args[1]))
            array = exp.Array(expressions=[self.literal(elem, x) for x in v])
            return array if v else cast(array, sql_type(t, self.env))
        if isinstance(t, TNamed) and t.name in TRANSPARENT:
            return self.literal(t.args[0], v)
        if extern_storage(t) is not None:
            stored = extern_storage(t)
            return exp.Literal.string(stored.to_sql(v)) if stored.hex_digits else \
                self.literal(stored.type, v)
        if isinstance(t, TTuple):
            return self.make_tuple(t, [self.literal(e, x) for e, x in zip(t.elems, v)])
        assert isinstance(v, Record), (t, v)
        ctor = next(c for c in self.env.ctors(t) if c.name == v.ctor)
        args = [self.literal(ft, x) for (_, ft), x in zip(ctor.fields, v.fields)]
        return self.make_struct(t, v.ctor, args)

    def make_tuple(self, t: TTuple, elems: list[exp.Expression]) -> exp.Expression:
        if not elems:
            return exp.Boolean(this=True)
        return struct([(f"_{i}", e) for i, e in enumerate(elems)])

    def make_struct(self, t: Type, ctor: str, args: list[exp.Expression]) -> exp.Expression:
        """A struct/union value built with ``ctor`` (other constructors' fields hold
        their type's default value, never NULL)."""
        slots = struct_slots(t, self.env)
        if slots is None:
            return exp.Boolean(this=True)
        ctors = self.env.ctors(t)
        index = [c.name for c in ctors].index(ctor)
        given = dict(zip([n for n, _ in ctors[index].fields], args))
        pairs = []
        for s in slots:
            if s.ctor is None:
                pairs.append((s.name, self.literal(s.type, index)))
            elif s.ctor == ctor:
                pairs.append((s.name, given[s.field]))
            else:
                pairs.append((s.name, self.literal(s.type, default_value(s.type, self.env))))
        return struct(pairs)

    # ------------------------------------------------------------------ expressions
    def compile(self, e: T.TExpr) -> exp.Expression:
        """SQL for typed expression ``e`` (columns must already be resolved); what SQL
        cannot express runs in a Python UDF."""
        method = getattr(self, "visit_" + type(e).__name__, None)
        if method is None or self._through_recursive_type(e):
            return self.udf_expr(e)
        return method(e)

    def _through_recursive_type(self, e: T.TExpr) -> bool:
        """Whether ``e`` computes with values of a recursive type (linked lists built
        with ``Ref``); SQL has no type for those, so ``e`` is interpreted. Looking at
        ``e`` and its direct operands suffices: deeper ones are met when the operands
        are compiled."""
        if isinstance(e, (T.TCol, T.TConst)):
            return False
        return any(self._recursive_type(x.type) for x in [e] + T.children(e))

    def _recursive_type(self, t) -> bool:
        if t not in self._recursive_types:
            self._recursive_types[t] = is_recursive(t, self.env)
        return self._recursive_types[t]

    def visit_TConst(self, e: T.TConst):
        return self.literal(e.type, e.value)

    def visit_TVec(self, e: T.TVec):
        return exp.Array(expressions=[self.compile(x) for x in e.elems])

    def visit_TVarRef(self, e: T.TVarRef):
        if e.name in self.lambda_vars:
            return self.lambda_vars[e.name].copy()
        return self.udf_expr(e)

    def visit_TCol(self, e: T.TCol):
        return exp.column(e.column, table=e.alias, quoted=True)

    def visit_TStruct(self, e: T.TStruct):
        return self.make_struct(e.type, e.ctor, [self.compile(a) for a in e.args])

    def visit_TTupleE(self, e: T.TTupleE):
        return self.make_tuple(e.type, [self.compile(a) for a in e.elems])

    def visit_TTupleGet(self, e: T.TTupleGet):
        return dot(self.compile(e.expr), f"_{e.index}")

    def visit_TCtorField(self, e: T.TCtorField):
        slot = next(s for s in struct_slots(e.expr.type, self.env)
                    if s.ctor == e.ctor and s.field == e.field)
        return dot(self.compile(e.expr), slot.name)

    def visit_TGetField(self, e: T.TGetField):
        inner = self.compile(e.expr)
        slots = [s for s in struct_slots(e.expr.type, self.env) if s.field == e.field]
        if len(slots) == 1:
            return dot(inner, slots[0].name)
        ctors = [c.name for c in self.env.ctors(unwrapped(e.expr.type))]
        case = exp.Case(this=dot(inner, "tag"))
        for s in slots:
            case = case.when(exp.Literal.number(ctors.index(s.ctor)), dot(inner.copy(), s.name))
        return case

    def visit_TIsCtor(self, e: T.TIsCtor):
        ctors = [c.name for c in self.env.ctors(unwrapped(e.expr.type))]
        return exp.EQ(this=dot(self.compile(e.expr), "tag"),
                      expression=exp.Literal.number(ctors.index(e.ctor)))

    def visit_TIf(self, e: T.TIf):
        before = self._snapshot()
        case = exp.Case().when(self.compile(e.cond), self.compile(e.then)).else_(
            self.compile(e.els))
        if self._new_eager_udfs(before):
            # Spark evaluates Python UDFs for every row, whatever the CASE decides, so a
            # UDF under a condition could fail on rows the condition excludes: the
            # interpreter evaluates the whole conditional instead.
            self._restore(before)
            return self.udf_expr(e)
        return case

    def _snapshot(self) -> tuple:
        return dict(self.udfs), len(self.guards)

    def _restore(self, snapshot: tuple) -> None:
        self.udfs = snapshot[0]
        del self.guards[snapshot[1]:]

    def _new_eager_udfs(self, snapshot: tuple) -> bool:
        """Whether UDFs that run on every row were added since ``snapshot``."""
        return any(key not in snapshot[0] and spec.name not in self.lazy_udfs
                   for key, spec in self.udfs.items())

    def visit_TMatch(self, e: T.TMatch):
        """``match`` as a chain of conditionals, as the inliner makes of one in a
        function (dl2sql.ra.inline): each arm's pattern becomes conditions on the
        scrutinee, its variables the scrutinee's parts; the last arm needs no condition
        (the type checker makes the arms exhaustive). A match needing a UDF anywhere
        runs whole in the interpreter, for the reason given in ``visit_TIf``."""
        if has_effects(e):
            return self.udf_expr(e)
        result = None
        for pattern, body in reversed(e.arms):
            bound: dict = {}
            conds = match_pattern(pattern, e.scrutinee, self.env, bound,
                                  lambda x, s=bound: substitute_vars(x, s))
            arm = substitute_vars(body, bound)
            result = arm if result is None else T.TIf(e.type, conjunction(conds), arm, result)
        before = self._snapshot()
        out = self.compile(result)
        if self._new_eager_udfs(before):
            self._restore(before)
            return self.udf_expr(e)
        return out

    def visit_TToString(self, e: T.TToString):
        if isinstance(e.expr.type, (TFloat, TDouble)):
            return self.udf_expr(e)  # Rust's float formatting differs from SQL's
        if guarded(e.expr) and is_wide(e.expr.type):
            return self.wide_guarded(e.expr, text=e)
        if is_wide(e.expr.type):
            return self.wide.to_text(self.compile(e.expr))
        return cast(self.compile(e.expr), exp.DataType.build("STRING"))

    def visit_TUn(self, e: T.TUn):
        if guarded(e):
            return self.wide_guarded(e)
        if e.op == "~" and is_wide(e.type):
            return self.udf_expr(e)  # SQL has no bit operations on DECIMAL
        inner = self.compile(e.expr)
        if e.op == "not":
            return exp.Not(this=inner)
        if e.op == "-" and isinstance(e.type, (TFloat, TDouble)):
            return exp.Neg(this=inner)
        if e.op == "-":
            return self._wrap(exp.Neg(this=self._widen(inner, e.type, "*")), e.type, "*")
        if is_decimal(e.type):
            return self.udf_expr(e)  # SQL has no bit operations on DECIMAL
        if isinstance(e.type, TSigned):
            return exp.BitwiseNot(this=inner)  # ~x is -x-1: in range, nothing to wrap
        return self._wrap(exp.BitwiseNot(this=inner), e.type, "~")

    def visit_TCast(self, e: T.TCast):
        src, dst = e.expr.type, e.type
        if guarded(e):
            return self.wide_guarded(e)
        if is_wide(dst):  # from an integer of at most 64 bits: always small
            return self.wide.of_decimal(self.compile(e.expr))
        inner = self.compile(e.expr)
        if isinstance(dst, (TFloat, TDouble)) or isinstance(src, (TFloat, TDouble)):
            return cast(inner, sql_type(dst, self.env))
        if within(value_range(e.expr), dst):  # every value kept: nothing to wrap
            same = sql_type(src, self.env) == sql_type(dst, self.env)
            return inner if same else cast(inner, sql_type(dst, self.env))
        exact = exp.DataType.build(self.dialect.exact_int)
        return self._wrap(cast(inner, exact), dst, "cast")

    def visit_TBin(self, e: T.TBin):
        op = e.op
        if op in ("<", "<=", ">", ">=") and has_own_order(e.left.type, self.env):
            return self.udf_expr(e)  # interned strings order by their hash
        if guarded(e):
            return self.wide_guarded(e)
        if op in ("+", "-", "*") and within(exact_range(e), e.type):
            # never wraps: the operands' SQL type holds the result (BIGINT, or
            # DECIMAL(38,0) for a bit<64>)
            node = {"+": exp.Add, "-": exp.Sub, "*": exp.Mul}[op]
            return node(this=self.compile(e.left), expression=self.compile(e.right))
        if op in ("+", "-") and isinstance(e.type, (TBit, TSigned)) and not is_wide(e.type):
            terms = _sum_terms(e)
            if len(terms) > 2 or self._halves_type(e.type, len(terms)):
                return self._wrapped_sum(terms, e.type)
        l, r = self.compile(e.left), self.compile(e.right)
        if op in _COMPARE:
            return _COMPARE[op](this=l, expression=r)
        if op == "and":
            return exp.And(this=l, expression=r)
        if op == "or":
            return exp.Or(this=l, expression=r)
        if op == "=>":
            return exp.Or(this=exp.Not(this=l), expression=r)
        if op == "++" and isinstance(e.type, TString):
            return exp.Concat(expressions=[l, r])
        if op in ("++", "<<", ">>"):
            return self.shift_or_concat(e)
        if op in _BITWISE and (is_decimal(e.type) or is_wide(e.type)):
            return self.udf_expr(e)  # bit<64> and wider: SQL has no bit operations on DECIMAL
        if op in _BITWISE:
            return _BITWISE[op](this=l, expression=r)
        t = e.type
        if isinstance(t, (TFloat, TDouble)):
            if op == "/":
                # Spark divides a FLOAT as a DOUBLE: rounding the double quotient once
                # gives the correctly rounded 32-bit one (53 >= 2 * 24 + 2 bits)
                q = self.dialect.float_div(l, r)
                return cast(q, sql_type(t, self.env)) if isinstance(t, TFloat) else q
            node = {"+": exp.Add, "-": exp.Sub, "*": exp.Mul}[op]
            return node(this=l, expression=r)
        if op == "/":
            return self._int_div(l, r, t)
        if op == "%":
            return cast(exp.Mod(this=l, expression=r), sql_type(t, self.env))
        if op == "*" and isinstance(t, TBit) and t.width == 64:
            return self._wrap(self._u64_product(l, r), t, op)
        node = {"+": exp.Add, "-": exp.Sub, "*": exp.Mul}[op]
        return self._wrap(node(this=self._widen(l, t, op), expression=self._widen(r, t, op)),
                          t, op)


    def _wrap(self, e: exp.Expression, t, op: str) -> exp.Expression:
        """``e`` wrapped to ``t``'s range in this dialect (:func:`int_wrap.wrap`)."""
        return wrap(e, t, op, self.env, self.dialect.exact_int)

    def _widen(self, e: exp.Expression, t, op: str) -> exp.Expression:
        """``e`` in this dialect's exact integer type where ``op`` might overflow."""
        return widen(e, t, op, self.dialect.exact_int)

    def _wrapped_sum(self, terms: list[tuple[bool, T.TExpr]], t) -> exp.Expression:
        """A chain of ``+`` and ``-`` of one integer type of at most 64 bits, wrapped
        once: the wrap-around is arithmetic modulo 2^N, so wrapping the exact sum is
        wrapping each step; and one wrap keeps the SQL linear in the chain (a wrap per
        operator nested it as deep as the chain was long). The exact sum is kept in
        BIGINT when it fits, else in DECIMAL(38,0) (n terms of 64 bits need 65 + log2 n
        bits, far from 38 digits)."""
        big = is_decimal(t) or t.width + len(terms).bit_length() + 1 > 63
        compiled = [(negated, self.compile(term)) for negated, term in terms]
        if big and self._halves_type(t, len(terms)) and all(
                _sql_size(sql) <= _HALVES_TERM_SIZE for _, sql in compiled):
            return self._sum_by_halves(compiled, t)
        total = None
        for negated, sql in compiled:
            if big and not is_decimal(t):
                sql = cast(sql, exp.DataType.build(self.dialect.exact_int))
            if total is None:
                total = sql
            else:
                total = (exp.Sub if negated else exp.Add)(this=total, expression=sql)
        return self._wrap(total, t, "cast" if big else "+")

    def _halves_type(self, t, terms: int) -> bool:
        """Whether this dialect may sum ``terms`` terms of ``t`` by
        :meth:`_sum_by_halves`: a signed<64>, or a bit<N> stored in BIGINT that the sum
        could overflow, of few terms (each is written three times; their SQL's size is
        bounded where it is compiled, in :meth:`_wrapped_sum`)."""
        if not self.dialect.sums_by_halves or is_decimal(t) or terms > _HALVES_TERMS:
            return False
        return (isinstance(t, TSigned) and t.width == 64
                or isinstance(t, TBit) and t.width + terms.bit_length() + 1 > 63)

    def _sum_by_halves(self, terms: list[tuple[bool, exp.Expression]], t) -> exp.Expression:
        """The sum of BIGINT ``terms`` modulo 2^64 in BIGINT alone: the low 32 bits of
        the terms summed apart from the high ones, whose sum takes the carry, and shifted
        back (a shift discards what overflows, as no addition may where overflow fails
        the query). Spark's DECIMAL(38,0) wrap took some 0.8 us a value, this one as
        long as a plain sum. A bit<N> is then masked to its N bits."""
        low_bits = exp.Literal.number(2 ** 32 - 1)
        thirty_two = exp.Literal.number(32)

        def chain(parts):
            total = None
            for negated, part in parts:
                total = (part if total is None and not negated else
                         exp.Neg(this=part) if total is None else
                         (exp.Sub if negated else exp.Add)(this=total, expression=part))
            return total

        low = exp.Paren(this=chain([(n, exp.Paren(this=exp.BitwiseAnd(
            this=x.copy(), expression=low_bits.copy()))) for n, x in terms]))
        high = chain([(n, exp.Paren(this=exp.BitwiseRightShift(
            this=x, expression=thirty_two.copy()))) for n, x in terms]
                     + [(False, exp.Paren(this=exp.BitwiseRightShift(
                         this=low.copy(), expression=thirty_two.copy())))])
        shifted = exp.BitwiseLeftShift(this=exp.Paren(this=high), expression=thirty_two)
        total = exp.Paren(this=exp.BitwiseOr(this=shifted, expression=exp.Paren(
            this=exp.BitwiseAnd(this=low, expression=low_bits))))
        if isinstance(t, TBit):
            return exp.BitwiseAnd(this=total, expression=exp.Literal.number(2 ** t.width - 1))
        return total

    def _u64_product(self, l, r) -> exp.Expression:
        """``l * r`` modulo 2^64 for bit<64> operands: their full product (up to
        2^128) does not fit DECIMAL(38,0), so ``l`` is split at bit 32 and the high
        half's product reduced before it is shifted back,
        ``(l DIV 2^32 * r MOD 2^64) * 2^32 + l MOD 2^32 * r`` (below 2^97)."""
        dec = exp.DataType.build("DECIMAL(38, 0)")
        half, full = cast(exp.Literal.number(2 ** 32), dec), cast(exp.Literal.number(2 ** 64), dec)
        high = exp.Mod(this=exp.Mul(this=self.dialect.decimal_int_div(l, half), expression=r),
                       expression=full)
        low = exp.Mul(this=exp.Mod(this=l.copy(), expression=half.copy()), expression=r.copy())
        return exp.Add(this=exp.Mul(this=high, expression=half.copy()), expression=low)

    def _int_div(self, l, r, t: Type) -> exp.Expression:
        """Integer division truncating toward zero; ``MIN / -1`` wraps like DDlog."""
        if is_decimal(t):
            return self.dialect.decimal_int_div(l, r)
        out = exp.IntDiv(this=l, expression=r)
        if isinstance(t, TSigned) and t.width == 64:
            # the only BIGINT overflow: MIN / -1, whose wrapped result is MIN itself
            minimum = self.literal(t, -2**63)
            return exp.Case().when(exp.And(this=exp.EQ(this=l.copy(), expression=minimum),
                                           expression=exp.EQ(this=r.copy(),
                                                             expression=self.literal(t, -1))),
                                   minimum.copy()).else_(out)
        return self._wrap(out, t, "/") if isinstance(t, TSigned) else out


# a sum by halves writes each term three times: only of a few terms whose SQL is a few
# nodes each (a column is 3; a term wrapped by DECIMAL remainders some 30 or more)
_HALVES_TERMS = 16
_HALVES_TERM_SIZE = 16


def _sql_size(sql: exp.Expression) -> int:
    """The number of nodes of ``sql``, counted up to one past
    :data:`_HALVES_TERM_SIZE`."""
    return sum(1 for _ in itertools.islice(sql.walk(), _HALVES_TERM_SIZE + 1))


def _sum_terms(e: T.TBin) -> list[tuple[bool, T.TExpr]]:
    """The terms of the chain of ``+`` and ``-`` of ``e``'s type rooted at ``e``, each
    with whether it is subtracted, left to right (the first never is)."""
    out: list[tuple[bool, T.TExpr]] = []
    pending: list[tuple[bool, T.TExpr]] = [(False, e)]
    while pending:  # a stack, not recursion: a chain may be thousands of terms long
        negated, x = pending.pop()
        if isinstance(x, T.TBin) and x.op in ("+", "-") and x.type == e.type \
                and not guarded(x):
            pending.append((negated != (x.op == "-"), x.right))
            pending.append((negated, x.left))
        else:
            out.append((negated, x))
    return out

