"""Expression, literal and type parts of the lark-tree -> AST transformer.

:class:`ExprBuilder` is a mixin of :class:`dl2sql.syntax.build_ast.Builder`; each
method receives the rule's ``meta`` (positions) and its already transformed children.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace

from lark import Token, Transformer, v_args

from dl2sql.ast import nodes as n
from dl2sql.diagnostics import Span, error
from dl2sql.syntax.strings import StringError, decode_quoted, split_interpolation

RESERVED = frozenset("""
_ Aggregate and apply as bigint bit bool break continue double else extern false FlatMap
float for function if import in input Inspect multiset mut not or output relation return
signed skip stream string transformer true typedef var
abstract async await become box const crate do dyn final fn impl let loop macro match
mod move override priv pub ref self Self static struct super trait try type typeof
unsafe unsized use virtual where while yield
""".split())

_TYPE_CLASSES = (n.TBoolE, n.TStringE, n.TBigIntE, n.TBitE, n.TSignedE, n.TFloatE,
                 n.TDoubleE, n.TTupleE, n.TNameE, n.TVarE, n.TFunctionE)
_BITLIT = re.compile(r"([0-9_]*)'(s?)([bodh])(.*)")
_RADIX = {"b": 2, "o": 8, "d": 10, "h": 16}


class SpanMaker:
    """Turns absolute character offsets of one source text into :class:`Span` s."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def pos(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of ``offset``."""
        line = bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def span(self, start: int, end: int) -> Span:
        """The span covering ``[start, end)``."""
        line, col = self.pos(start)
        end_line, end_col = self.pos(max(start, end))
        return Span(self.path, line, col, end_line, end_col)


def is_type(x) -> bool:
    """Whether ``x`` is a type-expression node."""
    return isinstance(x, _TYPE_CLASSES)


def to_pattern(e):
    """Bare names in match/for patterns declare variables (as upstream parses them)."""
    if isinstance(e, n.EVar) and "::" not in e.name:
        return n.EVarDecl(e.span, e.name)
    if isinstance(e, n.ETuple):
        return replace(e, elems=tuple(to_pattern(x) for x in e.elems))
    if isinstance(e, n.EStruct):
        return replace(e, args=tuple(replace(a, value=to_pattern(a.value)) for a in e.args))
    if isinstance(e, n.ETyped):
        inner = to_pattern(e.expr)
        if isinstance(inner, n.EVarDecl) and inner.type is None:
            return n.EVarDecl(e.span, inner.name, e.type)
        return replace(e, expr=inner)
    if isinstance(e, n.EBinding):
        return replace(e, pattern=to_pattern(e.pattern))
    if isinstance(e, n.ERef):
        return replace(e, expr=to_pattern(e.expr))
    return e


def _exprs(children):
    return tuple(c for c in children if c is not None and not isinstance(c, Token))


@v_args(meta=True)
class ExprBuilder(Transformer):
    """Expression/type/literal callbacks; see :class:`Builder` for the state it uses."""

    sm: SpanMaker
    base: int

    # ------------------------------------------------------------ helpers
    def sp(self, meta) -> Span:
        return self.sm.span(self.base + meta.start_pos, self.base + meta.end_pos)

    def tsp(self, tok: Token) -> Span:
        return self.sm.span(self.base + tok.start_pos, self.base + tok.end_pos)

    def name(self, tok: Token) -> str:
        """The identifier text of ``tok``; reserved words are rejected."""
        text = str(tok)
        last = text.rsplit("::", 1)[-1]
        if last in RESERVED or any(p in RESERVED for p in text.split("::")[:-1]):
            raise error(self.tsp(tok), f"syntax error: `{last}` is a reserved word and "
                                       "cannot be used as an identifier")
        return text

    def dotname(self, tok: Token) -> str:
        return self.name(Token(tok.type, str(tok)[1:], start_pos=tok.start_pos + 1,
                               end_pos=tok.end_pos))

    # ------------------------------------------------------------ operators
    def _binop(self, meta, ch):
        if len(ch) == 2:
            return n.EUnOp(self.sp(meta), str(ch[0]), ch[1])
        return n.EBinOp(self.sp(meta), str(ch[1]), ch[0], ch[2])

    impl = disj = conj = bor = bxor = band = cmp = eqc = concat = shift = add = mul = _binop
    lnot = bnot = neg = _binop

    def assign_op(self, meta, ch):
        return n.EAssign(self.sp(meta), ch[0], ch[1])

    def ref_op(self, meta, ch):
        return n.ERef(self.sp(meta), ch[0])

    # ------------------------------------------------------------ postfix
    def slice(self, meta, ch):
        return n.ESlice(self.sp(meta), ch[0], int(ch[1].replace("_", "")),
                        int(ch[2].replace("_", "")))

    def typed(self, meta, ch):
        e, t = ch
        if isinstance(e, n.EVarDecl) and e.type is None:
            return n.EVarDecl(self.sp(meta), e.name, t)
        return n.ETyped(self.sp(meta), e, t)

    def cast(self, meta, ch):
        return n.ECast(self.sp(meta), ch[0], ch[1])

    def dotcall(self, meta, ch):
        return n.EDotCall(self.sp(meta), ch[0], self.dotname(ch[1]), ch[2])

    def field_access(self, meta, ch):
        if "::" in ch[1]:
            raise error(self.tsp(ch[1]), "syntax error: a field name cannot be qualified")
        return n.EField(self.sp(meta), ch[0], self.dotname(ch[1]))

    def tuple_idx(self, meta, ch):
        return n.ETupleIdx(self.sp(meta), ch[0], int(ch[1][1:]))

    def apply(self, meta, ch):
        callee, args = ch
        span = self.sp(meta)
        # `(f)(x)` applies an expression; only a bare name is a function call.
        bare = (callee.span.line, callee.span.col) == (span.line, span.col)
        if isinstance(callee, n.EVar) and bare:
            return n.ECall(span, callee.name, args)
        return n.EApply(span, callee, args)

    def try_op(self, meta, ch):
        return n.ETry(self.sp(meta), ch[0])

    def args(self, meta, ch):
        return _exprs(ch)

    # ------------------------------------------------------------ terms
    def var(self, meta, ch):
        return n.EVar(self.sp(meta), self.name(ch[0]))

    def wild(self, meta, ch):
        return n.EWild(self.sp(meta))

    def var_decl(self, meta, ch):
        return n.EVarDecl(self.sp(meta), self.name(ch[0]))

    def struct_braced(self, meta, ch):
        return n.EStruct(self.sp(meta), self.name(ch[0]),
                         tuple(c for c in ch[1:] if c is not None))

    def struct_bare(self, meta, ch):
        return n.EStruct(self.sp(meta), self.name(ch[0]), (), braces=False)

    def named_arg(self, meta, ch):
        if "::" in ch[0]:
            raise error(self.tsp(ch[0]), "syntax error: a field name cannot be qualified")
        return n.FieldArg(self.sp(meta), self.dotname(ch[0]), ch[1])

    def pos_arg(self, meta, ch):
        return n.FieldArg(self.sp(meta), None, ch[0])

    def paren(self, meta, ch):
        elems = _exprs(ch)
        if len(elems) == 1:
            return elems[0]
        return n.ETuple(self.sp(meta), elems)

    def block(self, meta, ch):
        items = _exprs(ch)
        trailing = bool(ch) and isinstance(ch[-1], Token) and ch[-1].type == "SEMI"
        return n.EBlock(self.sp(meta), items, trailing)

    def match_expr(self, meta, ch):
        return n.EMatch(self.sp(meta), ch[0], tuple(ch[1:]))

    def arm(self, meta, ch):
        return n.MatchArm(self.sp(meta), to_pattern(ch[0]), ch[1])

    def if_expr(self, meta, ch):
        return n.EIf(self.sp(meta), ch[0], ch[1], ch[2] if len(ch) > 2 else None)

    def for_expr(self, meta, ch):
        return n.EFor(self.sp(meta), to_pattern(ch[0]), ch[1], ch[2])

    def continue_expr(self, meta, ch):
        return n.EContinue(self.sp(meta))

    def break_expr(self, meta, ch):
        return n.EBreak(self.sp(meta))

    def return_expr(self, meta, ch):
        return n.EReturn(self.sp(meta), ch[0] if ch else None)

    def vec_lit(self, meta, ch):
        return n.EVec(self.sp(meta), _exprs(ch))

    def map_lit(self, meta, ch):
        return n.EMapLit(self.sp(meta), tuple(ch))

    def map_entry(self, meta, ch):
        return (ch[0], ch[1])

    def closure(self, meta, ch):
        params = tuple(c for c in ch if isinstance(c, n.ClosureParam))
        ret = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "ret"),
                   None)
        return n.EClosure(self.sp(meta), params, ret, ch[-1])

    def cparam(self, meta, ch):
        mut = any(isinstance(c, Token) and c.type == "MUT" for c in ch[1:])
        typ = next((c for c in ch[1:] if is_type(c)), None)
        return n.ClosureParam(self.sp(meta), self.name(ch[0]), typ, mut)

    def binding(self, meta, ch):
        return n.EBinding(self.sp(meta), self.name(ch[0]), ch[1])

    def flatmap(self, meta, ch):
        return n.ECall(self.sp(meta), "FlatMap", (ch[0],))

    def aggregate(self, meta, ch):
        return n.ECall(self.sp(meta), "Aggregate", (ch[0], ch[1]))

    # ------------------------------------------------------------ literals
    def true_lit(self, meta, ch):
        return n.EBool(self.sp(meta), True)

    def false_lit(self, meta, ch):
        return n.EBool(self.sp(meta), False)

    def int_lit(self, meta, ch):
        tok = ch[0]
        text = str(tok)
        if tok.type == "INT":
            return n.EInt(self.sp(meta), int(text.replace("_", "")))
        width_s, signed, radix, digits = _BITLIT.fullmatch(text).groups()
        value = int(digits.replace("_", ""), _RADIX[radix])
        width = int(width_s.replace("_", "")) if width_s else None
        if width is not None:
            if width == 0:
                raise error(self.sp(meta), "integer literal width must be > 0")
            if value.bit_length() > width:
                raise error(self.sp(meta), f"value {value} exceeds the specified width "
                                           f"{width}")
        return n.EInt(self.sp(meta), value, width, bool(signed))

    def float_lit(self, meta, ch):
        text = str(ch[0])
        if ch[0].type == "FLOAT":
            return n.EFloat(self.sp(meta), float(text))
        width_s, num = text.split("'f")
        width = int(width_s.replace("_", "")) if width_s else None
        if width not in (None, 32, 64):
            raise error(self.sp(meta), "only 32- and 64-bit floating point literals "
                                       "are supported")
        return n.EFloat(self.sp(meta), float(num), width)

    def string_lit(self, meta, ch):
        span = self.sp(meta)
        interned = str(ch[0]).startswith("i")
        text: list[str] = []
        offs: list[int] = []
        try:
            for tok in ch:
                raw = str(tok)[1:] if str(tok).startswith("i") else str(tok)
                start = self.base + tok.end_pos - len(raw)
                if raw.startswith('"'):
                    t, o = decode_quoted(raw[1:-1], start + 1)
                elif raw.startswith("[|"):
                    return n.EString(span, raw[2:-2], interned)
                else:
                    t, o = raw[3:-2], list(range(start + 3, start + len(raw) - 2))
                text.append(t)
                offs.extend(o)
            full = "".join(text)
            pieces = split_interpolation(full, offs)
        except StringError as exc:
            raise error(self.sm.span(exc.offset, exc.offset + 1), f"syntax error: {exc}")
        if pieces is None:
            return n.EString(span, full, interned)
        parts = []
        for p in pieces:
            parts.append(p if isinstance(p, str) else self.parse_sub(p[0], p[1]))
        return n.EInterp(span, tuple(parts), interned)

    def parse_sub(self, text: str, offset: int):
        raise NotImplementedError  # provided by Builder

    # ------------------------------------------------------------ types
    def type(self, meta, ch):
        return ch[0]

    itype = type

    def tvar(self, meta, ch):
        return n.TVarE(self.sp(meta), str(ch[0])[1:])

    def tbool(self, meta, ch):
        return n.TBoolE(self.sp(meta))

    def tstring(self, meta, ch):
        return n.TStringE(self.sp(meta))

    def tbigint(self, meta, ch):
        return n.TBigIntE(self.sp(meta))

    def tfloat(self, meta, ch):
        return n.TFloatE(self.sp(meta))

    def tdouble(self, meta, ch):
        return n.TDoubleE(self.sp(meta))

    def tbit(self, meta, ch):
        return n.TBitE(self.sp(meta), int(ch[0].replace("_", "")))

    def tsigned(self, meta, ch):
        return n.TSignedE(self.sp(meta), int(ch[0].replace("_", "")))

    def ttuple(self, meta, ch):
        elems = tuple(c for c in ch if c is not None)
        return elems[0] if len(elems) == 1 else n.TTupleE(self.sp(meta), elems)

    def tname_outer(self, meta, ch):
        return n.TNameE(self.sp(meta), self.name(ch[0]),
                        tuple(c for c in ch[1:] if c is not None))

    tname_inner = tname_outer

    def ftparam(self, meta, ch):
        return n.FuncParamT(self.sp(meta), ch[-1], len(ch) == 2)

    def tfunc(self, meta, ch):
        params = tuple(c for c in ch if isinstance(c, n.FuncParamT))
        ret = next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "ret"),
                   None)
        return n.TFunctionE(self.sp(meta), params, ret)

    def ret_type(self, meta, ch):
        return ("ret", ch[0])

    iret_type = ret_type
