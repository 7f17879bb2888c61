"""compute.probes: where the probes sit in the model's input, and how they are scored."""
from __future__ import annotations

import numpy as np
import torch

from compute.data.story import KINDS, Story, probes_for
from compute.data.tokenizer import build_vocabulary, words
from compute.probes import KIND_NAMES, probe_set, run_probes, summary

TEXT = ("Mia had a red ball . Tom had a blue kite . Mia gave the red ball to Tom . "
        "Tom said thank you to Mia .")


def _setup(context=64):
    tokens = tuple(words(TEXT))
    story = Story(TEXT, tokens, probes_for(tokens))
    vocab = build_vocabulary([tokens, list(KINDS["name"]) + list(KINDS["object"]) + list(KINDS["colour"])])
    return story, vocab, probe_set([story], vocab, context)


def test_probes_sit_where_the_model_predicts_the_probed_word():
    story, vocab, ps = _setup()
    assert ps.inputs[0, 0] == vocab.index("<eos>")
    for p, pos, word in zip(story.probes, ps.position, ps.word):
        assert pos == p.target                                    # input position target reads token target - 1 ...
        assert ps.inputs[0, pos] == vocab.index(story.tokens[p.target - 1])
        assert ps.targets[0, pos] == word == vocab.index(story.tokens[p.target])   # ... and predicts token target
    second_mia = story.tokens.index("mia", 1)
    i = list(ps.position).index(second_mia)
    assert [vocab.decode([w])[0] for w in ps.mentioned[i]] == ["mia", "tom"]  # both names were mentioned before


class Oracle(torch.nn.Module):
    """Puts all its score on the true next token (read from the probe set's targets)."""

    def __init__(self, ps, vocab_size):
        super().__init__()
        self.ps, self.V = ps, vocab_size

    def forward(self, x):
        y = self.ps.targets[: x.shape[0], : x.shape[1]].clamp(min=0)
        return torch.nn.functional.one_hot(y, self.V).float() * 20


class Fixed(torch.nn.Module):
    """The same scores everywhere: a model that ignores its input."""

    def __init__(self, scores):
        super().__init__()
        self.scores = scores

    def forward(self, x):
        return self.scores.expand(x.shape[0], x.shape[1], -1)


def test_an_oracle_gets_every_probe_and_a_fixed_guess_matches_a_plain_loop():
    story, vocab, ps = _setup()
    r = run_probes(Oracle(ps, len(vocab)), ps, vocab)
    assert r.within_kind.all() and r.val_loss < 1e-6 and (r.top1 == ps.word).all()
    scores = torch.randn(len(vocab), generator=torch.Generator().manual_seed(0))
    r = run_probes(Fixed(scores), ps, vocab)
    for p in range(len(ps.word)):                                 # the same verdicts, probe by probe
        kind_ids = [vocab.index(w) for w in KINDS[KIND_NAMES[ps.kind[p]]] if w in vocab.itos]
        best = max(kind_ids, key=lambda i: scores[i])
        assert r.within_kind[p] == (best == ps.word[p])
        cands = ps.mentioned[p]
        assert r.among_mentioned[p] == (len(cands) > 1 and max(cands, key=lambda i: scores[i]) == ps.word[p])
    s = summary(ps, r)
    assert s["name"] == np.mean(r.within_kind[ps.kind == KIND_NAMES.index("name")])


def test_probes_past_the_context_are_dropped():
    story, vocab, ps = _setup(context=12)
    assert all(pos < 12 for pos in ps.position)
    assert len(ps.word) < len(story.probes)
