"""compute.probes: where the probes sit in the model's input, and how they are scored."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from compute.data.story import KINDS, Story, probes_for
from compute.data.tokenizer import build_vocabulary, words
from compute.probes import KIND_NAMES, by_length, probe_set, run_probes, summary

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


class Prefix(torch.nn.Module):
    """Scores at each position that depend on every input before it (a running sum of fixed embeddings), as a
    causal model's do: a probe's row read from another story, or another place, scores differently."""

    def __init__(self, vocab_size):
        super().__init__()
        self.embed = torch.randn(vocab_size, vocab_size, generator=torch.Generator().manual_seed(1))

    def forward(self, x):
        return self.embed[x].cumsum(1)                                         # (b, T, vocab)


def test_stories_batched_by_length_score_each_probe_as_the_story_alone_does():
    """run_probes passes the stories shortest first, in batches: every probe gets the row of its own story and
    position, and the loss is the mean over every target, as passing each story on its own gives."""
    texts = [TEXT, "Tom had a blue kite . Tom gave the blue kite to Mia .", TEXT + " " + TEXT,
             "Mia had a red ball . Mia said thank you to Tom ."]
    stories = [Story(t, tuple(words(t)), probes_for(tuple(words(t)))) for t in texts]
    vocab = build_vocabulary([s.tokens for s in stories] + [list(KINDS["name"]) + list(KINDS["object"]) +
                                                          list(KINDS["colour"])])
    ps = probe_set(stories, vocab, 128)
    lengths = (ps.targets != -100).sum(1)
    assert lengths.tolist() != sorted(lengths.tolist())                    # passed in another order than written
    assert lengths[by_length(ps)].tolist() == sorted(lengths.tolist())
    model = Prefix(len(vocab))
    batched = run_probes(model, ps, vocab, batch=2)
    alone = [run_probes(model, probe_set([s], vocab, 128), vocab, batch=1) for s in stories]
    for field in ("within_kind", "top1", "choice", "copies"):
        assert (getattr(batched, field) == np.concatenate([getattr(r, field) for r in alone])).all(), field
    per_story = [r.val_loss * int(n) for r, n in zip(alone, lengths)]
    assert batched.val_loss == pytest.approx(sum(per_story) / int(lengths.sum()), rel=1e-6)
