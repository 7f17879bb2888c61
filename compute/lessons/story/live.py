"""Live generation: the page's box for the four-head model running in the reader's browser, and its print stand-in.

The controls are plain HTML (labels, inputs, buttons) that _static/generate/widget.js
brings to life; the model's weights are exported into the site by site_files().
"""
from __future__ import annotations

import html
import json

import numpy as np
import torch
from IPython.display import HTML

from ...data.tokenizer import words
from ...export.story import FILES, export_files, model_from_files
from ...generate import Sampling, generate
from ...present.numbers import shown
from ...present.prose import said
from ...present.widgets import box_module
from ...published.story import FOUR_HEAD, load, story_corpus
from .data import corpus_facts
from .states.box import box_model, knockout_prompt, next_word, patch_pair
from .states.heads import head_label
from .states.samples import as_text, whole_sentences

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
    ids = data.vocab.prompt(PROMPT)
    torch.set_num_threads(2)
    new = generate(model_from_files(export_files()), torch.tensor([ids]), PRINT_SAMPLING, PRINT_SEED)[0]
    return as_text(list(words(PROMPT)) + list(whole_sentences(data.vocab.decode(new), PRINT_SAMPLING.max_tokens)))


def weights_size() -> int:
    return len(export_files()[FILES[0]])


def about() -> str:
    """The one line that says what the box's model is."""
    facts, model = corpus_facts(), load(FOUR_HEAD).model
    n_params = sum(p.numel() for p in model.parameters())
    return (f"The model: the four-head transformer of this lesson ({model.cfg.n_layer} layers × {model.cfg.n_head} "
            f"heads, {n_params:,} parameters, a vocabulary of {facts['vocab_size']:,} words), trained on "
            f"{facts['n_train']:,} generated stories (<a href=\"#st-data\">section 1</a>).")


def next_words(n: int = 5) -> list[tuple[str, float]]:
    """The n likeliest next words after the box's prompt at the print temperature: what the bars show first."""
    data = story_corpus()
    logits = np.log(next_word(data.vocab.encode(words(PROMPT)))) / PRINT_SAMPLING.temperature
    p = np.exp(logits - logits.max())
    p /= p.sum()
    return [(data.vocab.itos[i], float(p[i])) for i in np.argsort(-p, kind="stable")[:n]]


def _head_switches(n_layer: int, n_head: int) -> str:
    return "".join(f'<button type="button" class="live-head" data-head="{l * n_head + h}" aria-pressed="false">'
                   f"L{l + 1} H{h + 1}</button>" for l in range(n_layer) for h in range(n_head))


def _head_options(n_layer: int, n_head: int, none: str) -> str:
    return f'<option value="">{none}</option>' + "".join(
        f'<option value="{l * n_head + h}">L{l + 1} H{h + 1}</option>' for l in range(n_layer) for h in range(n_head))


PACES = (0, 20, 10, 5, 2, 1)    # words a second a run writes at (0: as fast as the model goes)


def _pace() -> str:
    said = lambda n: "the model’s full rate" if n == 0 else f"{n} word{'s' if n > 1 else ''} a second"  # noqa: E731
    options = "".join(f'<option value="{n}">{said(n)}</option>' for n in PACES)
    return f'<label class="live-pace">Pace <select data-part="pace">{options}</select></label>'


def _patch(cfg) -> str:
    """A head whose output at the prompt's last word is taken from another prompt, and section 6's pair."""
    pair = patch_pair()
    l, h = pair["head"]
    esc = html.escape
    return f'''<div class="live-patch" role="group" aria-labelledby="st-live-patch-label">
<p id="st-live-patch-label" class="live-patch-title">Patch a head: at the prompt's last word, the head writes what it
wrote at the last word of another start of a story.</p>
<div class="live-controls"><label>Head <select data-part="patch-head">{_head_options(cfg.n_layer, cfg.n_head, "none")}</select></label>
<label class="live-source">The other start <textarea data-part="source" rows="2"></textarea></label></div>
<p class="live-try"><button type="button" data-part="try-patch" data-prompt="{esc(pair["text"])}"
data-source="{esc(pair["source"])}" data-patch="{l * cfg.n_head + h}">Patch the name head</button> loads the story
of <a href="#st-roles">section 6</a> with {head_label(pair["head"])}'s output taken from the same story with {esc(pair["name"].capitalize())}
renamed {esc(pair["other"].capitalize())}.</p></div>'''


INSPECT = '''<div class="live-inspect" data-part="inspect">
<p class="live-inspect-head"><label>Read apart the word <select data-part="explain"></select></label></p>
<p class="live-why-title" id="st-live-why-title" data-part="why-title"></p>
<ol class="live-why" data-part="why" aria-labelledby="st-live-why-title"></ol>
<p class="live-why-title" id="st-live-layers-title">Layer by layer: the next word read from the residual stream after
each layer (the final LayerNorm and <var>W</var><sub>U</sub> applied there), as the model's own probabilities (temperature 1,
whatever the sampler's temperature above).</p>
<div class="live-layers" data-part="layers" role="region" tabindex="0" aria-labelledby="st-live-layers-title"></div>
</div>'''


def _field(name: str, label: str, attrs: str) -> str:
    return (f'<span class="live-field"><label>{label} <input type="number" data-part="{name}" {attrs} '
            f'aria-describedby="st-live-{name}-error"></label>\n'
            f'<span class="live-error" data-part="{name}-error" id="st-live-{name}-error"></span></span>')


HELP = ("Generate writes a new story from the start above; Step adds one word, Go on the rest; Stop (or Escape) stops "
        "{about}`method`. Top-k 0 keeps every word; top-p keeps, of those, the fewest likeliest words whose "
        "probability reaches p (1 keeps them all); greedy always takes the likeliest one; the same seed gives the "
        "same story {about}`design`. Pace sets how fast the words come {about}`method`.")
NOTE = ("On the web page, this box runs the four-head model in the browser: you write the start of a story, choose "
        "the temperature, top-k, a seed or greedy choice, and the words appear with every head's attention; you can "
        "pick any next word yourself, look back at any word written, and silence heads {about}`method`.")


def box() -> HTML:
    esc = html.escape
    help_text, note = said(HELP), said(NOTE)
    mb = weights_size() / 1e6
    sample = print_sample()
    cfg = box_model().cfg
    ko = knockout_prompt()
    name_head = head_label(ko["head"])
    silence = json.dumps([ko["head"][0] * cfg.n_head + ko["head"][1]])
    bars = ", ".join(f"“{w}” {shown(p, '.1%')}" for w, p in next_words())
    likeliest = said(f"After the prompt “{PROMPT}”, the model's likeliest next words are {bars} {{about}}`reading`.")
    return HTML(f'''<section class="live-generate" id="st-live" data-models="../{MODELS_DIR}" aria-labelledby="st-live-title">
<h3 class="live-title" id="st-live-title">Write with the four-head model</h3>
<p class="live-about">{about()}</p>
<form data-part="form" class="live-form" novalidate>
<label for="st-live-prompt">The start of a story (or nothing)</label>
<textarea id="st-live-prompt" data-part="prompt" rows="2" aria-describedby="st-live-notes">{esc(PROMPT)}</textarea>
<p class="live-notes" data-part="notes" id="st-live-notes"></p>
<div class="live-controls">
{_field("temperature", "Temperature", f'min="0.1" max="2" step="0.1" value="{PRINT_SAMPLING.temperature:g}"')}
{_field("topk", "Top-k", 'min="0" step="1" value="0"')}
{_field("topp", "Top-p", 'min="0.01" max="1" step="0.05" value="1"')}
{_field("seed", "Seed", f'min="0" step="1" value="{PRINT_SEED}"')}
<label class="live-check"><input type="checkbox" data-part="greedy"> Greedy</label>
</div>
<div class="live-controls live-buttons">
<button type="submit" data-part="generate">Generate</button>
<button type="button" data-part="step">Step</button>
<button type="button" data-part="go-on">Go on</button>
<button type="button" data-part="stop" disabled>Stop</button>
{_pace()}
</div>
</form>
<p class="live-help">{esc(help_text)}</p>
<div class="live-heads" role="group" aria-labelledby="st-live-heads-label"><span id="st-live-heads-label">Silence a head:</span>
{_head_switches(cfg.n_layer, cfg.n_head)}</div>
<p class="live-try"><button type="button" data-part="try" data-prompt="{esc(ko["text"])}" data-silence="{silence}">Silence the
name head</button> loads a story from <a href="#st-roles">section 6</a> whose next word is a name, with {name_head} silenced.</p>
{_patch(cfg)}
<p class="live-status"><span data-part="progress"></span> <span data-part="status" role="status">The model ({shown(mb, '.2f')} MB)
loads when you reach this box.</span></p>
<div class="live-output" data-part="output"><div data-part="flow"><span data-part="prompt-words"></span><span class="live-words" data-part="words"
role="listbox" tabindex="0" aria-label="The written words: arrow keys choose one"><span class="live-word live-caret"
data-part="caret" id="st-live-next" role="option" aria-selected="true" aria-label="the next word"></span></span></div></div>
<div class="live-next"><p class="live-bars-title" id="st-live-bars-title" data-part="bars-title"></p>
<ol class="live-bars" data-part="bars" tabindex="-1" aria-labelledby="st-live-bars-title"></ol>
<p class="live-word-field"><span class="live-field"><label>Your next word <input type="text" data-part="word" size="10"
aria-describedby="st-live-word-error" autocomplete="off" spellcheck="false"></label>
<span class="live-error" data-part="word-error" id="st-live-word-error"></span></span>
<button type="button" data-part="add">Write it</button></p></div>
{INSPECT}
<div class="live-attention" data-part="attention" tabindex="0" role="region" aria-label="Attention of every head for the selected word"></div>
<p class="live-legend" aria-hidden="true"><span>weight 0</span><span class="live-scale"></span><span>1</span></p>
<p class="live-attention-text" data-part="attention-text"></p>
<p class="live-controls"><button type="button" data-part="numbers" aria-pressed="false">Show the numbers</button>
<label>Shade the story by where <select data-part="shade">{_head_options(cfg.n_layer, cfg.n_head, "no head")}</select>
looks</label></p>
<p class="live-link"><button type="button" data-part="link">Link to this story</button>
<input type="text" data-part="link-text" readonly hidden aria-label="A link that writes this story again"></p>
<noscript><p>Live generation needs JavaScript.</p></noscript>
</section>
{box_module("../_static/generate/widget.js")}
<div class="print-only live-print"><p class="widget-note">{esc(note)} {esc(likeliest)} A sample made when the site was built
(temperature {PRINT_SAMPLING.temperature:g}, seed {PRINT_SEED}), to its last full sentence:</p><p class="sample-text">{esc(sample)}</p></div>''')
