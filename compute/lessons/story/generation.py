"""Generation: seeded samples from each model side by side, and counts over a few hundred samples."""
from __future__ import annotations

import html

from IPython.display import HTML

from ...present.numbers import shown
from ...present.prose import said
from ...present.tables import rows_html
from ...published.story import LABELS, MODELS
from .states import samples


def samples_html() -> HTML:
    """The first SHOWN samples of each model, as text, in columns (rows on a narrow screen)."""
    cols = []
    for kind in MODELS:
        texts = "".join(f'<p class="sample-text">{html.escape(samples.as_text(samples.whole_sentences(s, samples.SAMPLING.max_tokens)))}</p>'
                        for s in samples.samples(kind)[: samples.SHOWN])
        cols.append(f'<div class="sample-column"><p class="sample-label">{html.escape(LABELS[kind])}</p>{texts}</div>')
    note = said(f"A sample that reaches {samples.SAMPLING.max_tokens} tokens before the end-of-story marker is "
                "shown up to its last full sentence {about}`method`.")
    return HTML(f'<div class="sample-columns">{"".join(cols)}</div><p class="sample-note">{html.escape(note)}</p>')


def counts_table() -> HTML:
    rows = []
    for kind, c in samples.all_counts().items():
        rows.append((LABELS[kind], round(c.mean_tokens), shown(c.cast_kept, ".0%"),
                     shown(c.colours_kept, ".0%"), c.copied))  # per cent, as the prose cites them
    return HTML(rows_html(["model", "tokens", "cast kept", "colours kept", "copies"], rows, decimals=2,
                          caption=f"{samples.N_SAMPLES} samples per model (temperature "
                                  f"{samples.SAMPLING.temperature:g}, seed {samples.SEED}): mean tokens, shares that "
                                  "name no more children, and give no object more colours, than a training story "
                                  "does; copies of training stories {about}`method`"))
