"""A claim's margin: how far its numbers are from failing (compute.claims), listed where it is small, in
`python -m compute check` and in the build's summary (sitebuild.prose.margins)."""
import json

from compute.claims import Registry, at_least, at_most, both, claims_table, room, trend
from sitebuild.prose.margins import claim_margins, margins_line, write_margins


def test_a_margin_is_the_share_of_its_threshold_to_spare_and_negative_when_failing():
    assert room(0.77, 0.7, above=True) == (0.77 - 0.7) / 0.7
    assert at_least(0.77, 0.7, "x").holds and round(at_least(0.77, 0.7, "x").margin, 6) == 0.1
    failing = at_most(0.21, 0.2, "drop 0.21")
    assert not failing.holds and failing.margin < 0
    assert both(at_least(1.0, 0.5, "a"), at_most(0.199, 0.2, "b")).margin == room(0.199, 0.2, above=False)


def test_a_trend_states_its_smallest_step_as_its_margin():
    falls = trend([0.9, 0.6, 0.58], ["a", "b", "c"], "falls")
    assert falls.holds and round(falls.margin, 6) == round(0.02 / 0.6, 6)      # the smallest step, of 0.6
    by = trend([1.0, 1.5, 1.7], ["a", "b", "c"], "rises", by=0.1)
    assert by.holds and round(by.margin, 6) == 1.0                             # 0.2 over 0.1: 100 % to spare
    flat_step = trend([0.9, 0.6, 0.6], ["a", "b", "c"], "falls")
    assert not flat_step.holds and flat_step.margin == 0


def test_the_check_table_lists_the_claims_within_ten_percent_of_failing():
    r = Registry()

    @r.claim("The drop is at most 0.2.")
    def by_a_hair():
        return at_most(0.199, 0.2, "largest drop 0.199")

    @r.claim("Copying is at least 0.5.")
    def with_room():
        return at_least(0.9, 0.5, "copying 0.9")

    table = claims_table(r.check_all())
    assert "within 10% of failing: by_a_hair (0.5%)" in table and "with_room (" not in table.splitlines()[-1]


def test_the_build_names_the_fragile_claims_of_the_lessons_last_runs(tmp_path):
    (tmp_path / "prose").mkdir()
    lines = [{"text": "A sentence."}, {"claim": "by_a_hair", "holds": True, "applies": True, "margin": 0.005},
             {"claim": "with_room", "holds": True, "applies": True, "margin": 0.8},
             {"claim": "no_margin_yet", "holds": True, "applies": True, "margin": None},
             {"claim": "not_checked_here", "holds": True, "applies": False, "margin": None}]
    (tmp_path / "prose" / "lesson.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    margins = claim_margins(tmp_path, ["lesson"])
    assert margins == {"by_a_hair": 0.005, "with_room": 0.8, "no_margin_yet": None}
    assert margins_line(margins) == ("2 of 3 claims checked state their margin (each in <build>/claim-margins.txt); "
                                     "within 10% of failing: by_a_hair (0.5%)")
    written = write_margins(tmp_path, margins).read_text().splitlines()
    assert [line.split() for line in written] == [["by_a_hair", "0.5%"], ["with_room", "80.0%"], ["no_margin_yet", "-"]]


def test_an_outcome_of_numpy_values_is_recorded_as_json(tmp_path, monkeypatch):
    """Checks compare numpy numbers: their outcome goes into the page's record all the same."""
    import numpy as np
    from compute.present import prose
    monkeypatch.setenv(prose.RECORD, str(tmp_path))
    r = Registry()

    @r.claim("At least one half.")
    def half():
        return at_least(np.float64(0.75), 0.5, "0.75")
    r.check_all()
    (path,) = tmp_path.glob("kernel-*.jsonl")
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert {"claim": "half", "holds": True, "applies": True, "margin": 0.5} in entries


def test_claims_checked_inside_another_claims_check_are_not_recorded_as_the_pages(monkeypatch):
    """A claim that re-checks claims on another model (a seed record against its checkpoints) must not leave that
    model's outcomes in the page's record, where the build's list of margins reads them."""
    import compute.claims as claims_module
    recorded = []
    monkeypatch.setattr(claims_module, "_record_outcome", lambda c, o: recorded.append((c.name, o.holds)))
    other, page = Registry(), Registry()

    @other.claim("On the other model, the drop is at most 0.2.")
    def elsewhere():
        return at_most(0.9, 0.2, "drop 0.9")

    @page.claim("The other model's record agrees with it.")
    def record_agrees():
        failing = [c.name for c, o in other.check_all() if not o.holds]
        return at_least(1.0 if failing == ["elsewhere"] else 0.0, 1.0, "recorded failures agree")

    page.check_all()
    assert recorded == [("record_agrees", True)]
