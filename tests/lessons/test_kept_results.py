"""What compute keeps on disk between processes (compute.kept) is what it computes: a kept measurement equals a
fresh one bit for bit, and the kept corpus is the one the published checkpoints were trained on."""
from __future__ import annotations

import dataclasses
import json

import numpy as np

from compute.data.story import corpus_sha256
from compute.lessons.story.states import evaluation
from compute.lessons.story.states.scoring import Scoring
from compute.published.story import NAMES, SECOND_SEED, checkpoint_files, story_corpus


def test_a_kept_probe_pass_equals_a_fresh_one():
    kept = evaluation.results("story-one-head", "hand-written")          # from disk once any process made it
    fresh = Scoring.results.__wrapped__.uncached(evaluation.PART_III, "story-one-head", "hand-written")
    for field in dataclasses.fields(fresh):
        a, b = getattr(kept, field.name), getattr(fresh, field.name)
        assert np.array_equal(a, b), field.name


def test_the_kept_corpus_is_the_one_the_checkpoints_were_trained_on():
    data = story_corpus()
    assert corpus_sha256(data.train + data.val + data.held_out) == data.sha256
    for name in [*NAMES.values(), SECOND_SEED]:
        _, manifest = checkpoint_files(name)
        assert json.loads(manifest.read_text())["data_sha256"] == data.sha256, name
