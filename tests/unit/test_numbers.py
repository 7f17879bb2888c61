"""Numbers as printed: never rounded to exactly 0, 1 or 100 % unless they are that."""

import pytest

from compute.present.numbers import honest_format
from compute.present.tables import fmt


@pytest.mark.parametrize("value, spec, text", [
    (0.9997, ".1%", "99.97%"),
    (0.99967, ".1%", "99.97%"),
    (0.996, ".0%", "99.6%"),
    (0.0004, ".2f", "0.0004"),
    (-0.0004, ".2f", "-0.0004"),
    (0.9999, ".3f", "0.9999"),
    (1.0004, ".2f", "1.0004"),
    (0.00002, ".1%", "0.002%"),
])
def test_a_value_near_a_bound_gets_the_decimals_it_needs(value, spec, text):
    assert honest_format(value, spec) == text


@pytest.mark.parametrize("value, spec, text", [
    (1.0, ".1%", "100.0%"), (0.0, ".1%", "0.0%"), (1.0, ".2f", "1.00"), (0.0, ".3f", "0.000"),
    (0.5, ".2f", "0.50"), (0.25, ".0%", "25%"), (12345.0, ",.0f", "12,345"), (0.123456, ".3f", "0.123"),
])
def test_exact_bounds_and_other_values_print_as_the_spec_says(value, spec, text):
    assert honest_format(value, spec) == text


def test_a_value_closer_to_a_bound_than_two_more_decimals_prints_as_an_inequality():
    assert honest_format(0.9999998, ".2f") == ">0.9999" and honest_format(3e-14, ".2f") == "<0.0001"
    assert honest_format(1 - 1e-15, ".1%") == ">99.999%" and honest_format(1e-9, ".0%") == "<0.01%"
    assert honest_format(-3e-14, ".2f") == ">-0.0001" and honest_format(-0.9999999, ".2f") == "<-0.9999"
    assert honest_format(1 + 1e-9, ".2f") == ">1.0000"


def test_tables_print_honestly_too():
    assert fmt(0.9997, 2) == "0.9997" and fmt(0.00001, 2) == "<0.0001" and fmt(-0.00001, 2) == ">-0.0001"
    assert fmt(0.0, 2) == "0.00" and fmt(1.0, 3) == "1.000" and fmt(-0.0, 2) == "0.00"


@pytest.mark.parametrize("value, spec, text", [
    (5.1e-6, ".5f", "0.000005"),     # not 0.00001: twice the value
    (-5.1e-6, ".5f", "-0.000005"),
    (0.0014, ".2%", "0.14%"),
    (0.04, ".1f", "0.04"),           # not 0.0 (a bound), nor anything but the value's own digit
])
def test_a_value_whose_one_digit_would_misstate_it_gets_the_decimals_it_needs(value, spec, text):
    assert honest_format(value, spec) == text


@pytest.mark.parametrize("value, spec, text", [(0.15, ".1f", "0.1"), (0.26, ".1f", "0.3"), (7.4e-6, ".5f", "0.00001")])
def test_a_rounding_within_half_the_value_prints_as_the_spec_says(value, spec, text):
    assert honest_format(value, spec) == text
