"""The audit reads what a bound sentence says against its claims (sitebuild.audit.reading): the order of the
subjects around a directed word, negation, numbers typed by hand, a pronoun's subject, a result marked as
method. Each reading has a true sentence that passes and its false twin that is refused with its message."""

import pytest

from sitebuild.audit.check import audit_page
from sitebuild.audit.coverage import Subjects
from sitebuild.audit.reading import directed_words, negations, orders, typed_numbers

STATEMENTS = {
    "four_leads": "The four-head model leads the MLP on names by at least 0.2.",
    "mlp_trails": "The MLP trails the four-head model on names by at least 0.2.",
    "more_heads_more": "The four-head model names more children than the MLP.",
    "settles": "The loss comes within 0.01 of the floor and stays there.",
    "not_better": "Beyond its window the MLP names the right name no better than chance + 0.05.",
    "colours_tie": "On colours the one-head and four-head models are within 0.02 of each other.",
    "four_copies": "On the hand-written stories the four-head model copies a mentioned word at least 0.6 of the time.",
}
MODELS = Subjects({"models": {"MLP": ("MLP",), "one-head": ("one-head",), "four-head": ("four-head",)}},
                  {"transformers": ("one-head", "four-head")})


def findings(page: str) -> list[str]:
    return [f.problem for f in audit_page("posts/x.md", page, STATEMENTS, MODELS).findings]


# ---------------------------------------------------------------- order

def test_the_order_of_two_subjects_around_a_directed_word_is_read():
    (a,) = orders("The MLP trails the four-head model.", MODELS.places)
    (b,) = orders("The four-head model leads the MLP.", MODELS.places)
    assert (a.family, a.above, a.below) == (b.family, b.above, b.below) == ("rank", "four-head", "MLP")


@pytest.mark.parametrize("claim", ["four_leads", "mlp_trails"])
def test_a_sentence_that_swaps_its_claims_subjects_is_refused(claim):
    assert findings(f"The four-head model leads the MLP on names {{claim}}`{claim}`.\n") == []
    assert findings(f"The MLP trails the four-head model on names {{claim}}`{claim}`.\n") == []
    (problem,) = findings(f"The MLP leads the four-head model on names {{claim}}`{claim}`.\n")
    assert "does not cover: the order: the sentence sets MLP above four-head (rank: 'leads'), its claim sets " \
           "four-head above MLP" in problem


def test_a_reversed_amount_is_refused():
    assert findings("The four-head model names more children than the MLP {claim}`more_heads_more`.\n") == []
    (problem,) = findings("The four-head model names fewer children than the MLP {claim}`more_heads_more`.\n")
    assert "the order: the sentence sets MLP above four-head (amount: 'fewer than')" in problem


# ---------------------------------------------------------------- negation

def test_a_negation_its_claims_do_not_state_is_refused():
    page = "On the hand-written stories the four-head model copies a mentioned word {claim}`four_copies`.\n"
    assert findings(page) == []
    (problem,) = findings("On the hand-written stories the four-head model does not copy more often than it "
                          "invents {claim}`four_copies`.\n")
    assert "a negation (not ... more; not ... copy): its claims negate nothing" in problem
    (enough,) = findings("On the hand-written stories copying is not enough for the four-head model "
                         "{claim}`four_copies`.\n")
    assert "a negation (not enough)" in enough


def test_a_negation_its_claim_states_passes():
    assert findings("Beyond its window the MLP names the right name no better than chance {claim}`not_better`.\n") == []


@pytest.mark.parametrize("text, negated", [
    ("The time does not depend on T.", []),                      # sameness, said the other way
    ("Not only the MLP but also the heads look back.", []),      # scope, not the opposite
    ("A model does not have to be uniform.", []),                # what is allowed, not what was measured
    ("The loss never falls below the floor.", ["never falls"]),
    ("It is not much better.", ["not much"]),
    ("Where the data does not decide, it splits almost evenly.", []),   # the negator's clause ends at the comma
])
def test_negations_are_read_with_what_they_negate(text, negated):
    assert negations(text) == negated


# ---------------------------------------------------------------- numbers typed by hand

@pytest.mark.parametrize("text, typed", [
    ("The model is right 12% of the time.", ["12%"]),
    ("It is right 12 percent of the time.", ["12 percent"]),
    ("3 of 4 heads look back.", ["3 of 4"]),
    ("The weight is 0.25 on the noun.", ["0.25"]),
    ("The cache is 3 times faster.", ["3 times"]),
    ("Eight sentences, 2 layers and 4 heads.", []),        # counts of what was built, no comparison
    ("In Python 3.11 it runs; see section 2.1.", []),      # a version, a section
    ("The value is \u2042 of the time.", []),              # a glued value
])
def test_numbers_typed_by_hand_are_found(text, typed):
    assert typed_numbers(text) == typed


def test_a_typed_number_is_refused_wherever_it_stands():
    (bound,) = findings("The four-head model leads the MLP by 25% {claim}`four_leads`.\n")
    assert bound.startswith('"The four-head model leads the MLP by 25%." types 25% by hand')
    (marked,) = findings("We count 3 of 4 heads {about}`method`.\n")
    assert "types 3 of 4 by hand" in marked
    glued = "The four-head model leads the MLP by {glue:text}`lead:.0%` {claim}`four_leads`.\n"
    assert findings(glued) == []


def test_numbers_python_formatted_are_not_refused():
    page = "The four-head model leads the MLP by 25% {claim}`four_leads`.\n"
    assert [f.problem for f in audit_page("posts/x.md", page, STATEMENTS, MODELS, typed=False).findings] == []


# ---------------------------------------------------------------- a pronoun's subject

def test_a_pronoun_takes_the_subject_of_the_sentence_before():
    before = "The four-head model was trained longest {about}`design`. "
    assert findings(before + "It copies a mentioned word {claim}`four_copies`.\n") == []
    (wrong,) = findings("The MLP was trained on the same stories {about}`design`. "
                        "It copies a mentioned word {claim}`four_copies`.\n")
    assert "MLP ('It': named in the sentence before; its claims are about four-head)" in wrong
    (none,) = findings("Stories were written by hand {about}`design`. It copies a mentioned word "
                       "{claim}`four_copies`.\n")
    assert "the model 'It' refers to (the sentence before names none; name it" in none


def test_a_pronoun_may_refer_to_an_earlier_clause_of_its_sentence():
    page = "The four-head model was trained longest {about}`design`; it copies a mentioned word {claim}`four_copies`.\n"
    assert findings(page) == []


# ---------------------------------------------------------------- a result marked as method

def test_a_result_marked_as_method_is_refused():
    (problem,) = findings("The four-head model leads the MLP on names {about}`method`.\n")
    assert "is marked {about}`method` but states a result about MLP, four-head: leads" in problem
    assert findings("We score the four-head model and the MLP on the same probes {about}`method`.\n") == []
    assert findings("Does the four-head model lead the MLP on names {about}`method`?\n") == []      # a question
    assert findings("The four-head model has more heads than the MLP {about}`design`.\n") == []    # built so
    assert findings("Two more versions of the MLP are timed; the figure above shows the four-head model "
                    "{about}`method`.\n") == []
    assert directed_words("The MLP names fewer of the children than the four-head model.") == ["fewer than"]


# ---------------------------------------------------------------- words of sameness

def test_matches_is_a_comparison_a_tolerance_backs():
    page = "On colours the one-head model matches the four-head model {claim}`colours_tie`.\n"
    assert findings(page) == []
    (problem,) = findings("On names the one-head model matches the four-head model {claim}`four_copies`.\n")
    assert "same (matches)" in problem
    (unbound,) = findings("On colours the one-head model matches the four-head model.\n")
    assert unbound.startswith("unbound comparison (matches)")


def test_a_negated_verb_of_the_claim_is_refused():
    """"does not copy" where the claim says it copies: no word of relation, but the claim's own verb denied."""
    (problem,) = findings("On the hand-written stories the four-head model does not copy a mentioned word "
                          "{claim}`four_copies`.\n")
    assert "a negation (not ... copy): its claims negate nothing" in problem
    assert findings("On the hand-written stories the four-head model does not stop copying a mentioned word "
                    "{claim}`four_copies`.\n") == []                            # "not stop": it still copies
    assert findings("The four-head model does not explain the stories {claim}`four_copies`.\n") == []


def test_a_multiple_needs_a_claim_that_states_a_ratio():
    (problem,) = findings("The four-head model names twice as many children as the MLP {claim}`more_heads_more`.\n")
    assert "multiple (twice)" in problem
