"""Part III's worked examples as tables: one row through the first LayerNorm, top-k on a real next-word
distribution (states/explain.py), one prediction followed through the name head (states/box.py), and where the name
head's write goes (states/circuit.py)."""
from __future__ import annotations

from IPython.display import HTML

from ...present.numbers import shown
import numpy as np

from ...models.paths import INPUTS
from ...present.tables import matrix_html, rows_html
from .states.box import followed, knockout_prompt
from ...published.story import SECOND_SEED
from .states.circuit import INPUT_WORDS, composition_scores, name_head_inputs, name_paths
from .states.explain import SHOWN, layernorm_row, top_k_example
from .states.heads import head_label


def layernorm_table() -> HTML:
    """The first SHOWN coordinates of the row, each step of LayerNorm a column."""
    r = layernorm_row()
    rows = [(i + 1, r["x"][i], r["x"][i] - r["mean"], r["normed"][i], r["gain"][i], r["bias"][i], r["out"][i])
            for i in range(SHOWN)]
    return HTML(rows_html(["i", "xᵢ", "xᵢ − μ", "(xᵢ − μ) / σ", "γᵢ", "βᵢ", "LN(x)ᵢ = γᵢ (xᵢ − μ) / σ + βᵢ"], rows,
                          caption=f"The first {SHOWN} of {r['d']} coordinates of “{r['word']}” through the first "
                                  f"layer's LayerNorm (μ = {shown(r['mean'], '.4f')}, σ = {shown(r['spread'], '.4f')})"))


def top_k_table() -> HTML:
    t = top_k_example()
    rows = [(w, p, q) for w, p, q in zip(t["words"], t["p"], t["p_top_k"])]
    return HTML(rows_html(["next word", "probability", f"with top-k = {t['k']}"], rows, decimals=3,
                          caption=f"The four-head model's {t['k']} likeliest words after “… {t['before']}”"))


def followed_keys_table() -> HTML:
    """The name head's largest weights at the prepared story's last word: position, word, scaled score, weight."""
    f, t = followed(), knockout_prompt()
    rows = [(j, w, s, a) for j, w, s, a in f["keys"]]
    return HTML(rows_html(["key position", "word", "scaled score q·k / √d", "weight"], rows, decimals=3,
                          caption=f"{head_label(t['head'])} at “{f['query']}” (position {f['position']}): its "
                                  f"{len(rows)} largest weights {{about}}`reading`"))


def followed_logits_table() -> HTML:
    """The name and the word ranked first without the head: logits and probabilities, with and without it."""
    f, t = followed(), knockout_prompt()
    head = head_label(t["head"])
    rows = [(w, f["direct"][w], f["logit"][w]["all"], f["logit"][w]["off"], f["p"][w]["all"], f["p"][w]["off"])
            for w in (t["name"], t["top_off"])]
    return HTML(rows_html(["next word", f"{head}'s direct push", "logit, every head", f"logit, {head} silenced",
                           "probability, every head", f"probability, {head} silenced"], rows, decimals=3,
                          caption=f"The next word after “{f['query']}”, with and without {head}"))


PATH_DECIMALS = 4   # the path-patching table's probabilities (the prose cites them at the same precision)


def reader_label(receiver: str) -> str:
    """'L2 H1 Q' -> "L2 H1's queries"; 'L1 MLP' and 'logits' in words."""
    if receiver == "logits":
        return "the final LayerNorm (the direct path to the logits)"
    if receiver.endswith("MLP"):
        return f"{receiver}"
    head, via = receiver.rsplit(" ", 1)
    return f"{head}'s {INPUT_WORDS[via]}"


def name_paths_table() -> HTML:
    """The two names' probabilities with the name head's write from the renamed story in one reader at a time, in
    groups of readers, in every reader, and in none."""
    p = name_paths()
    old, new = p["name"], p["other"]
    rows = [("none (the story as it is)", p["plain"][old], p["plain"][new])]
    rows += [(reader_label(r), v[old], v[new]) for r, v in p["one"].items()]
    rows += [(label, v[old], v[new]) for label, v in p["groups"].items()]
    rows.append(("every reader (the head's write replaced)", p["every"][old], p["every"][new]))
    return HTML(rows_html(["the name head's write patched into", f"probability of “{old.capitalize()}”",
                           f"probability of “{new.capitalize()}”"], rows, decimals=PATH_DECIMALS,
                          caption=f"{p['sender']}'s write from the story with {old.capitalize()} renamed "
                                  f"{new.capitalize()}, given to one reader (or a group) alone {{about}}`method`"))


def composition_table() -> HTML:
    """Every second-layer head's queries, keys and values (rows) against every first-layer head (columns): the
    composition score, the name head's column marked."""
    c = composition_scores()
    H = c["n_head"]
    rows = [f"L2 H{g + 1} {via}" for g in range(H) for via in INPUTS]
    M = np.array([[c["scores"][via][h, g] for h in range(H)] for g in range(H) for via in INPUTS])   # (3H, H)
    name = int(c["name_head"].split("H")[-1]) - 1
    return HTML(matrix_html(M, rows, [f"L1 H{h + 1}" for h in range(H)], decimals=3, name="composition",
                            highlight=[(i, name) for i in range(len(rows))], corner="read by \\ written by",
                            caption="Composition scores: how much of what a first-layer head writes lies where a "
                                    "second-layer head reads it {about}`method`"))


def name_head_inputs_table() -> HTML:
    """The second seed's name head: the name's mean probability at the name probes with each first-layer head's write
    (rows) cut from one of the name head's inputs (columns) alone."""
    f = name_head_inputs(SECOND_SEED)
    head = head_label(f["head"])
    senders = list(dict.fromkeys(path.rsplit(" ", 1)[0] for path in f["cut"]))
    rows = [(s, *(f["cut"][f"{s} {via}"] for via in INPUTS)) for s in senders] or [("none: no head writes before it",
                                                                                  "", "", "")]
    return HTML(rows_html(["cut", *(f"from {head}'s {INPUT_WORDS[via]}" for via in INPUTS)], rows, decimals=3,
                          caption=f"The second seed's name head {head}: the name's mean probability at {f['probes']} "
                                  f"name probes, {shown(f['plain'], '.3f')} with nothing cut, with one first-layer "
                                  f"head's write cut from one of its inputs alone {{about}}`method`"))
