"""The DDlog parser: precedence, literals, declarations, rules, FTL, errors, corpus."""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from dl2sql.ast import nodes as n
from dl2sql.diagnostics import CompileError
from dl2sql.syntax.parser import parse_expr, parse_module
from profiles import examples


def show(x) -> str:
    """Compact rendering without spans: ``Node(field, ...)``; None/defaults omitted."""
    if isinstance(x, tuple):
        return "[" + ", ".join(show(e) for e in x) + "]"
    if not dataclasses.is_dataclass(x):
        return repr(x)
    parts = []
    for f in dataclasses.fields(x):
        if f.name == "span":
            continue
        v = getattr(x, f.name)
        if f.default is not dataclasses.MISSING and v == f.default:
            continue
        parts.append(show(v))
    return f"{type(x).__name__}({', '.join(parts)})"


def e(src: str) -> str:
    return show(parse_expr(src))


def mod(src: str) -> n.Module:
    return parse_module(src, "test.dl")


def decl(src: str):
    (d,) = mod(src).decls
    return d


def body(src: str) -> tuple:
    """Body clauses of the single rule ``H() :- <src>.``"""
    return decl(f"H() :- {src}.").body


def err(src: str, start="start") -> CompileError:
    with pytest.raises(CompileError) as info:
        if start == "expr":
            parse_expr(src, "test.dl")
        else:
            parse_module(src, "test.dl")
    (diag,) = info.value.diagnostics
    return diag


# ----------------------------------------------------------------------- precedence
def test_not_binds_tighter_than_comparison():
    assert e("not a == b") == "EBinOp('==', EUnOp('not', EVar('a')), EVar('b'))"


def test_bitwise_and_looser_than_comparison():
    assert e("x & m == 0") == "EBinOp('&', EVar('x'), EBinOp('==', EVar('m'), EInt(0)))"


def test_as_binds_tightest():
    assert e("a + b as u64") == "EBinOp('+', EVar('a'), ECast(EVar('b'), TNameE('u64')))"
    assert e("a * b: u8") == "EBinOp('*', EVar('a'), ETyped(EVar('b'), TNameE('u8')))"


def test_comparison_non_associative():
    diag = err("a < b < c", "expr")
    assert (diag.span.line, diag.span.col) == (1, 7)
    with pytest.raises(CompileError):
        parse_expr("a < b == c")
    with pytest.raises(CompileError):
        parse_expr("a == b < c")


def test_equality_left_associative():
    assert e("a == b == c") == \
        "EBinOp('==', EBinOp('==', EVar('a'), EVar('b')), EVar('c'))"


def test_double_unary_minus():
    assert e("- -100") == "EUnOp('-', EUnOp('-', EInt(100)))"
    assert e("-1") == "EUnOp('-', EInt(1))"


@pytest.mark.parametrize("src,expected", [
    ("a + b * c", "EBinOp('+', EVar('a'), EBinOp('*', EVar('b'), EVar('c')))"),
    ("a - b - c", "EBinOp('-', EBinOp('-', EVar('a'), EVar('b')), EVar('c'))"),
    ("a << 1 + 2", "EBinOp('<<', EVar('a'), EBinOp('+', EInt(1), EInt(2)))"),
    ("a ++ b >> c", "EBinOp('++', EVar('a'), EBinOp('>>', EVar('b'), EVar('c')))"),
    ("a | b ^ c & d", "EBinOp('|', EVar('a'), EBinOp('^', EVar('b'), "
                      "EBinOp('&', EVar('c'), EVar('d'))))"),
    ("a or b and c", "EBinOp('or', EVar('a'), EBinOp('and', EVar('b'), EVar('c')))"),
    ("a => b or c", "EBinOp('=>', EVar('a'), EBinOp('or', EVar('b'), EVar('c')))"),
    ("x = a + 1", "EAssign(EVar('x'), EBinOp('+', EVar('a'), EInt(1)))"),
    ("~x.f", "EUnOp('~', EField(EVar('x'), 'f'))"),
    ("-x.0", "EUnOp('-', ETupleIdx(EVar('x'), 0))"),
    ("&x", "ERef(EVar('x'))"),
    ("not ~x", "EUnOp('not', EUnOp('~', EVar('x')))"),
])
def test_precedence_table(src, expected):
    assert e(src) == expected


def test_prefix_levels_nest_like_upstream():
    with pytest.raises(CompileError):
        parse_expr("-not x")


# ----------------------------------------------------------------------- literals
@pytest.mark.parametrize("src,expected", [
    ("42", "EInt(42)"), ("1_000", "EInt(1000)"),
    ("'d42", "EInt(42, False)"), ("'hff", "EInt(255, False)"),
    ("'o17", "EInt(15, False)"), ("'b1011", "EInt(11, False)"),
    ("16'd42", "EInt(42, 16, False)"), ("8'hff", "EInt(255, 8, False)"),
    ("3'b101", "EInt(5, 3, False)"), ("12'o777", "EInt(511, 12, False)"),
    ("32'sd42", "EInt(42, 32, True)"), ("8'sh7f", "EInt(127, 8, True)"),
    ("1.5", "EFloat(1.5)"), ("0.25e-3", "EFloat(0.00025)"), ("1e9", "EFloat(1000000000.0)"),
    ("32'f1.5", "EFloat(1.5, 32)"), ("64'f2.5", "EFloat(2.5, 64)"),
    ("true", "EBool(True)"), ("false", "EBool(False)"),
])
def test_number_and_bool_literals(src, expected):
    assert e(src) == expected


def test_bad_number_literals():
    assert "width" in err("4'd16", "expr").message
    assert "width" in err("0'd0", "expr").message
    assert "32- and 64-bit" in err("16'f1.5", "expr").message


@pytest.mark.parametrize("src,value", [
    (r'"a\nb\t\\\"\'"', "a\nb\t\\\"'"),
    (r'"\a\b\f\v\0"', "\a\b\f\v\0"),
    (r'"\65\x41\o101"', "AAA"),
    (r'"\^A\^@"', "\x01\x00"),
    (r'"\NUL\SOH\SO\DEL\SP"', "\x00\x01\x0e\x7f "),
    (r'"\1234\&5"', "\u04d25"),
    ('"abc\\\n      \\def"', "abcdef"),
    ('"ab" "cd"', "abcd"),
    ('[|raw \\n ${x} "q"|]', 'raw \\n ${x} "q"'),
    ('"$5"', "$5"),
])
def test_string_literals(src, value):
    assert parse_expr(src) .value == value


def test_interned_strings():
    assert e('i"milk"') == "EString('milk', True)"
    assert e('i[|x|]') == "EString('x', True)"
    assert e('i"a${x}"') == "EInterp(['a', EVar('x'), ''], True)"


def test_interpolation():
    assert e('"a${x}b${y + 1}"') == \
        "EInterp(['a', EVar('x'), 'b', EBinOp('+', EVar('y'), EInt(1)), ''])"
    assert e(r'"${\"a\" ++ \"b\"}"') == \
        "EInterp(['', EBinOp('++', EString('a'), EString('b')), ''])"
    assert e('$[| ${"c" ++ "d"} |]') == \
        "EInterp([' ', EBinOp('++', EString('c'), EString('d')), ' '])"
    assert e('"${{var t = a; t}}"') == \
        "EInterp(['', EBlock([EAssign(EVarDecl('t'), EVar('a')), EVar('t')]), ''])"


def test_interpolation_spans_in_raw_strings():
    x = parse_expr("$[|ab\n  ${foo}|]", "interp.dl")
    var = x.parts[1]
    assert (var.span.line, var.span.col, var.span.end_col) == (2, 5, 8)


def test_string_errors():
    assert "unterminated string" in err('"abc', "expr").message
    assert "escape" in err(r'"\q"', "expr").message
    assert "${" in err('"a${x"', "expr").message


def test_vec_and_map_literals():
    assert e("[1, 2,]") == "EVec([EInt(1), EInt(2)])"
    assert e("[1 -> 2, 3 -> 4]") == "EMapLit([[EInt(1), EInt(2)], [EInt(3), EInt(4)]])"


# ----------------------------------------------------------------------- expressions
@pytest.mark.parametrize("src,expected", [
    ("()", "ETuple([])"), ("(a)", "EVar('a')"), ("(a,)", "EVar('a')"),
    ("(a, b)", "ETuple([EVar('a'), EVar('b')])"),
    ("Some{.x = 1}", "EStruct('Some', [FieldArg('x', EInt(1))])"),
    ("Some{1}", "EStruct('Some', [FieldArg(None, EInt(1))])"),
    ("None", "EStruct('None', [], False)"), ("C{}", "EStruct('C', [])"),
    ("ddlog_std::None", "EStruct('ddlog_std::None', [], False)"),
    ("f(x, y,)", "ECall('f', [EVar('x'), EVar('y')])"),
    ("m::f(x)", "ECall('m::f', [EVar('x')])"),
    ("m::f", "EVar('m::f')"),
    ("x.f(1)", "EDotCall(EVar('x'), 'f', [EInt(1)])"),
    ("x.m::f()", "EDotCall(EVar('x'), 'm::f', [])"),
    ("(f)(1)", "EApply(EVar('f'), [EInt(1)])"),
    ("x.f(1)(2)", "EApply(EDotCall(EVar('x'), 'f', [EInt(1)]), [EInt(2)])"),
    ("R(1)", "EApply(EStruct('R', [], False), [EInt(1)])"),
    ("t.0.1", "ETupleIdx(ETupleIdx(EVar('t'), 0), 1)"),
    ("x[31:24]", "ESlice(EVar('x'), 31, 24)"),
    ("f(x)?", "ETry(ECall('f', [EVar('x')]))"),
    ("_", "EWild()"), ("var x", "EVarDecl('x')"),
    ("var x: u8", "EVarDecl('x', TNameE('u8'))"),
    ("b@Book{.a = a}", "EBinding('b', EStruct('Book', [FieldArg('a', EVar('a'))]))"),
    ("t@ &Tag{}", "EBinding('t', ERef(EStruct('Tag', [])))"),
    ("{}", "EBlock([])"),
    ("{a; b}", "EBlock([EVar('a'), EVar('b')])"),
    ("{a; b;}", "EBlock([EVar('a'), EVar('b')], True)"),
    ("if (c) a", "EIf(EVar('c'), EVar('a'), None)"),
    ("if (c) {a} else if (d) {b} else {c}",
     "EIf(EVar('c'), EBlock([EVar('a')]), EIf(EVar('d'), EBlock([EVar('b')]), "
     "EBlock([EVar('c')])))"),
    ("if (x) { y } else { z } ++ if (q) { r } else { t }",
     "EBinOp('++', EIf(EVar('x'), EBlock([EVar('y')]), EBlock([EVar('z')])), "
     "EIf(EVar('q'), EBlock([EVar('r')]), EBlock([EVar('t')])))"),
    ("match (x) { Some{y} -> y, None -> 0, _ -> 1, }",
     "EMatch(EVar('x'), [MatchArm(EStruct('Some', [FieldArg(None, EVarDecl('y'))]), "
     "EVar('y')), MatchArm(EStruct('None', [], False), EInt(0)), "
     "MatchArm(EWild(), EInt(1))])"),
    ("for ((k, v) in m) { break; continue }",
     "EFor(ETuple([EVarDecl('k'), EVarDecl('v')]), EVar('m'), "
     "EBlock([EBreak(), EContinue()]))"),
    ("{ return; return 1 }", "EBlock([EReturn(None), EReturn(EInt(1))])"),
    ("|x, y: u8| x + y",
     "EClosure([ClosureParam('x', None), ClosureParam('y', TNameE('u8'))], None, "
     "EBinOp('+', EVar('x'), EVar('y')))"),
    ("|x|: bool { x }",
     "EClosure([ClosureParam('x', None)], TBoolE(), EBlock([EVar('x')]))"),
    ("function(x: mut s64): s64 { x }",
     "EClosure([ClosureParam('x', TNameE('s64'), True)], TNameE('s64'), "
     "EBlock([EVar('x')]))"),
    ("FlatMap(xs)", "ECall('FlatMap', [EVar('xs')])"),
    ("Aggregate((a, b), count(p))",
     "ECall('Aggregate', [ETuple([EVar('a'), EVar('b')]), ECall('count', [EVar('p')])])"),
    ("x.group_by(k).min()",
     "EDotCall(EDotCall(EVar('x'), 'group_by', [EVar('k')]), 'min', [])"),
    ("(var a, _) = f(x)",
     "EAssign(ETuple([EVarDecl('a'), EWild()]), ECall('f', [EVar('x')]))"),
    ("index + key", "EBinOp('+', EVar('index'), EVar('key'))"),
])
def test_expressions(src, expected):
    assert e(src) == expected


@pytest.mark.parametrize("src,expected", [
    ("x: Vec<Vec<u8>>", "ETyped(EVar('x'), TNameE('Vec', [TNameE('Vec', [TNameE('u8')])]))"),
    ("x: Map<string, Vec<'A>>",
     "ETyped(EVar('x'), TNameE('Map', [TStringE(), TNameE('Vec', [TVarE('A')])]))"),
    ("x: (bit<8>, signed<16>, bigint, bool, float, double)",
     "ETyped(EVar('x'), TTupleE([TBitE(8), TSignedE(16), TBigIntE(), TBoolE(), "
     "TFloatE(), TDoubleE()]))"),
    ("x: (u8)", "ETyped(EVar('x'), TNameE('u8'))"),
    ("x: ()", "ETyped(EVar('x'), TTupleE([]))"),
    ("x: function(u8, mut u16): bool",
     "ETyped(EVar('x'), TFunctionE([FuncParamT(TNameE('u8')), "
     "FuncParamT(TNameE('u16'), True)], TBoolE()))"),
    ("x: |u8|", "ETyped(EVar('x'), TFunctionE([FuncParamT(TNameE('u8'))], None))"),
    ("x as u32 >> 2", "EBinOp('>>', ECast(EVar('x'), TNameE('u32')), EInt(2))"),
])
def test_types(src, expected):
    assert e(src) == expected


def test_reserved_words_rejected():
    assert "reserved" in err("var type = 1", "expr").message
    assert err("f(match)", "expr").message.startswith("syntax error: unexpected")
    assert "reserved" in err("H() :- R(self).").message


# ----------------------------------------------------------------------- declarations
def test_imports():
    a, b = mod("import a::b::c as m\nimport foo").decls
    assert show(a) == "Import('a::b::c', 'm')" and show(b) == "Import('foo')"


def test_typedefs():
    src = """
    typedef Alias = bit<32>
    typedef Point = Point { x: s32, y: s32 }
    typedef Shape = Circle { r: double } | Rect { w: double, h: double } | Empty
    typedef E = A | B
    typedef S = S{}
    typedef Pair<'A, 'B> = Pair { first: 'A, second: 'B }
    typedef ip_addr_t = Option<u32>
    #[custom_serde] typedef T = #[rust="x"] C{#[by_val] f: u8}
    extern type Ext<'A>
    """
    ds = mod(src).decls
    assert show(ds[0]) == "TypeDef('Alias', [], TBitE(32))"
    assert [c.name for c in ds[2].ctors] == ["Circle", "Rect", "Empty"]
    assert [c.name for c in ds[3].ctors] == ["A", "B"]
    assert show(ds[4]) == "TypeDef('S', [], [Constructor('S', [])])"
    assert ds[5].params == ("A", "B")
    assert ds[6].alias is not None and ds[6].name == "ip_addr_t"
    assert ds[7].attrs[0].name == "custom_serde"
    assert ds[7].ctors[0].attrs[0].name == "rust"
    assert ds[7].ctors[0].fields[0].attrs[0].name == "by_val"
    assert show(ds[8]) == "TypeDef('Ext', ['A'], True)"


def test_relations():
    src = """
    input relation R(a: u32, b: string)
    output relation &O(x: u8) primary key (r) (r.x, 1)
    relation I[(bigint, bigint)]
    input stream S[Person]
    output multiset M(x: u8,)
    #[size=4] relation A()
    """
    r, o, i, s, m, a = mod(src).decls
    assert (r.role, r.kind, r.name, r.ref) == ("input", "relation", "R", False)
    assert [f.name for f in r.fields] == ["a", "b"]
    assert (o.role, o.ref, o.primary_key.var) == ("output", True, "r")
    assert (i.role, i.record_type.elems[0]) != ("internal", None)
    assert i.role == "internal" and isinstance(i.record_type, n.TTupleE)
    assert (s.kind, show(s.record_type)) == ("stream", "TNameE('Person')")
    assert m.kind == "multiset" and len(m.fields) == 1
    assert a.attrs[0].name == "size" and a.fields == ()


def test_functions():
    src = """
    function f(x: u32, y: mut Vec<u8>): u32 { x }
    function g(x: u32): u32 = x + 1
    function h() {}
    extern function e(#[by_val] x: 'A): Option<'A>
    #[has_side_effects] extern function p(s: string)
    """
    f, g, h, x, p = mod(src).decls
    assert [(q.name, q.mutable) for q in f.params] == [("x", False), ("y", True)]
    assert isinstance(f.body, n.EBlock)
    assert show(g.body) == "EBinOp('+', EVar('x'), EInt(1))"
    assert h.ret is None and show(h.body) == "EBlock([])"
    assert x.extern and x.body is None and x.params[0].attrs[0].name == "by_val"
    assert p.attrs[0].name == "has_side_effects" and p.ret is None


def test_index_transformer_apply():
    src = """
    index I(k: u32, s: string) on R(k, _, .f = s)
    index J() on R
    extern transformer SCC(E: relation['A], f: function(e: 'A): u8) -> (O: relation[(u8, u8)])
    apply SCC(Edges, from) -> (Out)
    """
    i, j, t, a = mod(src).decls
    assert i.name == "I" and len(i.fields) == 2 and i.atom.args[2].name == "f"
    assert j.atom.args == () and j.atom.relation == "R"
    assert t.name == "SCC" and [x.name for x in t.inputs] == ["E", "f"]
    assert show(t.inputs[0].relation) == "TVarE('A')"
    assert [p.name for p in t.inputs[1].params] == ["e"] and show(t.inputs[1].ret) == "TNameE('u8')"
    assert t.outputs[0].name == "O" and t.outputs[0].relation is not None
    assert show(a) == "ApplyDecl('SCC', ['Edges', 'from'], ['Out'])"


# ----------------------------------------------------------------------- rules
def test_facts_and_multiple_heads():
    fact, rule = mod('R(1, "a").\nA(x), B(.y = x) :- C(x).').decls
    assert fact.body == () and len(fact.heads) == 1
    assert [h.relation for h in rule.heads] == ["A", "B"]
    assert rule.heads[1].args[0].name == "y"


def test_head_forms():
    (r,) = mod("&R(x), S[x], T, m::U(x) @ loc :- V(x).").decls
    assert r.heads[0].ref and r.heads[1].whole is not None
    assert r.heads[2].args == () and r.heads[3].relation == "m::U"


def test_body_literals():
    cls = body("R(x, .f = y), not S(x, _), v in T(x), R[v], &R(1), m::R(x), "
               "R-1(x), R'(x), R - 1 (x)")
    assert all(isinstance(c, n.ClLiteral) for c in cls)
    assert cls[0].atom.args[1].name == "f"
    assert cls[1].negated and not cls[0].negated
    assert cls[2].atom.binder == "v"
    assert show(cls[3].atom.whole) == "EVar('v')"
    assert cls[4].atom.ref and cls[5].atom.relation == "m::R"
    assert cls[6].atom.delay == 1 and cls[7].atom.diff and cls[8].atom.delay == 1


def test_body_expressions():
    cls = body("var z = FlatMap(xs), (var a, var b) = FlatMap(m), x > 1, "
               "var g = p.group_by((a, b)), var c = p.group_by(k).count_distinct() + 1, "
               "var s = Aggregate((k), group_sum(p)), Inspect debug(\"${x}\"), "
               "Some{var v} = f(x), not is_ok(x), C{1} == x")
    assert all(isinstance(c, n.ClExpr) for c in cls[:6] + cls[7:])
    assert show(cls[0].expr) == "EAssign(EVarDecl('z'), ECall('FlatMap', [EVar('xs')]))"
    assert cls[3].expr.rhs.func == "group_by"
    assert show(cls[4].expr.rhs.left) == \
        "EDotCall(EDotCall(EVar('p'), 'group_by', [EVar('k')]), 'count_distinct', [])"
    assert cls[5].expr.rhs.func == "Aggregate"
    assert isinstance(cls[6], n.ClInspect)
    assert show(cls[8].expr) == "EUnOp('not', ECall('is_ok', [EVar('x')]))"


def test_rule_followed_by_index():
    ds = mod("R(x) :- S(x), var v = x. index I(x: u8) on R(x)").decls
    assert isinstance(ds[1], n.IndexDecl)


def test_trailing_commas_and_empty_body():
    ds = mod("R(x,) :- S(x), .\nT(1).").decls
    assert len(ds[0].body) == 1


# ----------------------------------------------------------------------- FTL
def test_ftl_for_statements():
    src = """
    for (p in Person(.country = "NZ") if p.age > 17)
        var tag = "adult" in
        match (p.status) {
            Active -> Adult(p.name, tag),
            _      -> skip
        }
    for (a in A) { for (b in B(.id = a.id)) { AB(a.x, b.y); Other(b.y) } }
    for (x in X) if (x.a) Y(1) else { Z(2); }
    for (X[X{a}]) (var b, _) = f(a) in Some{var c} = g(b) in Z(c)
    for (a in X) var b: bigint = a.f in Z(b)
    """
    f1, f2, f3, f4, f5 = mod(src).decls
    s = f1.stmt
    assert isinstance(f1, n.ForStatement) and s.binder == "p" and s.cond is not None
    assert isinstance(s.body, n.SLet) and isinstance(s.body.body, n.SMatch)
    arms = s.body.body.arms
    assert isinstance(arms[0].body, n.SInsert) and isinstance(arms[1].body, n.SSkip)
    inner = f2.stmt.body.items[0]
    assert isinstance(inner, n.SFor) and len(inner.body.items) == 2
    assert isinstance(f3.stmt.body, n.SIf) and isinstance(f3.stmt.body.els, n.SBlock)
    assert f4.stmt.binder == "" and f4.stmt.atom.whole is not None
    assert isinstance(f4.stmt.body.body, n.SLet)
    assert show(f5.stmt.body.assign.lhs) == "EVarDecl('b', TBigIntE())"


# ----------------------------------------------------------------------- comments, errors
def test_nested_comments():
    ds = mod('/* a /* b */ still comment */ R(1). // x\n/* "*/ S("//not a comment").').decls
    assert len(ds) == 2 and ds[1].heads[0].args[0].value.value == "//not a comment"


def test_unterminated_comment():
    diag = err("R(1).\n  /* /* */")
    assert (diag.span.line, diag.span.col) == (2, 3) and "comment" in diag.message


@pytest.mark.parametrize("src,line,col,words", [
    ("R(x) :- S(x)", 1, 13, "end of input"),
    ("input relation R(x: u8\nfunction f() {}", 2, 1, "`function`"),
    ("function f() {\n  var x = (1 + );\n}", 2, 16, "expected an expression"),
    ("R(x) :- S(x), x > .", 1, 19, "`.`"),
    ("typedef T = A{x: }", 1, 18, "`}`"),
    ("R(x) :-\n\tS(x) $.", 2, 7, "`$`"),
])
def test_syntax_error_locations(src, line, col, words):
    diag = err(src)
    assert (diag.span.line, diag.span.col) == (line, col), diag.render()
    assert words in diag.message and diag.message.startswith("syntax error")


def test_error_renders_with_caret():
    with pytest.raises(CompileError) as info:
        parse_module("R(x) :- S(x)))", "caret.dl")
    text = info.value.render()
    assert text.startswith("caret.dl:1:13: error: syntax error: unexpected `)`")
    assert "            ^" in text


@settings(max_examples=examples(300))
@given(st.text(alphabet='R(x):-,.;{}[]<>"\'|&=+-*/!@#$%^~?_ 0123456789abcdAZ\n/*', max_size=40))
def test_arbitrary_text_never_leaks_lark_errors(src):
    try:
        parse_module(src, "fuzz.dl")
    except CompileError as exc:
        assert len(exc.diagnostics) == 1


# ----------------------------------------------------------------------- spans
def test_spans_are_one_based_end_exclusive():
    (r,) = mod("R(x) :-\n  S(x),\n  x == 10.").decls
    assert (r.span.line, r.span.col, r.span.end_line, r.span.end_col) == (1, 1, 3, 11)
    cond = r.body[1].expr
    assert (cond.span.line, cond.span.col, cond.span.end_col) == (3, 3, 10)
    assert (cond.right.span.col, cond.right.span.end_col) == (8, 10)


def test_module_name():
    m = parse_module("", "lib/a/b.dl", "a::b")
    assert m.name == "a::b" and m.decls == ()


# ----------------------------------------------------------------------- stdlib + corpus
def test_own_stdlib_parses():
    path = Path(__file__).resolve().parents[2] / "dl2sql" / "stdlib" / "ddlog_std.dl"
    m = parse_module(path.read_text(), str(path), "ddlog_std")
    names = {d.name for d in m.decls if isinstance(d, (n.TypeDef, n.RelationDecl))}
    assert {"Option", "Result", "Either", "Vec", "Set", "Map", "Ref", "Group", "Any",
            "u8", "s128", "usize", "isize", "DDWeight", "Singleton"} <= names
    funcs = [d.name for d in m.decls if isinstance(d, n.FunctionDef)]
    assert funcs.count("len") >= 4 and "group_unzip" in funcs and "ref_new" in funcs


# Upstream files that are known not to parse, with the reason.
KNOWN_FAILURES: dict[str, str] = {}


def _corpus():
    root = os.environ.get("DDLOG_REPO")
    if not root:
        return []
    files = []
    for sub in ("test/datalog_tests", "lib"):
        files += sorted(p for p in Path(root, sub).rglob("*.dl")
                        if not p.name.endswith(".fail.dl"))
    return files


@pytest.mark.skipif(not os.environ.get("DDLOG_REPO"),
                    reason="set DDLOG_REPO to a differential-datalog checkout")
@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_upstream_corpus_parses(path):
    if path.name in KNOWN_FAILURES:
        pytest.xfail(KNOWN_FAILURES[path.name])
    parse_module(path.read_text(encoding="utf-8"), str(path))


@pytest.mark.parametrize("name", ["graph::edges::Kind", "a::B", "a::b::c::D"])
def test_deeply_qualified_type_names(name):
    mod = parse_module(f"relation R(k: {name})", "q.dl")
    assert mod.decls[0].fields[0].type.name == name
