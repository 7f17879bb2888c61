"""One value, one spelling: a value glued twice on a page prints to the same precision."""
import pytest

from sitebuild.spelling import spelling, two_spellings

pytestmark = pytest.mark.unit


def test_a_percentage_and_a_decimal_with_the_same_digits_are_one_spelling():
    assert spelling(".1%") == spelling(".3f") == "decimals 3"
    assert spelling(".2f") != spelling(".3f")
    assert spelling("") != spelling(".0f") and spelling(",") == "spec ','"


def test_a_value_printed_to_two_precisions_is_named_with_both_lines():
    page = "Loss {glue:text}`loss:.3f`.\nAgain {glue:text}`loss:.1%`.\nThen {glue:text}`loss:.2f` {claim}`x`.\n"
    [line] = two_spellings("posts/p.md", page)
    assert line == ("posts/p.md, line 3: 'loss' is printed as {glue:text}`loss:.2f` here and as "
                    "{glue:text}`loss:.3f` at line 1: one value, one spelling")


def test_different_values_may_print_differently():
    assert two_spellings("p.md", "{glue:text}`a:.2f` and {glue:text}`b:.4f` and {glue:text}`a:.2f`") == []
