"""The .dat command parser and the conversion of untyped values to typed ones."""
import pytest

from dl2sql.replay.dat_parser import DatError, Incomplete, UValue, parse_commands
from dl2sql.replay.dat_values import convert, untyped_guess
from dl2sql.types.model import (BOOL, DOUBLE, FLOAT, MAP, OPTION, SET, STRING, VEC, CtorDef,
                                TBit, TNamed, TSigned, TTuple, TVar, TypeDefn, TypeEnv, BIGINT)
from dl2sql.runtime.values import Record
from std_env import std_env
from dl2sql.runtime.order import to_f32


def env_() -> TypeEnv:
    env = std_env()
    env.add(TypeDefn("P", (), (CtorDef("P", (("a", TBit(8)), ("b", STRING),
                                            ("c", TNamed(VEC, (BOOL,))))),)))
    env.add(TypeDefn("U", (), (CtorDef("U1", ()), CtorDef("U2", (("x", TBit(8)),
                                                                 ("y", TBit(8)))))))
    return env


ENV = env_()


def parse_ok(text):
    cmds, err = parse_commands(text)
    assert err is None, err
    return cmds


def value_of(text):
    (cmd,) = parse_ok(f"insert R[{text}];")
    return cmd.value


def test_simple_commands_and_lines():
    cmds = parse_ok("start;\n# comment ; here\ncommit;\n\n  commit   dump_changes ;\n"
                    "rollback; dump; dump Path; clear std::R; exit;\n"
                    "timestamp; profile; profile cpu on; mssleep 10; log_level -1;")
    assert [(c.op, c.line) for c in cmds] == [
        ("start", 1), ("commit", 3), ("commit", 5), ("rollback", 6), ("dump", 6),
        ("dump", 6), ("clear", 6), ("exit", 6)] + [("ignored", 7)] * 5
    assert not cmds[1].dump_changes and cmds[2].dump_changes
    assert cmds[4].relation is None and cmds[5].relation == "Path"
    assert cmds[6].relation == "std::R"


def test_echo_is_verbatim():
    cmds = parse_ok("echo Flows:;\necho Hi\n;\necho;\necho   **** x ****\n;")
    assert [c.text for c in cmds] == ["Flows:", "Hi\n", "", "**** x ****\n"]
    assert [c.line for c in cmds] == [1, 2, 4, 5]


def test_updates_and_separators():
    cmds = parse_ok('insert R(1, "a"),\ndelete R[(true, false)];\n'
                    'insert_or_update K(.k = 1); delete_key K ("A", "T");\n'
                    'modify K 1 <- K{.v = 5},')
    assert [c.op for c in cmds] == ["insert", "delete", "insert_or_update", "delete_key",
                                    "modify"]
    assert [c.last for c in cmds] == [False, True, True, True, False]
    assert cmds[0].value == UValue("struct", "R", items=(UValue("int", 1),
                                                         UValue("string", "a")))
    assert cmds[1].value.kind == "tuple"
    assert cmds[2].value.named == (("k", UValue("int", 1)),)
    assert cmds[3].value.kind == "tuple" and cmds[3].line == 3
    assert cmds[4].mutator.value == "K" and cmds[4].value == UValue("int", 1)


def test_values():
    assert value_of("-5") == UValue("int", -5)
    assert value_of("- 0x1F") == UValue("int", -31)
    assert value_of("0xc3_22") == UValue("int", 0xC322)
    assert value_of("1_000") == UValue("int", 1000)
    assert value_of("1.5") == UValue("float", 1.5)
    assert value_of("-32e2") == UValue("float", -3200.0)
    assert value_of(".5") == UValue("float", 0.5)
    assert value_of("5.") == UValue("float", 5.0)
    assert value_of(r'"a\n\t\"\\\'\?"') == UValue("string", "a\n\t\"\\'?")
    assert value_of('""') == UValue("string", "")
    assert value_of("true") == UValue("bool", True)
    assert value_of("ddlog_std::None") == UValue("struct", "ddlog_std::None", items=())
    assert value_of("C{}") == UValue("struct", "C", items=())
    assert value_of("C{.5}").items == (UValue("float", 0.5),)
    v = value_of('[(1, "x"), (2, "y")]')
    assert v.kind == "array" and len(v.items) == 2 and v.items[0].kind == "tuple"
    assert value_of("()") == UValue("tuple", items=())
    assert value_of('@json"{}"').kind == "serialized"


def test_string_from_file(tmp_path):
    (tmp_path / "s.txt").write_text("file text")
    cmds, err = parse_commands('insert R[%"s.txt"];', str(tmp_path))
    assert err is None and cmds[0].value == UValue("string", "file text")


def test_parse_errors_carry_lines():
    cmds, err = parse_commands("start;\ninsert R(1);\nbogus;\ncommit;")
    assert len(cmds) == 2 and isinstance(err, DatError) and not isinstance(err, Incomplete)
    assert err.line == 3
    _, err = parse_commands('start;\ninsert R("a\\q");')
    assert err.line == 2 and "escape" in err.message
    _, err = parse_commands("insert R(1)\n")
    assert isinstance(err, Incomplete)
    _, err = parse_commands("start;\n# trailing comment without newline")
    assert isinstance(err, Incomplete)
    _, err = parse_commands("insert R(1) commit;")
    assert err.line == 1 and not isinstance(err, Incomplete)
    _, err = parse_commands("dump_index I; query_index I(1, 2);")
    assert err is None


def conv(t, text):
    return convert(t, value_of(text), ENV)


def test_convert_scalars_and_ranges():
    assert conv(TBit(8), "255") == 255
    with pytest.raises(DatError, match="does not fit"):
        conv(TBit(8), "256")
    with pytest.raises(DatError, match="does not fit"):
        conv(TBit(8), "-1")
    assert conv(TSigned(8), "-128") == -128
    with pytest.raises(DatError):
        conv(TSigned(8), "128")
    assert conv(BIGINT, str(10**40)) == 10**40
    assert conv(DOUBLE, "3") == 3.0 and isinstance(conv(DOUBLE, "3"), float)
    assert conv(FLOAT, "0.1") == to_f32(0.1)
    with pytest.raises(DatError, match="bit<8>"):
        conv(TBit(8), '"x"')
    with pytest.raises(DatError):
        conv(TBit(8), "1.5")
    with pytest.raises(DatError):
        conv(STRING, "1")
    with pytest.raises(DatError, match="2-tuple"):
        conv(TTuple((BOOL, BOOL)), "(true)")


def test_convert_structs():
    p = TNamed("P")
    assert conv(p, 'P{1, "x", [true]}') == Record("P", (1, "x", (True,)))
    assert conv(p, 'P{.b = "y"}') == Record("P", (0, "y", ()))
    with pytest.raises(DatError, match="3 field"):
        conv(p, "P{1}")
    with pytest.raises(DatError, match="unknown constructor"):
        conv(p, "Q{1, \"\", []}")
    with pytest.raises(DatError, match="no field"):
        conv(p, "P{.zz = 1}")
    u = TNamed("U")
    assert conv(u, "U1") == Record("U1", ())
    assert conv(u, "U2{.y = 2, .x = 1}") == Record("U2", (1, 2))
    with pytest.raises(DatError, match="all 2 field"):
        conv(u, "U2{.x = 1}")


def test_convert_collections_and_option_quirks():
    vec = TNamed(VEC, (TBit(8),))
    assert conv(vec, "[3, 1]") == (3, 1)
    assert conv(vec, "7") == (7,)  # upstream wraps a scalar into a 1-element vector
    assert conv(TNamed(SET, (TBit(8),)), "[3, 1, 3]") == (1, 3)
    m = TNamed(MAP, (STRING, TBit(8)))
    assert conv(m, '[("b", 1), ("a", 2), ("b", 3)]') == (("a", 2), ("b", 3))
    o = TNamed(OPTION, (STRING,))
    assert conv(o, "ddlog_std::None") == Record("ddlog_std::None", ())
    assert conv(o, 'ddlog_std::Some{"n1"}') == Record("ddlog_std::Some", ("n1",))
    assert conv(o, 'ddlog_std::Some{.x = "n"}') == Record("ddlog_std::Some", ("n",))
    assert conv(o, '"bare"') == Record("ddlog_std::Some", ("bare",))
    assert conv(o, "[]") == Record("ddlog_std::None", ())
    assert conv(o, '["a"]') == Record("ddlog_std::Some", ("a",))



def test_serialized_json_values_are_read_as_the_json_library_reads_them():
    p = TNamed("P")
    assert conv(p, '@json"{\\"a\\": 5, \\"b\\": \\"x\\", \\"c\\": [true]}"') == \
        Record("P", (5, "x", (True,)))
    assert conv(TNamed(MAP, (STRING, TBit(8))), '@json"{\\"b\\": 1, \\"a\\": 2}"') == \
        (("a", 2), ("b", 1))
    with pytest.raises(DatError, match="missing field `a` at line 1 column 2"):
        conv(p, '@json"{}"')
    with pytest.raises(DatError, match="only `@json`"):
        conv(p, '@cbor"{}"')


def test_untyped_guess():
    assert untyped_guess(value_of('("A", 1, C{2})')) == ("A", 1, Record("C", (2,)))
    with pytest.raises(DatError):
        untyped_guess(value_of("C{.x = 1}"))
