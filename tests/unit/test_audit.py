"""The comparison audit: comparing sentences are bound or marked; failing claims are told at their sentences."""

import pytest

from sitebuild.audit.check import (
    AuditError, MARKS, audit_page, audit_site, caught, failed_claims, locate_failed_claims, triggers,
)
from sitebuild.audit.coverage import Subjects, uncovered

KNOWN = {"loss_falls", "near_chance"}
# What each claim says it checks, as a lesson's Registry holds it.
STATEMENTS = {
    "loss_falls": "Validation loss falls from the MLP to the one-head to the four-head model at every step.",
    "near_chance": "Beyond its window the MLP is within 0.05 of chance.",
    "objects_fall": "For both transformers, object accuracy falls at every step from 9–16 tokens back to 33–64.",
    "share_small": "The share is below 0.1.",
}
MODELS = Subjects({"models": {"MLP": ("MLP",), "one-head": ("one-head",), "four-head": ("four-head",)}},
                  {"transformers": ("one-head", "four-head")})


@pytest.mark.parametrize("sentence, word", [
    ("The loss falls from one model to the next.", "falls"),
    ("Accuracy is near chance beyond the window.", "near"),
    ("It is hardly better than a coin.", "hardly"),
    ("Row 13 puts most of its weight on fall.", "most"),
    ("Every head looks back.", "every"),
    ("None of the samples repeats a story.", "none"),
    ("The time doubles with T.", "doubles"),
    ("The curve jumps between two points.", "jumps"),
    ("This is the highest score.", "highest"),
])
def test_the_documented_words_are_found(sentence, word):
    assert word in triggers(sentence)


def test_words_inside_other_words_are_not_found():
    assert triggers("A token, a window and a feature vector.") == []
    assert triggers("The allocation falls") == ["falls"]  # 'all' inside 'allocation' is not 'all'


def test_a_planted_unbound_comparison_is_named_with_file_and_line():
    page = "# Title\n\nThe values.\n\nThe loss falls\nfrom one model to the next.\n"
    audit = audit_page("posts/x.md", page, KNOWN)
    assert [(f.path, f.line) for f in audit.findings] == [("posts/x.md", 5)]
    assert "unbound comparison (falls)" in str(audit.findings[0])
    assert str(audit.findings[0]).startswith("posts/x.md, line 5: ")


def test_a_bound_or_marked_sentence_passes_and_is_counted():
    page = ("The loss falls from one model to the next {claim}`loss_falls`.\n\n"
            "It is near chance {claim}`near_chance loss_falls`. We sample every word {about}`method`.\n")
    audit = audit_page("posts/x.md", page, KNOWN)
    assert audit.findings == []
    assert [names for _, names in audit.bound] == [["loss_falls"], ["near_chance", "loss_falls"]]
    assert audit.marked == {"method": 1}
    assert audit.summary() == "posts/x.md: 2 sentences bound to 2 claims, 1 marked (method 1)"


def test_an_unknown_claim_or_mark_is_a_finding():
    audit = audit_page("p.md", "It falls {claim}`no_such_claim`. It rises {about}`vibes`.\n", KNOWN)
    problems = [f.problem for f in audit.findings]
    assert any("no claim is called 'no_such_claim'" in p for p in problems)
    assert any("{about}`vibes` is not one of " + ", ".join(MARKS) in p for p in problems)


def test_audit_site_raises_one_line_per_finding(tmp_path):
    (tmp_path / "posts").mkdir()
    (tmp_path / "index.md").write_text("# Home\n\nThe best lessons.\n")
    (tmp_path / "posts" / "a.md").write_text("# A\n\nIt grows.\n\nIt is fine.\n")
    with pytest.raises(AuditError) as err:
        audit_site(tmp_path)
    lines = str(err.value).splitlines()
    assert [line.split(": ")[0] for line in lines] == ["index.md, line 3", "posts/a.md, line 3"]
    assert "(best)" in lines[0] and "(grows)" in lines[1]


def test_a_lesson_that_is_not_utf8_is_named_with_its_byte_and_place(tmp_path):
    (tmp_path / "posts").mkdir()
    (tmp_path / "index.md").write_text("# Home\n")
    (tmp_path / "posts" / "a.md").write_bytes("# A\n\nA caf\u00e9 here.\n".encode("latin-1"))
    with pytest.raises(AuditError) as err:
        audit_site(tmp_path)
    assert str(err.value) == ("posts/a.md: not UTF-8 text (byte 0xe9 at line 3, column 6); save it as UTF-8")


def test_failed_claims_are_read_from_a_claim_error():
    msg = ("posts/p.md, line 3: ClaimError: claim a fails: Row 5 [of S] leads. [A[5,1] = 0.3]; "
           "claim b fails: B holds. [x 1] (the published model)")
    assert failed_claims(msg) == [("a", "Row 5 [of S] leads.", "A[5,1] = 0.3", ""),
                                  ("b", "B holds.", "x 1", "(the published model)")]


def test_a_failing_claim_is_told_at_every_sentence_bound_to_it(tmp_path):
    (tmp_path / "posts").mkdir()
    (tmp_path / "posts" / "p.md").write_text(
        "# P\n\nThe loss falls from\nthe MLP to four heads {claim}`loss_falls`.\n\nAgain it falls {claim}`loss_falls`.\n")
    msg = "ClaimError: claim loss_falls fails: The loss falls by 0.05. [MLP 0.8, one head 0.79] (the models)"
    lines = locate_failed_claims(msg, tmp_path).splitlines()
    assert lines == [
        'posts/p.md, line 3: "The loss falls from the MLP to four heads." rests on claim loss_falls, which fails: '
        "The loss falls by 0.05. [MLP 0.8, one head 0.79] (the models)",
        'posts/p.md, line 6: "Again it falls." rests on claim loss_falls, which fails: '
        "The loss falls by 0.05. [MLP 0.8, one head 0.79] (the models)",
    ]


def test_a_failing_claim_bound_to_no_sentence_keeps_its_message(tmp_path):
    msg = "claim table_only fails: A table holds. [x 1]"
    assert locate_failed_claims(msg, tmp_path) == msg


def test_the_page_title_is_not_audited_but_other_headings_are():
    audit = audit_page("p.md", "# The cost of a longer context\n\n## 2. Costs grow\n", KNOWN)
    assert [(f.line, "(grow)" in f.problem) for f in audit.findings] == [(3, True)]



# ------------------------------------------------------------------ what a bound sentence says, against its claims

def findings(page: str, subjects=MODELS, settings=frozenset()) -> list[str]:
    return [f.problem for f in audit_page("posts/x.md", page, STATEMENTS, subjects, settings).findings]


def test_a_sentence_bound_to_a_claim_that_checks_the_other_direction_is_refused():
    (problem,) = findings("The loss rises with every head added {claim}`loss_falls`.\n")
    assert problem.startswith('"The loss rises with every head added." rests on claim loss_falls, which does not '
                              "cover: rises (rises)")
    assert findings("The loss falls with every head added {claim}`loss_falls`.\n") == []


def test_a_sentence_whose_subject_its_claims_do_not_cover_is_refused():
    """Naming no model, the sentence speaks of all three; its claim checks the two transformers."""
    (problem,) = findings("Objects fall at every step from 9–16 to 33–64 tokens back {claim}`objects_fall`.\n")
    assert "every model (the sentence names none; its claims cover only four-head, one-head)" in problem
    assert findings("For both transformers, objects fall at every step from 9–16 to 33–64 tokens back "
                    "{claim}`objects_fall`.\n") == []
    (named,) = findings("The MLP's objects fall at every step from 9–16 to 33–64 tokens back {claim}`objects_fall`.\n")
    assert "MLP (its claims are about four-head, one-head)" in named


def test_a_range_the_claims_do_not_state_is_refused():
    (problem,) = findings("For both transformers, objects fall at every step from 1–8 to 33–64 tokens back "
                          "{claim}`objects_fall`.\n")
    assert "the range 1–8 to 33–64" in problem


def test_each_clause_rests_on_its_own_claims_and_a_marked_clause_on_none():
    page = ("The loss falls at every step {claim}`loss_falls`; the MLP is near chance beyond its window "
            "{claim}`near_chance`.\n")
    assert findings(page) == []
    page = "The loss falls at every step {claim}`loss_falls`; every model reads the same tokens {about}`design`.\n"
    assert findings(page) == []


@pytest.mark.parametrize("sentence", [
    "Attention outdoes the MLP.", "The head takes the lion's share of the weight.", "The cache dwarfs the model.",
    "The MLP trails the transformers.", "It is a fraction of the cost.", "Four heads edge out one.",
    "The cache is sixfold faster.", "Accuracy is 0.9 against 0.4.", "The share went from 0.025 to 0.033.",
    "Object accuracy 0.53 vs 0.02.", "The time does not depend on T.",
])
def test_the_grown_word_list_catches_each_planted_comparison(sentence):
    assert triggers(sentence), sentence
    problems = findings(f"# T\n\n{sentence}\n")
    assert [p for p in problems if p.startswith("unbound comparison (")], problems
    assert caught(sentence)  # --list says why


def test_list_says_why_a_sentence_is_caught():
    assert caught("Attention dwarfs averaging, 0.9 against 0.4.") == [
        "a comparison: dwarfs", "two numbers set against each other: 0.9 against 0.4"]


def test_a_marked_sentence_may_cite_settings_but_no_computed_value_or_comparison():
    typed, digits = findings("The share is 0.9 against 0.4 {about}`method`.\n")
    assert "is marked {about}`method` but cites computed values (0.9 against 0.4)" in digits
    assert "types 0.9, 0.4 by hand" in typed
    (glued,) = findings("We train at rate {glue:text}`lr` to loss {glue:text}`loss:.2f` {about}`method`.\n",
                        settings=frozenset({"lr"}))
    assert "cites computed values (loss)" in glued
    assert findings("We train at rate {glue:text}`lr` {about}`method`.\n", settings=frozenset({"lr"})) == []


def test_a_claim_implies_what_follows_from_it():
    assert uncovered("Attention is the cheapest, cheaper than averaging.", ["Attention is the cheapest of all."]) == []
    assert uncovered("It is nearly chance.", ["It is within 0.05 of chance."]) == []
    assert uncovered("Nothing moves.", ["Both distributions are the same."]) == []
    assert uncovered("It rises.", ["It is the largest."]) == ["rises (rises)"]


def test_words_mentioned_state_nothing():
    assert uncovered("After *the*, the model says *rise* or *fall*.", ["Position 0 splits evenly."]) == []
    assert uncovered("It says rise.", ["Position 0 splits evenly."]) == ["rises (rise)"]


def test_a_sentence_bound_to_a_conditional_claim_must_sit_in_its_only_block():
    page = ("The loss falls {claim}`loss_falls`.\n\n"
            ":::{only} generated_stories\nIt is near chance {claim}`near_chance`.\n:::\n")
    conditions = {"near_chance": "generated_stories"}
    assert audit_page("posts/x.md", page, KNOWN, conditions=conditions).findings == []
    outside = page.replace(":::{only} generated_stories\n", "").replace("\n:::\n", "\n")
    found = audit_page("posts/x.md", outside, KNOWN, conditions=conditions).findings
    assert [f.line for f in found] == [3]
    assert "rests on claim near_chance, which is checked only where generated_stories holds" in str(found[0])
    other = page.replace("{only} generated_stories", "{only} not generated_stories")
    assert len(audit_page("posts/x.md", other, KNOWN, conditions=conditions).findings) == 1
