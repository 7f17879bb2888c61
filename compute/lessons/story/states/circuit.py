"""Where the name head's write goes, in the box's model: section 6's story read with the head's write from the renamed
story patched into one reader at a time (compute.models.paths), and how much each first-layer head writes where each
second-layer head reads (the composition scores, compute.models.circuit), and the graph of the name's prediction
(compute.models.graph)."""
from __future__ import annotations

import math
from functools import lru_cache

import torch

from ....data.tokenizer import EOS, words
from ....models import circuit, graph, paths
from ....published.story import story_corpus
from .box import box_model, patch_pair
from .heads import head_label

# Readers patched together, by what the lesson calls them.
GROUPS = {"both MLPs": ("L1 MLP", "L2 MLP"), "both MLPs and the final LayerNorm": ("L1 MLP", "L2 MLP", paths.LOGITS)}


def _ids() -> tuple[list[int], list[int]]:
    """Section 6's story and its renamed copy as the box reads them (<eos> first)."""
    t, vocab = patch_pair(), story_corpus().vocab
    return tuple(vocab.encode([EOS] + words(text)) for text in (t["text"], t["source"]))


@lru_cache(maxsize=1)
def name_paths() -> dict:
    """The probability of the story's name and of the renamed friend's after the last word: unpatched; with the name
    head's write from the renamed story in one reader's input alone (every reader in turn); in the readers of each
    group together; in every second-layer head's queries, keys and values together; and in every reader (the
    head's write replaced outright)."""
    t, vocab, model = patch_pair(), story_corpus().vocab, box_model()
    ids, source = _ids()
    sender = head_label(t["head"])
    old, new = vocab.index(t["name"]), vocab.index(t["other"])
    delta = paths.change(model, ids, source, sender)                    # (T, d_model)

    def probs(receivers) -> dict[str, float]:
        p = torch.softmax(paths.run(model, ids, {r: delta for r in receivers}).logits[-1], -1)
        return {t["name"]: float(p[old]), t["other"]: float(p[new])}

    readers = paths.receivers_of(model, sender)
    heads = tuple(r for r in readers if " H" in r)
    return {"sender": sender, "name": t["name"], "other": t["other"], "plain": probs(()),
            "one": {r: probs((r,)) for r in readers},
            "groups": {**{label: probs(rs) for label, rs in GROUPS.items()},
                       "every second-layer head's queries, keys and values": probs(heads)},
            "every": probs(readers)}


@lru_cache(maxsize=1)
def composition_scores() -> dict:
    """The Q-, K- and V-composition scores of every first-layer head with every second-layer head in the box's model,
    and what a head reading in a random direction scores (1 / sqrt(d_model))."""
    model = box_model()
    scores = circuit.composition(model)
    return {"scores": {via: s.double().numpy() for via, s in scores.items()}, "random": 1 / math.sqrt(model.cfg.d_model),
            "n_head": model.cfg.n_head, "name_head": head_label(patch_pair()["head"])}


@lru_cache(maxsize=1)
def name_graph() -> dict:
    """The graph of the story's name's prediction after section 6's story (compute.models.graph): each edge's size
    by (sender, receiver), the word each word node stands for, the last word's node and the name head's."""
    t, vocab, model = patch_pair(), story_corpus().vocab, box_model()
    ids, _ = _ids()
    g = graph.prediction_graph(model, ids, vocab.index(t["name"]))
    return {"edges": {(e.sender, e.receiver): e.effect for e in g.edges}, "logit": g.logit, "name": t["name"],
            "words": {n: vocab.itos[ids[int(n.split()[1])]] for n in g.nodes if n.startswith("word")},
            "last": f"word {len(ids) - 1}", "name_head": head_label(t["head"])}
