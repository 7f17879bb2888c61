"""Past this machine (Part 2B, section 5): the same formulas for published model sizes."""
from __future__ import annotations

from IPython.display import HTML

from ...costs import PUBLISHED
from ...present.numbers import shown
from ...present.tables import rows_html
from .states.scale import scale_rows


def human_bytes(n: int) -> str:
    for unit, k in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= k:
            return f"{shown(n / k, '.2f')} {unit}"
    return f"{n} bytes"


def human_count(n: int) -> str:
    for unit, k in (("billion", 1e9), ("million", 1e6), ("thousand", 1e3)):
        if n >= k:
            return f"{n / k:.3g} {unit}"
    return str(n)


def scale_table() -> HTML:
    rows = [(r["name"], r["n_layer"], r["d_model"], r["context"], human_bytes(r["kv_bytes"]),
             human_count(r["token_macs"]), shown(r["attention_share"], ".1%"), r["vocab"],
             shown(r["attention_share_with_output"], ".1%")) for r in scale_rows()]
    return HTML(rows_html(["model", "L", "d", "T", "KV cache", "MACs per token, layers", "share on T", "vocabulary",
                           "share on T, output counted"], rows,
                          caption="At full context T: the KV cache of one sequence in 16-bit numbers, the "
                                  "multiply-adds of one new token in its layers (projections, feed-forward width 4d, "
                                  "attention over T), the share of them spent reading the context (share on T), and "
                                  "that share once the output projection onto the vocabulary (d × vocabulary) is "
                                  "counted too {about}`method`"))


def sources() -> HTML:
    items = "".join(f"<li>{s.name}: {s.source}.</li>" for s in PUBLISHED)
    return HTML(f'<ul class="sources">{items}</ul>')
