"""The `fp` library's Python implementations follow Rust's float semantics."""
import math

import pytest

from dl2sql.runtime.order import to_f32
from dl2sql.udfs.lib_fp import FP


@pytest.mark.parametrize("x, expected", [(0.5, 1.0), (-0.5, -1.0), (2.5, 3.0), (-2.5, -3.0),
                                         (1.49, 1.0)])
def test_round_is_half_away_from_zero(x, expected):
    assert FP["fp::round_d"](x) == expected


def test_signum_of_zeros_follows_the_sign_bit():
    assert FP["fp::signum_d"](0.0) == 1.0
    assert FP["fp::signum_d"](-0.0) == -1.0
    assert math.isnan(FP["fp::signum_d"](math.nan))


def test_domain_errors_give_nan_not_exceptions():
    assert math.isnan(FP["fp::sqrt_d"](-1.0))
    assert math.isnan(FP["fp::acosh_d"](0.5))
    assert FP["fp::ln_d"](0.0) == -math.inf


def test_single_precision_results_are_rounded_to_f32():
    r = FP["fp::sin_f"](0.5)
    assert r == to_f32(r) and r != math.sin(0.5)


def test_parse_and_int_from():
    assert FP["fp::parse_d"]("0.02").fields == (0.02,)
    assert FP["fp::parse_d"]("blah").ctor == "ddlog_std::Err"
    assert FP["fp::int_from_d"](-3.7).fields == (-3,)
    assert FP["fp::int_from_d"](math.inf).ctor == "ddlog_std::None"
