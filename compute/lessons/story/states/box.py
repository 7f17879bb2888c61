"""The live box's model (the float16 export the reader's browser runs) and its prepared knock-out: a story whose
next word is a name, read with every head and with the name head silenced."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from ....data.story import KINDS
from ....data.tokenizer import EOS, words
from ....export.story import export_files, model_from_files
from ....models.readout import Patch, attribution, read
from ....published.story import FOUR_HEAD, story_corpus
from .heads import head_label, needed
from .samples import as_text

SEARCHED = 100      # validation stories searched for the prepared prompt, in order
FAR = 8             # the name's last mention at least this many words back: copying, not the last few words


@lru_cache(maxsize=1)
def box_model() -> torch.nn.Module:
    """The model the box runs: the exported float16 weights, in float64."""
    return model_from_files(export_files())


def silencing(model: torch.nn.Module, lh: tuple[int, int]) -> torch.Tensor:
    """A head_mask (n_layer, n_head) that zeroes one head's output, as section 6 and the box's switches do."""
    mask = torch.ones(model.cfg.n_layer, model.cfg.n_head, dtype=torch.float64)
    mask[lh] = 0.0
    return mask


def next_word(ids: list[int], silenced: tuple[int, int] | None = None) -> np.ndarray:
    """The box model's next-word probabilities after <eos> + ids, with one head (layer, head) silenced or none."""
    model = box_model()
    mask = None if silenced is None else silencing(model, silenced)
    eos = story_corpus().vocab.index(EOS)
    with torch.no_grad():
        logits = model(torch.tensor([[eos] + ids]), head_mask=mask)[0, -1]
    return torch.softmax(logits, -1).numpy()


@lru_cache(maxsize=1)
def knockout_prompt() -> dict:
    """The first name probe (of the first SEARCHED validation stories, the name last mentioned at least FAR words
    back) that the box model gets right with every head and gets wrong, naming another child, with the name head
    (the one whose knock-out costs names most, section 6) silenced: the story up to the probe as text, the name,
    its probability both ways, and the word ranked first without the head."""
    data, head = story_corpus(), needed(FOUR_HEAD)["name"]
    names = set(KINDS["name"])
    for story in data.val[:SEARCHED]:
        for p in story.probes:
            if p.kind != "name" or p.distance < FAR:
                continue
            prompt = list(story.tokens[: p.target])
            ids, want = data.vocab.encode(prompt), data.vocab.index(story.tokens[p.target])
            full, off = next_word(ids), next_word(ids, head)
            wrong = int(off.argmax())
            if full.argmax() == want and wrong != want and data.vocab.itos[wrong] in names:
                text = as_text(prompt)
                if words(text) != prompt:
                    raise ValueError(f"the prepared prompt does not read back as its tokens: {text!r}")
                return {"text": text, "name": story.tokens[p.target], "head": head, "p_all": float(full[want]),
                        "p_off": float(off[want]), "top_off": data.vocab.itos[wrong], "p_top_off": float(off[wrong]),
                        "distance": p.distance}
    raise ValueError(f"no name probe in the first {SEARCHED} validation stories goes wrong without the name head")


@lru_cache(maxsize=1)
def patch_pair() -> dict:
    """Section 6's story and the same story with the friend renamed at every mention (the first name of the
    generator's list the story does not use): the box model's next-word probabilities of both names after the
    first story with each head's output at its last word taken from the second (a patch), and unpatched."""
    t = knockout_prompt()
    data, model = story_corpus(), box_model()
    tokens = words(t["text"])
    other = next(n for n in KINDS["name"] if n not in tokens)
    renamed = [other if w == t["name"] else w for w in tokens]
    ids, source = (data.vocab.encode([EOS] + ts) for ts in (tokens, renamed))
    name, new = data.vocab.index(t["name"]), data.vocab.index(other)
    cfg = model.cfg
    heads = [(l, h) for l in range(cfg.n_layer) for h in range(cfg.n_head)]
    p = {lh: torch.softmax(read(model, ids, patch=Patch(lh, tuple(source))).logits[-1], -1) for lh in heads}
    plain = torch.softmax(read(model, ids).logits[-1], -1)
    text = as_text(renamed)
    if words(text) != renamed:
        raise ValueError(f"the renamed story does not read back as its tokens: {text!r}")
    return {"text": t["text"], "source": text, "name": t["name"], "other": other, "head": t["head"],
            "plain": {t["name"]: float(plain[name]), other: float(plain[new])},
            "patched": {lh: {t["name"]: float(q[name]), other: float(q[new])} for lh, q in p.items()}}


SHOWN_KEYS = 5      # the name head's largest weights printed for the followed prediction


@lru_cache(maxsize=1)
def followed() -> dict:
    """The prepared story's prediction followed through the name head, in the box's model: the head's scaled
    scores and weights at the last word over every earlier one (the SHOWN_KEYS largest weights), its weight on
    earlier mentions of the name, and the logits and probabilities of the name and of the word ranked first
    without the head, with every head and with the name head silenced."""
    t = knockout_prompt()
    data, model = story_corpus(), box_model()
    (l, h), tokens = t["head"], [EOS] + words(t["text"])
    ids = torch.tensor([data.vocab.encode(tokens)])
    q = len(tokens) - 1
    mask = silencing(model, (l, h))
    with torch.no_grad():
        trace = model.trace(ids)
        att = trace.blocks[l].attention
        logits = {"all": model(ids)[0, -1], "off": model(ids, head_mask=mask)[0, -1]}
        scores, weights = att.S[0, h, q].numpy(), att.A[0, h, q].numpy()   # (T,): the last row
        z = att.A[0, h, q] @ att.V[0, h]                                    # (d_v,): the head's weighted values
        top = int(np.argmax(weights))
        alike = float(torch.nn.functional.cosine_similarity(z, att.V[0, h, top], dim=0))
    order = np.argsort(-weights, kind="stable")[:SHOWN_KEYS]
    name, other = (data.vocab.index(w) for w in (t["name"], t["top_off"]))
    # Its direct effect on the logits (what the box's bars show): through the final LayerNorm, the row's own spread
    # held fixed, then W_U.
    r = read(model, ids[0].tolist())
    direct = {w: attribution(model, r, q, i)[head_label((l, h))] for w, i in ((t["name"], name), (t["top_off"], other))}
    p = {k: torch.softmax(v, -1) for k, v in logits.items()}
    return {"query": tokens[q], "position": q, "keys": [(int(j), tokens[j], float(scores[j]), float(weights[j]))
                                                          for j in order],
            "mass": float(sum(weights[j] for j in range(q + 1) if tokens[j] == t["name"])),
            "value_alike": alike, "direct": direct,
            "logit": {w: {k: float(v[i]) for k, v in logits.items()} for w, i in ((t["name"], name), (t["top_off"], other))},
            "p": {w: {k: float(v[i]) for k, v in p.items()} for w, i in ((t["name"], name), (t["top_off"], other))}}
