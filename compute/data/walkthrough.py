"""The walkthrough's training data: eight sentences over a nine-word vocabulary."""
from __future__ import annotations

import hashlib
import json
import math

import torch

# The article's vocabulary order: the rows of E and the columns of W_U.
VOCAB: tuple[str, ...] = ("the", "rise", "of", "machine", "was", "slow", "but", "fall", "fast")

# Every clause pairs a cue noun with its adjective; both clause orders and both
# lengths appear, so the model must read the cue rather than the position.
SENTENCES: tuple[str, ...] = (
    "the rise was slow but the fall was fast",
    "the rise was slow but the fall of the machine was fast",
    "the rise of the machine was slow but the fall was fast",
    "the rise of the machine was slow but the fall of the machine was fast",
    "the fall was fast but the rise was slow",
    "the fall was fast but the rise of the machine was slow",
    "the fall of the machine was fast but the rise was slow",
    "the fall of the machine was fast but the rise of the machine was slow",
)

# The sentence the lesson follows, matrix by matrix.
GOAL_SENTENCE: str = SENTENCES[3]

# Each cue noun decides the adjective after its clause's "was": rise -> slow, fall -> fast.
CUE_ANSWERS: tuple[tuple[str, str], ...] = (("rise", "slow"), ("fall", "fast"))

IGNORE = -100  # target id that the loss skips (padding)


def encode(sentence: str) -> list[int]:
    """Token ids of a space-separated sentence."""
    ids = []
    for word in sentence.split():
        if word not in VOCAB:
            raise ValueError(f"word {word!r} is not in the vocabulary {VOCAB}")
        ids.append(VOCAB.index(word))
    return ids


def inputs_and_targets(sentence: str) -> tuple[list[int], list[int]]:
    """Inputs are every word but the last; targets are every word but the first."""
    ids = encode(sentence)
    return ids[:-1], ids[1:]


def goal_tokens() -> list[str]:
    """The goal sentence's input words, one per position (14 of them)."""
    return GOAL_SENTENCE.split()[:-1]


def cue_positions() -> tuple[int, ...]:
    """Input positions of the cue nouns in the goal sentence: (1, 9), rise and fall."""
    return tuple(goal_tokens().index(cue) for cue, _ in CUE_ANSWERS)


def answer_rows() -> tuple[int, ...]:
    """Input positions whose next word is each cue's answer: (5, 13), the two 'was'."""
    words = GOAL_SENTENCE.split()
    return tuple(words.index(answer) - 1 for _, answer in CUE_ANSWERS)


def training_batch(n_positions: int) -> tuple[torch.Tensor, torch.Tensor]:
    """All eight sentences right-padded to n_positions; padded targets are IGNORE."""
    xs, ys = [], []
    for sentence in SENTENCES:
        x, y = inputs_and_targets(sentence)
        pad = n_positions - len(x)
        if pad < 0:
            raise ValueError(f"sentence longer than {n_positions} inputs: {sentence!r}")
        xs.append(x + [0] * pad)  # padding sits after the sentence: the causal mask hides it
        ys.append(y + [IGNORE] * pad)
    return torch.tensor(xs), torch.tensor(ys)  # (8, T), (8, T)


def data_hash() -> str:
    """sha256 of the vocabulary and sentences, recorded in every checkpoint manifest."""
    blob = json.dumps({"vocab": VOCAB, "sentences": SENTENCES}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def next_word_options(prefix: list[str]) -> dict[str, float]:
    """How often each word follows this exact prefix across the training sentences."""
    counts: dict[str, int] = {}
    for sentence in SENTENCES:
        words = sentence.split()
        if words[: len(prefix)] == prefix and len(words) > len(prefix):
            nxt = words[len(prefix)]
            counts[nxt] = counts.get(nxt, 0) + 1
    total = sum(counts.values())
    return {w: c / total for w, c in counts.items()}


def loss_floor(n_coin_flips: int, n_targets: int) -> float:
    """The lowest mean loss the data allows: each two-way choice costs ln 2, every other target 0."""
    return n_coin_flips * math.log(2) / n_targets


def data_facts() -> dict[str, float | int]:
    """Counts about the training data itself (targets, two-way choices, the loss floor)."""
    n_targets = sum(len(s.split()) - 1 for s in SENTENCES)
    n_coin = sum(len(next_word_options(s.split()[: i + 1])) == 2
                 for s in SENTENCES for i in range(len(s.split()) - 1))
    return {"n_sentences": len(SENTENCES), "n_targets": n_targets, "n_coin_flips": n_coin,
            "loss_floor": loss_floor(n_coin, n_targets), "vocab_size": len(VOCAB),
            "longest_sentence": max(len(s.split()) for s in SENTENCES)}
