"""A golden file for the page's model: what Python's tokenizer, exported model and sampler give for fixed inputs,
for the JavaScript of _static/generate/ to be checked against in a browser (tests/browser/test_live_model.py).

    golden(export_files())  ->  {"texts": [...], "logits": [...], "samples": [...], "readouts": [...],
                                 "patches": [...], "paths": [...], "graphs": [...], "composition": {...}}
"""
from __future__ import annotations

import json

import torch

from ..data.tokenizer import UNK, dropped, readable, words
from ..generate import Sampling, generate
from ..models import circuit, graph, paths as routes
from ..models.readout import Patch, attribution, in_context, layer_logits, read
from .story import FILES, model_from_files

# The tokenizer's edge cases: capitals, possessives and contractions, quotes straight and curly, punctuation runs,
# digits, emoji, numbers that are not digits (², ½, Ⅻ), accents, words the model has never seen, nothing at all.
UNKNOWN = "Zorblax and the quantum toaster went home."    # words the model has never seen
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
    UNKNOWN,
    "ice-cream: 3 scoops; yum & more <b>bold</b> @home #1",
    "",
)
SAMPLINGS = (Sampling(greedy=True, max_tokens=40), Sampling(temperature=0.8, max_tokens=40),
             Sampling(temperature=1.3, top_k=5, max_tokens=40), Sampling(temperature=1.2, top_p=0.9, max_tokens=40),
             Sampling(temperature=1.5, top_k=30, top_p=0.6, max_tokens=40))
# Prompts read apart (attribution, the layer view) and pairs for patching: the first differs from the second only
# in a child's name, so a head that carries the name carries the other one; the last pair differs in length.
READ = (TEXTS[0], TEXTS[1], UNKNOWN,
        "Tom met a girl named Sue at the park. Sue had a red ball. Tom asked")
PAIRS = ((READ[3], "Tom met a girl named Amy at the park. Amy had a red ball. Tom asked"),
         (TEXTS[0], "One day, a boy named Ben went to the park with his dog."))
# Pairs for path patching: the first pair above; a story longer than the context, the friend renamed (both read as a
# prompt is, their last context - 1 words); words the model has never seen, one of them changed.
LONG = " ".join(["Sue and Tom went to the park."] + ["They played with a red ball in the sun."] * 30 + ["Tom said"])
PATH_PAIRS = (PAIRS[0], (LONG, LONG.replace("Sue", "Amy")),
              (UNKNOWN + " Mia saw it. Mia said", UNKNOWN.replace("toaster", "gizmo") + " Ben saw it. Ben said"))
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
                                                          "topK": s.top_k or 0, "topP": s.top_p, "seed": SEED,
                                                          "maxTokens": s.max_tokens},
                            "ids": new, "words": [vocab[i] for i in new]})
    encode = lambda text: [0] + [index.get(t, index[UNK]) for t in words(text)]  # noqa: E731
    return {"texts": texts, "logits": scored, "samples": samples,
            "readouts": readouts(model, [encode(t) for t in READ]),
            "patches": patches(model, [(encode(a), encode(b)) for a, b in PAIRS], n_heads // arch["n_layer"]),
            "paths": path_patches(model, [(encode(a), encode(b)) for a, b in PATH_PAIRS]),
            "graphs": graphs(model, [in_context(encode(t), arch["context"]) for t in (READ[3], LONG, PATH_PAIRS[2][0])],
                             [(encode(READ[3]), encode(PAIRS[0][1]), (0, 1)), (encode(READ[3]), encode(PAIRS[1][1]), (1, 0)),
                              (encode(READ[3]), encode(PAIRS[1][1]), (0, 2))]),
            "composition": {"weights": {k: v.tolist() for k, v in circuit.composition(model).items()},
                            "on": [{"ids": encode(t), **{k: v.tolist() for k, v in circuit.composition_on(model, encode(t)).items()}}
                                   for t in (READ[3], LONG, UNKNOWN)]}}


def readouts(model, prompts: list[list[int]]) -> list[dict]:
    """For each prompt, at its last word and at its fourth: the likeliest word's and the sixth likeliest's
    attribution, and the logits read after each layer."""
    out = []
    for ids in prompts:
        r = read(model, ids)
        for position in (len(ids) - 1, 3):
            order = torch.argsort(r.logits[position], descending=True, stable=True)
            lens = layer_logits(model, r, position)
            for word in (int(order[0]), int(order[5])):
                out.append({"ids": ids[:position + 1], "word": word, "logit": float(r.logits[position, word]),
                            "attribution": list(attribution(model, r, position, word).items()),
                            "layers": lens.tolist()})
    return out


def patches(model, pairs: list[tuple[list[int], list[int]]], n_head: int) -> list[dict]:
    """The logits after each pair's first prompt with one head's output at its last word taken from the second:
    every head for the first pair, two for the others."""
    out = []
    for k, (ids, source) in enumerate(pairs):
        heads = [(l, h) for l in range(model.cfg.n_layer) for h in range(n_head)] if k == 0 else [(0, 1), (1, 2)]
        for l, h in heads:
            r = read(model, ids, patch=Patch((l, h), tuple(source)))
            out.append({"ids": ids, "source": source, "head": l * n_head + h, "logits": r.logits[-1].tolist()})
    return out


def path_patches(model, pairs: list[tuple[list[int], list[int]]]) -> list[dict]:
    """The last word's logits and every head's attention there, with a part's write taken from the pair's second
    story into one reader at a time (every first-layer head, the first MLP and a second-layer head, whose writes the
    page keeps at the last word alone, for the first pair; the first layer's second head for the others), into every
    reader, and cut from every reader."""
    out = []
    for k, (ids, source) in enumerate(pairs):
        senders = [f"L1 H{h + 1}" for h in range(model.cfg.n_head)] + ["L1 MLP", "L2 H3"] if k == 0 else ["L1 H2"]
        for sender in senders:
            every = routes.receivers_of(model, sender)
            cases = [(source, (r,)) for r in every] + [(source, tuple(every)), (None, tuple(every))]
            for other, receivers in cases:
                r = routes.path_patch(model, ids, other, sender, receivers)
                out.append({"ids": ids, "source": other, "sender": sender, "receivers": list(receivers),
                            "logits": r.logits[-1].tolist(), "attention": r.attention[:, :, -1].tolist()})
    return out


def graphs(model, prompts: list[list[int]], patches: list[tuple[list[int], list[int], tuple[int, int]]]) -> list[dict]:
    """The graph of the likeliest next word after each prompt (within the context), and after the first with the
    first layer's second head silenced; then after each patch's prompt with one head writing what it writes on the
    patch's source (the renamed story, as long; a shorter one, given to a second-layer head and to a first-layer
    head)."""
    out = []
    for k, ids in enumerate(prompts):
        for silenced in ((), ((0, 1),)) if k == 0 else ((),):
            word = int(routes.run(model, ids, silenced=frozenset(silenced)).logits[-1].argmax())
            g = graph.prediction_graph(model, ids, word, silenced=silenced)
            out.append({"ids": ids, "word": word, "silenced": [l * model.cfg.n_head + h for l, h in silenced],
                        "logit": g.logit, "nodes": g.nodes,
                        "edges": [[e.sender, e.receiver, e.effect] for e in g.edges]})
    for ids, source, head in patches:
        patched = routes.borrowed(model, source, [head])
        word = int(routes.run(model, ids).logits[-1].argmax())
        g = graph.prediction_graph(model, ids, word, patched=patched)
        out.append({"ids": ids, "word": word, "silenced": [], "source": source,
                    "patched": [head[0] * model.cfg.n_head + head[1]], "logit": g.logit, "nodes": g.nodes,
                    "edges": [[e.sender, e.receiver, e.effect] for e in g.edges]})
    return out
