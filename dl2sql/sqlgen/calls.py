"""Calls, bit operations and the Python-UDF fallback of SQL generation.

A standard-library function with a SQL equivalent whose semantics match DDlog's
exactly is compiled natively (``NATIVE``); everything else — DDlog functions that could
not be inlined, user extern functions, std functions whose SQL spelling would differ
from Rust's behaviour (byte-counting ``substr``, Unicode ``trim``, float formatting) —
becomes a call of a Python UDF that runs dl2sql's interpreter, registered on both
engines under the same name. docs/udfs.md lists which constructs fall back and why.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from sqlglot import exp

from dl2sql.plan.nodes import UdfSpec
from dl2sql.runtime.defaults import default_value
from dl2sql.sqlgen.group_calls import group_native
from dl2sql.sqlgen.hof import hof_call
from dl2sql.sqlgen.trees import InsideLambda
from dl2sql.sqlgen.types import is_decimal, sql_type
from dl2sql.types.storage import has_own_order
from dl2sql.types import typed as T
from dl2sql.types.check_functions import calls_in
from dl2sql.types.model import (SET, VEC, OPTION, RESULT, TBigInt, TBit, TBool, TDouble,
                                TFloat, TFunc, TNamed, TSigned, TString, Type)
from dl2sql.types.wide_ints import is_wide
from dl2sql.udfs import interpreter


def _tag_is(index: int):
    def build(ec, args, call):
        return exp.EQ(this=exp.Dot(this=args[0], expression=exp.to_identifier("tag", True)),
                      expression=exp.Literal.number(index))
    return build


def _not_tag(index: int):
    def build(ec, args, call):
        return exp.NEQ(this=exp.Dot(this=args[0], expression=exp.to_identifier("tag", True)),
                       expression=exp.Literal.number(index))
    return build


def _unwrap_or(field: str, index: int):
    def build(ec, args, call):
        tag = exp.Dot(this=args[0], expression=exp.to_identifier("tag", True))
        value = exp.Dot(this=args[0].copy(), expression=exp.to_identifier(field, True))
        return exp.Case().when(exp.EQ(this=tag, expression=exp.Literal.number(index)),
                               value).else_(args[1])
    return build


def _scalar(t) -> bool:
    return isinstance(t, (TBool, TString, TBit, TSigned, TBigInt))


def _least_greatest(node):
    def build(ec, args, call):
        if not _scalar(call.type):
            return None
        return node(this=args[0], expressions=[args[1]])
    return build


def _to_string(ec, args, call):
    t = call.args[0].type
    if isinstance(t, TString):
        return args[0]
    if is_wide(t):
        return ec.wide.to_text(args[0])
    if _scalar(t):
        return exp.Cast(this=args[0], to=exp.DataType.build("STRING"))
    return None


def _string_fn(node):
    def build(ec, args, call):
        return node(this=args[0], expression=args[1])
    return build


def _vec_to_set(ec, args, call):
    t = call.args[0].type
    if isinstance(t, TNamed) and t.name == VEC and not has_own_order(t, ec.env):
        return ec.dialect.hof.to_set(args[0])
    return None


def _length(ec, args, call):
    """A string's length in bytes (Rust's ``len``), or the number of elements of a Vec
    or a Set (an array, a Set's without duplicates), in the call's integer type."""
    t = call.args[0].type
    if isinstance(t, TString):
        return ec.dialect.byte_length(args[0])
    if not (isinstance(t, TNamed) and t.name in (VEC, SET)) or is_wide(call.type):
        return None
    return exp.Cast(this=ec.dialect.groups.size(args[0]), to=sql_type(call.type, ec.env))


def _join(ec, args, call):
    """``join(strings, sep)``: the strings of a Vec in order, ``sep`` between them."""
    return ec.dialect.array_join(args[0], args[1])


# name -> builder(ec, compiled args, TCall) -> expression, or None to fall back to a UDF
NATIVE: dict[str, Callable] = {
    "ddlog_std::is_some": _tag_is(1),
    "ddlog_std::is_none": _tag_is(0),
    "ddlog_std::is_ok": _tag_is(0),
    "ddlog_std::is_err": _tag_is(1),
    "ddlog_std::min": _least_greatest(exp.Least),
    "ddlog_std::max": _least_greatest(exp.Greatest),
    "ddlog_std::to_string": _to_string,
    # interned values and references are stored as their contents
    "ddlog_std::intern": lambda ec, args, call: args[0],
    "ddlog_std::ival": lambda ec, args, call: args[0],
    "ddlog_std::ref_new": lambda ec, args, call: args[0],
    "ddlog_std::deref": lambda ec, args, call: args[0],
    "intern::string_intern": lambda ec, args, call: args[0],
    "intern::istring_str": lambda ec, args, call: args[0],
    "ddlog_std::to_set": _vec_to_set,
    "ddlog_std::len": _length,
    "ddlog_std::size": _length,
    "ddlog_std::string_len": _length,
    "ddlog_std::join": _join,
    "ddlog_std::starts_with": _string_fn(exp.StartsWith),
    "ddlog_std::ends_with": _string_fn(exp.EndsWith),
}


class CallCompiler:
    """Mixin of ExprCompiler: calls, UDF fallbacks, slices, shifts."""

    def visit_TCall(self, e: T.TCall):
        if any(isinstance(a.type, TFunc) for a in e.args):
            native = hof_call(self, e)
            if native is not None:
                return native
            return self.udf_expr(e)  # a closure argument travels inside the UDF's body
        args = [self.compile(a) for a in e.args]
        base = e.func.split("#", 1)[0]
        if base == "ddlog_std::default":
            return self.literal(e.type, default_value(e.type, self.env))
        if base in ("ddlog_std::unwrap_or",):
            t = e.args[0].type
            if isinstance(t, TNamed) and t.name == OPTION:
                return _unwrap_or("Some_x", 1)(self, args, e)
            if isinstance(t, TNamed) and t.name == RESULT:
                return _unwrap_or("Ok_res", 0)(self, args, e)

        native = group_native(self, e, args)
        if native is not None:
            return native
        builder = NATIVE.get(base) if e.func not in self.functions else None
        native = builder(self, args, e) if builder is not None else None
        if native is not None:
            return native
        return self.udf_call(e.func, e.targs, [a.type for a in e.args], e.type, args)

    def udf_call(self, func, targs, params, ret, args, synthetic=None) -> exp.Expression:
        """Call of the Python UDF running ``func`` (registered once per instance); a
        call without arguments is evaluated now and becomes a constant."""
        if not args and self._foldable(synthetic.body if synthetic else None, func):
            functions = dict(self.functions)
            if synthetic is not None:
                functions[("<constant>", ())] = dataclasses.replace(synthetic,
                                                                    name="<constant>")
                func = "<constant>"
            value = interpreter(self.env, functions).call(func, targs, [])
            return self.literal(ret, value)
        key = (func, targs, synthetic)
        spec = self.udfs.get(key)
        if spec is None:
            name = f"{self.udf_prefix}{len(self.udfs) + 1}"
            if synthetic is not None:  # each expression is a function of its own
                func = f"<expression {name}>"
                synthetic = dataclasses.replace(synthetic, name=func)
            spec = UdfSpec(name, func, targs, tuple(params), ret, synthetic, self.rule_span)
            self.udfs[key] = spec
        call = exp.Anonymous(this=spec.name, expressions=args)
        if self.dialect.udf_nan_is_null and isinstance(ret, (TFloat, TDouble)):
            return exp.Coalesce(this=call, expressions=[
                exp.cast(exp.Literal.string("NaN"), sql_type(ret, self.env))])
        return call

    def ddlog_sorted(self, array: exp.Expression, elem: Type, distinct: bool) -> exp.Expression:
        """``array`` (of ``elem`` values) sorted in DDlog's order by the interpreter,
        without duplicates if ``distinct``: for elements SQL orders otherwise
        (:func:`~dl2sql.sqlgen.types.has_own_order`)."""
        vec = TNamed(VEC, (elem,))
        out = TNamed(SET, (elem,)) if distinct else vec
        body = T.TCall(out, "ddlog_std::to_set" if distinct else "ddlog_std::sort_imm",
                       (T.TVarRef(vec, "p0"),), (elem,))
        fn = T.FunctionIR("<expression>", (), (("p0", vec),), (False,), out, body)
        return self.udf_call("<expression>", (), [vec], out, [array], synthetic=fn)

    def _foldable(self, body, func: str) -> bool:
        """No user extern is reachable (their results are the user's business)."""
        seen, todo = set(), ([func] if body is None else [c.func for c in calls_in(body)])
        while todo:
            f = todo.pop()
            if f in seen or f.startswith("<"):
                continue
            seen.add(f)
            fns = [fn for (name, _), fn in self.functions.items() if name == f]
            if not fns and not f.split("#", 1)[0].startswith("ddlog_std::"):
                return False
            for fn in fns:
                todo += [c.func for c in calls_in(fn.body)]
        return True

    def udf_expr(self, e: T.TExpr) -> exp.Expression:
        """Evaluate ``e`` with the interpreter: its columns become UDF parameters."""
        if self.lambda_vars and any(isinstance(x, T.TVarRef) and x.name in self.lambda_vars
                                    for x in T.subexpressions(e)):
            raise InsideLambda()  # a UDF cannot read a SQL lambda's variable
        cols: list[T.TCol] = []

        def close(n):
            if isinstance(n, T.TCol):
                if n not in cols:
                    cols.append(n)
                return T.TVarRef(n.type, f"p{cols.index(n)}")
            if isinstance(n, tuple):
                return tuple(close(x) for x in n)
            if dataclasses.is_dataclass(n) and n.__class__.__module__ == T.__name__:
                return dataclasses.replace(n, **{f.name: close(getattr(n, f.name))
                                                 for f in dataclasses.fields(n)
                                                 if f.name != "type"})
            return n
        body = close(e)
        fn = T.FunctionIR("<expression>", (), tuple((f"p{i}", c.type) for i, c in enumerate(cols)),
                          tuple(False for _ in cols), e.type, body)
        return self.udf_call("<expression>", (), [c.type for c in cols], e.type,
                             [self.compile(c) for c in cols], synthetic=fn)

    def visit_TSlice(self, e: T.TSlice):
        # bits hi..lo of a non-negative value: (x DIV 2^lo) MOD 2^width
        t = e.expr.type
        if isinstance(t, TSigned) or is_wide(t):
            return self.udf_expr(e)
        src = self.compile(e.expr)
        div = self.literal(t, 2 ** e.lo)
        shifted = (self.dialect.decimal_int_div(src, div) if is_decimal(t)
                   else exp.IntDiv(this=src, expression=div))
        out = exp.Mod(this=shifted, expression=self.literal(t, 2 ** e.type.width))
        return exp.Cast(this=out, to=sql_type(e.type, self.env))

    def shift_or_concat(self, e: T.TBin):
        """``<<``, ``>>`` and bit-vector ``++``: native for narrow values, else a UDF."""
        t = e.type
        if e.op == "++" and isinstance(t, TBit) and t.width <= 62:
            width = e.right.type.width
            l, r = self.compile(e.left), self.compile(e.right)
            return exp.Add(this=exp.Mul(this=l, expression=self.literal(t, 2 ** width)),
                           expression=r)
        return self.udf_expr(e)

