"""Long-range probes: how often a model names the right word where earlier text decides it.

A probe is a position whose next word (a name, object, colour or place) was
mentioned earlier in the same story. Plain top-1 accuracy misleads there (a
name slot also accepts a pronoun), so a probe counts as right when, among the
words of its kind, the model's highest score is the right one: *within-kind
accuracy*, with chance 1 / (words of that kind). Where two or more words of the
kind were mentioned before, we also ask whether the model picks the right one
of those: *among-mentioned accuracy*, chance 1 / (words mentioned). And whether the
word the model ranks first among its kind is one the story mentioned at all: a
model that copies picks a mentioned word, right or wrong; one that does not
copies nothing and picks any word of the kind (*a mentioned word*).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch.nn import functional as F

from .data.story import KINDS, Story
from .data.tokenizer import EOS, Vocabulary

# Distance buckets (target - source, in tokens); the MLP's window of 8 ends with the first.
BUCKETS: tuple[tuple[int, int], ...] = ((1, 8), (9, 16), (17, 32), (33, 64), (65, 100_000))


def bucket_label(b: tuple[int, int]) -> str:
    return f"{b[0]}–{b[1]}" if b[1] < 100_000 else f"> {b[0] - 1}"


@dataclass
class ProbeSet:
    """Validation stories as model inputs, and every probe inside them."""
    inputs: torch.Tensor   # (n, T) ids: <eos>, then the story; padded with <eos>
    targets: torch.Tensor  # (n, T) the next id at each input position; -100 on padding
    story: np.ndarray      # (P,) which story each probe is in
    position: np.ndarray   # (P,) input position whose output predicts the probed word
    word: np.ndarray       # (P,) the probed word's id
    kind: np.ndarray       # (P,) index into KIND_NAMES
    distance: np.ndarray   # (P,) tokens back to the deciding mention
    mentioned: list[list[int]]  # per probe: ids of the words of its kind seen before it (in order)


KIND_NAMES = tuple(KINDS)


def probe_set(stories: list[Story], vocab: Vocabulary, context: int) -> ProbeSet:
    """Stories cut to `context` inputs; probes whose word falls past the cut are dropped."""
    eos = vocab.index(EOS)
    n, T = len(stories), context
    inputs = torch.full((n, T), eos, dtype=torch.long)
    targets = torch.full((n, T), -100, dtype=torch.long)
    cols = {k: [] for k in ("story", "position", "word", "kind", "distance")}
    mentioned = []
    kind_ids = {k: {vocab.index(w) for w in words if w in vocab.itos} for k, words in KINDS.items()}
    for s, story in enumerate(stories):
        ids = [eos] + vocab.encode(story.tokens) + [eos]     # the model reads <eos> + story, predicts story + <eos>
        x, y = ids[:-1][:T], ids[1:][:T]
        inputs[s, : len(x)] = torch.tensor(x)
        targets[s, : len(y)] = torch.tensor(y)
        for p in story.probes:
            if p.target >= T:                                # token p.target is predicted at input position p.target
                continue
            earlier = list(dict.fromkeys(i for i in ids[1:p.target + 1] if i in kind_ids[p.kind]))
            for key, value in (("story", s), ("position", p.target), ("word", ids[p.target + 1]),
                               ("kind", KIND_NAMES.index(p.kind)), ("distance", p.distance)):
                cols[key].append(value)
            mentioned.append(earlier)
    return ProbeSet(inputs, targets, *(np.array(cols[k], dtype=np.int64) for k in cols), mentioned=mentioned)



def covered(stories: list[Story], vocab: Vocabulary) -> list[Story]:
    """The stories the vocabulary holds every word of: a model reads them as written (no <unk>), so their probes
    can be scored."""
    return [s for s in stories if all(vocab.index(w) != 1 for w in s.tokens)]

@dataclass
class ProbeResults:
    val_loss: float              # mean cross-entropy over every validation target (nats)
    within_kind: np.ndarray      # (P,) bool: the right word scores highest among its kind
    among_mentioned: np.ndarray  # (P,) bool: ... among the words of its kind mentioned before (2+ only)
    ambiguous: np.ndarray        # (P,) bool: two or more words of the kind mentioned before
    top1: np.ndarray             # (P,) the single most likely word's id
    copies: np.ndarray           # (P,) bool: the word ranked first among its kind was mentioned before
    choice: np.ndarray           # (P,) id of the word ranked first among its kind


def kind_masks(vocab: Vocabulary) -> torch.Tensor:
    """(kinds, vocab) bool: which ids are words of each kind."""
    masks = torch.zeros(len(KIND_NAMES), len(vocab), dtype=torch.bool)
    for k, kind in enumerate(KIND_NAMES):
        masks[k, [vocab.index(w) for w in KINDS[kind] if w in vocab.itos]] = True
    return masks


def mentioned_mask(ps: ProbeSet, vocab_size: int) -> torch.Tensor:
    """(P, vocab) bool: the words of the probe's kind mentioned before it."""
    mask = torch.zeros(len(ps.word), vocab_size, dtype=torch.bool)
    rows = np.repeat(np.arange(len(ps.mentioned)), [len(ids) for ids in ps.mentioned])   # (M,) each mention's probe
    cols = np.fromiter((i for ids in ps.mentioned for i in ids), dtype=np.int64, count=len(rows))  # (M,) its word
    mask[torch.from_numpy(rows), torch.from_numpy(cols)] = True
    return mask


def by_length(ps: ProbeSet) -> torch.Tensor:
    """(n,) the stories shortest first (ties in their order): a batch of stories of like lengths pads little."""
    return torch.argsort((ps.targets != -100).sum(1), stable=True)


@torch.no_grad()
def run_probes(model: torch.nn.Module, ps: ProbeSet, vocab: Vocabulary, batch: int = 64,
               head_mask: torch.Tensor | None = None) -> ProbeResults:
    """One pass over the validation stories, in batches of like lengths: the loss, and each probe scored within
    its kind."""
    kinds, mentioned = kind_masks(vocab), mentioned_mask(ps, len(vocab))
    order = by_length(ps)                                                # (n,) story at each place of the pass
    place = torch.empty_like(order)
    place[order] = torch.arange(len(order))                             # (n,) each story's place in the pass
    at_place, position = place[torch.from_numpy(ps.story)], torch.from_numpy(ps.position)   # (P,), (P,)
    rows = torch.empty(len(ps.word), len(vocab))                        # (P, vocab) the logits at each probe
    total, count = 0.0, 0
    for lo in range(0, len(order), batch):
        stories = order[lo:lo + batch]
        y = ps.targets[stories]
        T = int((y != -100).sum(1).max())                               # cut the padding every row shares
        x, y = ps.inputs[stories, :T], y[:, :T]
        logits = model(x) if head_mask is None else model(x, head_mask=head_mask)  # (b, T, vocab)
        total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=-100,
                                 reduction="sum").item()
        count += int((y != -100).sum())
        at = (at_place >= lo) & (at_place < lo + len(stories))
        rows[at] = logits[at_place[at] - lo, position[at]]
    word = torch.from_numpy(ps.word)
    first = rows.masked_fill(~kinds[torch.from_numpy(ps.kind)], float("-inf")).argmax(1)   # (P,) first of its kind
    within = first == word
    ambiguous = mentioned.sum(1) > 1
    among = (rows.masked_fill(~mentioned, float("-inf")).argmax(1) == word) & ambiguous
    copies = mentioned[torch.arange(len(first)), first]
    return ProbeResults(total / count, within.numpy(), among.numpy(), ambiguous.numpy(), rows.argmax(1).numpy(),
                        copies.numpy(), first.numpy())


def chance(kind: str) -> float:
    """Within-kind accuracy of a uniform guess."""
    return 1 / len(KINDS[kind])


def summary(ps: ProbeSet, r: ProbeResults) -> dict:
    """Plain numbers: loss, and accuracy (with probe counts) by kind, by kind and distance bucket,
    beyond the MLP's window, and among mentioned words where two or more were mentioned."""
    out = {"val_loss": r.val_loss}
    for k, name in enumerate(KIND_NAMES):
        of_kind = ps.kind == k
        out[f"{name}"] = _rate(r.within_kind, of_kind)
        out[f"{name} beyond 8"] = _rate(r.within_kind, of_kind & (ps.distance > BUCKETS[0][1]))
        out[f"{name} among mentioned"] = _rate(r.among_mentioned, of_kind & r.ambiguous)
        out[f"{name} a mentioned word"] = _rate(r.copies, of_kind)
        for b in BUCKETS:
            out[f"{name} {bucket_label(b)}"] = _rate(r.within_kind, of_kind & (ps.distance >= b[0]) & (ps.distance <= b[1]))
    return out


def _rate(correct: np.ndarray, mask: np.ndarray) -> float | None:
    n = int(mask.sum())
    return float(correct[mask].mean()) if n else None
