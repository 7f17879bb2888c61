"""Part III's small worked examples as tables: one row through the first LayerNorm, and top-k on a real
next-word distribution (states/explain.py computes them)."""
from __future__ import annotations

from IPython.display import HTML

from ...present.tables import rows_html
from .states.explain import SHOWN, layernorm_row, top_k_example


def layernorm_table() -> HTML:
    """The first SHOWN coordinates of the row, each step of LayerNorm a column."""
    r = layernorm_row()
    rows = [(i + 1, r["x"][i], r["x"][i] - r["mean"], r["normed"][i], r["gain"][i], r["bias"][i], r["out"][i])
            for i in range(SHOWN)]
    return HTML(rows_html(["i", "xᵢ", "xᵢ − μ", "(xᵢ − μ) / σ", "γᵢ", "βᵢ", "LN(x)ᵢ = γᵢ (xᵢ − μ) / σ + βᵢ"], rows,
                          caption=f"The first {SHOWN} of {r['d']} coordinates of “{r['word']}” through the first "
                                  f"layer's LayerNorm (μ = {r['mean']:.4f}, σ = {r['spread']:.4f})"))


def top_k_table() -> HTML:
    t = top_k_example()
    rows = [(w, p, q) for w, p, q in zip(t["words"], t["p"], t["p_top_k"])]
    return HTML(rows_html(["next word", "probability", f"with top-k = {t['k']}"], rows, decimals=3,
                          caption=f"The four-head model's {t['k']} likeliest words after “… {t['before']}”"))
