"""The story models retrained with the relation families (`train story --model KIND --relations`): the generator
taught who left and who stayed, whose thing is whose and which of two places, to see whether copying then holds
in the hand-written stories. Scored on the splits the page scores its own models on, from their own corpus."""
from __future__ import annotations

from ....published.story import MODELS, PUBLISHED
from .scoring import SPLITS, Scoring  # noqa: F401 (SPLITS: the relation models are scored on the page's splits)

# Read from the published folder whatever folder Part III reads (sitebuild.pages.stamps: the lesson's stamp covers them).
CHECKPOINT_FILES = ("story-mlp-relations.safetensors", "story-mlp-relations.json",
                    "story-one-head-relations.safetensors", "story-one-head-relations.json",
                    "story-four-head-relations.safetensors", "story-four-head-relations.json")
NAMES = {kind: f"story-{kind}-relations" for kind in MODELS}
FOUR = NAMES["four-head"]
GOAL = 0.6     # within-kind accuracy on the hand-written names and places the relation families were added for
RELATION_MODELS = Scoring(PUBLISHED, FOUR)     # scored on their own corpus: the generated one with the families


def scores(kind: str, split: str) -> dict:
    """Loss and within-kind accuracies of the relation model of one kind on one split."""
    return RELATION_MODELS.scores(NAMES[kind], split)
