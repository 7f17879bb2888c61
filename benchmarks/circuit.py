"""Benchmark the circuit box's graph in headless Chromium: a head clicked, to the graph measured and drawn again;
medians.

    .venv/bin/python benchmarks/circuit.py            # print a Markdown table (the site must be built)
    .venv/bin/python benchmarks/circuit.py --docs     # ... and write it into docs/performance.md
    .venv/bin/python benchmarks/circuit.py --site other/site --before   # a build from before measuring ahead

Measured on the built Part III page, served locally, with the box's model loaded: the graph of section 6's story
(as the box starts), of its last 18 words, and of a story past the context (read as its last 255 words); each time
from the click to the next frame after the graph's summary changed (performance.now in the page), with the box's
two workers and with one (navigator.hardwareConcurrency set to 1 before the page loads). Issue 55 asks for 100 ms.

* measured ahead: L1 H2 clicked (silenced, or patched from the other story) once the box has measured the graphs
  one click away, and clicked again;
* pointed at first: a head pointed at as soon as the first one's graph is drawn and clicked 150 ms later (a
  deliberate click's pause; the box measures the graph a click on the head under the pointer would give first);
* not measured yet, a second-layer head: a second head clicked as soon as the first one's graph is drawn (its graph
  measured then, while the box is still measuring one of the graphs one click away); the first layer is as it was
  on screen, so the box's workers take again what they kept of the edges there (paths.js, by edge);
* not measured yet, a first-layer head: another first-layer head clicked as soon as that graph is drawn: the first
  layer changes, and every edge is measured from the start;
* --before: a build without the patch menu and without measuring ahead (the first kind of click, silencing only).
"""
from __future__ import annotations

import argparse
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
BUDGET_MS = 100
SUMMARY = "document.querySelector('.circuit-box [data-part=graph-summary]')"
ONE_CORE = "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1 });"

IDLE = "(document.querySelector('.circuit-box [data-part=graph]').dataset.measuring || '0') === '0'"

# A click on a head, to the first frame after the summary changes (the graph drawn), in milliseconds.
CLICK_JS = """async (name) => {
  const summary = %s, before = summary.textContent;
  const head = document.querySelector(`.circuit-box .circuit-node[data-node='${name}']`);
  const drawn = new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (summary.textContent === before || !summary.textContent.includes("ms.")) return;
      seen.disconnect();
      requestAnimationFrame(() => resolve(performance.now()));
    });
    seen.observe(summary, { childList: true, characterData: true, subtree: true });
  });
  const t0 = performance.now();
  head.click();
  return (await drawn) - t0;
}""" % SUMMARY
# Each run's pair of heads: the second is the last the box would measure ahead from the first, and no pair is one
# click away from a graph an earlier run left on screen.
FIRST, SECOND = ("L1 H2", "L1 H3", "L1 H4", "L1 H1"), ("L2 H4", "L2 H3", "L2 H2", "L2 H1")
THIRD = ("L2 H3", "L2 H4", "L2 H1", "L2 H2")                      # pointed at, then clicked: another second-layer head
FOURTH = ("L1 H3", "L1 H4", "L1 H1", "L1 H2")                     # clicked after the second: another first-layer head
POINTED_MS = 150


def stories() -> dict[str, str]:
    """Section 6's story as the box starts with it, its last 18 words, and one past the context."""
    from compute.data.tokenizer import words
    from compute.lessons.story.states.box import patch_pair
    text = patch_pair()["text"]
    return {"section 6's story": text, "its last 18 words": " ".join(words(text)[-18:]),
            "a story past the context": " ".join([text] * 4)}


def open_box(browser, base: str, one_core: bool):
    context = browser.new_context()
    if one_core:
        context.add_init_script(ONE_CORE)
    page = context.new_page()
    page.goto(base + PAGE, wait_until="load")
    page.locator(".circuit-box").scroll_into_view_if_needed()
    page.wait_for_function(f"{SUMMARY}.textContent.includes('ms.')", timeout=60_000)
    page.wait_for_timeout(1_000)                                 # the second worker's weights
    return context, page


def set_story(page, text: str) -> None:
    before = page.evaluate(f"{SUMMARY}.textContent")
    page.locator(".circuit-box [data-part=story]").fill(text)
    page.locator(".circuit-box [data-part=run]").click()
    page.wait_for_function(f"{SUMMARY}.textContent !== {before!r} && {SUMMARY}.textContent.includes('ms.')",
                           timeout=60_000)
    page.wait_for_timeout(500)


def idle(page) -> None:
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(1_500)                                 # every graph one click away measured


def measure(site: Path, runs: int, before: bool) -> dict:
    from playwright.sync_api import sync_playwright
    out = {}
    with serve(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        for workers, one_core in ((2, False), (1, True)):
            context, page = open_box(browser, base, one_core)
            for name, text in stories().items():
                set_story(page, text)
                for mode in ["silenced"] if before else ["silenced", "patched"]:
                    if not before:
                        page.locator(".circuit-box [data-part=alter]").select_option(mode)
                    ahead, pointed, cold, cold_first = [], [], [], []
                    for run in range(runs):
                        idle(page)
                        first = FIRST[run % len(FIRST)] if not before else "L1 H2"
                        ahead.append(page.evaluate(CLICK_JS, first))
                        if not before:
                            third = THIRD[run % len(THIRD)]
                            page.locator(f".circuit-box .circuit-node[data-node='{third}']").hover()
                            page.wait_for_timeout(POINTED_MS)
                            pointed.append(page.evaluate(CLICK_JS, third))
                            page.mouse.move(0, 0)
                            page.evaluate(CLICK_JS, third)
                            second, fourth = SECOND[run % len(SECOND)], FOURTH[run % len(FOURTH)]
                            cold.append(page.evaluate(CLICK_JS, second))
                            cold_first.append(page.evaluate(CLICK_JS, fourth))
                            page.evaluate(CLICK_JS, fourth)
                            page.evaluate(CLICK_JS, second)
                        else:
                            idle(page)
                        ahead.append(page.evaluate(CLICK_JS, first))
                    out[(name, mode, "measured ahead" if not before else "measured on the click", workers)] = ahead
                    if cold:
                        out[(name, mode, f"pointed at {POINTED_MS} ms before the click", workers)] = pointed
                        out[(name, mode, "not measured yet, a second-layer head", workers)] = cold
                        out[(name, mode, "not measured yet, a first-layer head", workers)] = cold_first
            context.close()
        browser.close()
    return out


def markdown(m: dict, runs: int) -> str:
    rows = ["| a head clicked in the graph, to the graph drawn again | its graph | workers | median | slowest | clicks "
            "| budget |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for (name, mode, kind, workers), times in m.items():
        median = statistics.median(times)
        verdict = "within budget" if median <= BUDGET_MS else "over budget"
        rows.append(f"| {name}, {mode} | {kind} | {workers} | {median:.0f} ms | {max(times):.0f} ms | {len(times)} "
                    f"| {BUDGET_MS} ms, {verdict} |")
    return "\n".join(rows + ["", f"Headless Chromium, {cpu_model()}, 2 cores; {runs} runs."])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=4, help="at most 4 (the pairs of heads)")
    p.add_argument("--site", type=Path, default=ROOT / "site")
    p.add_argument("--before", action="store_true", help="a build without the patch menu or measuring ahead")
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    args = p.parse_args()
    if not 1 <= args.runs <= len(FIRST):
        p.error(f"--runs is 1 to {len(FIRST)}: each run clicks a pair of heads no earlier run left measured")
    table = markdown(measure(args.site, args.runs, args.before), args.runs)
    print(table)
    if args.docs:
        write_table("circuit", table)


if __name__ == "__main__":
    main()
