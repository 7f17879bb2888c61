"""Train it yourself: what the page's JavaScript trainer reads (_static/train/), written into the site.

One JSON file holds everything the trainer needs that is not a seed's weights: the model's sizes and the
order of its tensors, the eight sentences as input and target ids, which targets the data determines, the
recipe (AdamW as torch runs it), the goal sentence and its answer rows, what "converged" means, and the
seed record's result for every seed it holds. Each seed's initial weights are a file of their own (float32,
little-endian, the tensors in order: 1,992 bytes), the exact numbers torch's generator draws for that seed,
fetched only when the reader trains that seed.
"""
from __future__ import annotations

import json
from dataclasses import asdict

import numpy as np

from ...data.walkthrough import (IGNORE, SENTENCES, VOCAB, answer_rows, goal_tokens, inputs_and_targets,
                                 next_word_options, training_batch)
from ...models.walkthrough import CONFIG, parameter_shapes
from ...training.walkthrough import Recipe
from ...training.walkthrough_exact import BETAS, EPS, initial_flat
from .selection import LOSS_CEILING, SURE
from .seeds import pattern_counts, seed_record

FOLDER = "_static/train/"
SPEC = "walkthrough.json"
LR_RANGE = (1e-3, 5e-2)                   # what the page lets a reader choose
STEPS_RANGE = (100, 5000)


def init_name(seed: int) -> str:
    return f"init/seed-{seed}.f32"


def initial_weights(seed: int, recipe: Recipe = Recipe()) -> np.ndarray:
    """Every initial weight of this seed, tensor after tensor in the page's order, as float32 (torch drew them
    in float32, so nothing is lost)."""
    return initial_flat(seed, recipe).astype("<f4")


def determined(sentence: str) -> list[bool]:
    """For each target of the sentence: does the data allow only one next word there?"""
    words = sentence.split()
    return [len(next_word_options(words[: i + 1])) == 1 for i in range(len(words) - 1)]


def record_results() -> dict[str, dict]:
    """The seed record's result for each of its seeds: final loss, converged, and where rows 5 and 13 look."""
    return {str(e["seed"]): {"loss": e["final_loss"], "converged": e["converged"],
                             "rows": {row: [r["position"], r["word"]] for row, r in e["rows"].items()}}
            for e in seed_record()["entries"]}


def spec() -> dict:
    x, y = training_batch(CONFIG.context)                       # (8, T), (8, T)
    mask = [determined(s) + [False] * (CONFIG.context - len(s.split()) + 1) for s in SENTENCES]
    record = seed_record()
    recipe = Recipe(**record["recipe"])
    cue_rows = {str(r): w for r, w in zip(answer_rows(), ("rise", "fall"))}
    return {
        "schema": "walkthrough-trainer/1",
        "vocab": list(VOCAB),
        "config": {"vocab_size": CONFIG.vocab_size, "context": CONFIG.context, "d_model": CONFIG.d_model,
                   "d_k": CONFIG.d_k, "d_v": CONFIG.d_v, "d_ff": CONFIG.d_ff},
        "tensors": [[name, list(shape)] for name, shape in parameter_shapes().items()],
        "inputs": x.tolist(), "targets": y.tolist(), "ignore": IGNORE, "determined": mask,
        "recipe": {**asdict(recipe), "betas": list(BETAS), "eps": EPS, "optimizer": "AdamW"},
        "ranges": {"lr": list(LR_RANGE), "steps": list(STEPS_RANGE)},
        "goal": {"inputs": inputs_and_targets(" ".join(goal_tokens()) + " fast")[0], "words": goal_tokens(),
                 "rows": list(answer_rows()), "cue": cue_rows},
        "converged": {"loss_below": LOSS_CEILING, "determined_above": SURE},
        "published_seed": record["published_seed"], "alternative_seed": record["alternative_seed"],
        "record": {"seeds": record["seeds"], "n_converged": record["n_converged"],
                   "n_cue_both": pattern_counts(record).get("5 → rise, 13 → fall", 0),
                   "results": record_results()},
    }


def site_files() -> dict[str, bytes]:
    """The trainer's JSON and every recorded seed's initial weights, under _static/train/."""
    files = {FOLDER + SPEC: json.dumps(spec(), separators=(",", ":")).encode()}
    first, last = seed_record()["seeds"]
    for seed in range(first, last + 1):
        files[FOLDER + init_name(seed)] = initial_weights(seed).tobytes()
    return files
