"""The story models retrained with the relation families (`train story --model KIND --relations`): the generator
taught who left and who stayed, whose thing is whose and which of two places, to see whether copying then holds
in the hand-written stories. Scored on the splits the page scores its own models on, from their own corpus."""
from __future__ import annotations

from functools import lru_cache

import torch

from ....data.handwritten import read_handwritten
from ....data.story import Story
from ....kept import kept
from ....probes import ProbeSet, covered, probe_set, run_probes, summary
from ....published.story import MODELS, PUBLISHED, Corpus, checkpoint_files, corpus_of, load_published, model_path

# Read from the published folder whatever folder Part III reads (sitebuild.stamps: the lesson's stamp covers them).
CHECKPOINT_FILES = ("story-mlp-relations.safetensors", "story-mlp-relations.json",
                    "story-one-head-relations.safetensors", "story-one-head-relations.json",
                    "story-four-head-relations.safetensors", "story-four-head-relations.json")
NAMES = {kind: f"story-{kind}-relations" for kind in MODELS}
FOUR = NAMES["four-head"]
GOAL = 0.6     # within-kind accuracy on the hand-written names and places the relation families were added for
SPLITS = ("in-template", "held-out", "hand-written")


def corpus() -> Corpus:
    """The generated corpus with the relation families, as the relation models' manifest names it."""
    return corpus_of(model_path(FOUR, PUBLISHED))


def split_stories(split: str) -> list[Story]:
    data = corpus()
    if split == "hand-written":
        return covered([h.story for h in read_handwritten()], data.vocab)
    return {"in-template": data.val, "held-out": data.held_out}[split]


@lru_cache(maxsize=3)
def probes(split: str) -> ProbeSet:
    return probe_set(split_stories(split), corpus().vocab, load_published(FOUR).config.context)


@kept(reads=lambda name, split: checkpoint_files(name, PUBLISHED))
def results(name: str, split: str):
    """One pass of a relation model over a split's stories (kept on disk: compute.kept)."""
    torch.set_num_threads(2)
    return run_probes(load_published(name).model, probes(split), corpus().vocab)


def scores(kind: str, split: str) -> dict:
    """Loss and within-kind accuracies of the relation model of one kind on one split."""
    return summary(probes(split), results(NAMES[kind], split))
