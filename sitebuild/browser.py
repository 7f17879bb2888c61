"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, kept offline."""

from __future__ import annotations

from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Glyph metrics unhinted, not snapped to the pixel grid: with full hinting (headless Chromium's default) a code
    # span's baseline in a handout moved by 0.4 pt between two prints of one page, now and then, under load.
    "--font-render-hinting=none",
]


def launch(playwright):
    """Launch Debian's chromium; Playwright's own browser downloads are never used."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def is_local(url: str) -> bool:
    """True for URLs that stay on this machine: 127.0.0.1, or data:/blob:/about:."""
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname == "127.0.0.1"


def watch(page) -> tuple[list[str], list[str]]:
    """Block every non-local request of `page`, and collect what went wrong.

    Returns two lists that fill as the page runs: the blocked external URLs,
    and console errors / uncaught page errors.
    """
    external: list[str] = []
    errors: list[str] = []

    def route(route):
        if is_local(route.request.url):
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.route("**/*", route)
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return external, errors


# Resolves once MathJax has typeset the page, the page is laid out whole, and the plotly figures whose ids are
# given (null: every one) are drawn at the current width (figures.js draws them
# now, where a reader's page draws each as it is neared); returns the number of
# figures on the page.
WAIT_FOR_PAGE_JS = """
async (ids = null) => {
  const frames = (n) => new Promise((done) => {
    const next = (k) => (k ? requestAnimationFrame(() => next(k - 1)) : done());
    next(n);
  });
  if (window.siteMath) await window.siteMath;  // _static/mathjax-loader.js
  if (window.sitePageLaidOut) await window.sitePageLaidOut;  // _static/site.js: every section at its true height
  await document.fonts.ready;  // figures measure their text: draw them in the page's own fonts
  const all = [...document.querySelectorAll('.plotly-graph-div')];
  const figures = ids === null ? all : ids.map((id) => {
    const gd = document.getElementById(id);
    if (!gd || !gd.classList.contains('plotly-graph-div')) throw new Error('no figure #' + id);
    return gd;
  });
  if (figures.length) {
    if (!window.siteFigures) throw new Error('figures.js is not loaded');
    await (ids === null ? siteFigures.drawAll() : Promise.all(figures.map(siteFigures.draw)));  // plotly.js first
    if (!window.Plotly) throw new Error('plotly.js is not loaded');
    await Promise.all(figures.map((gd) => Plotly.Plots.resize(gd)));
    await frames(2);  // a margin that grew to fit its labels redraws in the frames after
    for (const gd of figures) {
      if (!gd.querySelector('svg.main-svg')) throw new Error('figure not drawn: #' + gd.id);
    }
  }
  await document.fonts.ready;
  return all.length;
}
"""


# Resolves once what a print shows does not depend on what had arrived when the print began: every font face
# the page declares is loaded (document.fonts.ready covers only the faces already asked for, and a face first
# needed by the print's own layout would load during it), and every picture the selector finds is decoded.
# Rejects naming a picture that did not load; resolves to the number of pictures.
FONTS_AND_PICTURES_JS = """async (selector) => {
  await Promise.all([...document.fonts].map((face) => face.load().catch(() => null)));
  await document.fonts.ready;
  const pictures = [...document.querySelectorAll(selector)];
  pictures.forEach((img) => { img.loading = 'eager'; });
  await Promise.all(pictures.map((img) => img.decode().catch(() => null)));
  const missing = pictures.filter((img) => !img.naturalWidth).map((img) => img.getAttribute('src'));
  if (missing.length) throw new Error('figure pictures did not load: ' + missing.join(', '));
  return pictures.length;
}"""


# Resolves once a page opened with print media is what a handout prints: MathJax has typeset it, it is laid out
# whole, its fonts are in, and every printed figure state (the pictures sitebuild.figures.render drew) has loaded
# (FONTS_AND_PICTURES_JS). No live figure is drawn: paper shows the pictures.
WAIT_FOR_PRINT_JS = """
async () => {
  if (window.siteMath) await window.siteMath;
  if (window.sitePageLaidOut) await window.sitePageLaidOut;
  const pictures = await (""" + FONTS_AND_PICTURES_JS + """)('.figure-print img');
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return pictures;
}
"""


# The words of the figures on the slide shown that overlap another word of the same figure, as pairs of texts: a
# figure laid out in a slide's room (its page layout, or the one it declares for a slide, compute.present.figures.
# Slide) keeps every word clear of the others. Upright words only: a turned label's box is wider than its words.
CROWDED_WORDS_JS = """() => {
  const crowded = [];
  Reveal.getCurrentSlide().querySelectorAll('.plotly-graph-div').forEach((gd) => {
    const words = [...gd.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() && !/rotate/.test(t.getAttribute('transform') || ''))
      .map((t) => [t.getBoundingClientRect(), t.textContent.trim()]).filter(([r]) => r.width && r.height);
    const over = (a, b) => a.left < b.right - 2 && b.left < a.right - 2 && a.top < b.bottom - 2 && b.top < a.bottom - 2;
    words.forEach(([a, wa], i) => words.slice(i + 1).forEach(([b, wb]) => {
      if (over(a, b)) crowded.push([gd.id, wa.slice(0, 30), wb.slice(0, 30)]);
    }));
  });
  return crowded;
}"""
