"""Two small worked examples for Part III's explanations: one row through the first LayerNorm, and top-k on one
of the four-head model's real next-word distributions."""
from __future__ import annotations

from functools import lru_cache

import torch

from ....data.story import KINDS
from ....data.tokenizer import EOS
from ....published.story import FOUR_HEAD, load, story_corpus
from .heads import worked_story

SHOWN = 4       # coordinates of the LayerNorm row printed
TOP_K = 5       # the k of the top-k example


def _ids(tokens) -> torch.Tensor:
    vocab = story_corpus().vocab
    return torch.tensor([[vocab.index(EOS)] + vocab.encode(tokens)])


@lru_cache(maxsize=1)
def layernorm_row() -> dict:
    """The first block's LayerNorm on the row of the worked story's first name (its embedding: with rotary
    positions no position row is added), step by step: mean, spread, normalised row, scale and shift; and
    torch's own LayerNorm of the same row."""
    story = story_corpus().val[worked_story()]
    model = load(FOUR_HEAD).model
    pos = next(i for i, p in enumerate(story.probes) if p.kind == "name")       # a probe's name ...
    target = story.probes[pos].source                                           # ... where it was first said
    with torch.no_grad():
        x = model.embed(_ids(story.tokens))[0, target + 1].double()             # (d_model,), <eos> comes first
        ln = model.blocks[0].ln1
        mean = x.mean()
        spread = torch.sqrt(((x - mean) ** 2).mean() + ln.eps)
        normed = (x - mean) / spread
        out = normed * ln.weight.double() + ln.bias.double()
        theirs = ln(x.float()).double()
    return {"word": story.tokens[target], "position": target + 1, "d": x.numel(), "eps": ln.eps,
            "mean": float(mean), "spread": float(spread), "x": x.tolist(), "normed": normed.tolist(),
            "gain": ln.weight.double().tolist(), "bias": ln.bias.double().tolist(), "out": out.tolist(),
            "normed_mean": float(normed.mean()), "normed_square": float((normed ** 2).mean()),
            "largest_difference": float((out - theirs).abs().max())}


@lru_cache(maxsize=1)
def top_k_example(k: int = TOP_K) -> dict:
    """The four-head model's next-word probabilities (temperature 1) where the worked story first names a
    colour (a free choice, not a recall), before and after keeping only the k likeliest words."""
    story = story_corpus().val[worked_story()]
    colours = set(KINDS["colour"])
    at = next(i for i, t in enumerate(story.tokens) if t in colours)
    vocab = story_corpus().vocab
    with torch.no_grad():
        p = torch.softmax(load(FOUR_HEAD).model(_ids(story.tokens[:at]))[0, -1].double(), -1)
    order = torch.argsort(-p, stable=True)
    kept = p[order[:k]]
    return {"before": " ".join(story.tokens[max(0, at - 5): at]), "k": k,
            "words": [vocab.itos[int(i)] for i in order[:k]], "p": kept.tolist(), "p_top_k": (kept / kept.sum()).tolist(),
            "share": float(kept.sum()), "dropped": len(vocab) - k, "said": story.tokens[at],
            "next_p": float(p[order[k]])}
