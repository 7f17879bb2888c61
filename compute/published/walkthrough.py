"""The published walkthrough: the stored checkpoint run in float64 on the goal sentence."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import torch

from ..data.walkthrough import GOAL_SENTENCE, SENTENCES, VOCAB, data_hash, inputs_and_targets
from ..models.decoder import Decoder
from ..models.walkthrough import Trace, from_weights as model_from_weights, parameter_shapes, trace
from ..store import checkpoint_path, load_checkpoint

NAME = "walkthrough"             # the published checkpoint
ALTERNATIVE = "walkthrough-alt"  # a converged seed that found another attention pattern
SEED_RECORD = "walkthrough-seeds.json"  # what every seed of the search learned (compute train walkthrough --search-seeds)

# The files this lesson reads from the checkpoint folder (the build's cache key covers exactly these).
CHECKPOINT_FILES = ("walkthrough.safetensors", "walkthrough.json",
                    "walkthrough-alt.safetensors", "walkthrough-alt.json", SEED_RECORD)


@dataclass
class Walkthrough:
    """A model's weights and its float64 trace on the goal sentence, as numpy arrays."""
    weights: dict[str, np.ndarray]
    trace: dict[str, np.ndarray]
    manifest: dict
    tokens: tuple[str, ...]  # the 14 input words of the goal sentence

    def __getitem__(self, name: str) -> np.ndarray:
        """A matrix by the lesson's name: a weight (E, W_Q, ...) or an intermediate (Q, A, ...)."""
        return self.trace[name] if name in self.trace else self.weights[name]

    def prob(self, position: int, word: str) -> float:
        return float(self.trace["probs"][position, VOCAB.index(word)])

    def top_word(self, position: int) -> str:
        return VOCAB[int(np.argmax(self.trace["probs"][position]))]


def float64_model(weights: dict[str, torch.Tensor]) -> Decoder:
    return model_from_weights(weights, dtype=torch.float64).eval()


def trace_sentence(model: Decoder, sentence: str) -> Trace:
    """The model's float64 trace on one sentence's inputs (batch dimension removed)."""
    x, _ = inputs_and_targets(sentence)
    with torch.no_grad():
        tr = trace(model, torch.tensor([x]))
    return Trace(**{k: (v[0] if v.dim() == 3 else v) for k, v in tr.as_dict().items()})


def from_weights(weights: dict[str, torch.Tensor], manifest: dict | None = None) -> Walkthrough:
    model = float64_model(weights)
    tr = trace_sentence(model, GOAL_SENTENCE)
    return Walkthrough(
        weights={k: v.double().numpy() for k, v in weights.items()},
        trace={k: v.numpy() for k, v in tr.as_dict().items()},
        manifest=manifest or {},
        tokens=tuple(GOAL_SENTENCE.split()[:-1]),
    )


def target_probabilities(weights) -> list[tuple[str, int, str, float]]:
    """(sentence, position, target word, model probability) for every training target."""
    model = float64_model({k: torch.as_tensor(v) for k, v in weights.items()})
    rows = []
    for sentence in SENTENCES:
        _, targets = inputs_and_targets(sentence)
        probs = trace_sentence(model, sentence).probs.numpy()
        for i, t in enumerate(targets):
            rows.append((sentence, i, VOCAB[t], float(probs[i, t])))
    return rows


def load_weights(path: Path) -> tuple[dict[str, torch.Tensor], dict]:
    """A walkthrough checkpoint's tensors and manifest, checked against the model and the data."""
    return load_checkpoint(path, parameter_shapes(), data_hash(), "compute/data/walkthrough.py")


@lru_cache(maxsize=4)
def _load(path: Path) -> Walkthrough:
    weights, manifest = load_weights(path)
    return from_weights(weights, manifest)


def load(name: str = NAME) -> Walkthrough:
    """The walkthrough of a stored checkpoint (checked on load; cached per path)."""
    return _load(checkpoint_path(name))
