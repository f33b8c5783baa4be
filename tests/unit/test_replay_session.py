"""The .dat interpreter against fake programs evaluated in plain Python."""
import io

from dl2sql.replay.session import replay
from dl2sql.types.model import (MAP, OPTION, SET, STRING, VEC, CtorDef, RelationInfo, TBit,
                                TNamed, TTuple, TVar, TypeDefn, TypeEnv)
from dl2sql.runtime.values import Record
from dl2sql.types import typed as T
from std_env import std_env

U32 = TBit(32)


def base_env() -> TypeEnv:
    env = std_env()
    return env


def struct(env, name, *fields):
    env.add(TypeDefn(name, (), (CtorDef(name, tuple(fields)),)))
    return TNamed(name)


class PathProgram:
    """input relation Edge(s1: string, s2: string); output relation Path(s1, s2):
    transitive closure; plus an output `Unused` no rule ever fills."""

    def __init__(self):
        env = base_env()
        self.type_env = env
        e = struct(env, "Edge", ("s1", STRING), ("s2", STRING))
        p = struct(env, "Path", ("s1", STRING), ("s2", STRING))
        u = struct(env, "Unused", ("x", U32))
        self.relations = {"Edge": RelationInfo("Edge", "input", "relation", e),
                          "Path": RelationInfo("Path", "output", "relation", p),
                          "Unused": RelationInfo("Unused", "output", "relation", u)}
        self.calls = 0

    def evaluate(self, inputs):
        self.calls += 1
        edges = {r.fields for r in inputs["Edge"]}
        path = set(edges)
        while True:
            new = {(a, d) for a, b in path for c, d in edges if b == c} - path
            if not new:
                break
            path |= new
        return {"Path": {Record("Path", p) for p in path}, "Unused": set()}


class ThreeProgram:
    """Upstream's three.dl compiled with --output-internal-relations: I input,
    M(x) :- I(x), O(x) :- M(x), plus the ddlog_std::Singleton fact."""

    def __init__(self):
        env = base_env()
        self.type_env = env
        i = struct(env, "I", ("x", U32))
        m = struct(env, "M", ("x", U32))
        o = struct(env, "O", ("x", U32))
        s = struct(env, "ddlog_std::Singleton")
        self.relations = {
            "I": RelationInfo("I", "input", "relation", i),
            "M": RelationInfo("M", "output", "relation", m),
            "O": RelationInfo("O", "output", "relation", o),
            "ddlog_std::Singleton": RelationInfo("ddlog_std::Singleton", "output", "relation", s)}

    def evaluate(self, inputs):
        xs = {r.fields[0] for r in inputs["I"]}
        return {"M": {Record("M", (x,)) for x in xs}, "O": {Record("O", (x,)) for x in xs},
                "ddlog_std::Singleton": {Record("ddlog_std::Singleton", ())}}


class KeyedProgram:
    """input relation WithKey(k: u32, v: string) primary key (x) x.k;
    output relation Out[WithKey] = WithKey."""

    def __init__(self, typed_keys=True):
        env = base_env()
        self.type_env = env
        w = struct(env, "WithKey", ("k", U32), ("v", STRING))
        self.relations = {
            "WithKey": RelationInfo("WithKey", "input", "relation", w,
                                    key=T.TGetField(U32, T.TVarRef(w, "r"), "k")),
            "Out": RelationInfo("Out", "output", "relation", w)}
        if typed_keys:
            self.key_types = {"WithKey": U32}

    def evaluate(self, inputs):
        return {"Out": set(inputs["WithKey"])}


class HostsProgram:
    """upstream simple3-like: keyed input of Thosts with Option fields and a Set."""

    def __init__(self):
        env = base_env()
        self.type_env = env
        ostr = TNamed(OPTION, (STRING,))
        t = struct(env, "Thosts", ("name", ostr), ("capacity", TNamed(OPTION, (U32,))),
                   ("tags", TNamed(SET, (U32,))),
                   ("attrs", TNamed(MAP, (STRING, U32))))
        self.relations = {
            "Rhosts": RelationInfo("Rhosts", "input", "relation", t,
                                   key=T.TGetField(ostr, T.TVarRef(t, "r"), "name")),
            "Hosts": RelationInfo("Hosts", "output", "relation", t)}
        self.key_types = {"Rhosts": ostr}

    def evaluate(self, inputs):
        return {"Hosts": set(inputs["Rhosts"])}


class FactsProgram:
    """output relation Zeta(x: u32) with facts Zeta(2), Zeta(1); output A(x) from In."""

    def __init__(self, kind="relation"):
        env = base_env()
        self.type_env = env
        z = struct(env, "Zeta", ("x", U32))
        a = struct(env, "std_test::A", ("x", U32))
        i = struct(env, "In", ("x", U32))
        self.relations = {"Zeta": RelationInfo("Zeta", "output", kind, z),
                          "std_test::A": RelationInfo("std_test::A", "output", "relation", a),
                          "In": RelationInfo("In", "input", "relation", i)}

    def evaluate(self, inputs):
        return {"Zeta": {Record("Zeta", (2,)), Record("Zeta", (1,))},
                "std_test::A": {Record("std_test::A", r.fields) for r in inputs["In"]}}


def run(program, text, **kw):
    out, err = io.StringIO(), io.StringIO()
    rc = replay(program, text, out, err, filename="t.dat", **kw)
    return rc, out.getvalue(), err.getvalue()


PATH_DAT = """start;

insert Edge("Palo Alto", "Palo Alto"),
insert Edge("Palo Alto", "Redwood City"),
insert Edge("Redwood City", "San Bruno");

commit;
dump;

echo Printing Path relation only
;

dump Path;

echo;
"""

PATH_ROWS = """Path{.s1 = "Palo Alto", .s2 = "Palo Alto"}
Path{.s1 = "Palo Alto", .s2 = "Redwood City"}
Path{.s1 = "Palo Alto", .s2 = "San Bruno"}
Path{.s1 = "Redwood City", .s2 = "San Bruno"}
"""


def test_path_byte_exact():
    rc, out, err = run(PathProgram(), PATH_DAT)
    assert (rc, err) == (0, "")
    assert out == "Path:\n" + PATH_ROWS + "\nPrinting Path relation only\n\n" + PATH_ROWS + "\n"


def test_three_with_internal_relations_as_outputs():
    rc, out, err = run(ThreeProgram(), "start;\ninsert I(10),\ncommit;\ndump;\n")
    assert (rc, err) == (0, "")
    assert out == ("ddlog_std::Singleton:\nddlog_std::Singleton{}: +1\n"
                   "M:\nM{.x = 10}\n\nO:\nO{.x = 10}\n\n"
                   "ddlog_std::Singleton:\nddlog_std::Singleton{}\n\n")


def test_commit_dump_changes_and_retractions():
    dat = ('start; insert Edge("a", "b"), insert Edge("b", "c"); commit dump_changes;\n'
           'start; delete Edge("b", "c"); insert Edge("a", "b"); commit dump_changes;\n'
           'start; commit dump_changes;\n'
           'start; insert Edge("x", "y"); delete Edge("x", "y"); commit dump_changes;\n')
    rc, out, err = run(PathProgram(), dat)
    assert (rc, err) == (0, "")
    assert out == ('Path:\nPath{.s1 = "a", .s2 = "b"}: +1\nPath{.s1 = "a", .s2 = "c"}: +1\n'
                   'Path{.s1 = "b", .s2 = "c"}: +1\n'
                   'Path:\nPath{.s1 = "a", .s2 = "c"}: -1\nPath{.s1 = "b", .s2 = "c"}: -1\n')


def test_initial_snapshot_order_and_flag():
    rc, out, _ = run(FactsProgram(), "")
    assert rc == 0 and out == "Zeta:\nZeta{.x = 1}: +1\nZeta{.x = 2}: +1\n"
    rc, out, _ = run(FactsProgram(), "dump;", init_snapshot=False)
    assert out == "Zeta:\nZeta{.x = 1}\nZeta{.x = 2}\n\n"
    rc, out, _ = run(FactsProgram(), "start; insert In(3); commit dump_changes; dump;")
    assert out.endswith("std_test::A:\nstd_test::A{.x = 3}: +1\n"
                        "Zeta:\nZeta{.x = 1}\nZeta{.x = 2}\n\nstd_test::A:\nstd_test::A{.x = 3}\n\n")


def test_dump_quirk_only_touched_relations():
    p = PathProgram()
    rc, out, _ = run(p, "dump;\necho a;\ndump Unused;\necho b;\ndump;\n"
                        'start; insert Edge("a", "b"); commit;\n'
                        'start; delete Edge("a", "b"); commit;\ndump;')
    assert rc == 0
    assert out == "a\nb\nUnused:\n\nPath:\n\nUnused:\n\n"


def test_echo_forms():
    rc, out, _ = run(PathProgram(), "echo Hi\n;echo;echo **** Flows ****;echo  a ; b;")
    assert out == "Hi\n\n\n**** Flows ****\na \n"
    assert rc == 1  # ` b;` is not a command


def test_buffered_updates_and_no_ops():
    dat = ('start;\ninsert Edge("a", "b"),\ninsert Edge("a", "b"),\ndelete Edge("q", "r"),\n'
           'delete Edge("a", "b"),\ninsert Edge("c", "d");\ncommit dump_changes;')
    rc, out, _ = run(PathProgram(), dat)
    assert rc == 0 and out == 'Path:\nPath{.s1 = "c", .s2 = "d"}: +1\n'


def test_rollback_and_clear():
    dat = ('start; insert Edge("a", "b"); commit;\n'
           'start; insert Edge("c", "d"); rollback;\n'
           'start; clear Edge; insert Edge("e", "f"); commit dump_changes;')
    rc, out, _ = run(PathProgram(), dat)
    assert rc == 0
    assert out == 'Path:\nPath{.s1 = "a", .s2 = "b"}: -1\nPath{.s1 = "e", .s2 = "f"}: +1\n'


def test_exit_stops():
    rc, out, _ = run(PathProgram(), "echo x; exit; echo y; bogus")
    assert (rc, out) == (0, "x\n")


def test_primary_keys():
    dat = ('start;\ninsert WithKey(1, "foo"),\ninsert WithKey(2, "bar");\ncommit;\n'
           'start;\ndelete_key WithKey 1;\ninsert_or_update WithKey(2, "baz");\n'
           'insert WithKey(.k = 3);\ncommit dump_changes;\ndump Out;')
    for typed in (True, False):
        rc, out, err = run(KeyedProgram(typed), dat)
        assert (rc, err) == (0, "")
        assert out == ('Out:\nWithKey{.k = 1, .v = "foo"}: -1\nWithKey{.k = 2, .v = "bar"}: -1\n'
                       'WithKey{.k = 2, .v = "baz"}: +1\nWithKey{.k = 3, .v = ""}: +1\n'
                       'WithKey{.k = 2, .v = "baz"}\nWithKey{.k = 3, .v = ""}\n')


def test_primary_key_errors():
    rc, out, err = run(KeyedProgram(), 'start;\ninsert WithKey(1, "a");\n'
                                       'insert WithKey(1, "b");\ncommit;')
    assert rc == 1 and out == "" and err.startswith("t.dat:3:1: error: Insert: duplicate key")
    rc, _, err = run(KeyedProgram(), "start;\n\ndelete_key WithKey 7;")
    assert rc == 1 and err.startswith("t.dat:3:1: error: DeleteKey: key not found")
    rc, _, err = run(KeyedProgram(), 'start;\ndelete WithKey(7, "x");')
    assert rc == 1 and "t.dat:2:" in err and "key not found" in err
    rc, _, err = run(PathProgram(), 'start;\ndelete_key Edge "x";')
    assert rc == 1 and "t.dat:2:1: error: relation Edge does not have a primary key" in err


def test_modify():
    dat = ('start;\ninsert Rhosts[Thosts{ddlog_std::Some{"n1"}, ddlog_std::Some{11}, [1, 2],'
           ' [("a", 1), ("b", 2)]}];\ncommit;\nstart;\n'
           'modify Rhosts ddlog_std::Some{"n1"} <- Thosts{.capacity = ddlog_std::Some{10}},\n'
           'modify Rhosts ddlog_std::Some{"n1"} <- _{.tags = [2, 3]},\n'
           'modify Rhosts "n1" <- _{.attrs = [("a", ()), ("b", 5), ("c", 7)]};\n'
           'commit dump_changes;')
    rc, out, err = run(HostsProgram(), dat)
    assert (rc, err) == (0, "")
    assert out == (
        'Hosts:\n'
        'Thosts{.name = ddlog_std::Some{.x = "n1"}, .capacity = ddlog_std::Some{.x = 10}, '
        '.tags = [1, 3], .attrs = [("b", 5), ("c", 7)]}: +1\n'
        'Thosts{.name = ddlog_std::Some{.x = "n1"}, .capacity = ddlog_std::Some{.x = 11}, '
        '.tags = [1, 2], .attrs = [("a", 1), ("b", 2)]}: -1\n')


def test_errors_have_line_numbers_and_stop():
    cases = [
        ("start;\ninsert Edgee(\"a\", \"b\");", "t.dat:2:1: error: Unknown relation Edgee"),
        ("start;\ninsert Edge(\"a\");", "t.dat:2:1: error: constructor Edge has 2 field(s)"),
        ("start;\ninsert Edge(1, \"a\");", "t.dat:2:1: error: expected a value of type string"),
        ("commit;", "t.dat:1:1: error: transaction_commit: no transaction in progress"),
        ("start;\nstart;", "t.dat:2:1: error: transaction already in progress"),
        ("rollback;", "t.dat:1:1: error: transaction_rollback: no transaction in progress"),
        ("insert Edge(\"a\", \"b\");", "t.dat:1:1: error: apply_updates: no transaction"),
        ("dump Edge;", "t.dat:1:1: error: Unknown output relation Edge"),
        ("start;\nclear Path;", "t.dat:2:1: error: Unknown input relation Path"),
        ("clear Edge;", "t.dat:1:1: error: clear_relation: no transaction in progress"),
        ("start;\ninsert Path(\"a\", \"b\");", "t.dat:2:1: error: relation Path is not an input"),
        ("echo ok;\n\n!!;", "t.dat:3:1: error: invalid input"),
        ("dump_index Idx;", "t.dat:1:1: error: Unknown index Idx"),
    ]
    for dat, msg in cases:
        rc, out, err = run(PathProgram(), dat + "\necho never;")
        assert rc == 1, dat
        assert err.startswith(msg), (dat, err)
        assert "never" not in out


def test_errors_quote_the_line_with_a_caret_under_the_command():
    # the second of two commands on a line, and a token the parser cannot read
    dat = 'start;\necho x; insert Edge(1, "a"); commit;\n'
    rc, _, err = run(PathProgram(), dat)
    assert rc == 1
    assert err.splitlines()[1:] == ['echo x; insert Edge(1, "a"); commit;',
                                    '        ^~~~~~~~~~~~~~~~~~~~']
    assert err.startswith("t.dat:2:9: error: expected a value of type string")
    rc, _, err = run(PathProgram(), "start;\n  insert Edge(\"a\", \"b\") !!;\n")
    assert rc == 1 and err.splitlines() == [
        "t.dat:2:25: error: invalid input: expected `;` or `,` after an update at `!!;`",
        '  insert Edge("a", "b") !!;', " " * 24 + "^"]


def test_command_after_failed_flush_still_runs():
    # Upstream evaluates the next command even when flushing the buffer failed, then
    # reports the flush error; the failed batch is not applied.
    dat = ('start; insert WithKey(1, "a"); commit;\nstart;\n'
           'insert WithKey(2, "b"),\ninsert WithKey(1, "c"),\necho after;\necho never;')
    rc, out, err = run(KeyedProgram(), dat)
    assert rc == 1 and out == "after\n"
    assert err.startswith("t.dat:4:1: error: Insert: duplicate key")


def test_incomplete_trailing_command_is_ignored():
    rc, out, err = run(PathProgram(), 'start;\ninsert Edge("a", "b")')
    assert rc == 0 and out == "" and "warning" in err


class BagProgram:
    """input multiset In(x: u32); output multiset Out(x) :- In(x), and output stream
    S(x) :- In(x) (a fake: the session only sees kinds and contents)."""

    def __init__(self, in_kind="multiset"):
        env = base_env()
        self.type_env = env
        self.relations = {
            "In": RelationInfo("In", "input", in_kind, struct(env, "In", ("x", U32))),
            "Out": RelationInfo("Out", "output", "multiset", struct(env, "Out", ("x", U32))),
            "S": RelationInfo("S", "output", "stream", struct(env, "S", ("x", U32)))}

    def evaluate(self, inputs):
        assert isinstance(inputs["In"], list)  # a bag arrives with its duplicates
        return {"Out": [Record("Out", r.fields) for r in inputs["In"]],
                "S": [Record("S", r.fields) for r in inputs["In"]]}


def test_multiset_weights_and_stream_dumps():
    rc, out, err = run(BagProgram(), "start; insert In(1), insert In(1), insert In(2); "
                                     "commit dump_changes; start; delete In(1); "
                                     "commit dump_changes; dump Out; dump S;")
    assert rc == 0, err
    assert out == ("Out:\nOut{.x = 1}: +2\nOut{.x = 2}: +1\n"
                   "S:\nS{.x = 1}: +2\nS{.x = 2}: +1\n"
                   # a multiset's change is the difference of weights; a stream's is
                   # its whole contents, and its dump adds them all up
                   "Out:\nOut{.x = 1}: -1\nS:\nS{.x = 1}: +1\nS{.x = 2}: +1\n"
                   "Out{.x = 1}\nOut{.x = 2}\nS{.x = 1} +3\nS{.x = 2} +2\n")


def test_stream_input_starts_empty_and_negative_weights_fail():
    rc, out, err = run(BagProgram("stream"), "start; insert In(1); commit dump_changes; "
                                             "start; commit dump_changes;")
    assert rc == 0 and out == ("Out:\nOut{.x = 1}: +1\nS:\nS{.x = 1}: +1\n"
                               "Out:\nOut{.x = 1}: -1\n")
    rc, _, err = run(BagProgram(), "start; delete In(1); commit;")
    assert rc == 1 and "negative weights are not supported" in err
    rc, _, err = run(BagProgram("stream"), "start; clear In; commit;")
    assert rc == 1 and "not supported for streams" in err


def test_engine_failures():

    class Boom(PathProgram):
        def evaluate(self, inputs):
            if inputs["Edge"]:
                raise ZeroDivisionError("division by zero")
            return super().evaluate(inputs)

    rc, _, err = run(Boom(), 'start;\ninsert Edge("a", "b");\ncommit;')
    assert rc == 1 and err.startswith("t.dat:3:1: error: evaluation failed: division by zero")


def test_recompute_once_per_commit():
    p = PathProgram()
    run(p, 'start; insert Edge("a", "b"); commit; dump; dump Path; start; commit;')
    assert p.calls == 3  # initial state + two commits


def test_tuple_relation_values():
    env = base_env()

    class P:
        type_env = env
        relations = {"R": RelationInfo("R", "input", "relation", TTuple((U32, STRING))),
                     "S": RelationInfo("S", "output", "relation", TTuple((U32, STRING)))}

        def evaluate(self, inputs):
            return {"S": set(inputs["R"])}

    rc, out, err = run(P(), 'start; insert R[(2, "b")], insert R[(10, "a")]; commit; dump S;')
    assert (rc, err) == (0, "") and out == '(2, "b")\n(10, "a")\n'
