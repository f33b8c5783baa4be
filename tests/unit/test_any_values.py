"""`Any` values: kept with their type, stored as text that SQL orders as DDlog does."""
import math
import random

import pytest

from dl2sql.runtime.convert import from_sql, to_sql
from dl2sql.runtime.order import sort_key
from dl2sql.runtime.ordered_text import ordered_text, skip
from dl2sql.runtime.printing import format_value
from dl2sql.runtime.values import AnyValue, Record
from dl2sql.types.model import ANY, STRING, TBit, TNamed, TSigned, TTuple, TypeEnv
from dl2sql.udfs.std import STD
from dl2sql.udfs.std_base import NONE, Ctx, some

ENV = TypeEnv()
ANY_T = TNamed(ANY)
S64, U32 = TSigned(64), TBit(32)
KEYS = [0, 1, -1, 9, 10, -9, -10, 2**200, -(2**200), 123456789012345678901234567890,
        -5, 99, 100, -100, -99]


def test_integer_text_orders_as_the_integers():
    texts = sorted(KEYS, key=ordered_text)
    assert texts == sorted(KEYS)


def test_float_text_orders_as_the_floats_and_zeros_are_equal():
    values = [-math.inf, -1e300, -2.5, -1e-300, 0.0, 1e-300, 3.0, 1e300, math.inf]
    shuffled = random.Random(1).sample(values, len(values))
    assert sorted(shuffled, key=ordered_text) == values
    assert ordered_text(-0.0) == ordered_text(0.0)


def test_string_text_orders_as_code_points_with_prefixes_first():
    words = ["", "a", "a\x00", "a\x01", "a\x02", "a\x03", "ab", "b", "é", "\U0001F600"]
    shuffled = random.Random(2).sample(words, len(words))
    assert sorted(shuffled, key=ordered_text) == sorted(words)


def test_tuple_text_orders_lexicographically_and_skip_finds_the_end():
    keys = [(), (1,), (1, 5), (1, 7), (2,), (-1, 3, 4)]  # Vec<s64> sort keys
    assert sorted(keys, key=ordered_text) == sorted(keys)
    keys += [((0, 1.5), "z"), ((1, 0.0), "")]
    for k in keys:
        text = ordered_text(k) + "rest"
        assert text[skip(text):] == "rest"


def test_any_keeps_its_type_for_from_any():
    boxed = STD["ddlog_std::to_any"](Ctx(ENV, (S64,)), 5)
    assert STD["ddlog_std::from_any"](Ctx(ENV, (S64,)), boxed) == some(5)
    assert STD["ddlog_std::from_any"](Ctx(ENV, (U32,)), boxed) == NONE


def test_stored_any_round_trips_and_its_text_orders_as_ddlog():
    values = [AnyValue(S64, n) for n in (-3, 2, 10)] + \
             [AnyValue(TTuple((STRING, S64)), ("a", 1)), AnyValue(STRING, "zz")]
    stored = [to_sql(ANY_T, v, ENV) for v in values]
    assert [from_sql(ANY_T, s, ENV) for s in stored] == values
    by_text = [from_sql(ANY_T, s, ENV) for s in sorted(stored)]
    assert by_text == sorted(values, key=lambda v: sort_key(ANY_T, v, ENV))
    # values of one type keep their own order: -3 < 2 < 10 (not as text)
    ints = [v.value for v in by_text if v.type == S64]
    assert ints == [-3, 2, 10]


def test_any_prints_its_value():
    assert format_value(ANY_T, AnyValue(TTuple((STRING, S64)), ("a", -1)), ENV) == '("a", -1)'


def test_any_inside_a_record_round_trips_through_the_plain_text():
    from dl2sql.runtime.encoded import decode, encode
    v = Record("R", (AnyValue(TNamed("ddlog_std::Vec", (S64,)), (1, 2)),))
    assert decode(encode(v)) == v


@pytest.mark.parametrize("bad", [object(), None])
def test_ordered_text_rejects_what_a_sort_key_never_holds(bad):
    with pytest.raises(TypeError):
        ordered_text((bad,))
