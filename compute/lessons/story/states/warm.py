"""Part III's measurements computed ahead, in processes of their own beside the lesson's run (compute.checks.WARM_UPS,
run by the build's preflight while the lessons execute).

Part III's run asks for its kept measurements (compute.kept) one after another, in the page's order, and was the
build's longest lesson by far: its last measurements were computed while the other lessons had ended and a core
stood idle. A warm-up computes the same calls under the same keys, starting from the end of the page, so the run
finds them kept when it gets there; a call both want at once is computed once (kept's lock), whoever asks first.
Every call here is one the page makes: a warm-up adds no result of its own, and the page's bytes are the same
whoever computed what.
"""
from __future__ import annotations

from ....conditions import GENERATED_STORIES
from ....published.story import FOUR_HEAD, MODELS, SECOND_SEED
from . import circuit, heads, samples
from .relations import NAMES as RELATION_NAMES, RELATION_MODELS
from .scoring import SPLITS, Scoring


def late_measurements() -> None:
    """The page's measurements from its end back: the relation models' passes (where the page shows them), the name
    head's inputs, the attention on earlier mentions and the knock-outs."""
    if GENERATED_STORIES.holds():
        for split in reversed(SPLITS):          # their corpus is the generated one: every split (not read here)
            for kind in reversed(MODELS):
                Scoring.results.__wrapped__.ensure(RELATION_MODELS, RELATION_NAMES[kind], split)
    circuit.name_head_inputs.__wrapped__.ensure(SECOND_SEED)
    heads.mention_mass.__wrapped__.ensure(SECOND_SEED)
    heads.knockouts.__wrapped__.ensure(FOUR_HEAD)
    heads.mention_mass.__wrapped__.ensure(FOUR_HEAD)


def every_models_samples() -> None:
    """The stories each model writes, the four-head model's first (the page reads them in MODELS' order)."""
    for kind in reversed(MODELS):
        samples.samples.__wrapped__.ensure(kind)
