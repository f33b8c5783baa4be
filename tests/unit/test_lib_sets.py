"""The `hashset` and `tinyset` libraries: Rust's hash stream, the order a HashSet
iterates in, the size-first comparison of HashSet and Set64, and their functions."""
import functools

import pytest

from dl2sql.compiler import compile_source
from dl2sql.runtime.builtins import Ctx, Mut
from dl2sql.runtime.order import normalize, sort_key
from dl2sql.runtime.rust_hash import hash_bytes, hash_order_key, siphash13
from dl2sql.runtime.values import GroupValue, Record
from dl2sql.types.model import (HASHSET, MAP, SET, SET64, VEC, TBit, TBool, TNamed, TSigned,
                                TString, TTuple)
from dl2sql.udfs.lib_sets import LIBRARY_SETS

SOURCE = '''
import hashset
import tinyset
typedef U = A | B { x: u32 } | C { s: string }
typedef S = S { a: bool, b: s8 }
'''


@functools.lru_cache(maxsize=None)
def env():
    return compile_source(SOURCE, "sets_unit.dl", ()).type_env


def rust_hash(t, v) -> int:
    return siphash13(hash_bytes(t, v, env()))


# `DefaultHasher::new()` of each value, printed by a Rust 1.95 program
# (`let mut s = DefaultHasher::new(); x.hash(&mut s); s.finish()`) with the types
# DDlog generates: u64/i64/u8/u16/u32/i32/u128, bool, String, tuples, Vec, BTreeSet,
# BTreeMap, `#[derive(Hash)] enum U { A, B { x: u32 }, C(String) }` and
# `#[derive(Hash)] struct S { a: bool, b: i8 }`.
RUST_HASHES = [
    (TBit(64), 1, 2206609067086327257),
    (TSigned(64), -3, 11406003021605307337),
    (TBit(8), 200, 12449551661063549815),
    (TBit(16), 700, 3487775215295105005),
    (TBit(32), 100, 9016360943569037717),
    (TSigned(32), -5, 15752881096143890506),
    (TBit(128), 12345678901234567890123, 13720206140874633340),
    (TBool(), True, 4952851536318644461),
    (TString(), "hello", 16156531084128653017),
    (TString(), "", 3476900567878811119),
    (TTuple((TSigned(64), TNamed(VEC, (TSigned(64),)))), (7, (1, 2, 3)), 12646896377811761991),
    (TNamed(VEC, (TString(),)), ("a", "bc"), 15866285593205758745),
    (TNamed(SET, (TBit(32),)), (1, 2, 3), 13585085576907263210),
    (TNamed(MAP, (TString(), TBit(64))), (("k", 5),), 15325804079933841856),
    (TTuple(()), (), 15130871412783076140),
]


@pytest.mark.parametrize("t,v,expected", RUST_HASHES)
def test_hash_stream_is_rusts(t, v, expected):
    assert rust_hash(t, v) == expected


def test_unions_and_structs_hash_as_rust_derives():
    u, s = TNamed("U", ()), TNamed("S", ())
    assert rust_hash(u, Record("A", ())) == 13646096770106105413
    assert rust_hash(u, Record("B", (9,))) == 16204684763930856796
    assert rust_hash(u, Record("C", ("z",))) == 13160944202296157974
    assert rust_hash(s, Record("S", (True, -1))) == 14554337888768773084


def hashset(elem, items):
    return normalize(TNamed(HASHSET, (elem,)), tuple(items), env())


def test_hashset_order_is_upstreams():
    # the orders upstream's hashset_test prints for sets of usize
    usize = TBit(64)
    assert hashset(usize, range(1, 6)) == (4, 2, 1, 3, 5)
    assert hashset(usize, range(1, 11)) == (10, 6, 8, 9, 4, 2, 1, 3, 7, 5)
    assert hashset(usize, [2, 4, 7, 9]) == (9, 4, 2, 7)


def test_hashset_order_follows_the_trie_levels():
    usize = TBit(64)
    items = hashset(usize, [5, 3, 1, 3, 4, 2, 5])
    assert items == hashset(usize, [1, 2, 3, 4, 5])  # insertion order does not matter
    keys = [hash_order_key(usize, x, env()) for x in items]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(len(k) == 7 and all(0 <= level < 32 for level in k) for k in keys)


@pytest.mark.parametrize("kind", [HASHSET, SET64])
def test_size_first_comparison(kind):
    t = TNamed(kind, (TBit(32),))

    def key(items):
        return sort_key(t, normalize(t, items, env()), env())
    assert key((100,)) < key((1, 2))            # fewer elements first
    assert key((1, 2)) == key((2, 1))
    plain = TNamed(SET, (TBit(32),))
    assert sort_key(plain, (100,), env()) > sort_key(plain, (1, 2), env())


def call(name, elem, *args, targs=None):
    return LIBRARY_SETS[name](Ctx(env(), targs or (elem,)), *args)


def plain(name, *args):
    return LIBRARY_SETS[name](*args)


def test_hashset_functions():
    usize = TBit(64)
    a, b = hashset(usize, [1, 2, 3]), hashset(usize, [3, 4])
    assert call("hashset::hashset_union", usize, a, b) == hashset(usize, [1, 2, 3, 4])
    assert call("hashset::hashset_intersection", usize, a, b) == (3,)
    assert call("hashset::hashset_difference", usize, a, b) == hashset(usize, [1, 2])
    assert call("hashset::hashset_unions", usize, (a, b, ())) == hashset(usize, [1, 2, 3, 4])
    inserted = call("hashset::hashset_insert", usize, a, 5)
    assert isinstance(inserted, Mut) and inserted.updates[0] == hashset(usize, [1, 2, 3, 5])
    assert plain("hashset::hashset_remove", a, 2).updates[0] == hashset(usize, [1, 3])
    assert plain("hashset::hashset_remove_imm", a, 7) == a
    assert plain("hashset::hashset_nth", a, 0) == Record("ddlog_std::Some", (a[0],))
    assert plain("hashset::hashset_nth", a, 3) == Record("ddlog_std::None", ())
    assert plain("hashset::hashset_to_vec", a) == a
    assert plain("hashset::hashset_contains", a, 2) and not plain("hashset::hashset_contains", a, 9)
    assert plain("hashset::hashset_size", a) == 3 and plain("hashset::hashset_is_empty", ())


def test_hashset_arg_min_max_take_rusts_first_min_and_last_max():
    usize = TBit(64)
    s = hashset(usize, [1, 2, 3, 4, 5])
    parity = (lambda x: x % 2)
    first_even = [x for x in s if x % 2 == 0][0]
    assert call("hashset::hashset_arg_min", usize, s, parity, targs=(usize, usize)) == \
        Record("ddlog_std::Some", (first_even,))
    last_odd = [x for x in s if x % 2 == 1][-1]
    assert call("hashset::hashset_arg_max", usize, s, parity, targs=(usize, usize)) == \
        Record("ddlog_std::Some", (last_odd,))


def test_set64_functions_keep_ascending_order():
    u32 = TBit(32)
    a = call("tinyset::singleton", u32, 500)
    a = call("tinyset::insert", u32, a, 4).updates[0]
    a = call("tinyset::insert_imm", u32, a, 100)
    assert a == (4, 100, 500)
    b = (4, 5)
    assert call("tinyset::union", u32, a, b) == (4, 5, 100, 500)
    assert call("tinyset::intersection", u32, a, b) == (4,)
    assert call("tinyset::difference", u32, a, b) == (100, 500)
    assert call("tinyset::unions", u32, (a, b)) == (4, 5, 100, 500)
    assert plain("tinyset::nth", a, 1) == Record("ddlog_std::Some", (100,))
    assert plain("tinyset::size", a) == 3 and plain("tinyset::contains", a, 500)


def test_group_aggregates():
    u32 = TBit(32)
    g = GroupValue((), (4, 100, 4, 7))
    assert call("tinyset::group_to_set", u32, g, targs=((), u32)) == (4, 7, 100)
    sets = GroupValue((), ((4, 9), (1,), (9,)))
    assert call("tinyset::group_set_unions", u32, sets, targs=((), u32)) == (1, 4, 9)
    assert call("tinyset::group_setref_unions", u32, sets, targs=((), u32)) == (1, 4, 9)
    hsets = GroupValue((), (hashset(u32, [1, 2]), hashset(u32, [2, 3])))
    assert call("hashset::group_hashset_unions", u32, hsets, targs=((), u32)) == \
        hashset(u32, [1, 2, 3])


def test_debug_and_json_forms():
    from dl2sql.udfs.json_de import from_node
    from dl2sql.udfs.json_ser import to_tree
    from dl2sql.udfs.json_text import parse
    from dl2sql.udfs.std_debug import to_string_debug
    u32 = TBit(32)
    hs, s64 = TNamed(HASHSET, (u32,)), TNamed(SET64, (u32,))
    items = hashset(u32, [1, 2, 3, 4, 5])
    # Rust's debug_set for a HashSet; tinyset's own Debug without spaces
    assert to_string_debug(hs, items, env()) == "{" + ", ".join(map(str, items)) + "}"
    assert to_string_debug(s64, (1, 20), env()) == "[1,20]"
    assert to_tree(env(), hs, items) == list(items)
    assert from_node(env(), hs, parse("[5, 4, 3, 2, 1, 1]"), False) == items


def test_sql_uses_the_runtime_order_only_where_sql_would_differ():
    from dl2sql.types.storage import has_own_order
    u32 = TBit(32)
    assert has_own_order(TNamed(HASHSET, (u32,)), env())
    assert has_own_order(TTuple((u32, TNamed(VEC, (TNamed(SET64, (u32,)),)))), env())
    assert not has_own_order(TNamed(SET, (TNamed(MAP, (TString(), u32)),)), env())


def test_dataframe_inputs_holding_hashsets_are_refused_with_the_reason():
    from dl2sql.diagnostics import InputError
    from dl2sql.sqlgen.canonical import input_projection
    from dl2sql.sqlgen.dialects import DUCKDB
    columns = [("k", TBit(32)), ("s", TNamed(HASHSET, (TBit(32),)))]
    with pytest.raises(InputError, match="column `s`.*HashSet"):
        input_projection("R", columns, env(), DUCKDB)
    assert len(input_projection("R", columns[:1], env(), DUCKDB)) == 1
