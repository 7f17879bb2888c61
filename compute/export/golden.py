"""A golden file for the page's model: what Python's tokenizer, exported model and sampler give for fixed inputs,
for the JavaScript of _static/generate/ to be checked against in a browser (tests/browser/test_live_model.py).

    golden(export_files())  ->  {"texts": [...], "logits": [...], "samples": [...]}
"""
from __future__ import annotations

import json

import torch

from ..data.tokenizer import UNK, dropped, readable, words
from ..generate import Sampling, generate
from .story import FILES, model_from_files

# The tokenizer's edge cases: capitals, possessives and contractions, quotes straight and curly, punctuation runs,
# digits, emoji, numbers that are not digits (², ½, Ⅻ), accents, words the model has never seen, nothing at all.
TEXTS = (
    "Once upon a time, there was a little girl named Mia.",
    "LILY'S dog didn’t bark! Tom's cat did.",
    '"Can I play?" asked Leo. “Yes,” said Mia, ‘of course.’',
    "well... ok?! no!!",
    "3 cats and 12 dogs ran 100 miles.",
    "🙂 A happy day 🎉 at the park 👨‍👩‍👧.",
    "Thumbs 👍🏽 up, flags 🇫🇷🇩🇪 and 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f, a heart ❤️, cafe\u0301.",
    "x² and ½ cup, chapter Ⅻ",
    "A naïve café in Zürich.",
    "Zorblax and the quantum toaster went home.",
    "ice-cream: 3 scoops; yum & more <b>bold</b> @home #1",
    "",
)
SAMPLINGS = (Sampling(greedy=True, max_tokens=40), Sampling(temperature=0.8, max_tokens=40),
             Sampling(temperature=1.3, top_k=5, max_tokens=40))
SEED = 11


def golden(files: dict[str, bytes]) -> dict:
    """Each text's tokens, dropped characters, ids, and the text printed back from its ids and from its tokens; the next-word logits
    after each text with every head and with each head silenced (the first two texts); words sampled after two
    prompts at three settings with SEED."""
    header = json.loads(files[FILES[1]])
    vocab, proper = header["vocabulary"], set(header["proper"])
    index = {w: i for i, w in enumerate(vocab)}
    model = model_from_files(files)
    arch = header["architecture"]
    n_heads = arch["n_layer"] * arch["n_head"]

    texts = []
    for text in TEXTS:
        tokens = words(text)
        ids = [index.get(t, index[UNK]) for t in tokens]
        printed = "".join(space + word for space, word in readable([vocab[i] for i in ids], proper))
        as_typed = "".join(space + word for space, word in readable(tokens, proper))
        texts.append({"text": text, "words": tokens, "dropped": dropped(text), "ids": ids, "printed": printed,
                      "printed_words": as_typed})

    def logits(ids: list[int], head: int | None) -> list[float]:
        mask = None
        if head is not None:
            mask = torch.ones(arch["n_layer"], arch["n_head"], dtype=torch.float64)
            mask[head // arch["n_head"], head % arch["n_head"]] = 0.0
        with torch.no_grad():
            return model(torch.tensor([ids]), head_mask=mask)[0, -1].tolist()

    cases = [(t["ids"], None) for t in texts] + [(t["ids"], h) for t in texts[:2] for h in range(n_heads)]
    scored = [{"ids": [0] + ids, "head": head, "logits": logits([0] + ids, head)} for ids, head in cases]

    samples = []
    for prompt in (texts[0]["ids"], []):
        for s in SAMPLINGS:
            new = generate(model, torch.tensor([[0] + prompt]), s, SEED)[0]
            samples.append({"prompt": prompt, "options": {"greedy": s.greedy, "temperature": s.temperature,
                                                          "topK": s.top_k or 0, "seed": SEED, "maxTokens": s.max_tokens},
                            "ids": new, "words": [vocab[i] for i in new]})
    return {"texts": texts, "logits": scored, "samples": samples}
