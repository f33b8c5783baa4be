"""DDlog's total order (§2.9) and canonical forms."""
import functools
import math

from hypothesis import given, settings, strategies as st

from dl2sql.types.model import (DOUBLE, MAP, OPTION, SET, STRING, VEC, BOOL, CtorDef, TBit,
                                TSigned, TNamed, TTuple, TypeDefn, TypeEnv, FLOAT, BIGINT)
from dl2sql.runtime.values import Record
from std_env import std_env
from dl2sql.runtime.order import normalize, sort_key, sorted_values, to_f32
from profiles import examples


def make_env() -> TypeEnv:
    env = std_env()
    # Declared with the "larger" constructor first to show that order is by index.
    env.add(TypeDefn("Shape", (), (CtorDef("Zed", (("r", DOUBLE),)),
                                   CtorDef("Alpha", (("w", TSigned(32)), ("h", STRING))))))
    return env


ENV = make_env()
U8 = TBit(8)
S32 = TSigned(32)


def vec(t):
    return TNamed(VEC, (t,))


def set_(t):
    return TNamed(SET, (t,))


def map_(k, v):
    return TNamed(MAP, (k, v))


def opt(t):
    return TNamed(OPTION, (t,))


def srt(t, vals):
    return sorted_values(t, vals, ENV)


def test_primitives():
    assert srt(BOOL, [True, False]) == [False, True]
    assert srt(S32, [3, -5, 0]) == [-5, 0, 3]
    assert srt(BIGINT, [10**30, -10**30, 1]) == [-10**30, 1, 10**30]
    assert srt(STRING, ["a", "A", "10,100", "10,10", ""]) == ["", "10,10", "10,100", "A", "a"]
    # byte-wise: U+00E9 (2 bytes) sorts after 'z', U+1F600 after U+FFFF
    assert srt(STRING, ["\U0001F600", "\uffff", "é", "z"]) == ["z", "é", "\uffff", "\U0001F600"]


def test_floats_nan_largest_and_signed_zero():
    nan = float("nan")
    out = srt(DOUBLE, [nan, math.inf, -math.inf, 1.0, -0.0])
    assert out[:3] == [-math.inf, -0.0, 1.0] and out[3] == math.inf and math.isnan(out[4])
    assert sort_key(DOUBLE, -0.0, ENV) == sort_key(DOUBLE, 0.0, ENV)
    assert sort_key(DOUBLE, nan, ENV) == sort_key(DOUBLE, float("nan"), ENV)


def test_tuples_and_unions_by_ctor_index():
    shape = TNamed("Shape")
    z = Record("Zed", (100.0,))
    a = Record("Alpha", (-1, "x"))
    assert srt(shape, [a, z]) == [z, a]
    assert srt(TTuple((U8, STRING)), [(2, "a"), (1, "b"), (1, "a")]) == [(1, "a"), (1, "b"),
                                                                         (2, "a")]
    none, some = Record("ddlog_std::None", ()), Record("ddlog_std::Some", (-7,))
    assert srt(opt(S32), [some, none]) == [none, some]


def test_vec_prefix_smaller_and_sets_maps():
    v = vec(S32)
    assert srt(v, [(5,), (1, 2), (-100, 0, 100), ()]) == [(), (-100, 0, 100), (1, 2), (5,)]
    s = set_(S32)
    assert sort_key(s, (3, 1), ENV) == sort_key(s, (1, 3), ENV)
    assert srt(s, [(2,), (1, 3)]) == [(1, 3), (2,)]
    m = map_(STRING, U8)
    assert srt(m, [(("b", 0),), (("a", 9),)]) == [(("a", 9),), (("b", 0),)]


def test_normalize():
    t = TTuple((set_(S32), map_(STRING, set_(U8)), FLOAT))
    v = ((3, 1, 3), (("b", (2, 1)), ("a", ()), ("b", (5,))), 0.1)
    assert normalize(t, v, ENV) == ((1, 3), (("a", ()), ("b", (5,))), to_f32(0.1))
    assert normalize(set_(DOUBLE), (0.0, -0.0, float("inf")), ENV) == (0.0, float("inf"))


# ---------------------------------------------------------------- properties

def _cmp(a, b):
    return (a > b) - (a < b)


def ref_cmp(t, a, b):
    """An independent, comparison-based statement of §2.9 for the tested types."""
    if t == DOUBLE:
        an, bn = math.isnan(a), math.isnan(b)
        if an or bn:
            return _cmp(an, bn)
        return _cmp(a, b)
    if t == STRING:
        return _cmp(a.encode("utf-8"), b.encode("utf-8"))
    if isinstance(t, TTuple):
        for et, x, y in zip(t.elems, a, b):
            c = ref_cmp(et, x, y)
            if c:
                return c
        return 0
    if isinstance(t, TNamed) and t.name == VEC:
        for x, y in zip(a, b):
            c = ref_cmp(t.args[0], x, y)
            if c:
                return c
        return _cmp(len(a), len(b))
    if isinstance(t, TNamed) and t.name == SET:
        key = functools.cmp_to_key(lambda x, y: ref_cmp(t.args[0], x, y))
        dedup = lambda s: [x for i, x in enumerate(sorted(s, key=key))  # noqa: E731
                           if i == 0 or ref_cmp(t.args[0], x, sorted(s, key=key)[i - 1])]
        return ref_cmp(TNamed(VEC, t.args), dedup(a), dedup(b))
    if isinstance(t, TNamed) and t.name == OPTION:
        ia, ib = a.ctor == "ddlog_std::Some", b.ctor == "ddlog_std::Some"
        if ia != ib:
            return _cmp(ia, ib)
        return ref_cmp(t.args[0], a.fields[0], b.fields[0]) if ia else 0
    return _cmp(a, b)


doubles = st.floats(allow_nan=True, allow_infinity=True)
strings = st.text(max_size=4)
options = st.one_of(st.just(Record("ddlog_std::None", ())),
                    st.builds(lambda x: Record("ddlog_std::Some", (x,)), st.integers(-3, 3)))
T = TTuple((BOOL, vec(S32), opt(S32), STRING, DOUBLE, set_(STRING)))
values = st.tuples(st.booleans(), st.lists(st.integers(-3, 3), max_size=3).map(tuple),
                   options, strings, doubles, st.lists(strings, max_size=3).map(tuple))


@settings(max_examples=examples(400))
@given(values, values)
def test_sort_key_matches_reference(a, b):
    ka, kb = sort_key(T, a, ENV), sort_key(T, b, ENV)
    assert _cmp(ka, kb) == ref_cmp(T, a, b)


@settings(max_examples=examples(200))
@given(st.lists(values, max_size=6))
def test_sorting_is_total_and_stable_under_permutation(vals):
    once = [sort_key(T, v, ENV) for v in srt(T, vals)]
    twice = [sort_key(T, v, ENV) for v in srt(T, list(reversed(vals)))]
    assert once == twice
