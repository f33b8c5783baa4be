"""Recursive types (dl2sql/types/recursive_types.py): as DDlog (Validate.hs,
checkAcyclicTypes and checkAcyclicTypeAliases), a type may hold itself only through
Ref<>, Intern<>, IObj<>, Vec<>, Set<>, Map<> or Set64<>, and no alias may be on a cycle
of types."""
from __future__ import annotations

import pytest

from dl2sql.compiler import compile_source
from dl2sql.diagnostics import CompileError

R = "input relation In(x: u32)\n"
HINT = "a type may hold itself only through Ref<>, Intern<>, Vec<>, Set<> or Map<>"


def _errors(text: str) -> list[str]:
    with pytest.raises(CompileError) as e:
        compile_source(text + R, "prog.dl")
    return [f"{d.span}: {d.message}" for d in e.value.diagnostics]


@pytest.mark.parametrize("text, error", [
    ("typedef T = T{x: T}\n",
     f"prog.dl:1:18: type `T` contains itself by value (T.x: T): {HINT}; write `x: Ref<T>`"),
    ("typedef A = A{b: B}\ntypedef B = B{a: A}\n",
     f"prog.dl:1:18: type `A` contains itself by value (A.b: B, B.a: A): {HINT}; "
     f"write `b: Ref<B>`"),
    ("typedef T = T{x: (string, T)}\n",
     f"prog.dl:1:18: type `T` contains itself by value (T.x: (string, T)): {HINT}; "
     f"write `x: Ref<(string, T)>`"),
    ("typedef P = (u32, T)\ntypedef T = T{p: P}\n",
     f"prog.dl:2:18: type `T` contains itself by value (T.p: P, P = (u32, T)): {HINT}; "
     f"write `p: Ref<P>`"),
    # one constructor of several is enough, as in DDlog (and Rust)
    ("typedef T = Leaf | Node{l: T, r: Ref<T>}\n",
     f"prog.dl:1:28: type `T` contains itself by value (T.l: T): {HINT}; "
     f"write `l: Ref<T>`"),
    # a type argument holds its type by value (Option's Some does)
    ("typedef T = T{x: Option<T>}\n",
     f"prog.dl:1:18: type `T` contains itself by value (T.x: Option<T>): {HINT}; "
     f"write `x: Ref<Option<T>>`"),
    ("import hashset\ntypedef T = T{x: HashSet<T>}\n",
     f"prog.dl:2:18: type `T` contains itself by value (T.x: HashSet<T>): {HINT}; "
     f"write `x: Ref<HashSet<T>>`"),
    ("input relation Node(x: Node)\n",
     f"prog.dl:1:24: type `Node` contains itself by value (Node.x: Node): {HINT}; "
     f"write `x: Ref<Node>`"),
    # an alias on a cycle, even through Ref<> (DDlog: "Recursive alias types: R -> T -> R")
    ("typedef R = Ref<T>\ntypedef T = T{x: R} | N\n",
     "prog.dl:1:1: recursive type alias: R -> T -> R (a type that holds itself needs a "
     "`typedef` with constructors: write `typedef R = R{...}` or use the aliased type in "
     "its place)"),
])
def test_refused(text: str, error: str) -> None:
    assert _errors(text) == [error]


@pytest.mark.parametrize("text", [
    "typedef L = Nil | Cons{h: u32, t: Ref<L>}\n",
    "typedef T = T{v: Vec<T>, s: Set<T>, m: Map<string, T>, i: Intern<T>, o: Option<Ref<T>>}\n",
    "import tinyset\nimport intern\ntypedef T = T{s: Set64<T>, i: IObj<T>}\n",
    "typedef A = A{b: Option<Ref<B>>}\ntypedef B = B{a: Vec<A>}\n",
    # upstream's comment in checkAcyclicTypeAliases: a typedef with constructors is fine
    "typedef TSeq = TSeq1{x: (string, Ref<TSeq>)} | TSeqNone\n",
    # a heap-allocated type through an alias, as DDlog expands it
    "typedef MyRef<'A> = Ref<'A>\ntypedef T = T{x: Option<MyRef<T>>}\n",
    "typedef Id<'A> = 'A\ntypedef T = T{x: Id<Ref<T>>}\n",
    "typedef T = T{f: function(T): T}\n",
    "typedef P = (u32, string)\ntypedef T = T{x: Vec<(P, T)>}\n",
])
def test_accepted(text: str) -> None:
    compile_source(text + R, "prog.dl")
