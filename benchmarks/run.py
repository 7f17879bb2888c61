"""Benchmark the build and the pages; medians over several runs.

    .venv/bin/python benchmarks/run.py            # everything, print a Markdown table
    .venv/bin/python benchmarks/run.py --readme   # ... and write it into README.md
    .venv/bin/python benchmarks/run.py --skip-cold --page-runs 3

Measures
* cold build: `python -m sitebuild` after deleting _build/ and site/ (the
  virtual environment already installed), HTML and handouts;
* no-change rebuild: the same command again with nothing changed;
* per page: bytes transferred on a first load with an empty cache, each
  response gzip-compressed as a static host would serve it, and the time from
  navigation start until every plotly figure on the page is drawn.
Budgets (from the issues): cold build 90 s, rebuild 5 s, 2 MB and 1 s per page.
"""
from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402

BUDGET = {"cold": 90.0, "rebuild": 5.0, "page_bytes": 2_000_000, "figures_ms": 1000.0}

# Records when every figure has its SVG, in ms since navigation start.
FIGURE_CLOCK = """
window.__figuresDrawnAt = null;
(function poll() {
  const figs = [...document.querySelectorAll('.plotly-graph-div')];
  if (document.readyState !== 'loading' && figs.every(g => g.querySelector('svg.main-svg'))) {
    window.__figuresDrawnAt = performance.now();
    return;
  }
  requestAnimationFrame(poll);
})();
"""


def timed_build() -> float:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "sitebuild"], cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"build failed:\n{proc.stdout}\n{proc.stderr}")
    return time.monotonic() - start


def cold_builds(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        for folder in ("_build", "site"):
            shutil.rmtree(ROOT / folder, ignore_errors=True)
        times.append(timed_build())
    return times


def rebuilds(runs: int) -> list[float]:
    timed_build()  # make sure there is something to rebuild from
    return [timed_build() for _ in range(runs)]


def load_page(browser, base: str, path: str) -> tuple[int, int, float, float]:
    """(requests, gzip bytes, ms until figures drawn, ms until the load event ended),
    for one first load with an empty cache; times from navigation start."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    external, errors = sb_browser.watch(page)
    page.add_init_script(FIGURE_CLOCK)
    bodies: list[bytes] = []
    page.on("response", lambda r: bodies.append(r.body()) if r.ok else None)
    page.goto(base + path, wait_until="load")
    page.evaluate(sb_browser.WAIT_FOR_PAGE_JS)
    page.wait_for_timeout(200)
    drawn = page.evaluate("window.__figuresDrawnAt")
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    context.close()
    if external or errors:
        sys.exit(f"{path}: external requests {external} or console errors {errors}")
    return len(bodies), sum(len(gzip.compress(b, 6)) for b in bodies), float(drawn), float(loaded)


def page_table(runs: int) -> list[dict]:
    from playwright.sync_api import sync_playwright
    site = ROOT / "site"
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if not p.relative_to(site).parts[0].startswith("_") and p.name not in ("genindex.html",))
    rows = []
    with serve(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        for path in pages:
            samples = [load_page(browser, base, path) for _ in range(runs)]
            figures = len(re.findall(r'class="plotly-graph-div"', (site / path).read_text()))
            rows.append({"page": path, "requests": samples[0][0], "figures": figures,
                         "gzip_bytes": statistics.median(s[1] for s in samples),
                         "figures_ms": statistics.median(s[2] for s in samples),
                         "load_ms": statistics.median(s[3] for s in samples),
                         "after_load_ms": statistics.median(max(0.0, s[2] - s[3]) for s in samples)})
        browser.close()
    return rows


def markdown(cold: list[float], warm: list[float], pages: list[dict], runs: tuple[int, int, int]) -> str:
    def verdict(ok):
        return "within budget" if ok else "OVER BUDGET"
    lines = ["| measure | median | runs | budget |", "| --- | --- | --- | --- |"]
    if cold:
        m = statistics.median(cold)
        lines.append(f"| cold build (HTML + handouts) | {m:.1f} s | {runs[0]} | {BUDGET['cold']:.0f} s, {verdict(m <= BUDGET['cold'])} |")
    m = statistics.median(warm)
    lines.append(f"| rebuild, nothing changed | {m:.1f} s | {runs[1]} | {BUDGET['rebuild']:.0f} s, {verdict(m <= BUDGET['rebuild'])} |")
    lines += ["", "| page | requests | figures | first load (gzip) | load event | all figures drawn | drawn after load event |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in pages:
        lines.append(f"| `{r['page']}` | {r['requests']} | {r['figures']} | {r['gzip_bytes'] / 1e6:.2f} MB | "
                     f"{r['load_ms']:.0f} ms | {r['figures_ms']:.0f} ms | {r['after_load_ms']:.0f} ms |")
    worst_bytes = max(r["gzip_bytes"] for r in pages)
    worst_after = max(r["after_load_ms"] for r in pages)
    worst_abs = max(r["figures_ms"] for r in pages)
    lines += ["", f"Times are from navigation start unless marked. Page budget 2 MB and figures drawn within 1 s "
                  f"of load: largest page {worst_bytes / 1e6:.2f} MB ({verdict(worst_bytes <= BUDGET['page_bytes'])}); "
                  f"figures drawn at most {worst_after:.0f} ms after the load event "
                  f"({verdict(worst_after <= BUDGET['figures_ms'])}), at most {worst_abs:.0f} ms after navigation "
                  f"start ({'also within' if worst_abs <= BUDGET['figures_ms'] else 'over'} 1 s by that stricter reading). "
                  f"Medians of {runs[2]} loads each, headless Chromium, empty cache."]
    return "\n".join(lines)


def write_readme(table: str) -> None:
    readme = ROOT / "README.md"
    text = readme.read_text()
    start, end = "<!-- benchmark:start -->", "<!-- benchmark:end -->"
    if start not in text or end not in text:
        sys.exit("README.md lacks the benchmark markers")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(f"{head}{start}\n{table}\n{end}{tail}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cold-runs", type=int, default=3)
    p.add_argument("--rebuild-runs", type=int, default=5)
    p.add_argument("--page-runs", type=int, default=5)
    p.add_argument("--skip-cold", action="store_true", help="keep the existing cache (no cold builds)")
    p.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = p.parse_args()
    cold = [] if args.skip_cold else cold_builds(args.cold_runs)
    warm = rebuilds(args.rebuild_runs)
    pages = page_table(args.page_runs)
    table = markdown(cold, warm, pages, (args.cold_runs, args.rebuild_runs, args.page_runs))
    print(table)
    if args.readme:
        write_readme(table)


if __name__ == "__main__":
    main()
