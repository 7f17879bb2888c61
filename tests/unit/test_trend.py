"""compute.claims.trend: a sentence about a trend is checked on every step it covers."""

import pytest

from compute.claims import trend

LABELS = ["1-8", "9-16", "17-32", "33-64"]


def test_a_fall_at_every_step_holds_and_lists_the_steps():
    out = trend([0.9, 0.8, 0.7, 0.6], LABELS, "falls")
    assert out.holds and out.evidence == "1-8 0.900 -> 9-16 0.800 -> 17-32 0.700 -> 33-64 0.600"


def test_one_step_against_the_trend_breaks_it_and_is_named():
    out = trend([0.9, 0.8, 0.7, 0.75], LABELS, "falls")
    assert not out.holds and out.evidence.endswith("not falls at 17-32 -> 33-64")


def test_steps_smaller_than_by_do_not_count():
    assert trend([0.1, 0.2, 0.3], LABELS[:3], "rises", by=0.05).holds
    assert not trend([0.1, 0.12, 0.3], LABELS[:3], "rises", by=0.05).holds


def test_missing_values_are_skipped_and_named():
    out = trend([0.9, None, 0.7, 0.6], LABELS, "falls")
    assert out.holds and "no value at 9-16" in out.evidence
    assert not trend([0.9, None, None, None], LABELS, "falls").holds  # one point is no trend


def test_only_rises_or_falls():
    with pytest.raises(ValueError):
        trend([1, 2], LABELS[:2], "grows")
