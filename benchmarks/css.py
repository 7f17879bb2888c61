"""How much of each style sheet a lesson uses when it opens: Chromium's CSS rule-usage tracking.

    .venv/bin/python benchmarks/css.py                       # every lesson
    .venv/bin/python benchmarks/css.py posts/lab.html

For each page, headless Chromium (1280 x 900, empty cache) records which style rules matched an element while
the page opened, up to its load event and two frames after, before any scrolling or any figure drawn. Printed
per style sheet: its size, and the bytes of the rules used. The page is laid out whole, so "used" covers more
than the first screen; rules unused at load may still be needed later (figures drawn on scroll, dark mode,
print, a control's states), so the unused share is an upper bound on what dropping rules could save, not a list
of rules to delete. Inline <style> elements are counted as one sheet, "inline".
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compute.checks import lesson_pages  # noqa: E402
from sitebuild import browser as sb_browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402


def usage(browser, base: str, path: str) -> dict[str, tuple[int, int]]:
    """{style sheet: (bytes, bytes of rules used)} for one page as it opens."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    sheets: dict[str, dict] = {}
    cdp.on("CSS.styleSheetAdded", lambda e: sheets.__setitem__(e["header"]["styleSheetId"], e["header"]))
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    cdp.send("CSS.startRuleUsageTracking")
    page.goto(base + path, wait_until="load")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    rules = cdp.send("CSS.stopRuleUsageTracking")["ruleUsage"]
    used: dict[str, int] = defaultdict(int)
    for r in rules:
        if r["used"]:
            used[r["styleSheetId"]] += int(r["endOffset"] - r["startOffset"])
    out: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
    for sid, header in sheets.items():
        name = header.get("sourceURL", "").replace(base, "").split("?")[0] or "inline"
        if header.get("isInline"):
            name = "inline"
        size = int(header.get("length", 0))
        a, b = out[name]
        out[name] = (a + size, b + used.get(sid, 0))
    context.close()
    return dict(out)


def markdown(results: dict[str, dict[str, tuple[int, int]]]) -> str:
    lines = ["| page | style sheet | size | used at load | share used |", "| --- | --- | --- | --- | --- |"]
    for path, sheets in results.items():
        for name, (size, used) in sorted(sheets.items(), key=lambda kv: -kv[1][0]):
            if size:
                lines.append(f"| `{path}` | `{name}` | {size / 1e3:.1f} kB | {used / 1e3:.1f} kB | {used / size:.0%} |")
    lines += ["", "Bytes of CSS text (uncompressed); headless Chromium, 1280 × 900, empty cache, no scrolling."]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("pages", nargs="*", default=[f"posts/{stem}.html" for stem in lesson_pages()])
    args = p.parse_args()
    from playwright.sync_api import sync_playwright
    with serve(ROOT / "site") as base, sync_playwright() as pw:
        browser = sb_browser.launch(pw)
        results = {path: usage(browser, base, path) for path in args.pages}
        browser.close()
    print(markdown(results))


if __name__ == "__main__":
    main()
