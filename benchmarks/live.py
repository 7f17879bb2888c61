"""Benchmark live generation in headless Chromium: the model's speed, the box's speed on screen, long main-thread
tasks, click to first word, bytes; medians.

    .venv/bin/python benchmarks/live.py            # print a Markdown table (the site must be built)
    .venv/bin/python benchmarks/live.py --docs     # ... and write it into docs/performance.md

Measured on the built Part III page, served locally:
* model: the JavaScript model (_static/generate/model.js) reads a 56-word prompt, then writes 200 words one at a
  time with its KV cache, so the context grows to 256 words;
* worker against screen: one story written by the page's worker alone (worker.js, the words counted as they
  arrive) and the same story written by the box (Generate pressed until its status says the run ended, every
  word on screen): a story of 200 words from a seed that reaches the limit, and a prompt of 20,000 characters (4,000 words: issue 55, defect 5);
  the box's rate is to be at least 80 % of the worker's, the long prompt on screen within 1.5x the worker's time;
* long tasks: main-thread tasks over 50 ms during those box runs (the browser's longtask entries), to be none;
* click to first word: Generate pressed before the weights are fetched (a fresh browser profile), after a
  reload (the weights in the browser's cache), and with the model already loaded;
* bytes: the page's first load (gzip, as run.py counts it: the weights are not fetched until the reader reaches
  the box) and the weights file;
* the instruments: a written word clicked, to its attribution bars and layer view drawn (a story of 200 words
  on screen, words across it); a head chosen to patch, to the bars of section 6's story (the prompt, nothing
  written) redrawn from the patched model; and main-thread tasks over 50 ms while a run writes at 20 and at 2
  words a second.
"""
from __future__ import annotations

import argparse
import gzip
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402

from compute.training.machine import cpu_model  # noqa: E402
from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402

PAGE = "posts/story-models.html"
BUDGET = {"words_per_s": 1000, "first_ms": 50, "page_bytes": 1_200_000, "screen_share": 0.8, "long_prompt": 1.5,
          "task_ms": 50, "inspect_ms": 50, "patch_ms": 100}
PACES = (20, 2)           # words a second, for the long-task count at a pace
PACE_SECONDS = 3
STORY_PROMPT = "Once upon a time"
LONG_PROMPT = ("The dog ran to the park. " * 1000)[:20_000]
TEMPERATURE = 0.8
READY = "document.querySelector('.live-generate [data-part=status]').textContent"

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

# The page's worker alone: load, then write one story (the box's request, as widget.js sends it), the words
# counted as they arrive. Returns {ms: request to the run's end, first: request to the first word, words}.
WORKER_JS = """async ([base, prompt, settings, seed, count]) => {
  const { words } = await import(base + '_static/generate/text.js');
  const worker = new Worker(base + '_static/generate/worker.js', { type: 'module' });
  const ready = new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); });
  worker.postMessage({ type: 'load', base: base + '_static/models/' });
  const vocab = (await ready).vocabulary, index = new Map(vocab.map((w, i) => [w, i]));
  const ids = words(prompt).map((w) => (index.has(w) ? index.get(w) : 1));
  return new Promise((resolve) => {
    let n = 0, first = 0;
    const t0 = performance.now();
    worker.onmessage = (e) => {
      if (e.data.type === 'token' && n++ === 0) first = performance.now() - t0;
      if (e.data.type === 'done') { resolve({ ms: performance.now() - t0, first, words: n }); worker.terminate(); }
    };
    worker.postMessage({ type: 'write', run: 1, settings, count,
                         story: { text: prompt, prompt: ids, written: [], seed, silenced: [], draws: 0 } });
  });
}"""

# The box: set the prompt and settings, press Generate, wait for the status that ends the run. Returns the words
# on screen then, the time, the first word's time, and every main-thread task over 50 ms meanwhile.
SCREEN_JS = """async ([prompt, temperature, seed]) => {
  const box = document.querySelector('.live-generate');
  const set = (part, value) => {
    const el = box.querySelector(`[data-part=${part}]`);
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  };
  set('temperature', temperature); set('seed', seed); set('prompt', prompt);
  await new Promise((r) => setTimeout(r, 500));                 // the prompt's bars, as a reader would wait
  const status = box.querySelector('[data-part=status]'), list = box.querySelector('[data-part=words]');
  const long = [];
  const watch = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
  watch.observe({ type: 'longtask' });
  status.textContent = '';
  let first = 0;
  const t0 = performance.now();
  const ended = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (!first && list.children.length > 1) first = performance.now() - t0;
      if (status.textContent.includes('written')) { seen.disconnect(); resolve(performance.now() - t0); }
    });
    seen.observe(box, { childList: true, subtree: true, characterData: true });
  });
  box.querySelector('[data-part=generate]').click();
  const ms = await ended;
  await new Promise((r) => setTimeout(r, 200));                 // long-task entries arrive late
  watch.disconnect();
  return { ms, first, words: list.children.length - 1, long };
}"""

# Click to first word: Generate pressed, and the time until a written word is on screen.
CLICK_JS = """async () => {
  const box = document.querySelector('.live-generate'), list = box.querySelector('[data-part=words]');
  box.querySelector('[data-part=greedy]').checked = true;
  const t0 = performance.now();
  const first = new Promise((resolve) => {
    const seen = new MutationObserver(() => { if (list.children.length > 1) { seen.disconnect(); resolve(performance.now() - t0); } });
    seen.observe(list, { childList: true });
  });
  box.querySelector('[data-part=generate]').click();
  return first;
}"""


# A written word clicked: the time until its attribution bars are drawn for it (and the layer view, drawn with
# them). Returns one time per clicked word.
INSPECT_JS = """async (ks) => {
  const box = document.querySelector('.live-generate'), why = box.querySelector('[data-part=why]');
  const out = [];
  for (const k of ks) {
    const word = box.querySelector(`.live-word[data-k="${k}"]`);
    const t0 = performance.now();
    const drawn = new Promise((resolve) => {
      const seen = new MutationObserver(() => {
        const title = box.querySelector('[data-part=why-title]').textContent.toLowerCase();
        if (title.includes(`why “${word.textContent.trim().toLowerCase()}”`)) {
          seen.disconnect(); resolve(performance.now() - t0);
        }
      });
      seen.observe(why, { childList: true });
    });
    word.click();
    out.push(await Promise.race([drawn, new Promise((_, no) => setTimeout(() => no(new Error(`word ${k} was not read apart in 10 s`)), 10000))]));
    await new Promise((r) => setTimeout(r, 100));
  }
  return out;
}"""

# Section 6's story as the prompt and its renamed copy as the other start (the box's prepared pair, nothing
# written): the time from a head chosen to patch until the prompt's bars are redrawn from the patched model, then
# the patch cleared.
PATCH_JS = """async (head) => {
  const box = document.querySelector('.live-generate'), title = box.querySelector('[data-part=bars-title]');
  const select = box.querySelector('[data-part=patch-head]'), source = box.querySelector('[data-part=source]');
  const pair = box.querySelector('[data-part=try-patch]').dataset, prompt = box.querySelector('[data-part=prompt]');
  if (prompt.value !== pair.prompt) {
    prompt.value = pair.prompt;
    prompt.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 800));              // the prompt's bars, as a reader would wait
  }
  source.value = pair.source;
  const t0 = performance.now();
  const drawn = new Promise((resolve) => {
    const seen = new MutationObserver(() => { if (title.textContent.includes('patched')) { seen.disconnect(); resolve(performance.now() - t0); } });
    seen.observe(title, { childList: true, characterData: true, subtree: true });
  });
  select.value = String(head);
  select.dispatchEvent(new Event('change', { bubbles: true }));
  const ms = await Promise.race([drawn, new Promise((_, no) => setTimeout(() => no(new Error(`head ${head}'s patch did not show in 10 s`)), 10000))]);
  select.value = '';
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await new Promise((r) => setTimeout(r, 200));
  return ms;
}"""

# A run at a pace (words a second) for `seconds`, then Stop: the main-thread tasks over 50 ms meanwhile.
PACE_JS = """async ([pace, seconds]) => {
  const box = document.querySelector('.live-generate');
  box.querySelector('[data-part=pace]').value = String(pace);
  const long = [];
  const watch = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
  watch.observe({ type: 'longtask' });
  box.querySelector('[data-part=generate]').click();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  box.querySelector('[data-part=stop]').click();
  await new Promise((r) => setTimeout(r, 300));
  watch.disconnect();
  box.querySelector('[data-part=pace]').value = '0';
  return { long, words: box.querySelectorAll('.live-word:not(.live-caret)').length };
}"""


def instruments(page, seed: int, runs: int) -> dict:
    """Medians: click to attribution (words across a 200-word story), head chosen to patched bars (every head of
    the first layer and the second, in turn), and long tasks at each pace."""
    page.evaluate(SCREEN_JS, [STORY_PROMPT, TEMPERATURE, seed])
    ks = [k for k in range(5, 200, 200 // runs)][:runs]
    inspect = page.evaluate(INSPECT_JS, ks)
    patch = [page.evaluate(PATCH_JS, k % 8) for k in range(runs)]
    paced = {pace: page.evaluate(PACE_JS, [pace, PACE_SECONDS]) for pace in PACES}
    return {"inspect_ms": statistics.median(inspect), "inspect_n": len(inspect), "patch_ms": statistics.median(patch),
            "paced": {pace: (len(r["long"]), max(r["long"], default=0.0), r["words"]) for pace, r in paced.items()}}


def long_story_seed(temperature: float, words: int = 200) -> int:
    """The first seed whose story from STORY_PROMPT runs to `words` words at this temperature (Python's sampler
    and the exported model: what the page writes)."""
    import torch

    from compute.data.tokenizer import words as tokens
    from compute.export.story import export_files, model_from_files
    from compute.generate import Sampling, generate
    from compute.published.story import story_corpus

    model, vocab = model_from_files(export_files()), story_corpus().vocab
    prompt = torch.tensor([[0] + vocab.encode(tokens(STORY_PROMPT))])
    for seed in range(500):
        if len(generate(model, prompt, Sampling(temperature=temperature, max_tokens=words), seed)[0]) == words:
            return seed
    raise SystemExit(f"no seed below 500 writes {words} words from {STORY_PROMPT!r} at temperature {temperature}")


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


def box_page(browser, base: str):
    """The Part III page with its box's model loaded."""
    page = browser.new_page()
    page.goto(base + PAGE, wait_until="load")
    for _ in range(30):     # the page lays itself out after its first screen, which can move the box off screen again
        page.locator(".live-generate").scroll_into_view_if_needed()
        try:
            page.wait_for_function(f"{READY}.includes('ready')", timeout=2_000)
            return page
        except Exception:
            continue
    raise SystemExit("the live box's model did not load within a minute")


def click_to_first_word(browser, base: str, runs: int) -> dict[str, float]:
    """Medians: Generate pressed with nothing fetched (a fresh profile; the box is far down the page, so the
    weights are fetched after the click), after a reload (weights cached), and with the model loaded."""
    cold, cached, loaded = [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + PAGE, wait_until="load")
        cold.append(page.evaluate(CLICK_JS))
        page.reload(wait_until="load")
        cached.append(page.evaluate(CLICK_JS))
        page.wait_for_function(f"{READY}.includes('written')", timeout=60_000)
        loaded.append(page.evaluate(CLICK_JS))
        context.close()
    return {"cold": statistics.median(cold), "cached": statistics.median(cached), "loaded": statistics.median(loaded)}


def rate(results: list[dict]) -> float:
    return statistics.median(r["words"] / (r["ms"] / 1000) for r in results)


def measure(runs: int) -> dict:
    from playwright.sync_api import sync_playwright

    site = ROOT / "site"
    seed = long_story_seed(TEMPERATURE)
    settings = {"greedy": False, "temperature": TEMPERATURE, "topK": 0}
    cases = {"story": (STORY_PROMPT, seed), "long": (LONG_PROMPT, 0)}
    with serve(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        page = box_page(browser, base)
        speeds = [page.evaluate(SPEED_JS, base) for _ in range(runs)]
        worker = {name: [page.evaluate(WORKER_JS, [base, prompt, settings, s, 200]) for _ in range(runs)]
                  for name, (prompt, s) in cases.items()}
        screen = {name: [page.evaluate(SCREEN_JS, [prompt, TEMPERATURE, s]) for _ in range(runs)]
                  for name, (prompt, s) in cases.items()}
        tools = instruments(page, seed, runs)
        page.close()
        clicks = click_to_first_word(browser, base, runs)
        loads = [page_bytes(browser, base) for _ in range(3)]
        browser.close()
    for name in cases:                      # the same story both ways, or the comparison means nothing
        counts = {r["words"] for r in worker[name] + screen[name]}
        if len(counts) != 1:
            raise SystemExit(f"the {name} runs wrote different numbers of words: {sorted(counts)}")
    weights = (site / "_static" / "models" / "story-four-head.f16.bin").stat().st_size
    tasks = [d for results in screen.values() for r in results for d in r["long"]]
    return {"speed": statistics.median(speeds), "page": statistics.median(loads), "weights": weights, "runs": runs,
            "seed": seed, "story_words": worker["story"][0]["words"], "long_words": worker["long"][0]["words"],
            "worker_rate": rate(worker["story"]), "screen_rate": rate(screen["story"]),
            "worker_long_ms": statistics.median(r["ms"] for r in worker["long"]),
            "screen_long_ms": statistics.median(r["ms"] for r in screen["long"]),
            "long_tasks": len(tasks), "longest_task": max(tasks, default=0.0),
            "first": statistics.median(r["first"] for r in worker["story"]), **clicks, **tools}


def markdown(m: dict) -> str:
    def verdict(ok):
        return "within budget" if ok else "over budget"
    share, times = m["screen_rate"] / m["worker_rate"], m["screen_long_ms"] / m["worker_long_ms"]
    return "\n".join([
        "| live generation | median | runs | budget |",
        "| --- | --- | --- | --- |",
        f"| model alone: words per second, context growing to 256 | {m['speed']:,.0f} | {m['runs']} | "
        f"{BUDGET['words_per_s']:,}, {verdict(m['speed'] >= BUDGET['words_per_s'])} |",
        f"| worker: words per second, a {m['story_words']}-word story (seed {m['seed']}) | {m['worker_rate']:,.0f} | "
        f"{m['runs']} | |",
        f"| box: the same story's words on screen per second | {m['screen_rate']:,.0f} ({share:.0%} of the "
        f"worker's) | {m['runs']} | {BUDGET['screen_share']:.0%} of the worker's, "
        f"{verdict(share >= BUDGET['screen_share'])} |",
        f"| worker: a 20,000-character prompt, then {m['long_words']} words | {m['worker_long_ms']:,.0f} ms | "
        f"{m['runs']} | |",
        f"| box: the same, on screen | {m['screen_long_ms']:,.0f} ms ({times:.2f}x the worker's) | {m['runs']} | "
        f"{BUDGET['long_prompt']}x, {verdict(times <= BUDGET['long_prompt'])} |",
        f"| main-thread tasks over {BUDGET['task_ms']} ms during those box runs | {m['long_tasks']} "
        f"(longest {m['longest_task']:.0f} ms) | {2 * m['runs']} | none, {verdict(m['long_tasks'] == 0)} |",
        f"| worker: first word after the weights loaded | {m['first']:.1f} ms | {m['runs']} | "
        f"{BUDGET['first_ms']} ms, {verdict(m['first'] <= BUDGET['first_ms'])} |",
        f"| click to first word, nothing fetched yet | {m['cold']:,.0f} ms | {m['runs']} | |",
        f"| click to first word, weights in the browser's cache | {m['cached']:,.0f} ms | {m['runs']} | |",
        f"| click to first word, model loaded | {m['loaded']:,.0f} ms | {m['runs']} | |",
        f"| Part III page, first load (gzip, no weights) | {m['page'] / 1e6:.2f} MB | 3 | "
        f"{BUDGET['page_bytes'] / 1e6:.1f} MB, {verdict(m['page'] <= BUDGET['page_bytes'])} |",
        f"| weights file (float16), fetched at the box | {m['weights'] / 1e6:.2f} MB | | 0.7 MB, "
        f"{verdict(m['weights'] <= 700_000)} |",
        f"| a written word clicked, to its attribution and layer view drawn | {m['inspect_ms']:.1f} ms | "
        f"{m['inspect_n']} | {BUDGET['inspect_ms']} ms, {verdict(m['inspect_ms'] <= BUDGET['inspect_ms'])} |",
        f"| a head chosen to patch, to section 6's story's bars from the patched model | {m['patch_ms']:.1f} ms | "
        f"{m['runs']} | {BUDGET['patch_ms']} ms, {verdict(m['patch_ms'] <= BUDGET['patch_ms'])} |",
        *(f"| main-thread tasks over {BUDGET['task_ms']} ms, {PACE_SECONDS} s at {pace} words a second "
          f"({words} words) | {n} (longest {longest:.0f} ms) | 1 | none, {verdict(n == 0)} |"
          for pace, (n, longest, words) in m["paced"].items()),
        "",
        f"Headless Chromium, {cpu_model()}, 2 cores; the model runs in plain JavaScript (float64 arithmetic).",
    ])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    args = p.parse_args()
    table = markdown(measure(args.runs))
    print(table)
    if args.docs:
        write_table("live", table)


if __name__ == "__main__":
    main()
