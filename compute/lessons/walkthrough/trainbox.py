"""The walkthrough's "Train it yourself" box: plain HTML that _static/train/widget.js brings to life, and what
print shows instead (the published seed's recorded loss curve and a few seeds of the record)."""
from __future__ import annotations

import html
import math

from IPython.display import HTML

from ...present.numbers import shown
from ...present.prose import said
from ...present.widgets import box_module
from ...published.walkthrough import NAME, load
from .seeds import seed_record
from .trainer import FOLDER, LR_RANGE, STEPS_RANGE

PRINTED_SEEDS = 6        # the record's first seeds, with the published and alternative ones, in the handout


def _field(name: str, label: str, attrs: str) -> str:
    return (f'<span class="train-field"><label>{label} <input type="number" data-part="{name}" {attrs} '
            f'aria-describedby="wt-train-{name}-error"></label>\n'
            f'<span class="train-error" data-part="{name}-error" id="wt-train-{name}-error"></span></span>')


def curve_svg(losses: list[float], width: int = 420, height: int = 150) -> str:
    """The loss at each step on a log scale, as an inline SVG line (what print shows for the published seed)."""
    top, bottom = math.log(max(max(losses[:5]), 2.5)), math.log(0.15)
    pad_l, pad_b, pad_t, pad_r = 42, 30, 8, 8

    def x(i):
        return pad_l + (width - pad_l - pad_r) * i / (len(losses) - 1)

    def y(v):
        return pad_t + (height - pad_t - pad_b) * (top - math.log(max(v, 0.15))) / (top - bottom)
    stride = max(1, len(losses) // 400)
    points = " ".join(f"{x(i):.1f},{y(losses[i]):.1f}" for i in range(0, len(losses), stride))
    ticks = "".join(f'<line class="train-grid" x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                    f'<text class="train-tick" x="{pad_l - 4}" y="{y(v) + 3:.1f}" text-anchor="end">{v:g}</text>'
                    for v in (2, 1, 0.5, 0.2))
    ends = {0: "start", len(losses): "end"}
    steps = "".join(f'<text class="train-tick" x="{x(max(0, s - 1)):.1f}" y="{height - pad_b + 13}" '
                    f'text-anchor="{ends.get(s, "middle")}">{s}</text>' for s in (0, len(losses) // 2, len(losses)))
    return (f'<svg class="train-curve" viewBox="0 0 {width} {height}" role="img" aria-label="Loss at each step of the '
            f'published seed">{ticks}{steps}<polyline class="train-line" points="{points}"/>'
            f'<text class="train-tick" x="{(width + pad_l) / 2}" y="{height - 3}" text-anchor="middle">step</text>'
            f'<text class="train-tick" x="10" y="{(height - pad_b) / 2}" transform="rotate(-90 10 {(height - pad_b) / 2})" '
            f'text-anchor="middle">loss (nats)</text></svg>')


def printed_rows() -> list[dict]:
    record = seed_record()
    want = sorted({*range(PRINTED_SEEDS), record["published_seed"], record["alternative_seed"]})
    return [e for e in record["entries"] if e["seed"] in want]


SEEDS_CAPTION = ("Some seeds of the record: final loss, and the word each answer row weights most (its position, "
                 "its weight) {about}`reading`")


def print_html() -> str:
    wt = load(NAME)
    losses = wt.manifest["loss_history"]
    rows = "".join(
        f"<tr><td>{e['seed']}</td><td>{shown(e['final_loss'], '.4f')}</td><td>{'yes' if e['converged'] else 'no'}</td>"
        + "".join(f"<td>{html.escape(r['word'])} ({r['position']}) {shown(r['weight'], '.2f')}</td>"
                  for r in e["rows"].values()) + "</tr>" for e in printed_rows())
    return (f'<div class="print-only train-print"><p class="widget-note">On the web page, this box trains the model '
            f"in the browser from any seed of the record, with the lesson's recipe or another learning rate and "
            f"number of steps, and shows the loss and rows 5 and 13 as they change. The published seed "
            f"({wt.manifest['seed']}) as it was trained for this lesson:</p>{curve_svg(losses)}"
            f'<table class="matrix"><caption>{html.escape(said(SEEDS_CAPTION))}</caption><thead><tr><th>seed</th><th>final loss</th>'
            f"<th>converged</th><th>row 5</th><th>row 13</th></tr></thead><tbody>{rows}</tbody></table></div>")


ABOUT = ("What runs here: this lesson's model and recipe (full-batch AdamW on the eight sentences), in your browser, "
         "in float64, from the seed's own initial weights as torch drew them for the record, with arithmetic that "
         "gives the same bits in every browser {about}`design`.")


def box() -> HTML:
    record = seed_record()
    first, last = record["seeds"]
    recipe = record["recipe"]
    return HTML(f'''<section class="train-box" id="wt-train" data-train="../{FOLDER}" aria-labelledby="wt-train-title">
<h3 class="train-title" id="wt-train-title">Train it yourself</h3>
<p class="train-about">{html.escape(said(ABOUT))}</p>
<form data-part="form" class="train-form" novalidate>
<div class="train-controls">
{_field("seed", "Seed", f'min="{first}" max="{last}" step="1" value="{record["published_seed"]}"')}
{_field("lr", "Learning rate", f'min="{LR_RANGE[0]}" max="{LR_RANGE[1]}" step="0.001" value="{recipe["lr"]}"')}
{_field("steps", "Steps", f'min="{STEPS_RANGE[0]}" max="{STEPS_RANGE[1]}" step="100" value="{recipe["steps"]}"')}
<button type="submit" data-part="train">Train</button>
<button type="button" data-part="cancel" aria-disabled="true">Cancel</button>
</div>
</form>
<p class="train-status"><span data-part="progress"></span> <span data-part="status" role="status">Seeds {first} to {last}; the published one is
{record["published_seed"]}.</span></p>
<svg class="train-curve" data-part="curve" viewBox="0 0 320 150" role="img" aria-label="The loss curve appears
here as the model trains."></svg>
<p class="train-overlay"><label><input type="checkbox" data-part="overlay"> Draw your earlier runs' curves too (in
grey)</label></p>
<p class="train-caption" id="wt-train-rows-caption" data-part="rows-caption">Rows 5 and 13 of the goal sentence
appear here as the model trains.</p>
<div class="train-rows-wrap" tabindex="0" role="region" aria-label="Rows 5 and 13, scrolling sideways on a narrow
screen"><table class="train-rows" data-part="rows" aria-labelledby="wt-train-rows-caption"><thead><tr><th scope="col">row</th>{"".join(
        f'<th scope="col">{i} {html.escape(w)}</th>' for i, w in enumerate(load(NAME).tokens))}</tr></thead>
<tbody></tbody></table></div>
<p class="train-scrub"><label>Replay a step <input type="range" data-part="scrub" min="0" max="0" value="0" disabled>
</label> <output data-part="scrub-step"></output></p>
<p class="train-result" data-part="result"></p>
<p class="train-tally" data-part="tally"></p>
<div data-part="runs-table" hidden><p class="train-caption"><span id="wt-train-runs-caption">Your runs (kept in
this browser)</span> <button type="button" data-part="clear">Clear your runs</button></p>
<div class="train-runs-wrap" tabindex="0" role="region" aria-label="Your runs, scrolling sideways on a narrow
screen"><table class="train-runs" aria-labelledby="wt-train-runs-caption">
<thead><tr><th scope="col">seed</th><th scope="col">learning rate</th><th scope="col">steps</th><th scope="col">final
loss</th><th scope="col">converged</th><th scope="col">row 5 looks at</th><th scope="col">row 13 looks at</th><th
scope="col">lesson's pattern</th><th scope="col">rows as in the record</th></tr></thead><tbody data-part="runs">
</tbody></table></div></div>
<noscript><p>Training in the page needs JavaScript.</p></noscript>
</section>
{box_module("../_static/train/widget.js")}
{print_html()}''')
