"""The built pages in headless Chromium: offline, no errors, math typeset, figures drawn."""

from __future__ import annotations

import re

import pytest

from conftest import LESSONS, ROOT, new_visit
from sitebuild import browser as sb_browser

PAGES = ["index.html", "search.html", "genindex.html"]


@pytest.fixture(scope="module", params=LESSONS)
def opened(request, browser, http_server):
    """A lesson opened once with every figure drawn, for the tests below that only read it:
    (name, PageVisit, its figure count)."""
    visit, context = new_visit(browser, http_server)
    figures = visit.open(f"posts/{request.param}.html")
    yield request.param, visit, figures
    context.close()


@pytest.mark.parametrize("path", PAGES)
def test_page_is_offline_and_error_free(page, path):
    page.open(path)
    page.page.wait_for_timeout(300)  # late requests (fonts, lazy scripts)
    assert page.external_requests == []
    assert page.console_errors == []


def test_lesson_is_offline_and_error_free(opened):
    _, page, _ = opened
    page.page.wait_for_timeout(300)  # late requests (fonts, lazy scripts)
    assert page.external_requests == []
    assert page.console_errors == []


def test_lesson_loads_no_search_scripts_and_no_framework(opened):
    """sitebuild.theme: Sphinx's search scripts stay on search.html; a lesson loads the site's one style sheet
    and its one script (sitebuild/theme/bundle.py: site.js and the figure scripts joined), no framework's (no
    theme folders, no icon font), and no font at all (its math's are inside the page: sitebuild.math.fonts)."""
    _, page, figures = opened
    names = page.page.evaluate("performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)")
    assert not [n for n in names if re.search(r"searchtools|language_data|searchindex|doctools|sphinx_highlight", n)], names
    assert not [n for n in names if re.search(r"/_static/(styles|scripts)/|fontawesome|bootstrap", n)], names
    assert [n for n in names if n.endswith(".css")] == ["/_static/page.css"], names
    assert [n for n in names if re.search(r"\.(woff2?|ttf|otf)$", n)] == [], names
    script = "/_static/page-figures.js" if figures else "/_static/site.js"
    parts = {f"/_static/{p}.js" for p in ("site", "figures", "plotly-keyboard", "plotly-menus", "plotly-theme",
                                          "plotly-inspect")}
    assert [n for n in names if n in parts | {"/_static/page-figures.js"}] == [script], names   # joined, once


def test_lesson_math_is_typeset(opened):
    _, page, _ = opened
    math = page.page.locator(".math").count()  # Sphinx's math nodes, inline and display
    assert page.page.locator(".math:not(:has(mjx-container))").count() == 0  # nothing left raw
    assert page.page.locator("mjx-container").count() >= math
    assert page.page.locator("mjx-merror").count() == 0  # no TeX errors
    # on a desktop every displayed equation fits the text column (none is cut off at the edge)
    cut = page.page.evaluate("""() => [...document.querySelectorAll('mjx-container[display="true"]')]
        .filter(m => m.scrollWidth > m.clientWidth + 1).map(m => m.textContent.slice(0, 40))""")
    assert cut == []


SHIFTS_JS = """window.__shifts = [];
window.__moved = [];   // what moved, for the failure message: tag#id.class, from and to (CSS px)
const name = (n) => n ? `${n.nodeName}${n.id ? '#' + n.id : ''}${n.className && n.className.baseVal === undefined
  ? '.' + String(n.className).split(' ')[0] : ''}` : '?';
new PerformanceObserver((list) => list.getEntries().forEach((e) => {
  window.__shifts.push(e.value);
  e.sources.forEach((s) => window.__moved.push(`${name(s.node)} ${JSON.stringify(s.previousRect)} -> `
    + `${JSON.stringify(s.currentRect)} at ${Math.round(e.startTime)} ms`));
})).observe({type: 'layout-shift', buffered: true});"""


def test_math_arrives_with_the_page_and_moves_nothing(visit):
    """No math engine is fetched (the math was typeset when the site was built), and opening a lesson
    shifts no layout: Chromium's layout-shift entries sum to zero for every lesson."""
    for stem in LESSONS:
        v = visit(init_script=SHIFTS_JS)
        p = v.page
        requests = []
        p.on("request", lambda r: requests.append(r.url))
        p.goto(v.base + f"posts/{stem}.html", wait_until="load")
        p.wait_for_timeout(1500)
        assert not [u for u in requests if "mathjax/es5/tex" in u or "mathjax-loader" in u], stem
        assert p.locator("mjx-container").count() > 0
        assert p.evaluate("window.__shifts") == [], (stem, p.evaluate("window.__moved"))


def test_the_front_box_is_as_wide_with_one_code_parsed_as_with_both(visit):
    """A slow machine paints a page while it is still parsing: a frame once showed the front box with its first
    QR code and not yet its second, and the text beside the codes moved by the second's width when it came (a
    layout shift the test above caught only under load). The codes' column keeps its width whatever it holds."""
    from sitebuild.pages.frontbox import qr_svg
    v = visit()
    v.page.goto(v.base + f"posts/{LESSONS[0]}.html", wait_until="load")
    # the tested site has no public address, so no codes: the box's codes column as a site with one draws it
    codes = qr_svg("https://example.org/course/posts/a.html", "the page") + \
        qr_svg("https://example.org/course/notebooks/a.ipynb", "the notebook")
    v.page.evaluate("""(codes) => { if (document.querySelector('.front-codes')) return;
        const div = document.createElement('div'); div.className = 'front-codes'; div.setAttribute('aria-hidden', 'true');
        div.innerHTML = codes; document.querySelector('.front-box').append(div); }""", codes)
    width = """() => [document.querySelector('.front-text').getBoundingClientRect().width,
                      document.querySelector('.front-codes').getBoundingClientRect().width]"""
    both = v.page.evaluate(width)
    assert v.page.evaluate("document.querySelectorAll('.front-codes .front-qr').length") == 2
    v.page.evaluate("document.querySelectorAll('.front-codes .front-qr')[1].remove()")
    assert v.page.evaluate(width) == both


@pytest.mark.parametrize("width", [1280, 375])
def test_the_header_is_laid_out_alike_with_its_last_button_parsed_or_not(visit, width):
    """A frame painted while the header was parsed up to its search field, the colour mode's button not yet, drew
    the field 48 px to the right of where it then stood (a layout shift seen once under load). The button's
    place is held: the field, the site's name and the header stand where they do whether the button is there or
    not, on a wide screen and at 375 px."""
    v = visit(width=width, height=800, touch=width < 400)
    v.page.goto(v.base + f"posts/{LESSONS[0]}.html", wait_until="load")
    boxes = """() => ['.site-header', '.site-title', '.site-search', '.primary-toggle'].map(s => {
        const r = document.querySelector(s).getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"""
    whole = v.page.evaluate(boxes)
    button = v.page.locator(".site-header .mode-switch").bounding_box()
    header = v.page.locator(".site-header").bounding_box()
    assert button["width"] >= 24 and button["height"] >= 24
    assert button["x"] + button["width"] <= header["x"] + header["width"]       # inside the header, on screen
    search = v.page.locator(".site-search").bounding_box()
    assert search["x"] + search["width"] <= button["x"]                         # not under the button
    v.page.evaluate("document.querySelector('.site-header .mode-switch').remove()")
    assert v.page.evaluate(boxes) == whole


def test_lesson_figures_are_drawn(opened):
    _, page, figures = opened
    assert figures == page.page.locator(".plotly-graph-div").count()
    for i in range(figures):
        gd = page.page.locator(".plotly-graph-div").nth(i)
        box = gd.locator("svg.main-svg").first.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 100
        # drawn within the article, not wider than it
        article = page.page.locator("article.bd-article").bounding_box()
        assert box["x"] + box["width"] <= article["x"] + article["width"] + 1


def test_handout_link_serves_the_pdf(opened):
    stem, page, _ = opened
    link = page.page.get_by_role("link", name="PDF handout")
    assert link.is_visible()
    response = page.page.request.get(page.base + f"handouts/{stem}.pdf")
    assert response.ok
    assert response.body()[:5] == b"%PDF-"


def test_search_works_offline(page):
    stem = LESSONS[0]
    title = re.search(r"^# (.+)$", (ROOT / "posts" / f"{stem}.md").read_text(), re.M).group(1)
    word = max(re.findall(r"[A-Za-z]{4,}", title), key=len)
    page.open(f"search.html?q={word}")
    results = page.page.locator("#search-results a")
    results.first.wait_for(timeout=10_000)
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any(f"posts/{stem}.html" in h for h in hrefs), hrefs
    assert "System Settings" not in page.page.locator("#search-results").inner_text()
    assert page.external_requests == [] and page.console_errors == []


# Each table.matrix: its left and right edges, its first row's cell count, the heights of its first 30 cells.
TABLES_JS = """() => [...document.querySelectorAll('table.matrix')].map((t) => {
  const box = t.getBoundingClientRect(), first = t.querySelector('tr');
  return {left: box.left, right: box.right, columns: first ? first.querySelectorAll('th, td').length : 0,
          heights: [...t.querySelectorAll('td')].slice(0, 30).map((c) => Math.round(c.getBoundingClientRect().height))};
})"""


@pytest.mark.parametrize("stem", LESSONS)
def test_print_layout_hides_navigation_and_keeps_every_matrix_whole(page, stem):
    """In print media at A4 text width (180 mm), chrome is hidden and no matrix is cut off."""
    page.page.set_viewport_size({"width": 680, "height": 960})
    page.page.emulate_media(media="print")
    page.open(f"posts/{stem}.html", figures=[])
    printed = page.page.evaluate(sb_browser.WAIT_FOR_PRINT_JS)  # every printed figure state has loaded
    assert printed >= page.page.locator("figure.plotly-figure").count() >= 1
    for selector in (".bd-sidebar-primary", ".bd-header-article", ".prev-next-area", ".handout-link",
                     ".bd-sidebar-secondary", "#jb-print-toc", ".modebar-container",
                     # no control of a figure on paper: its live box, buttons, sliders, arithmetic line, files
                     ".plotly-graph-div", ".updatemenu-container", ".slider-container", ".cell-inspect button",
                     ".figure-files", ".web-only"):
        assert not any(page.page.locator(selector).nth(i).is_visible()
                       for i in range(page.page.locator(selector).count())), selector
    assert page.page.locator("article h1").first.is_visible()
    pictures = page.page.locator(".figure-print img")
    assert all(pictures.nth(i).is_visible() for i in range(pictures.count()))
    article = page.page.locator("article.bd-article").bounding_box()
    right = article["x"] + article["width"] + 1
    tables = page.page.evaluate(TABLES_JS)   # every matrix table, measured in one call
    for i, t in enumerate(tables):
        assert t["left"] >= article["x"] - 1 and t["right"] <= right, i
        assert max(t["heights"]) < 2 * min(t["heights"]), i   # a number is never split over two lines
    assert max((t["columns"] for t in tables), default=0) >= 15 or stem != "trained-walkthrough"
    # no displayed equation runs off the margin (paper does not scroll)
    cut = page.page.evaluate("""(right) => [...document.querySelectorAll('mjx-container[display="true"]')]
        .filter(m => m.scrollWidth > m.clientWidth + 1 || m.getBoundingClientRect().right > right)
        .map(m => m.textContent.slice(0, 40))""", right)
    assert cut == []


@pytest.mark.parametrize("path", ["index.html", f"posts/{LESSONS[0]}.html"])
def test_page_names_an_icon_the_site_has(page, path):
    """Browsers ask for an icon; without one every visit logs a failed request."""
    page.open(path, figures=[])
    status = page.page.evaluate("""async () => {
      const link = document.querySelector('link[rel~="icon"]');
      return link ? (await fetch(link.href)).status : null;
    }""")
    assert status == 200
