"""The comparison audit: comparing sentences are bound or marked; failing claims are told at their sentences."""

import pytest

from sitebuild.audit import (
    AuditError, MARKS, audit_page, audit_site, failed_claims, locate_failed_claims, triggers,
)

KNOWN = {"loss_falls", "near_chance"}


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
