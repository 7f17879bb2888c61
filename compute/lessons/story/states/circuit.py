"""Where the name head's write goes, in the box's model: section 6's story read with the head's write from the renamed
story patched into one reader at a time (compute.models.paths), and how much each first-layer head writes where each
second-layer head reads (the composition scores, compute.models.circuit), and the graph of the name's prediction
(compute.models.graph). And what feeds a name head of the second layer (the second seed's): each first-layer head's
write cut from one of its inputs alone."""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import torch

from ....data.tokenizer import EOS, words
from ....kept import kept
from ....models import circuit, graph, paths
from ....probes import KIND_NAMES
from ....published.story import checkpoint_files, load, story_corpus
from .box import box_model, patch_pair
from .evaluation import probes
from .heads import head_label, looks

PATH_STORIES = 30   # validation stories whose name probes measure what feeds a second-layer name head (264 probes)
INPUT_WORDS = {"Q": "queries", "K": "keys", "V": "values"}     # a head's inputs, as the lesson names them

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


@lru_cache(maxsize=2)
@kept(reads=checkpoint_files)
def name_head_inputs(name: str) -> dict:
    """What feeds the name head of Part III's model `name` (the head that looks most at earlier names, heads.looks):
    the mean probability of the name to come at every name probe of the first PATH_STORIES validation stories, as the
    model is and with each first-layer head's write cut from one input of the name head alone (its queries, keys or
    values: compute.models.paths), by path ("L1 H2 V"); no path where the name head is itself in the first layer."""
    ps, model = probes(), load(name).model
    eos, kind = story_corpus().vocab.index(EOS), KIND_NAMES.index("name")
    head = looks(name)["name"]
    layer, g = head
    senders = [f"L1 H{k + 1}" for k in range(model.cfg.n_head)] if layer > 0 else []
    cut_into = {f"{s} {via}": (s, f"{head_label(head)} {via}") for s in senders for via in paths.INPUTS}
    found = {"plain": [], **{p: [] for p in cut_into}}
    for story in range(PATH_STORIES):
        at = np.nonzero((ps.story == story) & (ps.kind == kind))[0]
        if not len(at):
            continue
        T = int((ps.inputs[story] != eos).nonzero().max()) + 1
        ids, q, w = ps.inputs[story, :T].tolist(), ps.position[at], ps.word[at]
        written = paths.writes(model, ids)

        def name_p(into) -> np.ndarray:                               # (probes,) the name's probability at each
            return torch.softmax(paths.run(model, ids, into).logits, -1)[q, w].double().numpy()

        found["plain"].append(name_p({}))
        for path, (sender, receiver) in cut_into.items():
            found[path].append(name_p({receiver: -written[sender]}))
    mean = {p: float(np.concatenate(v).mean()) if v else float("nan") for p, v in found.items()}   # nan: no probe
    return {"model": name, "head": head, "probes": int(sum(len(v) for v in found["plain"])), "plain": mean.pop("plain"),
            "cut": mean}


def falls(inputs: dict) -> list[tuple[float, str]]:
    """Each cut path of name_head_inputs and the fall of the name's mean probability it gives, largest first."""
    return sorted(((inputs["plain"] - p, path) for path, p in inputs["cut"].items()), reverse=True)
