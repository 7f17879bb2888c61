"""The live box's model (the float16 export the reader's browser runs) and its prepared knock-out: a story whose
next word is a name, read with every head and with the name head silenced."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import torch

from ....data.story import KINDS
from ....data.tokenizer import EOS, words
from ....export.story import export_files, model_from_files
from ....published.story import FOUR_HEAD, story_corpus
from .heads import needed
from .samples import as_text

SEARCHED = 100      # validation stories searched for the prepared prompt, in order
FAR = 8             # the name's last mention at least this many words back: copying, not the last few words


@lru_cache(maxsize=1)
def box_model() -> torch.nn.Module:
    """The model the box runs: the exported float16 weights, in float64."""
    return model_from_files(export_files())


def next_word(ids: list[int], silenced: tuple[int, int] | None = None) -> np.ndarray:
    """The box model's next-word probabilities after <eos> + ids, with one head (layer, head) silenced or none."""
    model = box_model()
    mask = None
    if silenced is not None:
        mask = torch.ones(model.cfg.n_layer, model.cfg.n_head, dtype=torch.float64)
        mask[silenced] = 0.0
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
