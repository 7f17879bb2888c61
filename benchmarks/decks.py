"""What the decks show at a projector's two sizes: slides, and the smallest words on them.

    .venv/bin/python benchmarks/decks.py                 # the built site/
    .venv/bin/python benchmarks/decks.py --site other/site

For each deck (site/slides/*.html) at 1280 x 720 and 1920 x 1080, every slide shown in turn with its figure
drawn: the number of slides; the smallest type of the slide's own words (headings, sentences, equations) and
the smallest and the median type inside the figures as shown (a page's figure laid out as on its page and
magnified, slides.js), where tests/browser/test_decks.py holds every word to 24 px; and, per deck, the figures
in which two words overlap (magnifying keeps the page's layout, and a figure taller than a slide's proportions
declares the layout its slide takes, compute.present.figures.Slide; the test holds this list empty). Sizes, not
timings: one run is the measure.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sitebuild import browser  # noqa: E402
from sitebuild.serve import serve  # noqa: E402

SIZES = [(1280, 720), (1920, 1080)]
TYPE_JS = """() => {
  const slide = Reveal.getCurrentSlide(), own = [], figure = [];
  slide.querySelectorAll('*').forEach((el) => {
    if (el.closest('aside.notes, .figure-summary, mjx-assistive-mml, sub, sup')) return;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return;
    if (el.matches('tspan') && /%/.test(el.style.fontSize)) return;       // plotly's sub- and superscripts
    const gd = el.closest('.plotly-graph-div');
    const scale = gd ? new DOMMatrix(getComputedStyle(gd).transform).a : 1;
    (gd ? figure : own).push(parseFloat(getComputedStyle(el).fontSize) * scale);
  });
  return {own, figure};
}"""


def measure(page, base: str, deck: str) -> dict:
    page.goto(f"{base}slides/{deck}.html", wait_until="load")
    page.wait_for_function("() => window.Reveal && Reveal.isReady()")
    total = page.evaluate("() => Reveal.getTotalSlides()")
    own, figure, crossed = [], [], []
    for k in range(total):
        page.evaluate(f"() => Reveal.slide({k})")
        gd = page.evaluate("() => { const g = Reveal.getCurrentSlide().querySelector('.plotly-graph-div'); "
                           "return g ? g.id : null; }")
        if gd:
            page.wait_for_function(f"() => document.getElementById('{gd}').classList.contains('figure-live')",
                                   timeout=20_000)
        found = page.evaluate(TYPE_JS)
        own += found["own"]
        figure += found["figure"]
        if page.evaluate(browser.CROWDED_WORDS_JS):
            crossed.append(gd)
    return {"slides": total, "own": min(own), "figure_min": min(figure, default=0),
            "figure_median": statistics.median(figure) if figure else 0, "crossed": crossed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    decks = sorted(p.stem for p in (args.site / "slides").glob("*.html"))
    print("| deck | slides | size | slide's words, smallest | figures' words, smallest / median | figures with words over words |")
    print("|---|---|---|---|---|---|")
    with serve(args.site) as base, sync_playwright() as pw:
        chromium = browser.launch(pw)
        try:
            for width, height in SIZES:
                page = chromium.new_page(viewport={"width": width, "height": height})
                for deck in decks:
                    m = measure(page, base, deck)
                    print(f"| {deck} | {m['slides']} | {width} x {height} | {m['own']:.0f} px | "
                          f"{m['figure_min']:.0f} / {m['figure_median']:.0f} px | {', '.join(m['crossed']) or 'none'} |")
                page.close()
        finally:
            chromium.close()


if __name__ == "__main__":
    main()
