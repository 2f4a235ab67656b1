"""s2s_core.fmt: one way to write numbers; num() agrees with what the generated scripts print."""

from __future__ import annotations

import math

import torch
from hypothesis import given
from hypothesis import strategies as st

from s2s_core import fmt


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_num_is_round_x_4_without_trailing_zeros(x):
    text = fmt.num(x)
    assert float(text) == round(x, fmt.DIGITS)  # the value a script's round(x, 4) prints
    assert text != "-0" and not text.endswith(".") and not ("." in text and text.endswith("0"))
    decimals = text.split(".")[1] if "." in text else ""
    assert len(decimals) <= fmt.DIGITS


def test_num_examples():
    assert fmt.num(0.26034) == "0.2603"
    assert fmt.num(-0.00001) == "0"
    assert fmt.num(1 / 3) == "0.3333"
    assert fmt.num(1) == "1" and fmt.num(100.0) == "100" and fmt.num(-1.5) == "-1.5"
    assert fmt.num(torch.tensor(3.4, dtype=torch.float64)) == "3.4"
    assert (fmt.num(math.inf), fmt.num(-math.inf), fmt.num(math.nan)) == ("∞", "−∞", "nan")


def test_vec_keeps_the_seed_example_as_written():
    assert fmt.vec([3.4, 2.2]) == "[3.4, 2.2]"
    assert fmt.vec(torch.tensor([1.8, 1.4])) == "[1.8, 1.4]"  # float32 values still read as the note writes them
    assert fmt.vec(torch.tensor([0.5, -1e-9, float("-inf"), 1.0], dtype=torch.float64)) == "[0.5, 0, −∞, 1]"
    assert fmt.vec([]) == "[]"


def test_sci_prob_pct():
    assert fmt.sci(2.220446e-16) == "2.2e-16" and fmt.sci(0.0) == "0" and fmt.sci(1834.2) == "1.8e+03"
    assert fmt.sci(-0.00012) == "-1.2e-04" and fmt.sci(math.inf) == "∞"
    assert fmt.prob(None) == "—" and fmt.prob(0) == "0" and fmt.prob(0.25) == "0.25"
    assert fmt.prob(1 / 3) == "0.3333" and fmt.prob(1.2e-5) == "1.2e-05" and fmt.prob(1.0) == "1"
    assert [fmt.signed(x) for x in (0.12345, -0.5, 0.0, 0.00001, math.inf)] == ["+0.1235", "-0.5", "0", "0", "+∞"]
    assert [fmt.short(x) for x in (0.1071, 0.0871, 1.2e-5)] == ["0.11", "0.087", "1.2e-05"]
    assert [fmt.pct(p) for p in (0.64, 0.032, 1.6e-6, 1e-12, 0.0, 1.0, 0.984, 0.0016)] == [
        "64%",
        "3.2%",
        "0.00016%",
        "< 0.000001%",
        "0%",
        "100%",
        "98.4%",
        "0.16%",
    ]


def test_two_writes_compact_numbers_as_the_marks_print_them():
    assert [fmt.two(x) for x in (0.2187, 0.1, 1.0, -0.004, 2.0)] == ["0.22", "0.1", "1", "0", "2"]
    assert [fmt.two(x, sign=True) for x in (0.45, -1.046, 0.0, -0.001, float("-inf"))] == [
        "+0.45",
        "-1.05",
        "0",
        "0",
        "−∞",
    ]
    assert fmt.two(torch.tensor(0.125, dtype=torch.float64)) == "0.12" and fmt.two(math.nan) == "nan"
    assert (fmt.TWO_D3, fmt.SIGNED_TWO_D3) == (".2~f", "+.2~f")  # the same rule, for a chart's text marks


def test_seconds_one_decimal_and_estimates_in_whole_seconds_never_below_one():
    assert [fmt.seconds(x) for x in (3.24, 20.0, 0.44, 0.04, 12.96)] == ["3.2", "20", "0.4", "0", "13"]
    assert [fmt.seconds_text(x) for x in (None, 0.0, 0.2, 1.0, 4.01, 59.9)] == ["1", "1", "1", "1", "5", "60"]


def test_rounded_and_d3_formats():
    assert fmt.rounded(torch.tensor([0.123456, -0.00001], dtype=torch.float64)) == [0.1235, 0.0]
    assert str(fmt.rounded([-0.00001])[0]) == "0.0"  # a table cell never holds -0.0
    assert f".{fmt.DIGITS}~f" == fmt.NUM_D3


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=6))
def test_script_defs_print_what_the_page_writes(values):
    space: dict = {}
    exec(fmt.script_defs("vec", "sci"), space)  # our own generated source
    assert space["vec"](torch.tensor(values, dtype=torch.float64)) == fmt.vec(values)
    for v in values:
        assert space["num"](v) == fmt.num(v) and space["sci"](v) == fmt.sci(v)
    assert set(space) - {"__builtins__"} == {"num", "vec", "sci"}
