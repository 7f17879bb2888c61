"""The training data and what it implies."""
import math

import pytest

from compute.data.walkthrough import (GOAL_SENTENCE, SENTENCES, VOCAB, data_facts, encode, next_word_options,
                                      training_batch)


def test_vocabulary_is_in_the_articles_order():
    assert VOCAB == ("the", "rise", "of", "machine", "was", "slow", "but", "fall", "fast")
    assert {w for s in SENTENCES for w in s.split()} == set(VOCAB)


def test_goal_sentence_has_fourteen_inputs_and_two_was():
    words = GOAL_SENTENCE.split()[:-1]
    assert len(words) == 14
    assert [i for i, w in enumerate(words) if w == "was"] == [5, 13]


def test_every_clause_pairs_its_noun_with_its_adjective():
    for s in SENTENCES:
        for clause in s.split(" but "):
            words = clause.split()
            noun, adjective = words[1], words[-1]
            assert {"rise": "slow", "fall": "fast"}[noun] == adjective


def test_batch_pads_after_the_sentence_and_ignores_padded_targets():
    x, y = training_batch(14)
    assert x.shape == y.shape == (8, 14)
    assert (y != -100).sum().item() == sum(len(s.split()) - 1 for s in SENTENCES)
    assert (y[0, 8:] == -100).all() and (y[0, :8] != -100).all()


def test_loss_floor_counts_the_two_way_choices():
    facts = data_facts()
    # Counted independently: every sentence has three two-way choices
    # (the first noun, and "was"/"of" after each noun).
    assert facts["n_coin_flips"] == 3 * len(SENTENCES)
    assert facts["n_targets"] == sum(len(s.split()) - 1 for s in SENTENCES)
    assert facts["loss_floor"] == pytest.approx(facts["n_coin_flips"] * math.log(2) / facts["n_targets"])
    assert next_word_options(["the"]) == {"rise": 0.5, "fall": 0.5}
    assert next_word_options("the rise was slow but the".split()) == {"fall": 1.0}


def test_unknown_word_is_a_clear_error():
    with pytest.raises(ValueError, match="'dog' is not in the vocabulary"):
        encode("the dog was slow")
