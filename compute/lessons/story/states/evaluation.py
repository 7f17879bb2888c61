"""The measured comparison: each model's loss and probe accuracies on every validation story."""
from __future__ import annotations

import numpy as np

from ....data.story import KINDS
from ....probes import BUCKETS, KIND_NAMES, ProbeResults, ProbeSet, bucket_label
from ....published.story import FOUR_HEAD, MODELS, NAMES, PART_THREE, load, story_corpus
from .scoring import Scoring, written_by_hand  # noqa: F401 (written_by_hand: the page counts every story)

PRONOUNS = ("he", "she", "him", "her", "his", "they", "them", "their")

PART_III = Scoring(PART_THREE, FOUR_HEAD)     # the models Part III reads, scored on their own corpus


def splits() -> tuple[str, ...]:
    """The splits these models are scored on: a story file has no held-out template families."""
    return PART_III.splits()


def handwritten() -> tuple:
    """The hand-written stories Part III's models can read in full: the ones scored."""
    return PART_III.handwritten()


def probes(split: str = "in-template") -> ProbeSet:
    return PART_III.probes(split)


def results(name: str, split: str = "in-template") -> ProbeResults:
    """One pass of one of Part III's models over every validation story of a split (kept on disk)."""
    return PART_III.results(name, split)


def scores(name: str, split: str = "in-template") -> dict:
    """Loss and accuracies (by kind, by kind and distance, beyond 8, among mentioned) of one model."""
    return PART_III.scores(name, split)


def by_distance(name: str, kind: str) -> list[float | None]:
    """Within-kind accuracy of one kind in each distance bucket."""
    s = scores(name)
    return [s[f"{kind} {bucket_label(b)}"] for b in BUCKETS]


def probe_counts() -> dict[str, int]:
    """How many validation probes of each kind there are."""
    ps = probes()
    return {k: int((ps.kind == i).sum()) for i, k in enumerate(KIND_NAMES)}


def chances() -> dict[str, float]:
    return {k: 1 / len(KINDS[k]) for k in KIND_NAMES}


def top1_at_names(name: str) -> dict[str, float]:
    """At name probes: how often the single most likely word is the name or a pronoun, against how often
    the right name leads among the names (why plain top-1 accuracy misleads)."""
    data, ps, r = story_corpus(), probes(), results(name)
    at = ps.kind == KIND_NAMES.index("name")
    pronouns = [data.vocab.index(p) for p in PRONOUNS if p in data.vocab.itos]
    return {"top1": float((r.top1[at] == ps.word[at]).mean()), "pronoun": float(np.isin(r.top1[at], pronouns).mean()),
            "within_kind": float(r.within_kind[at].mean())}


def comparison() -> dict[str, dict]:
    """Every model's size, cost and scores, by model kind."""
    out = {}
    for kind in MODELS:
        m = load(NAMES[kind])
        out[kind] = {"parameters": sum(p.numel() for p in m.model.parameters()),
                     "train_seconds": m.manifest["train_seconds"], "tokens_seen": m.manifest["tokens_seen"],
                     **scores(m.name)}
    return out


def learning_curve(name: str) -> list[dict]:
    """The manifest's learning curve: validation loss and probe accuracies every few hundred thousand tokens."""
    return load(name).manifest["learning_curve"]


def sudden_jump(name: str, kind: str) -> dict:
    """The largest rise of one kind's accuracy between two consecutive points of the learning curve."""
    curve = [p for p in learning_curve(name) if p.get(kind) is not None]
    rises = [(b[kind] - a[kind], a, b) for a, b in zip(curve, curve[1:])]
    rise, a, b = max(rises, key=lambda r: r[0])
    return {"rise": rise, "from_tokens": a["tokens"], "to_tokens": b["tokens"], "before": a[kind], "after": b[kind]}


def learning_phases(name: str, kind: str, near: float, settled: float) -> dict:
    """How one kind's accuracy is learned: near chance (within `near`) up to `flat_until` tokens, within
    `settled` of its final value from `settled_at` tokens on."""
    curve = [p for p in learning_curve(name) if p.get(kind) is not None]
    chance = chances()[kind]
    flat = 0
    while flat < len(curve) and curve[flat][kind] <= chance + near:
        flat += 1
    final = curve[-1][kind]
    settle = len(curve) - 1
    while settle > 0 and abs(curve[settle - 1][kind] - final) <= settled:
        settle -= 1
    return {"flat_until": curve[flat - 1]["tokens"] if flat else None, "settled_at": curve[settle]["tokens"],
            "final": final, "last_flat": curve[flat - 1][kind] if flat else None, "budget": curve[-1]["tokens"]}


def distance_counts(kind: str) -> list[int]:
    """How many validation probes of one kind lie in each distance bucket."""
    ps = probes()
    of_kind = ps.kind == KIND_NAMES.index(kind)
    return [int((of_kind & (ps.distance >= lo) & (ps.distance <= hi)).sum()) for lo, hi in BUCKETS]


def longest_story() -> int:
    """Tokens of the longest training or validation story, with the end-of-story marker before it."""
    data = story_corpus()
    return 1 + max(len(s.tokens) for s in [*data.train, *data.val])


def split_probe_counts(split: str) -> dict[str, int]:
    """How many probes of each kind a split has (inside the models' context)."""
    ps = probes(split)
    return {k: int((ps.kind == i).sum()) for i, k in enumerate(KIND_NAMES)}


def handwritten_right(name: str) -> list[int]:
    """For each hand-written story, how many of its probes the model gets right (within kind)."""
    ps, r = probes("hand-written"), results(name, "hand-written")
    return [int(r.within_kind[ps.story == i].sum()) for i in range(len(handwritten()))]
