"""Where a page's time goes before its first screen, and before a linked figure is drawn: a Chromium trace of the
renderer's main thread, its time split by kind of work.

    .venv/bin/python benchmarks/trace.py                                  # the slowest lessons, 3 loads each
    .venv/bin/python benchmarks/trace.py posts/story-models.html#st-training-curves --runs 5
    .venv/bin/python benchmarks/trace.py --site ../other-checkout/site   # another build, to compare

For each page (and each `page.html#figure-id`), headless Chromium opens it with an empty cache while tracing
(devtools.timeline). The renderer main thread's events are nested; each event's own time (its duration less its
children's) is put under one kind: parse HTML, parse CSS, style, layout, paint (pre-paint, paint, layers),
script (plotly.js apart from the site's scripts), handling network responses (URLLoader and its kin), tasks
the trace does not break down (a RunTask's own time), and the rest as other. The window is from navigation start to
the first contentful paint, or, for a link to a figure, to the paint of the figure's picture (Chromium's
element timing; on a site without pictures, its live figure drawn). Idle time inside the window (waiting for the network, for a frame) is what is left.
Medians over the runs, in ms.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild import browser as sb_browser  # noqa: E402
from benchmarks.run import SHOWN  # noqa: E402
from benchmarks.server import served  # noqa: E402

DEFAULT = ("posts/attention-by-hand.html", "posts/trained-walkthrough.html",
           "posts/attention-by-hand.html#bh-s20-chain", "posts/trained-walkthrough.html#fig-next-word")
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8",
              "loading"]
KINDS = {
    "ParseHTML": "parse HTML",
    "ParseAuthorStyleSheet": "parse CSS",
    "UpdateLayoutTree": "style", "RecalculateStyles": "style", "ScheduleStyleRecalculation": "style",
    "Layout": "layout", "UpdateLayout": "layout",
    "PrePaint": "paint", "Paint": "paint", "PaintImage": "paint", "Layerize": "paint", "UpdateLayer": "paint",
    "CompositeLayers": "paint", "Commit": "paint", "RasterTask": "paint",
    "EvaluateScript": "script", "v8.compile": "script", "v8.compileModule": "script", "FunctionCall": "script",
    "v8.evaluateModule": "script", "TimerFire": "script", "EventDispatch": "script", "FireAnimationFrame": "script",
    "v8.run": "script", "V8.GCScavenger": "script", "MajorGC": "script", "MinorGC": "script",
    "ParseScriptOnBackground": "script", "v8.parseOnBackground": "script",
}
ORDER = ("parse HTML", "parse CSS", "style", "layout", "paint", "script: plotly.js", "script: site",
         "loading responses", "tasks, not broken down", "other")

# When the linked figure is shown: its picture painted (element timing, benchmarks/run.py's SHOWN), or its live
# figure drawn on a site without pictures.
DRAWN_JS = """(id) => new Promise((resolve) => {
  const look = () => {
    const gd = document.getElementById(id);
    if (gd && window.__figureShown(gd)) resolve(window.__shownAt(gd));
    else requestAnimationFrame(look);
  };
  look();
})"""
FCP_JS = """() => new Promise((resolve) => {
  const found = () => performance.getEntriesByName('first-contentful-paint')[0];
  const look = () => found() ? resolve(found().startTime) : requestAnimationFrame(look);
  look();
})"""


def main_thread(events: list[dict]) -> tuple[int, int]:
    """(pid, tid) of the renderer's main thread that loaded the page."""
    names = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    busiest = defaultdict(int)
    for e in events:
        if (e.get("pid"), e.get("tid")) in names and e.get("ph") == "X":
            busiest[(e["pid"], e["tid"])] += e.get("dur", 0)
    return max(busiest, key=busiest.get)


LOADER = ("URLLoader", "ThrottlingURLLoader", "ResourceRequestSender", "MojoURLLoaderClient", "ResourceLoader")


def kind(event: dict) -> str:
    name = event["name"]
    if name.split("::")[0] in LOADER:
        return "loading responses"
    if name == "RunTask":
        return "tasks, not broken down"
    k = KINDS.get(name, "other")
    if k == "script":
        url = json.dumps(event.get("args", {}))
        return "script: plotly.js" if "plotly" in url else "script: site"
    return k


def own_times(events: list[dict], start: float, end: float) -> dict[str, float]:
    """Each complete event's own time (less its children's), clipped to [start, end] (µs), summed by kind (ms)."""
    spans = sorted((e for e in events if e.get("ph") == "X" and "dur" in e), key=lambda e: (e["ts"], -e["dur"]))
    totals: dict[str, float] = defaultdict(float)
    stack: list[list] = []                                   # [event, end, children's clipped time]

    def clipped(a, b):
        return max(0.0, min(b, end) - max(a, start))

    def close(item):
        e, stop, inner = item
        own = clipped(e["ts"], stop) - inner
        if own > 0:
            totals[kind(e)] += own / 1000
        if stack:
            stack[-1][2] += clipped(e["ts"], stop)

    for e in spans:
        while stack and stack[-1][1] <= e["ts"]:
            close(stack.pop())
        if e["ts"] >= end:
            break
        stack.append([e, e["ts"] + e["dur"], 0.0])
    while stack:
        close(stack.pop())
    return totals


def trace_once(browser, base: str, target: str) -> dict[str, float]:
    path, _, figure = target.partition("#")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(SHOWN)
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.goto(base + target, wait_until="load")
    until = page.evaluate(DRAWN_JS, figure) if figure else page.evaluate(FCP_JS)
    page.wait_for_timeout(100)
    data = json.loads(browser.stop_tracing())
    context.close()
    events = data["traceEvents"] if isinstance(data, dict) else data
    nav = [e["ts"] for e in events if e.get("name") == "navigationStart"]
    start = min(nav) if nav else min(e["ts"] for e in events if "ts" in e)
    end = start + until * 1000
    pid, tid = main_thread(events)
    mine = [e for e in events if e.get("pid") == pid and e.get("tid") == tid]
    totals = own_times(mine, start, end)
    totals["window"] = until
    return totals


def measure(targets, runs: int, site: Path = ROOT / "site") -> dict[str, dict[str, float]]:
    from playwright.sync_api import sync_playwright
    out = {}
    with served(site) as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        for target in targets:
            samples = [trace_once(browser, base, target) for _ in range(runs)]
            out[target] = {k: statistics.median(s.get(k, 0.0) for s in samples) for k in (*ORDER, "window")}
        browser.close()
    return out


def markdown(results: dict[str, dict[str, float]], runs: int) -> str:
    head = ["page (window ends at)", "window", *ORDER, "idle"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
    for target, r in results.items():
        busy = sum(r[k] for k in ORDER)
        label = f"`{target}` ({'figure drawn' if '#' in target else 'first contentful paint'})"
        lines.append("| " + " | ".join([label, f"{r['window']:.0f}", *(f"{r[k]:.0f}" for k in ORDER),
                                        f"{max(0.0, r['window'] - busy):.0f}"]) + " |")
    lines += ["", f"ms on the renderer's main thread, medians of {runs} loads with an empty cache, headless Chromium."]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("targets", nargs="*", default=list(DEFAULT))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--site", type=Path, default=ROOT / "site", help="the built site to trace (another build's)")
    args = p.parse_args()
    print(markdown(measure(args.targets, args.runs, args.site), args.runs))


if __name__ == "__main__":
    main()
