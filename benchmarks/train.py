"""Benchmark the walkthrough's "Train it yourself" box in headless Chromium, and measure how the page's float64
runs agree with the float32 seed record; medians.

    .venv/bin/python benchmarks/train.py            # print a Markdown table (the site must be built)
    .venv/bin/python benchmarks/train.py --docs     # ... and write it into docs/performance.md

Measured on the built walkthrough page, served locally:
* worker: the recipe's 2,000 steps of the published seed in the page's worker (_static/train/worker.js), as the
  worker times them, budget 1 s;
* box: Train pressed until the result is written, and until the first point of the loss curve is drawn;
* bytes: what the box fetches (its scripts, the trainer's JSON, one seed's initial weights), raw and gzip;
* agreement: every seed of the record trained by the page's modules (float64) against the record (float32,
  the same recipe): the seeds whose rows 5 and 13 look at the same positions, whose "converged" agrees, and how
  many find the lesson's pattern here and in the record. Not timed.
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402

from compute.training.machine import cpu_model  # noqa: E402
from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402

PAGE = "posts/trained-walkthrough.html"
BUDGET_MS = 1000
SCRIPTS = ("train/widget.js", "train/worker.js", "train/train.js", "train/model.js", "train/exp.js", "train/adam.js",
           "generate/view.js")

WORKER_JS = """async ([base, seed]) => {
  const spec = await (await fetch(base + '_static/train/walkthrough.json')).json();
  const init = await (await fetch(base + `_static/train/init/seed-${seed}.f32`)).arrayBuffer();
  const worker = new Worker(base + '_static/train/worker.js', { type: 'module' });
  const done = new Promise((resolve) => { worker.onmessage = (e) => { if (e.data.type === 'done') resolve(e.data); }; });
  worker.postMessage({ run: 1, spec, init, lr: spec.recipe.lr, steps: spec.recipe.steps, every: 20 });
  const msg = await done;
  worker.terminate();
  return { ms: msg.ms, first: msg.firstMs };
}"""

BOX_JS = """async () => {
  const box = document.querySelector('#wt-train'), rows = box.querySelector('[data-part=runs]');
  const before = rows.children.length, t0 = performance.now();   // each run adds a row to the reader's table
  let first = null;
  const seen = new MutationObserver(() => {
    if (first === null && box.querySelector('polyline.train-line')) first = performance.now() - t0;
  });
  seen.observe(box.querySelector('[data-part=curve]'), { childList: true });
  box.querySelector('[data-part=train]').click();
  while (rows.children.length === before) {
    if (performance.now() - t0 > 60000) throw new Error('the box wrote no result within a minute');
    await new Promise((r) => requestAnimationFrame(r));
  }
  seen.disconnect();
  return { ms: performance.now() - t0, first };
}"""

AGREEMENT_JS = """async (base) => {
  const run = await import(base + '_static/train/train.js');
  const spec = await (await fetch(base + '_static/train/walkthrough.json')).json();
  const [first, last] = spec.record.seeds;
  let rows = 0, conv = 0, cueHere = 0, convHere = 0;
  for (let s = first; s <= last; s++) {
    const init = run.fromFloat32(await (await fetch(base + `_static/train/init/seed-${s}.f32`)).arrayBuffer());
    const r = run.train(spec, init, { lr: spec.recipe.lr, steps: spec.recipe.steps });
    const look = run.looks(spec, r.result.rows), rec = spec.record.results[s], c = run.converged(spec, r.result);
    if (spec.goal.rows.every((row) => look[row][0] === rec.rows[row][0])) rows += 1;
    if (c === rec.converged) conv += 1;
    if (c) convHere += 1;
    if (c && run.cuePattern(spec, look)) cueHere += 1;
  }
  return { seeds: last - first + 1, rows, conv, convHere, cueHere, convRecord: spec.record.n_converged,
           cueRecord: spec.record.n_cue_both };
}"""


def box_bytes(site: Path) -> tuple[int, int]:
    """Raw and gzip bytes of what the box fetches for one run: scripts, the trainer's JSON, one seed's weights."""
    spec = json.loads((site / "_static/train/walkthrough.json").read_text())
    files = [site / "_static" / s for s in SCRIPTS] + [site / "_static/train/walkthrough.json",
                                                      site / f"_static/train/init/seed-{spec['published_seed']}.f32"]
    blobs = [f.read_bytes() for f in files]
    return sum(map(len, blobs)), sum(len(gzip.compress(b, 9)) for b in blobs)


def measure(runs: int, agreement: bool) -> dict:
    from playwright.sync_api import sync_playwright

    site = ROOT / "site"
    spec = json.loads((site / "_static/train/walkthrough.json").read_text())
    seed = spec["published_seed"]
    with serve(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        page = browser.new_page()
        page.goto(base + PAGE, wait_until="load")
        worker = [page.evaluate(WORKER_JS, [base, seed]) for _ in range(runs)]
        page.locator("#wt-train").scroll_into_view_if_needed()
        box = [page.evaluate(BOX_JS) for _ in range(runs)]
        agree = page.evaluate(AGREEMENT_JS, base) if agreement else None
        browser.close()
    raw, packed = box_bytes(site)
    return {"runs": runs, "seed": seed, "worker": statistics.median(r["ms"] for r in worker),
            "worker_first": statistics.median(r["first"] for r in worker),
            "box": statistics.median(r["ms"] for r in box), "box_first": statistics.median(r["first"] for r in box),
            "raw": raw, "gzip": packed, "agreement": agree}


def markdown(m: dict) -> str:
    ok = "within budget" if m["worker"] <= BUDGET_MS else "over budget"
    lines = [
        "| train it yourself | median | runs | budget |",
        "| --- | --- | --- | --- |",
        f"| worker: 2,000 steps of seed {m['seed']} (float64) | {m['worker']:,.0f} ms | {m['runs']} | "
        f"{BUDGET_MS:,} ms, {ok} |",
        f"| box: Train pressed to the first point of the loss curve drawn | {m['box_first']:,.0f} ms | {m['runs']} | |",
        f"| box: Train pressed to the result written | {m['box']:,.0f} ms | {m['runs']} | |",
        f"| bytes the box fetches (scripts, data, one seed's weights) | {m['raw'] / 1e3:.1f} kB ({m['gzip'] / 1e3:.1f} kB "
        f"gzip) | | |",
    ]
    a = m["agreement"]
    if a:
        lines.append(f"| seeds whose rows 5 and 13 look where the float32 record's do | {a['rows']} of {a['seeds']} | 1 | |")
        lines.append(f"| seeds converged here / in the record (agreeing on {a['conv']}) | {a['convHere']} / "
                     f"{a['convRecord']} | 1 | |")
        lines.append(f"| seeds finding the lesson's pattern here / in the record | {a['cueHere']} / {a['cueRecord']} | 1 | |")
    lines += ["", f"Headless Chromium, {cpu_model()}, 2 cores; the model trains in plain JavaScript (float64)."]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--no-agreement", action="store_true", help="skip training every seed of the record (2 min)")
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    args = p.parse_args()
    table = markdown(measure(args.runs, not args.no_agreement))
    print(table)
    if args.docs:
        write_table("train", table)


if __name__ == "__main__":
    main()
