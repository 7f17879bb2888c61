"""Benchmark live generation in headless Chromium: words per second, first-word latency, bytes; medians.

    .venv/bin/python benchmarks/live.py            # print a Markdown table (the site must be built)
    .venv/bin/python benchmarks/live.py --readme   # ... and write it into README.md

Measured on the built Part III page, served locally:
* speed: the JavaScript model (_static/generate/model.js) reads a 56-word prompt, then
  writes 200 words one at a time with its KV cache, so the context grows to 256 words;
  words per second over those 200 (the page's own worker runs the same code);
* first word: in the page's worker (worker.js), from the "generate" message to the first
  word, once the weights are loaded (empty prompt);
* bytes: the page's first load (gzip, as run.py counts it: the weights are not fetched
  until the reader reaches the box) and the weights file.
Budgets (the live-generation issue): 1,000 words/s, 50 ms, 1.2 MB.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.readme import write_table  # noqa: E402

from compute.training.machine import cpu_model  # noqa: E402
from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402

PAGE = "posts/story-models.html"
BUDGET = {"words_per_s": 1000, "first_ms": 50, "page_bytes": 1_200_000}

SPEED_JS = """async (base) => {
  const { loadModel } = await import(base + '_static/generate/model.js');
  const { argmax } = await import(base + '_static/generate/sample.js');
  const model = window.__benchModel || (window.__benchModel = await loadModel(base + '_static/models/'));
  const cache = model.newCache();
  let out = null;
  for (let pos = 0; pos < 56; pos++) out = model.step(pos === 0 ? 0 : 4 + (pos % 50), pos, cache);
  const t0 = performance.now();
  for (let pos = 56; pos < 256; pos++) {
    const next = 1 + argmax(out.logits.subarray(1));     // never <eos>: always 200 words
    out = model.step(next, pos, cache);
  }
  return 200 / ((performance.now() - t0) / 1000);
}"""

FIRST_JS = """async (base) => new Promise((resolve) => {
  const worker = new Worker(base + '_static/generate/worker.js', { type: 'module' });
  let t0 = 0;
  worker.onmessage = (e) => {
    if (e.data.type === 'ready') {
      t0 = performance.now();
      worker.postMessage({ type: 'generate', run: 1, promptIds: [], options: { greedy: true, maxTokens: 1 } });
    } else if (e.data.type === 'token') {
      resolve(performance.now() - t0);
      worker.terminate();
    }
  };
  worker.postMessage({ type: 'load', base: base + '_static/models/' });
})"""


def page_bytes(browser, base: str) -> int:
    context = browser.new_context()
    page = context.new_page()
    bodies = []
    page.on("response", lambda r: bodies.append(r))
    page.goto(base + PAGE, wait_until="load")
    page.wait_for_timeout(500)
    total = 0
    for r in bodies:
        try:
            total += len(gzip.compress(r.body(), 6))
        except Exception:
            pass
    context.close()
    return total


def measure(runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    site = ROOT / "site"
    with serve(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        page = browser.new_page()
        page.goto(base + PAGE, wait_until="load")
        speeds = [page.evaluate(SPEED_JS, base) for _ in range(runs)]
        firsts = [page.evaluate(FIRST_JS, base) for _ in range(runs)]
        loads = [page_bytes(browser, base) for _ in range(3)]
        browser.close()
    weights = (site / "_static" / "models" / "story-four-head.f16.bin").stat().st_size
    return {"speed": statistics.median(speeds), "first": statistics.median(firsts),
            "page": statistics.median(loads), "weights": weights, "runs": runs}


def markdown(m: dict) -> str:
    def verdict(ok):
        return "within budget" if ok else "over budget"
    return "\n".join([
        "| live generation | median | runs | budget |",
        "| --- | --- | --- | --- |",
        f"| words per second, context growing to 256 | {m['speed']:,.0f} | {m['runs']} | "
        f"{BUDGET['words_per_s']:,}, {verdict(m['speed'] >= BUDGET['words_per_s'])} |",
        f"| first word after the weights loaded | {m['first']:.1f} ms | {m['runs']} | "
        f"{BUDGET['first_ms']} ms, {verdict(m['first'] <= BUDGET['first_ms'])} |",
        f"| Part III page, first load (gzip, no weights) | {m['page'] / 1e6:.2f} MB | 3 | "
        f"{BUDGET['page_bytes'] / 1e6:.1f} MB, {verdict(m['page'] <= BUDGET['page_bytes'])} |",
        f"| weights file (float16), fetched at the box | {m['weights'] / 1e6:.2f} MB | | 0.7 MB, "
        f"{verdict(m['weights'] <= 700_000)} |",
        "",
        f"Headless Chromium, {cpu_model()}, 2 cores; the model runs in plain JavaScript (float64 arithmetic).",
    ])



def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--readme", action="store_true")
    args = p.parse_args()
    table = markdown(measure(args.runs))
    print(table)
    if args.readme:
        write_table("live", table)


if __name__ == "__main__":
    main()
