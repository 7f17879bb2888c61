"""Section 6's circuit box: path patching on any pair of stories the reader writes, in the reader's browser.

The controls are plain HTML that _static/generate/circuit.js brings to life; the model is the live box's (its
exported weights, site_files() in live.py), run by _static/generate/paths.js in a worker. Paper shows none of it:
section 6's tables print the prepared pair, computed by compute.models.paths.
"""
from __future__ import annotations

import html

from IPython.display import HTML

from ...present.prose import said
from ...present.widgets import box_module
from .live import MODELS_DIR
from .states.box import box_model, patch_pair
from .states.heads import head_label


def _senders(n_layer: int, n_head: int, chosen: str) -> str:
    """Every part whose write a later part reads: the embedding, the heads and MLPs of every layer."""
    names = ["embedding"] + [name for l in range(n_layer) for name in
                             [f"L{l + 1} H{h + 1}" for h in range(n_head)] + ([f"L{l + 1} MLP"] if l < n_layer - 1 else [])]
    return "".join(f'<option value="{n}"{" selected" if n == chosen else ""}>{n}</option>' for n in names)


INTRO = ("Two stories that differ in a word: one part's write is taken from the second story and given to one "
         "reader in the first at a time, while every other part reads the first as it is {{about}}`method`. The box "
         "starts with the pair above, {name} renamed {other}; write any other pair {{about}}`method`.")


def circuit_box() -> HTML:
    esc = html.escape
    pair, cfg = patch_pair(), box_model().cfg
    sender = head_label(pair["head"])
    return HTML(f'''<section class="circuit-box" id="st-circuit" data-models="../{MODELS_DIR}" aria-labelledby="st-circuit-title">
<h3 class="circuit-title" id="st-circuit-title">Patch one path</h3>
<p>{esc(said(INTRO.format(name=pair["name"].capitalize(), other=pair["other"].capitalize())))}</p>
<form class="circuit-form" data-part="form" novalidate>
<label for="st-circuit-story">The story</label>
<textarea id="st-circuit-story" data-part="story" rows="3">{esc(pair["text"])}</textarea>
<label for="st-circuit-other">The other story</label>
<textarea id="st-circuit-other" data-part="other" rows="3">{esc(pair["source"])}</textarea>
<p class="circuit-controls"><label>The part whose write moves <select data-part="sender">{_senders(cfg.n_layer, cfg.n_head, sender)}</select></label>
<button type="submit" data-part="run">Patch each path</button></p>
</form>
<p class="circuit-status" data-part="status" role="status">The model loads when you reach this box.</p>
<div class="circuit-result" data-part="result" role="region" tabindex="0" aria-labelledby="st-circuit-result-title">
<p class="circuit-result-title" id="st-circuit-result-title" data-part="result-title"></p>
<table class="circuit-table" data-part="table"></table></div>
<div class="circuit-result" data-part="shares" role="region" tabindex="0" aria-labelledby="st-circuit-shares-title">
<p class="circuit-result-title" id="st-circuit-shares-title" data-part="shares-title"></p>
<table class="circuit-table" data-part="shares-table"></table></div>
<div class="circuit-graph-box" data-part="graph-box">
<p class="circuit-result-title" id="st-circuit-graph-title" data-part="graph-title"></p>
<p class="circuit-controls"><label>Hide the edges under <input type="range" data-part="threshold" min="0" max="4"
step="0.1" value="0.5" aria-describedby="st-circuit-graph-title"></label> <output data-part="threshold-value">0.5</output></p>
<p class="circuit-controls"><label>A head chosen in the graph is <select data-part="alter"><option value="silenced" selected>silenced</option>
<option value="patched">patched from the other story</option></select></label></p>
<div class="circuit-graph" data-part="graph" role="group" aria-labelledby="st-circuit-graph-title"></div>
<p class="circuit-graph-summary" data-part="graph-summary" aria-live="polite"></p>
</div>
<noscript><p>The box needs JavaScript.</p></noscript>
</section>
{box_module("../_static/generate/circuit.js")}''')
