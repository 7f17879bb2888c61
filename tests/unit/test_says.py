"""Claims that state what they check as data (compute.says), words of strength with one meaning (compute.strength),
and the audit reading a sentence against both (sitebuild.audit.strength). Each reading has a true sentence that
passes and its false twin that is refused with its message."""

import pytest

from compute.claims import Outcome, Registry
from compute.says import Says
from compute.strength import COPIES, FLAT, LEXICON, NEAR_CHANCE, strengths_in
from sitebuild.audit.check import audit_page
from sitebuild.audit.coverage import Subjects
from sitebuild.audit.reading import orders
from sitebuild.audit.strength import Statements

MODELS = Subjects({"models": {"MLP": ("MLP",), "one-head": ("one-head", "one-head model"),
                              "four-head": ("four-head", "four-head model")}})


def _registry() -> Registry:
    r = Registry()

    @r.claim(Says("falls", "validation loss", ("the MLP", "the one-head model", "the four-head model"), by=0.05,
                  along=True, lower_is_better=True))
    def loss_falls():
        return Outcome(True, "")

    @r.claim(Says("greater", "accuracy on names", ("the four-head model", "the one-head model"), by=0.1))
    def four_names_more():
        return Outcome(True, "")

    @r.claim(Says("at most", "accuracy beyond its window", ("the MLP",), by="chance + 0.05", strength=NEAR_CHANCE))
    def mlp_near_chance():
        return Outcome(True, "")

    @r.claim(Says("at least", "accuracy beyond its window", ("the MLP",), by="chance + 0.01"))
    def mlp_above_chance():
        return Outcome(True, "")

    @r.claim(Says("greater", "forward time", ("the MLP", "the four-head model"), lower_is_better=True))
    def mlp_slower():
        return Outcome(True, "")

    @r.claim(Says("falls", "the largest weight", over="at every step of the divisor"))
    def largest_falls():
        return Outcome(True, "")
    return r


class _Checks:
    """What compute.checks gives the audit, for the registry above."""
    def __init__(self, registry):
        self.registry = registry

    def claim_strengths(self):
        return {n: [w.word for w in c.strengths] for n, c in self.registry.claims.items()}

    def claim_says(self):
        return {n: [s.as_data() for s in c.says] for n, c in self.registry.claims.items() if c.says}


REGISTRY = _registry()
KNOWN = Statements({n: c.statement for n, c in REGISTRY.claims.items()}, _Checks(REGISTRY))


def findings(sentence: str) -> list[str]:
    return [f.problem for f in audit_page("posts/x.md", sentence + "\n", KNOWN, MODELS).findings]


# ---------------------------------------------------------------- the statement, written from the data

def test_a_statement_is_written_from_its_data_and_reads_back_as_the_same_order():
    statement = REGISTRY.claims["four_names_more"].statement
    assert statement == "The four-head model's accuracy on names is higher than the one-head model's, by at least 0.1."
    (o,) = orders(statement, MODELS.places)
    assert (o.above, o.below) == ("four-head", "one-head")


def test_a_chain_is_written_in_its_order_and_a_word_of_strength_adds_its_meaning():
    assert REGISTRY.claims["loss_falls"].statement == (
        "Validation loss falls from the MLP to the one-head model to the four-head model, each step by at least 0.05.")
    assert REGISTRY.claims["mlp_near_chance"].statement.endswith(f"(near chance: {NEAR_CHANCE.meaning}).")
    assert REGISTRY.claims["mlp_near_chance"].strengths == (NEAR_CHANCE,)


@pytest.mark.parametrize("bad", [dict(relation="bigger", measure="loss", subjects=("a", "b")),
                                 dict(relation="greater", measure="loss", subjects=("a",)),
                                 dict(relation="falls", measure="loss", subjects=("a",), along=True)])
def test_data_that_state_no_relation_are_refused_when_the_claim_is_written(bad):
    with pytest.raises(ValueError):
        Says(**bad)


# ---------------------------------------------------------------- words of strength

def test_each_word_of_strength_has_one_meaning_with_its_number():
    assert len({s.word for s in LEXICON}) == len(LEXICON)
    for s in LEXICON:
        assert f"{s.limit}" in s.meaning.replace(" %", "")
    assert [w.word for w, _ in strengths_in("The MLP is no better than a coin, near chance.")] == \
        ["no better than a coin", "near chance"]


def test_a_word_of_strength_passes_only_where_a_claim_checks_it():
    assert findings("Beyond its window the MLP is near chance {claim}`mlp_near_chance`.") == []
    (problem,) = findings("Beyond its window the MLP is near chance {claim}`mlp_above_chance`.")
    assert "the word 'near chance'" in problem and NEAR_CHANCE.meaning in problem
    assert "mlp_above_chance" in problem


@pytest.mark.parametrize("word, claim", [("copies objects", COPIES), ("stays flat", FLAT)])
def test_a_stronger_word_than_the_claims_check_is_refused(word, claim):
    (problem,) = findings(f"Beyond its window the MLP {word} {{claim}}`mlp_near_chance`.")
    assert f"({claim.word}: {claim.meaning}" in problem


# ---------------------------------------------------------------- order and direction against the data

def test_better_on_a_loss_means_lower_and_the_reverse_is_refused():
    assert findings("The four-head model beats the MLP on validation loss {claim}`loss_falls`.") == []
    (problem,) = findings("The MLP beats the four-head model on validation loss {claim}`loss_falls`.")
    assert "four-head the better in validation loss" in problem


def test_an_amount_word_against_the_data_is_refused_in_either_family():
    assert findings("On names the one-head model is lower than the four-head model {claim}`four_names_more`.") == []
    (problem,) = findings("On names the one-head model scores higher than the four-head model {claim}`four_names_more`.")
    assert "its claim's data make four-head the higher in accuracy on names" in problem


def test_a_measure_moved_the_other_way_from_its_data_is_refused():
    assert findings("At every step of the divisor the largest weight falls {claim}`largest_falls`.") == []
    (problem,) = findings("At every step of the divisor the largest weight rises {claim}`largest_falls`.")
    assert "the sentence says largest weight rises, its claim's data say it falls" in problem


def test_a_time_read_in_words_of_speed_and_of_length_against_its_data():
    for true in ("The four-head model is faster than the MLP", "The MLP takes longer than the four-head model"):
        assert findings(f"{true} {{claim}}`mlp_slower`.") == []
    (slow,) = findings("The MLP is faster than the four-head model {claim}`mlp_slower`.")
    assert "its claim's data make four-head the better in forward time" in slow
    (long,) = findings("The four-head model takes longer than the MLP {claim}`mlp_slower`.")
    assert "its claim's data make MLP the higher in forward time" in long


def test_an_order_the_audit_cannot_read_is_refused_with_how_to_write_it():
    assert findings("On names the four-head model is ahead of the one-head model {claim}`four_names_more`.") == []
    (problem,) = findings("Set against the one-head model on names, the four-head model is ahead {claim}`four_names_more`.")
    assert "'ahead' sets a subject against nothing named after it" in problem and "split the clause" in problem


def test_the_largest_and_an_identity_are_written_from_their_data():
    assert Says("largest", "accuracy on names", ("the four-head model", "the one-head model", "the MLP"),
                by=0.1).sentence() == ("The four-head model's accuracy on names is the largest, above the one-head "
                                       "model's and the MLP's by at least 0.1.")
    assert Says("equal", "the stable and the naive softmax", by=0,
                over="wherever the naive one is finite").sentence() == \
        "The stable and the naive softmax are the same wherever the naive one is finite, exactly."
    (o,) = orders("The four-head model's accuracy on names is higher than the MLP's.", MODELS.places)
    assert (o.above, o.below) == ("four-head", "MLP")
