"""The claims hold for the published checkpoint and can fail for another one."""
import pytest

from compute.claims import ClaimError
from compute.lessons.walkthrough import claims
from compute.published.walkthrough import ALTERNATIVE, NAME, load


def test_every_claim_holds_for_the_published_checkpoint():
    results = claims.check_all(load(NAME))
    broken = [(c.name, o.evidence) for c, o in results if not o.holds]
    assert not broken
    assert len(results) >= 10


def test_claims_can_fail_the_alternative_seed_attends_elsewhere():
    alt = load(ALTERNATIVE)
    outcome = dict((c.name, o) for c, o in claims.check_all(alt))
    assert not outcome["row_13_attends_fall"].holds
    # ... yet it is a converged, correct model:
    assert outcome["position_13_predicts_fast"].holds and outcome["determined_words_are_certain"].holds


def test_claim_error_names_the_claim_and_its_numbers():
    alt = load(ALTERNATIVE)
    with pytest.raises(ClaimError) as err:
        claims.require_all(alt, "alt.safetensors")
    text = str(err.value)
    assert "claim row_13_attends_fall fails" in text
    assert "weight on position 9 ('fall') = 0.00" in text
    assert "(alt.safetensors)" in text and "\n" not in text


def test_cue_coordinates_are_what_the_claims_say():
    wt = load(NAME)
    K, V = wt["K"], wt["V"]
    c = claims.cue_key_coordinate(wt)
    assert sorted(K[:, c].argsort()[-2:].tolist()) == [1, 9]
    cv = claims.cue_value_coordinate(wt)
    gaps = abs(V[1] - V[9])
    assert all(gaps[cv] >= g for g in gaps)


def test_coin_flip_positions_of_the_goal_sentence():
    assert claims.coin_flip_positions(load(NAME)) == [0, 1, 9]
