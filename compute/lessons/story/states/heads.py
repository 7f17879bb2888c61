"""What the four-head model's heads do: attention on one story, where each head looks at probes, knock-outs."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np
import torch

from ....probes import KIND_NAMES, run_probes, summary
from ....kept import kept
from ....published.story import checkpoint_files, load, story_corpus
from .evaluation import probes

ROLE_STORIES = 300   # validation stories used for head roles and knock-outs (the first 500)
SHOWN_QUERIES = 6    # probes of the worked story offered as query words in the lesson's figure


def head_label(lh: tuple[int, int]) -> str:
    """'L1 H2' for (layer, head) = (0, 1): numbered from 1 for the reader."""
    return f"L{lh[0] + 1} H{lh[1] + 1}"


def head_labels(n_layer: int, n_head: int) -> list[str]:
    """'L1 H1', 'L1 H2', ...: layers and heads numbered from 1 for the reader."""
    return [f"L{l + 1} H{h + 1}" for l in range(n_layer) for h in range(n_head)]


@lru_cache(maxsize=4)
def attention_on(name: str, story: int) -> np.ndarray:
    """Every head's attention weights on one validation story: (n_layer, n_head, T, T), inputs <eos> + story."""
    data = story_corpus()
    ids = [data.vocab.index("<eos>")] + data.vocab.encode(data.val[story].tokens)
    with torch.no_grad():
        tr = load(name).model.trace(torch.tensor([ids]))
    return np.stack([a.A[0].numpy() for a in tr.attention])


def worked_story() -> int:
    """The first validation story with a name probe that needs the right one of two names more than
    16 tokens back, and an object probe: the story the lesson's attention figure follows."""
    data = story_corpus()
    for i, story in enumerate(data.val):
        kinds = {(p.kind, p.candidates >= 2 and p.distance > 16) for p in story.probes}
        if ("name", True) in kinds and any(k == "object" for k, _ in kinds):
            return i
    raise ValueError("no validation story has both probes")


def query_positions() -> list[int]:
    """Input positions of the worked story's first probes, one kind after another (the figure's buttons)."""
    story = story_corpus().val[worked_story()]
    chosen, seen = [], set()
    for p in story.probes:
        if p.kind not in seen or len(chosen) < SHOWN_QUERIES and p.distance > 16:
            chosen.append(p)
            seen.add(p.kind)
        if len(chosen) == SHOWN_QUERIES:
            break
    return sorted(p.target for p in chosen)


def query_state(name: str, q: int) -> dict:
    """Every head's weights from input position q of the worked story over keys 0..q: z (heads, keys),
    the word to come, the positions where it was mentioned before, and the story's tokens."""
    A = attention_on(name, worked_story())                        # (L, H, T, T)
    tokens = ["<eos>"] + list(story_corpus().val[worked_story()].tokens)
    L, H = A.shape[:2]
    word = tokens[q + 1]
    return {"z": A[:, :, q, : q + 1].reshape(L * H, q + 1), "word": word, "tokens": tokens,
            "mentions": [j for j in range(q + 1) if tokens[j] == word]}


@lru_cache(maxsize=4)
@kept(reads=checkpoint_files)
def mention_mass(name: str) -> dict:
    """For each head and probe kind: the mean attention weight, at the probe's query position, on earlier
    mentions of the word to be predicted, against the weight a uniform row would put there."""
    ps = probes()
    eos = story_corpus().vocab.index("<eos>")
    model = load(name).model
    L, H = model.cfg.n_layer, model.cfg.n_head
    mass = np.zeros((L, H, len(KIND_NAMES)))
    uniform = np.zeros(len(KIND_NAMES))
    count = np.zeros(len(KIND_NAMES))
    stories = np.unique(ps.story[ps.story < ROLE_STORIES])
    for s in stories:
        A = _attention(model, ps.inputs[s], eos)                                  # (L, H, T, T)
        for p in np.nonzero(ps.story == s)[0]:
            q, k = ps.position[p], ps.kind[p]
            keys = np.nonzero(ps.inputs[s, : q + 1].numpy() == ps.word[p])[0]   # earlier mentions among the inputs
            mass[:, :, k] += A[:, :, q, keys].sum(-1)
            uniform[k] += len(keys) / (q + 1)
            count[k] += 1
    return {"mass": mass / count[None, None, :], "uniform": uniform / count, "count": count}


def _attention(model, ids: torch.Tensor, eos: int) -> np.ndarray:
    """Every head's weights on one padded input row, cut after the story's last word."""
    T = int((ids != eos).nonzero().max()) + 1
    with torch.no_grad():
        tr = model.trace(ids[:T][None])
    return np.stack([a.A[0].numpy() for a in tr.attention])


def looks(name: str) -> dict[str, tuple[int, int]]:
    """For each probe kind, the head (layer, head) that puts the most weight on earlier mentions of the word."""
    m = mention_mass(name)["mass"]
    return {kind: tuple(int(i) for i in np.unravel_index(m[:, :, k].argmax(), m.shape[:2]))
            for k, kind in enumerate(KIND_NAMES)}


def needed(name: str) -> dict[str, tuple[int, int]]:
    """For each probe kind, the head whose knock-out costs that kind the most accuracy."""
    ko = knockouts(name)
    return {kind: max((key for key in ko if key != "all heads"), key=lambda key: ko["all heads"][kind] - ko[key][kind])
            for kind in KIND_NAMES}


def drop(name: str, kind: str, lh: tuple[int, int]) -> float:
    """Accuracy of one kind lost when head lh is zeroed."""
    ko = knockouts(name)
    return ko["all heads"][kind] - ko[lh][kind]


@lru_cache(maxsize=4)
@kept(reads=checkpoint_files)
def knockouts(name: str) -> dict:
    """Within-kind accuracy on the first ROLE_STORIES validation stories: all heads, then each head zeroed."""
    ps = probes()
    data = story_corpus()
    model = load(name).model
    L, H = model.cfg.n_layer, model.cfg.n_head
    sub = _subset(ps, ROLE_STORIES)
    out = {"all heads": summary(sub, run_probes(model, sub, data.vocab))}
    for l in range(L):
        for h in range(H):
            mask = torch.ones(L, H)
            mask[l, h] = 0.0
            out[(l, h)] = summary(sub, run_probes(model, sub, data.vocab, head_mask=mask))
    return out


def _subset(ps, n: int):
    """The probe set restricted to its first n stories."""
    keep = ps.story < n
    return replace(ps, inputs=ps.inputs[:n], targets=ps.targets[:n], story=ps.story[keep],
                   position=ps.position[keep], word=ps.word[keep], kind=ps.kind[keep], distance=ps.distance[keep],
                   mentioned=[m for m, k in zip(ps.mentioned, keep) if k])
