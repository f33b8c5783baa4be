"""Lark parse tree -> :mod:`dl2sql.ast.nodes` (declarations, rules, FTL statements).

Expressions, literals and types are handled by :class:`ExprBuilder`. Spans come from
lark's absolute character offsets (``start_pos``/``end_pos``), shifted by ``base`` when
the tree was parsed from an interpolation inside a string literal.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from lark import Token, v_args

from dl2sql.ast import nodes as n
from dl2sql.syntax.build_expr import ExprBuilder, SpanMaker, to_pattern

_ATTR_NODES = (n.TypeDef, n.RelationDecl, n.FunctionDef, n.Rule)


def _tok(ch, *types):
    return next((c for c in ch if isinstance(c, Token) and c.type in types), None)


def _ret(ch):
    return next((c[1] for c in ch if isinstance(c, tuple) and c and c[0] == "ret"), None)


@v_args(meta=True)
class Builder(ExprBuilder):
    """Builds AST nodes for one parse; ``parse_sub`` parses interpolated expressions."""

    def __init__(self, sm: SpanMaker, base: int, module_name: str,
                 parse_sub: Callable[[str, int], n.Expr]):
        super().__init__()
        self.sm = sm
        self.base = base
        self.module_name = module_name
        self._parse_sub = parse_sub

    def parse_sub(self, text: str, offset: int):
        return self._parse_sub(text, offset)

    # ------------------------------------------------------------ module
    def start(self, meta, ch):
        span = self.sm.span(0, 0) if meta.empty else self.sp(meta)
        return n.Module(span, self.module_name, tuple(ch))

    def expr_only(self, meta, ch):
        return ch[0]

    def decl(self, meta, ch):
        attrs = ch[0] if len(ch) == 2 else ()
        item = ch[-1]
        if isinstance(item, n.SFor):
            return n.ForStatement(item.span, item)
        if attrs and isinstance(item, _ATTR_NODES):
            item = replace(item, attrs=attrs)
        return item

    def attrs(self, meta, ch):
        return tuple(ch)

    def attribute(self, meta, ch):
        return n.Attribute(self.sp(meta), str(ch[0]), ch[1] if len(ch) > 1 else None)

    def import_decl(self, meta, ch):
        return n.Import(self.sp(meta), ch[0], ch[1] if len(ch) > 1 else None)

    def mod_path(self, meta, ch):
        return self.name(ch[0])

    # ------------------------------------------------------------ types
    def typedef(self, meta, ch):
        params = ch[1] if len(ch) == 3 else ()
        kind, value = ch[-1]
        if kind == "ctors":
            return n.TypeDef(self.sp(meta), self.name(ch[0]), params, ctors=value)
        return n.TypeDef(self.sp(meta), self.name(ch[0]), params, alias=value)

    def extern_type(self, meta, ch):
        params = ch[1] if len(ch) == 2 else ()
        return n.TypeDef(self.sp(meta), self.name(ch[0]), params, extern=True)

    def tparams(self, meta, ch):
        return tuple(str(c)[1:] for c in ch if c is not None)

    def ctors(self, meta, ch):
        return ("ctors", tuple(ch))

    def alias(self, meta, ch):
        return ("alias", ch[0])

    def _ctor(self, meta, ch):
        attrs = ch[0] if isinstance(ch[0], tuple) else ()
        rest = ch[1:] if isinstance(ch[0], tuple) else ch
        fields = tuple(c for c in rest[1:] if c is not None)
        return n.Constructor(self.sp(meta), self.name(rest[0]), fields, attrs)

    ctor_braced = ctor_bare = _ctor

    def field(self, meta, ch):
        attrs = ch[0] if isinstance(ch[0], tuple) else ()
        rest = ch[1:] if isinstance(ch[0], tuple) else ch
        return n.Field(self.sp(meta), self.name(rest[0]), rest[1], attrs)

    # ------------------------------------------------------------ relations
    def role(self, meta, ch):
        return ("role", str(ch[0]))

    def kind(self, meta, ch):
        return ("kind", str(ch[0]))

    def relation(self, meta, ch):
        role = next((c[1] for c in ch if isinstance(c, tuple) and c[0] == "role"),
                    "internal")
        kind = next(c[1] for c in ch if isinstance(c, tuple) and c[0] == "kind")
        name = self.name(_tok(ch, "UCID", "QUCID"))
        shape, value = next(c for c in ch if isinstance(c, tuple) and c[0] in
                            ("fields", "record"))
        pkey = next((c for c in ch if isinstance(c, n.PrimaryKey)), None)
        ref = _tok(ch, "REF") is not None
        if shape == "fields":
            return n.RelationDecl(self.sp(meta), role, kind, name, fields=value, ref=ref,
                                  primary_key=pkey)
        return n.RelationDecl(self.sp(meta), role, kind, name, record_type=value,
                              ref=ref, primary_key=pkey)

    def rel_fields(self, meta, ch):
        return ("fields", tuple(c for c in ch if c is not None))

    def rel_record(self, meta, ch):
        return ("record", ch[0])

    def primary_key(self, meta, ch):
        return n.PrimaryKey(self.sp(meta), self.name(ch[0]), ch[1])

    # ------------------------------------------------------------ functions
    def function(self, meta, ch):
        return n.FunctionDef(self.sp(meta), self.name(ch[0]), ch[1], _ret(ch), ch[-1])

    def extern_function(self, meta, ch):
        return n.FunctionDef(self.sp(meta), self.name(ch[0]), ch[1], _ret(ch), None,
                             extern=True)

    def body_expr(self, meta, ch):
        return ch[0]

    def params(self, meta, ch):
        return tuple(c for c in ch if c is not None)

    def param(self, meta, ch):
        attrs = ch[0] if isinstance(ch[0], tuple) else ()
        rest = ch[1:] if isinstance(ch[0], tuple) else ch
        return n.Param(self.sp(meta), self.name(rest[0]), rest[-1],
                       _tok(rest, "MUT") is not None, attrs)

    # ------------------------------------------------------------ misc declarations
    def index_decl(self, meta, ch):
        fields = tuple(c for c in ch[1:-1] if c is not None)
        return n.IndexDecl(self.sp(meta), self.name(ch[0]), fields, ch[-1])

    def transformer(self, meta, ch):
        return n.TransformerDecl(self.sp(meta), self.name(ch[0]), ch[1], ch[2])

    def targs(self, meta, ch):
        return tuple(c for c in ch if c is not None)

    def targ(self, meta, ch):
        relation, params, ret = ch[1]
        return n.TransformerParam(self.sp(meta), self.name(ch[0]), relation, params, ret)

    def hotype_relation(self, meta, ch):
        return (ch[0], (), None)

    def hotype_function(self, meta, ch):
        return (None, ch[0], ch[1])

    def apply_decl(self, meta, ch):
        return n.ApplyDecl(self.sp(meta), self.name(ch[0]), ch[1], ch[2])

    def apply_args(self, meta, ch):
        return tuple(self.name(c) for c in ch if c is not None)

    # ------------------------------------------------------------ rules
    def rule(self, meta, ch):
        heads = tuple(c for c in ch if isinstance(c, n.Atom))
        body = tuple(c for c in ch if isinstance(c, (n.ClLiteral, n.ClExpr, n.ClInspect)))
        return n.Rule(self.sp(meta), heads, body)

    def _atom(self, meta, ch, binder=None):
        """Shared by heads, body literals and FTL atoms (children after the binder)."""
        name_tok = _tok(ch, "UCID", "QUCID")
        delay = _tok(ch, "DELAY")
        shape = next((c for c in ch if isinstance(c, tuple)), None)
        args, whole = (), None
        if shape is not None:
            if shape[0] == "args":
                args = shape[1]
            else:
                whole = shape[1]
        return n.Atom(self.sp(meta), self.name(name_tok), args, whole, binder,
                      ref=_tok(ch, "REF") is not None,
                      delay=int(str(delay)[1:].strip()) if delay else 0,
                      diff=_tok(ch, "TICK") is not None)

    def head(self, meta, ch):
        # A trailing `@ location` (D3log) is parsed and dropped.
        return self._atom(meta, ch)

    ftl_atom = head

    def atom_args(self, meta, ch):
        return ("args", tuple(c for c in ch if c is not None))

    def atom_whole(self, meta, ch):
        return ("whole", ch[0])

    def body_atom(self, meta, ch):
        binder = None
        if isinstance(ch[0], Token) and ch[0].type == "LCID":
            binder = self.name(ch[0])
            ch = ch[1:]
        return self._atom(meta, ch, binder)

    def cl_literal(self, meta, ch):
        return n.ClLiteral(self.sp(meta), ch[0])

    def cl_negated(self, meta, ch):
        return n.ClLiteral(self.sp(meta), ch[0], negated=True)

    def cl_inspect(self, meta, ch):
        return n.ClInspect(self.sp(meta), ch[0])

    def cl_expr(self, meta, ch):
        return n.ClExpr(self.sp(meta), ch[0])

    # ------------------------------------------------------------ FTL statements
    def for_stmt(self, meta, ch):
        # Without `x in`, the binder is "" (upstream allows `for (R(x)) ...`).
        binder = ""
        if isinstance(ch[0], Token):
            binder, ch = self.name(ch[0]), ch[1:]
        cond = ch[1] if len(ch) == 3 else None
        return n.SFor(self.sp(meta), binder, ch[0], cond, ch[-1])

    def skip_stmt(self, meta, ch):
        return n.SSkip(self.sp(meta))

    def if_stmt(self, meta, ch):
        return n.SIf(self.sp(meta), ch[0], ch[1], ch[2] if len(ch) > 2 else None)

    def match_stmt(self, meta, ch):
        return n.SMatch(self.sp(meta), ch[0], tuple(ch[1:]))

    def sarm(self, meta, ch):
        return n.SMatchArm(self.sp(meta), to_pattern(ch[0]), ch[1])

    def let_stmt(self, meta, ch):
        lhs, rhs, body = ch
        a, b = lhs.span, rhs.span
        assign = n.EAssign(replace(a, end_line=b.end_line, end_col=b.end_col), lhs, rhs)
        return n.SLet(self.sp(meta), assign, body)

    def filter_stmt(self, meta, ch):
        return n.SLet(self.sp(meta), ch[0], ch[1])

    def insert_stmt(self, meta, ch):
        return n.SInsert(self.sp(meta), ch[0])

    def block_stmt(self, meta, ch):
        return n.SBlock(self.sp(meta), tuple(c for c in ch if c is not None))

