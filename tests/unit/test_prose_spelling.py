"""One value, one spelling: a value glued twice on a page prints to the same precision."""
import pytest

from sitebuild.prose.spelling import spelling, two_spellings

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


# Across the site: glued values and the numbers the lessons' Python printed, by their unrounded value.

def printing(value, spec, where, glued=False):
    from sitebuild.prose.spelling import Printing
    return Printing(value, spec, glued, where)


def test_one_value_glued_on_two_pages_to_two_precisions_is_named_with_both_places():
    from sitebuild.prose.spelling import value_spellings
    [line] = value_spellings([printing(0.41237, ".3f", "posts/a.md, line 4", True),
                              printing(0.41237, ".2f", "posts/b.md, line 9", True)])
    assert line == ("posts/b.md, line 9: the value 0.41237 prints as '0.41' here and as '0.412' at posts/a.md, "
                    "line 4: one value, one spelling")


def test_a_table_may_print_a_value_coarser_than_the_prose_when_a_reader_rounds_the_prose_to_it():
    from sitebuild.prose.spelling import value_spellings
    assert value_spellings([printing(0.41237, ".3f", "posts/a.md, line 4", True),
                            printing(0.41237, ".2f", "compute/lessons/x.py, line 7")]) == []
    assert value_spellings([printing(0.41237, ".1%", "posts/a.md, line 4", True),   # 41.2% is 0.412
                            printing(0.41237, ".2f", "compute/lessons/x.py, line 7")]) == []


def test_a_coarse_print_that_rounding_the_fine_one_does_not_give_is_refused():
    """0.06499 prints 0.0650 in one table and 0.06 in another: a reader rounding 0.0650 gets 0.07."""
    from sitebuild.prose.spelling import value_spellings
    [line] = value_spellings([printing(0.06499, ".4f", "compute/lessons/x.py, line 7"),
                              printing(0.06499, ".2f", "posts/a.md, line 4", True)])
    assert "'0.06'" in line and "'0.0650'" in line and line.startswith("posts/a.md, line 4: ")


def test_values_both_precisions_print_exactly_and_whole_numbers_agree():
    from sitebuild.prose.spelling import value_spellings
    assert value_spellings([printing(0.25, ".3f", "a", True), printing(0.25, ".2f", "b", True)]) == []
    assert value_spellings([printing(0.1, "", "a", True), printing(0.1, ".2f", "b")]) == []
    assert value_spellings([printing(3.0, ".1f", "a", True), printing(3.0, ".3f", "b", True)]) == []
    [line] = value_spellings([printing(0.123456, "", "a", True), printing(0.123456, ".2f", "b")])


def test_numbers_a_lesson_prints_are_recorded_with_their_value_spec_and_place(tmp_path, monkeypatch):
    from compute.present.tables import fmt
    from sitebuild.prose.spelling import python_printings
    monkeypatch.setenv("SITEBUILD_PROSE_DIR", str(tmp_path))
    assert fmt(0.41237, 2) == "0.41" and fmt(2.0, 2) == "2.00"   # a whole number is not recorded
    (tmp_path / "prose").mkdir()
    [record] = tmp_path.glob("kernel-*.jsonl")
    record.rename(tmp_path / "prose" / "lesson.jsonl")
    [p] = python_printings(tmp_path, "lesson")
    assert (p.value, p.spec, p.glued) == (0.41237, ".2f", False)
    assert p.where.startswith("tests/unit/test_prose_spelling.py, line ")
