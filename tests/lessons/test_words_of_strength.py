"""Every claim of the site uses a word of strength (compute.strength) only as the site defines it: a claim whose
statement says "copies", "near chance" or "flat" names the word, and so checks it at the word's limit; a claim
stated as data (compute.says) has its statement written from that data."""
from compute.checks import _registries
from compute.says import statement
from compute.strength import strengths_in


def _claims():
    return [(lesson, name, c) for lesson, registry in _registries(None) for name, c in registry.claims.items()]


def test_a_claim_that_says_a_word_of_strength_checks_it_at_the_sites_meaning():
    loose = [f"{lesson}: {name} says '{found[0]}' without checking {word.word} ({word.meaning})"
             for lesson, name, c in _claims() for word, found in strengths_in(c.statement) if word not in c.strengths]
    assert loose == []


def test_a_claim_stated_as_data_says_its_data_and_every_word_it_checks():
    for lesson, name, c in _claims():
        if c.says:
            assert c.statement.startswith(statement(c.says).rstrip(".")), name
        for word in c.strengths:
            assert f"({word.word}: {word.meaning})" in c.statement, name


def test_every_claim_of_the_site_states_its_relation_as_data():
    in_words = [f"{lesson}: {name}" for lesson, name, c in _claims() if not c.says]
    assert in_words == []
