"""Benchmark the build and the pages; medians over several runs.

    .venv/bin/python benchmarks/run.py            # everything, print a Markdown table
    .venv/bin/python benchmarks/run.py --docs     # ... and write it into docs/performance.md
    .venv/bin/python benchmarks/run.py --skip-cold --page-runs 3
    .venv/bin/python benchmarks/run.py --site ../other-checkout/site   # another build's pages, to compare

Measures
* cold build: `python -m sitebuild` after deleting _build/ and site/ (the
  virtual environment already installed), the sum of its stages' times;
* no-change rebuild: the same command again with nothing changed;
* rebuild after a retrain: the four-head story model's checkpoint replaced by
  new bytes of the same numbers (RETRAINED), which re-executes, redraws and
  reprints only what reads it; what the build says it did is printed with it;
* each stage's median under each of those builds (the build's `stages:` line);
* per page: bytes transferred on a first load with an empty cache, each
  response gzip-compressed as a static host would serve it; when the first
  screen is ready (painted, its fonts arrived); the layout shift while it
  opens; and how long a reader waits for figures. A figure is shown as its picture, drawn at build
  (sitebuild.figures.render), from the first paint, so three waits are timed: opening the page at its top,
  until the picture of every figure in the first screen has arrived, from navigation start; following a
  link to each figure (page.html#figure-id), until that figure's picture has (the worst figure of the page
  is reported); and, once the page has loaded, the reader's pointer coming over the first figure until the
  live figure has replaced its picture (plotly.js fetched then, not with the page).
Budgets (from the issues): cold build 120 s of stages, rebuild 5 s; a page's HTML at most 0.1 MB gzip; a first load
of 0.5 MB with figures or math, 0.2 MB without; the first screen within 300 ms and within 1.2 times the
404 page's, no layout shift, a figure scrolled into view within 300 ms, a linked one within 1.3 times its
page's first screen.
"""
from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.performance import write_table  # noqa: E402

from sitebuild import browser as sb_browser  # noqa: E402
from benchmarks.server import served  # noqa: E402

BUDGET = {"cold": 120.0, "rebuild": 5.0, "page_bytes": 500_000, "plain_bytes": 200_000, "ready_ms": 300.0,
          "view_ms": 300.0, "link_ratio": 1.3, "ready_ratio": 1.2, "shift": 0.0, "html_bytes": 100_000,
          "blank_ratio": 2.0, "before_paint": 8}    # issue 56: within 2x a one-line page, 8 requests before the paint

# The requests a page started before its first paint: the page itself and every resource begun before the first
# contentful paint (or the first paint, where nothing has content yet).
BEFORE_PAINT_JS = """(() => {
  const paints = performance.getEntriesByType('paint');
  const paint = paints.find((p) => p.name === 'first-contentful-paint') || paints[0];
  const at = paint ? paint.startTime : Infinity;
  return 1 + performance.getEntriesByType('resource').filter((r) => r.startTime < at).length;
})()"""

# The first screen is ready when it is painted with its text and math in place: the first contentful
# paint, or later the arrival of the fonts the page asked for before its load event (text in a web
# font is not shown before its font arrives). Layout shift: Chromium's layout-shift entries, summed.
READY_CLOCK = r"""
window.__shift = 0;
new PerformanceObserver((list) => list.getEntries().forEach((e) => { window.__shift += e.value; }))
  .observe({type: 'layout-shift', buffered: true});
window.__readyAt = () => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  const load = performance.getEntriesByType('navigation')[0].loadEventStart;
  const fonts = performance.getEntriesByType('resource')
    .filter((r) => /\.woff2?(\?|$)/.test(r.name) && r.startTime <= load).map((r) => r.responseEnd);
  return Math.max(paint ? paint.startTime : 0, ...fonts);
};
"""

# When a figure is shown: the paint of its picture, as Chromium's element timing reports it (each figure box is
# marked for it as the parser makes it, before it is painted), or the live figure drawn in it.
SHOWN = """
window.__paintedAt = {};
new PerformanceObserver((list) => list.getEntries().forEach((e) => {
  if (e.identifier && e.renderTime) window.__paintedAt[e.identifier] = e.renderTime;
})).observe({type: 'element', buffered: true});
new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach((n) => {
  if (n.nodeType !== 1) return;
  const boxes = n.matches('.plotly-graph-div') ? [n] : [...n.querySelectorAll('.plotly-graph-div')];
  boxes.forEach((g) => g.setAttribute('elementtiming', g.id));
}))).observe(document, {childList: true, subtree: true});
window.__figureShown = (g) => g.id in window.__paintedAt || !!g.querySelector('svg.main-svg');
window.__shownAt = (g) => window.__paintedAt[g.id] || performance.now();
"""

# After the page has loaded and settled: the first figure is scrolled into view; ms until it is shown.
SCROLL_TO_FIGURE_JS = """async () => {
  const gd = document.querySelector('.plotly-graph-div');
  await window.sitePageLaidOut;  // _static/site.js
  const start = performance.now();
  gd.scrollIntoView({block: 'center'});
  while (!window.__figureShown(gd)) await new Promise((r) => requestAnimationFrame(r));
  return Math.max(0, window.__shownAt(gd) - start);
}"""

# Records when the figures a reader sees are shown, in ms since navigation start: the linked figure (URL
# #fragment naming a figure), or else every figure within the first screen, once the page is parsed. Which
# figures are in the first screen comes from an IntersectionObserver's first report: measuring each figure
# (getBoundingClientRect) in every frame would make the browser lay out parts of the page it may leave for later,
# and slow what is timed.
FIGURE_CLOCK = SHOWN + """
window.__figuresDrawnAt = null;
window.__figuresInView = null;
(function () {
  let seen = null;
  function poll() {
    if (seen && seen.every(window.__figureShown)) {
      window.__figuresDrawnAt = Math.max(0, ...seen.map(window.__shownAt));
      window.__figuresInView = seen.length;
      return;
    }
    requestAnimationFrame(poll);
  }
  function begin() {
    const target = location.hash && document.getElementById(location.hash.slice(1));
    const all = [...document.querySelectorAll('.plotly-graph-div')];
    if (target || !all.length) {
      seen = target ? [target] : [];
    } else {
      const io = new IntersectionObserver((entries) => {
        seen = entries.filter((e) => e.isIntersecting).map((e) => e.target);
        io.disconnect();
      });
      all.forEach((g) => io.observe(g));
    }
    poll();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', begin);
  else begin();
})();
"""

# Once the page has loaded: ms from the reader's pointer coming over the first figure (scrolled into view) until
# the live figure has replaced its picture (plotly.js fetched, compiled and run, the figure drawn).
TOUCH_JS = """async () => {
  const gd = document.querySelector('.plotly-graph-div');
  await window.sitePageLaidOut;
  gd.scrollIntoView({block: 'center'});
  await new Promise((r) => requestAnimationFrame(r));
  const start = performance.now();
  gd.closest('figure').dispatchEvent(new PointerEvent('pointerenter'));
  while (!gd.classList.contains('figure-live')) await new Promise((r) => requestAnimationFrame(r));
  return performance.now() - start;
}"""


# The build's last lines: "stages: audit 4.2 s, preflight 0.1 s, ..." (compute.progress), and what it did.
STAGES_LINE = re.compile(r"^stages: (.+)$", re.M)
STAGE_TIME = re.compile(r"(.+) (\d+(?:\.\d+)?) s")
SAID = ("checked beside the pages: ", "executed: ", "figures: ", "slides: ", "site/ published: ")


@dataclass
class Build:
    seconds: float
    stages: dict[str, float]   # stage -> seconds, as the build's own summary gives them
    said: list[str]            # what it says it did: lessons checked and executed, figures, prints


def timed_build(env: dict | None = None) -> Build:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=ROOT, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"build failed:\n{proc.stdout}\n{proc.stderr}")
    return read_build(time.monotonic() - start, proc.stdout)


def read_build(seconds: float, stdout: str) -> Build:
    """A build's time, its stages' times and what it said it did, read from what it printed."""
    m = STAGES_LINE.search(stdout)
    stages = {}
    for part in (m.group(1).split(", ") if m else []):
        timed = STAGE_TIME.fullmatch(part)
        if timed:                       # not "none ran: ..." (sitebuild.unchanged: no stage ran)
            stages[timed.group(1)] = float(timed.group(2))
    return Build(seconds, stages, [line for line in stdout.splitlines() if line.startswith(SAID)])


def cold_builds(runs: int) -> list[Build]:
    times = []
    for _ in range(runs):
        for folder in ("_build", "site"):
            shutil.rmtree(ROOT / folder, ignore_errors=True)
        times.append(timed_build())
    return times


def rebuilds(runs: int) -> list[Build]:
    timed_build()  # make sure there is something to rebuild from
    return [timed_build() for _ in range(runs)]


# A retrain, as the build sees one: the four-head story model's checkpoint replaced by new bytes (its tensors
# written again under another header, its manifest's sha256 made to match). The numbers are the model's own, so
# the page's claims still hold (its second seed's weights, tried first, fail two of Part III's claims, as they
# should); every lesson that reads the model executes again. The build reads the checkpoints from a folder of
# links to the published ones (COMPUTE_CHECKPOINTS), where the two files are replaced.
RETRAINED = "story-four-head"


def _resaved(weights: bytes) -> bytes:
    """A safetensors file's tensors under a header that says they were written again (same offsets)."""
    import json
    size = int.from_bytes(weights[:8], "little")
    header = json.loads(weights[8:8 + size])
    header.setdefault("__metadata__", {})["rewritten"] = "benchmarks/run.py"
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text + weights[8 + size:]


def _link_checkpoints(folder: Path, swapped: bool) -> None:
    import hashlib
    import json
    published = ROOT / "compute" / "checkpoints"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for path in published.iterdir():
        if not (swapped and path.stem == RETRAINED):
            (folder / path.name).symlink_to(path)
    if swapped:
        weights = _resaved((published / f"{RETRAINED}.safetensors").read_bytes())
        manifest = json.loads((published / f"{RETRAINED}.json").read_text())
        manifest["checkpoint_sha256"] = hashlib.sha256(weights).hexdigest()
        (folder / f"{RETRAINED}.safetensors").write_bytes(weights)
        (folder / f"{RETRAINED}.json").write_text(json.dumps(manifest, indent=1))


def retrain_rebuilds(runs: int) -> list[Build]:
    """Each run: a build from the published checkpoints (not timed), then one with the retrained model in
    place (timed). The site is built from the published checkpoints again at the end."""
    import os
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "checkpoints"
        env = {**os.environ, "COMPUTE_CHECKPOINTS": str(folder)}
        for _ in range(runs):
            _link_checkpoints(folder, swapped=False)
            timed_build(env)
            _link_checkpoints(folder, swapped=True)
            times.append(timed_build(env))
    timed_build()
    return times


def stage_table(columns: dict[str, list[Build]]) -> list[str]:
    """Each stage's median seconds under each kind of build that ran."""
    columns = {title: builds for title, builds in columns.items() if builds}
    if not columns:
        return []
    names = list(dict.fromkeys(name for builds in columns.values() for b in builds for name in b.stages))
    lines = ["", "| stage | " + " | ".join(columns) + " |", "| --- |" + " --- |" * len(columns)]
    for name in names:
        cells = [statistics.median(b.stages.get(name, 0.0) for b in builds) for builds in columns.values()]
        lines.append(f"| {name} | " + " | ".join(f"{c:.1f} s" for c in cells) + " |")
    for title, builds in columns.items():
        lines.append("")
        lines.append(f"{title}, what the build said (last run): " + "; ".join(f"`{line}`" for line in builds[-1].said))
    return lines


@contextmanager
def opened(browser, base: str, path: str, clock: str):
    """A first load of `path` with an empty cache and `clock` installed, offline; yields the page once
    the clock has stopped (window.__figuresDrawnAt set) and closes it after."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    external, errors = sb_browser.watch(page)
    page.add_init_script(READY_CLOCK + clock)
    responses = []
    page.on("response", lambda r: responses.append(r))
    page.goto(base + path, wait_until="load")
    page.wait_for_function("window.__figuresDrawnAt !== null", timeout=30_000)
    yield page, responses
    context.close()
    if external or errors:
        sys.exit(f"{path}: external requests {external} or console errors {errors}")


def load_page(browser, base: str, path: str, count_bytes: bool = True) -> dict:
    """One load of `path` (may end in #figure-id): figures in view, ms until they are drawn and until
    the load event ended (from navigation start), and with `count_bytes` the requests and their gzip
    bytes. Bodies are read after the clock stops, not while it runs."""
    with opened(browser, base, path, FIGURE_CLOCK) as (page, responses):
        sample = {"in_view": page.evaluate("window.__figuresInView"),
                  "drawn_ms": float(page.evaluate("window.__figuresDrawnAt")),
                  "load_ms": float(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd"))}
        if count_bytes:
            # Everything the page loads on opening, fonts included.
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)
            sample.update(ready_ms=float(page.evaluate("window.__readyAt()")),
                          shift=float(page.evaluate("window.__shift")), before_paint=int(page.evaluate(BEFORE_PAINT_JS)))
            bodies = [r.body() for r in list(responses) if r.ok]
            sample.update(requests=len(bodies), gzip_bytes=sum(len(gzip.compress(b, 6)) for b in bodies),
                          math="mjx-container" in page.content())
            if sample["in_view"] == 0 and page.locator(".plotly-graph-div").count():
                sample["view_ms"] = float(page.evaluate(SCROLL_TO_FIGURE_JS))
    return sample


def touch_ms(browser, base: str, path: str) -> float:
    """ms from the pointer coming over the first figure of `path` (loaded, with an empty cache) to its live figure."""
    with opened(browser, base, path, FIGURE_CLOCK) as (page, _):
        page.wait_for_load_state("networkidle")
        return float(page.evaluate(TOUCH_JS))


def page_table(runs: int, link_runs: int, site: Path) -> list[dict]:
    from playwright.sync_api import sync_playwright
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")          # the decks: decks.py
                   if not p.relative_to(site).parts[0].startswith("_") and p.relative_to(site).parts[0] != "slides"
                   and p.name not in ("genindex.html",))
    rows = []
    with served(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        for path in pages:
            samples = [load_page(browser, base, path) for _ in range(runs)]
            row = {"page": path, "requests": samples[0]["requests"], "in_view": samples[0]["in_view"],
                   "math": samples[0]["math"], "before_paint": max(s["before_paint"] for s in samples),
                   **{k: statistics.median(s[k] for s in samples)
                      for k in ("gzip_bytes", "drawn_ms", "load_ms", "ready_ms", "shift")}}
            row["view_ms"] = statistics.median(s["view_ms"] for s in samples) if "view_ms" in samples[0] else None
            ids = re.findall(r'<div id="([^"]+)" class="plotly-graph-div"', (site / path).read_text())
            row["figures"] = len(ids)
            row["html_gzip"] = len(gzip.compress((site / path).read_bytes(), 6))
            linked = {i: statistics.median(load_page(browser, base, f"{path}#{i}", count_bytes=False)["drawn_ms"]
                                           for _ in range(link_runs)) for i in ids}
            row["link_ms"], row["link_worst"] = max((ms, i) for i, ms in linked.items()) if linked else (None, None)
            row["touch_ms"] = statistics.median(touch_ms(browser, base, path) for _ in range(runs)) if ids else None
            rows.append(row)
        browser.close()
    return rows


BLANK_PAGE = "<!doctype html><html lang=en><meta charset=utf-8><title>A blank page</title><p>One line of text.</p>"


def blank_page_ms(runs: int) -> float:
    """The harness's floor on this machine: when a page of one line, with no style sheet, font or script, is
    ready (median of `runs` first loads), served and timed as the site's pages are."""
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "blank.html").write_text(BLANK_PAGE)
        with served(Path(folder)) as base, sync_playwright() as pw:
            browser = sb_browser.launch(pw)
            samples = [load_page(browser, base, "blank.html")["ready_ms"] for _ in range(runs)]
            browser.close()
    return statistics.median(samples)


def markdown(cold: list[Build], warm: list[Build], pages: list[dict], runs: tuple[int, int, int, int],
             blank_ms: float, retrained: list[Build] = ()) -> str:
    def verdict(ok):
        return "within budget" if ok else "OVER BUDGET"
    lines = ["| measure | median | runs | budget |", "| --- | --- | --- | --- |"]
    if cold:
        m = statistics.median(sum(b.stages.values()) for b in cold)
        lines.append(f"| cold build, its stages | {m:.1f} s | {runs[0]} | {BUDGET['cold']:.0f} s, {verdict(m <= BUDGET['cold'])} |")
    if warm:
        m = statistics.median(b.seconds for b in warm)
        lines.append(f"| rebuild, nothing changed | {m:.1f} s | {runs[1]} | {BUDGET['rebuild']:.0f} s, "
                     f"{verdict(m <= BUDGET['rebuild'])} |")
    if retrained:
        m = statistics.median(b.seconds for b in retrained)
        lines.append(f"| rebuild after a retrained story model ({RETRAINED}, its checkpoint's bytes new) | "
                     f"{m:.1f} s | {len(retrained)} | |")
    lines += stage_table({"cold build": list(cold), "rebuild, nothing changed": list(warm),
                          "after the retrain": list(retrained)})
    lines += ["", "| page | HTML (gzip) | requests | before the first paint | first load (gzip) | first screen ready "
                  "| against the one-line page | layout shift | figures | figure scrolled into view, shown "
                  "| slowest linked figure shown | pointer to live figure |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in pages:
        link = f"{r['link_ms']:.0f} ms (`#{r['link_worst']}`)" if r["link_worst"] else "no figures"
        view = f"{r['view_ms']:.0f} ms" if r["view_ms"] is not None else ("no figures" if not r["figures"] else
                                                                          f"{r['drawn_ms']:.0f} ms (on opening)")
        touch = f"{r['touch_ms']:.0f} ms" if r["touch_ms"] is not None else ""
        lines.append(f"| `{r['page']}` | {r['html_gzip'] / 1e3:.1f} kB | {r['requests']} | {r['before_paint']} "
                     f"| {r['gzip_bytes'] / 1e6:.2f} MB | {r['ready_ms']:.0f} ms | {r['ready_ms'] / blank_ms:.2f}x "
                     f"({blank_ms:.0f} ms) | {r['shift']:.3f} | {r['figures']} | {view} | {link} | {touch} |")

    def bytes_ok(r):
        return r["gzip_bytes"] <= (BUDGET["page_bytes"] if r["figures"] or r["math"] else BUDGET["plain_bytes"])
    heavy = [r for r in pages if r["figures"] or r["math"]]
    plain = [r for r in pages if not (r["figures"] or r["math"])]
    worst = {
        "lesson": max(r["gzip_bytes"] for r in heavy) if heavy else 0,
        "plain": max(r["gzip_bytes"] for r in plain) if plain else 0,
        "html": max(r["html_gzip"] for r in pages),
        "ready": max(r["ready_ms"] for r in pages),
        "shift": max(r["shift"] for r in pages),
        "view": max([r["view_ms"] for r in pages if r["view_ms"] is not None] or [0]),
        # a linked figure against its page's first screen, and every lesson's first screen against the 404 page's
        "link": max([r["link_ms"] / r["ready_ms"] for r in pages if r["link_ms"] is not None] or [0]),
        "lesson_ready": max([r["ready_ms"] for r in pages if r["page"].startswith("posts/")] or [0]),
        "before_paint": max(r["before_paint"] for r in pages),
    }
    not_found = next((r["ready_ms"] for r in pages if r["page"] == "404.html"), None)
    lines += ["", f"Times are from navigation start, at 1280×900, except the scrolled-to figure (from the scroll) "
                  f"and the live figure (from the pointer), after the page has loaded. Budgets: "
                  f"a page's HTML at most {BUDGET['html_bytes'] / 1e6:.1f} MB gzip, largest {worst['html'] / 1e6:.3f} MB "
                  f"({verdict(worst['html'] <= BUDGET['html_bytes'])}); "
                  f"first load at most {BUDGET['page_bytes'] / 1e6:.1f} MB with figures or math, largest "
                  f"{worst['lesson'] / 1e6:.2f} MB, {BUDGET['plain_bytes'] / 1e6:.1f} MB without, largest "
                  f"{worst['plain'] / 1e6:.2f} MB ({verdict(all(bytes_ok(r) for r in pages))}); first screen ready "
                  f"within {BUDGET['ready_ms']:.0f} ms, slowest {worst['ready']:.0f} ms "
                  f"({verdict(worst['ready'] <= BUDGET['ready_ms'])}); layout shift {BUDGET['shift']:.0f}, largest "
                  f"{worst['shift']:.3f} ({verdict(worst['shift'] <= BUDGET['shift'])}); a figure scrolled into view "
                  f"shown within {BUDGET['view_ms']:.0f} ms, slowest {worst['view']:.0f} ms "
                  f"({verdict(worst['view'] <= BUDGET['view_ms'])}); a linked figure within {BUDGET['link_ratio']:g} "
                  f"times its page's first screen, slowest {worst['link']:.2f} times "
                  f"({verdict(worst['link'] <= BUDGET['link_ratio'])})"
                  + (f"; every lesson's first screen within {BUDGET['ready_ratio']:g} times the 404 page's "
                     f"({not_found:.0f} ms), slowest {worst['lesson_ready'] / not_found:.2f} times "
                     f"({verdict(worst['lesson_ready'] <= BUDGET['ready_ratio'] * not_found)})" if not_found else "")
                  + f"; every page's first screen within {BUDGET['blank_ratio']:g} times the one-line page's, slowest "
                  f"{worst['ready'] / blank_ms:.2f} times ({verdict(worst['ready'] <= BUDGET['blank_ratio'] * blank_ms)}), "
                  f"with at most {BUDGET['before_paint']} requests before its first paint, most "
                  f"{worst['before_paint']} ({verdict(worst['before_paint'] <= BUDGET['before_paint'])})"
                  + f". The last column is what the reader's first touch of a figure costs: plotly.js fetched, "
                  f"run, and the live figure drawn over its picture. Medians of "
                  f"{runs[2]} loads of each page and {runs[3]} of each figure link, headless Chromium, empty cache. "
                  f"For scale, a page of one line of text with no style sheet, font or script, served and timed the "
                  f"same way, is ready at {blank_ms:.0f} ms on this machine."]
    return "\n".join(lines)



def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cold-runs", type=int, default=3)
    p.add_argument("--rebuild-runs", type=int, default=5)
    p.add_argument("--page-runs", type=int, default=5)
    p.add_argument("--link-runs", type=int, default=3, help="loads of each page#figure link")
    p.add_argument("--retrain-runs", type=int, default=1,
                   help="rebuilds after a retrained story model (each re-executes the lessons that read it; 0: none)")
    p.add_argument("--skip-cold", action="store_true", help="keep the existing cache (no cold builds)")
    p.add_argument("--docs", action="store_true", help="write the table into docs/performance.md")
    p.add_argument("--pages-only", action="store_true", help="no builds: time the pages of the site as built")
    p.add_argument("--site", type=Path, default=ROOT / "site",
                   help="the built site whose pages are timed (another commit's, to compare; implies --pages-only)")
    args = p.parse_args()
    builds = not args.pages_only and args.site.resolve() == (ROOT / "site").resolve()
    if args.docs and not builds:
        p.error("--docs needs the builds too: the table in docs/performance.md is this checkout's")
    cold = cold_builds(args.cold_runs) if builds and not args.skip_cold else []
    warm = rebuilds(args.rebuild_runs) if builds else []
    retrained = retrain_rebuilds(args.retrain_runs) if builds and args.retrain_runs else []
    pages = page_table(args.page_runs, args.link_runs, args.site)
    table = markdown(cold, warm, pages, (args.cold_runs, args.rebuild_runs, args.page_runs, args.link_runs),
                     blank_page_ms(args.page_runs), retrained)
    print(table)
    if args.docs:
        write_table("benchmark", table)


if __name__ == "__main__":
    main()
