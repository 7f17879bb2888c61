"""Live generation: the page's box for the four-head model running in the reader's browser, and its print stand-in.

The controls are plain HTML (labels, inputs, buttons) that _static/generate/widget.js
brings to life; the model's weights are exported into the site by site_files().
"""
from __future__ import annotations

import html

import torch
from IPython.display import HTML

from ...data.tokenizer import EOS, words
from ...export.story import FILES, export_files, model_from_files
from ...generate import Sampling, generate
from ...published.story import story_corpus
from .states.samples import as_text

PROMPT = "Once upon a time, there was a little girl named Mia."
PRINT_SAMPLING = Sampling(temperature=0.8, max_tokens=120)
PRINT_SEED = 0
MODELS_DIR = "_static/models/"


def site_files() -> dict[str, bytes]:
    """The exported four-head model, placed in the site at _static/models/."""
    return {MODELS_DIR + name: data for name, data in export_files().items()}


def print_sample() -> str:
    """What print shows instead of the controls: the prompt and a seeded continuation, made at build time by the
    model the box runs (the exported float16 weights, in float64) with the page's sampler, so the box with these
    settings writes these words."""
    data = story_corpus()
    ids = [data.vocab.index(EOS)] + data.vocab.encode(words(PROMPT))
    torch.set_num_threads(2)
    new = generate(model_from_files(export_files()), torch.tensor([ids]), PRINT_SAMPLING, PRINT_SEED)[0]
    return as_text(words(PROMPT) + data.vocab.decode(new))


def weights_size() -> int:
    return len(export_files()[FILES[0]])


def box() -> HTML:
    esc = html.escape
    mb = weights_size() / 1e6
    sample = print_sample()
    return HTML(f'''<section class="live-generate" data-models="../{MODELS_DIR}" aria-labelledby="st-live-title">
<h3 class="live-title" id="st-live-title">Write with the four-head model</h3>
<form data-part="form" class="live-form" novalidate>
<label for="st-live-prompt">The start of a story (or nothing)</label>
<textarea id="st-live-prompt" data-part="prompt" rows="2">{esc(PROMPT)}</textarea>
<div class="live-controls">
<span class="live-field"><label>Temperature <input type="number" data-part="temperature" min="0.1" max="2" step="0.1" value="{PRINT_SAMPLING.temperature:g}" aria-describedby="st-live-temperature-error"></label>
<span class="live-error" data-part="temperature-error" id="st-live-temperature-error"></span></span>
<span class="live-field"><label>Top-k <input type="number" data-part="topk" min="0" step="1" value="0" aria-describedby="st-live-topk-error"></label>
<span class="live-error" data-part="topk-error" id="st-live-topk-error"></span></span>
<span class="live-field"><label>Seed <input type="number" data-part="seed" min="0" step="1" value="{PRINT_SEED}" aria-describedby="st-live-seed-error"></label>
<span class="live-error" data-part="seed-error" id="st-live-seed-error"></span></span>
<label><input type="checkbox" data-part="greedy"> Greedy</label>
<button type="submit" data-part="generate">Generate</button>
<button type="button" data-part="stop" disabled>Stop</button>
</div>
</form>
<p class="live-help">Top-k 0 keeps every word; greedy always takes the likeliest one; the same seed gives the same story.</p>
<p class="live-status" data-part="status" role="status">The model ({mb:.2f} MB) loads when you reach this box.</p>
<p class="live-output" data-part="output"></p>
<div class="live-next"><p class="live-bars-title" id="st-live-bars-title" data-part="bars-title"></p>
<ol class="live-bars" data-part="bars" aria-labelledby="st-live-bars-title"></ol></div>
<div class="live-attention" data-part="attention" tabindex="0" role="region" aria-label="Attention of every head for the newest word"></div>
<p class="live-attention-text" data-part="attention-text" aria-live="polite"></p>
<noscript><p>Live generation needs JavaScript.</p></noscript>
</section>
<script type="module" src="../_static/generate/widget.js"></script>
<div class="print-only live-print"><p class="widget-note">On the web page, this box runs the four-head model in the
browser: you write the start of a story, choose the temperature, top-k, a seed or greedy choice, and watch the words
appear with every head's attention. A sample made when the site was built (temperature
{PRINT_SAMPLING.temperature:g}, seed {PRINT_SEED}):</p><p class="sample-text">{esc(sample)}</p></div>''')
