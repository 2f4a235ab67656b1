"""Validators: good values pass through, anything else raises InputError (and nothing else)."""

from __future__ import annotations

import contextlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2s_core import caps
from s2s_core.errors import InputError
from s2s_core.validate import check_float, check_int, check_text, parse_matrix, parse_number, parse_vector

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
)


@pytest.mark.parametrize("raw, expected", [("2", 2.0), (" -0.5 ", -0.5), ("1e3", 1000.0), (3, 3.0), ("−2", -2.0)])
def test_parse_number_accepts_numbers(raw, expected):
    assert parse_number(raw, "attention.field.sources") == expected


@pytest.mark.parametrize(
    "raw, key",
    [
        ("", "errors.empty_value"),
        (None, "errors.empty_value"),
        ("abc", "errors.not_a_number"),
        ("nan", "errors.nan"),
        ("inf", "errors.too_large"),
        ("1e300", "errors.too_large"),
        (True, "errors.not_a_number"),
    ],
)
def test_parse_number_rejects_with_the_right_key(raw, key):
    with pytest.raises(InputError) as err:
        parse_number(raw, "attention.field.sources")
    assert err.value.key == key and err.value.field == "attention.field.sources"


def test_a_bad_cell_is_named_by_row_and_column():
    with pytest.raises(InputError) as err:
        parse_matrix([["1", "2"], ["3", "x"]], "attention.field.sources")
    assert err.value.key == "errors.not_a_number"
    assert err.value.params["row"] == 2 and err.value.params["col"] == 2


def test_matrix_caps_and_shape():
    with pytest.raises(InputError):
        parse_matrix([["1"]] * (caps.MAX_MATRIX_ROWS + 1), "f")
    with pytest.raises(InputError):
        parse_matrix([["1", "2"], ["3"]], "f")
    with pytest.raises(InputError):
        parse_matrix([], "f")
    assert parse_matrix([["1", 2.5]], "f") == [[1.0, 2.5]]


@settings(max_examples=200, deadline=None)
@given(anything)
def test_parse_number_raises_only_input_error(value):
    try:
        out = parse_number(value, "f")
    except InputError:
        return
    assert math.isfinite(out) and abs(out) <= caps.MAX_ABS_VALUE


@settings(max_examples=200, deadline=None)
@given(anything, st.integers(-5, 5), st.integers(0, 10))
def test_check_int_raises_only_input_error(value, lo, span):
    try:
        out = check_int(value, "f", lo, lo + span)
    except InputError:
        return
    assert isinstance(out, int) and lo <= out <= lo + span


@settings(max_examples=100, deadline=None)
@given(anything)
def test_check_float_and_text_raise_only_input_error(value):
    for fn in (lambda v: check_float(v, "f", -1.0, 1.0), lambda v: check_text(v, "f"), lambda v: parse_vector(v, "f")):
        with contextlib.suppress(InputError):
            fn(value)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(anything, max_size=5), max_size=6))
def test_parse_matrix_raises_only_input_error(rows):
    try:
        out = parse_matrix(rows, "f")
    except InputError:
        return
    assert all(len(r) == len(out[0]) for r in out)
