"""Part III's worked examples as tables: one row through the first LayerNorm, top-k on a real next-word
distribution (states/explain.py), and one prediction followed through the name head (states/box.py)."""
from __future__ import annotations

from IPython.display import HTML

from ...present.numbers import shown
from ...present.tables import rows_html
from .states.box import followed, knockout_prompt
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
