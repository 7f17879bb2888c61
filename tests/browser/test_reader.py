"""What a reader meets: the landing page, navigation, offline search, narrow screens, dark mode."""
from __future__ import annotations

import re

import pytest

from conftest import LESSONS, ROOT, new_visit
from sitebuild.pages.reading import prose_words, reading_minutes

PAGES = ["index.html", "search.html"] + [f"posts/{s}.html" for s in LESSONS]


def test_reading_time_counts_prose_not_code():
    text = "---\nx: 1\n---\n# Title here\n\n```{code-cell} ipython3\nimport a b c d\n```\n\n$$\nx y z\n$$\nOne two three.\n"
    assert prose_words(text) == 5  # "Title here" + "One two three"
    assert reading_minutes(ROOT / "posts" / "trained-walkthrough.md") >= 5


def test_landing_page_maps_lessons_times_routes_and_handouts(page):
    page.open("index.html")
    text = page.page.locator("article").inner_text()
    for stem in LESSONS:
        title = re.search(r"^# (.+)$", (ROOT / "posts" / f"{stem}.md").read_text(), re.M).group(1)
        assert title in text
        minutes = reading_minutes(ROOT / "posts" / f"{stem}.md")
        assert f"about {minutes} min" in text
        link = page.page.locator(f'a[href="handouts/{stem}.pdf"]')
        assert link.count() == 1
        assert page.page.request.get(page.base + f"handouts/{stem}.pdf").ok
    assert "First pass" in text and "Second sitting" in text
    # the routes link into the lesson's sections, and those anchors exist (each linked page loaded once)
    anchors: dict[str, list[str]] = {}
    for href in page.page.locator("article a[href*='#bh-s']").evaluate_all("els => els.map(e => e.getAttribute('href'))"):
        path, anchor = href.split("#")
        anchors.setdefault(path, []).append(anchor)
    assert sum(map(len, anchors.values())) >= 4, anchors
    for path, ids in anchors.items():
        page.page.goto(page.base + path)
        for anchor in ids:
            assert page.page.locator(f"[id='{anchor}']").count() == 1, f"{path}#{anchor}"


def test_lessons_have_previous_next_sidebar_and_contents(page):
    order = ["index.html", *(f"posts/{stem}.html" for stem in LESSONS)]   # the records' order
    for i, path in enumerate(order[1:], 1):
        page.open(path, figures=[])
        prev = page.page.locator("a.left-prev").get_attribute("href")
        assert prev.endswith(order[i - 1].split("/")[-1])
        nxt = page.page.locator("a.right-next")
        if i + 1 < len(order):
            assert nxt.get_attribute("href").endswith(order[i + 1].split("/")[-1])
        assert page.page.locator(".bd-sidebar-primary a[href]").count() >= 3
        sections = page.page.locator("article h2").count()
        assert sections >= 3 and page.page.locator(".bd-sidebar-secondary .toc-entry a").count() >= sections


MARKED_JS = """() => { const side = document.querySelector('.bd-sidebar-secondary'), a = side.querySelectorAll('a.active');
    const link = a[a.length - 1], r = link.getBoundingClientRect(), box = side.getBoundingClientRect();
    return {text: link.textContent.trim(), inside: r.top >= box.top && r.bottom <= box.bottom,
            taller: side.scrollHeight > side.clientHeight}; }"""


def test_the_contents_list_keeps_the_section_being_read_in_view(page):
    """The by-hand contents list is taller than the screen: reading the last sections, their entry is shown."""
    page.page.set_viewport_size({"width": 1280, "height": 800})
    page.open("posts/attention-by-hand.html")
    for section in ("bh-s20", "bh-s18", "bh-s02"):
        page.page.evaluate(f"document.getElementById('{section}').scrollIntoView()")
        page.page.mouse.wheel(0, 40)
        page.page.wait_for_timeout(400)
        marked = page.page.evaluate(MARKED_JS)
        assert marked["taller"] and marked["inside"], (section, marked)
        assert marked["text"].startswith(section[-2:].lstrip("0") + "."), (section, marked)


def test_search_for_causal_mask_finds_both_lessons(page):
    page.open("search.html?q=causal+mask")
    results = page.page.locator("#search-results a")
    results.first.wait_for(timeout=15_000)
    page.page.wait_for_timeout(500)
    hrefs = " ".join(results.nth(i).get_attribute("href") for i in range(results.count()))
    for stem in LESSONS:
        assert f"posts/{stem}.html" in hrefs, hrefs
    assert page.external_requests == []


@pytest.mark.parametrize("path", PAGES)
def test_narrow_screen_has_no_sideways_page_scroll(page, path):
    page.page.set_viewport_size({"width": 375, "height": 800})
    page.open(path)
    page.page.wait_for_timeout(300)
    width = page.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    # a figure fits the screen, or scrolls sideways in a box of its own that fits, takes focus and says so
    figures = page.page.evaluate("""() => [...document.querySelectorAll('.plotly-graph-div')].map(gd => {
        const box = gd.parentElement.closest('.figure-scroll');
        return {id: gd.id, width: gd.getBoundingClientRect().width,
                box: box && {width: box.getBoundingClientRect().width, overflow: getComputedStyle(box).overflowX,
                             scrolls: box.scrollWidth > box.clientWidth + 1, tab: box.tabIndex,
                             label: box.getAttribute('aria-label')}};
    })""")
    for f in figures:
        if f["width"] > 375:
            assert f["box"] and f["box"]["width"] <= 375 and f["box"]["overflow"] == "auto", f
    if path.startswith("posts/"):
        page.page.evaluate("siteFigures.drawAll()")
        boxes = page.page.evaluate("""() => [...document.querySelectorAll('.figure-scroll')]
            .filter(b => b.scrollWidth > b.clientWidth + 1)
            .map(b => [b.tabIndex, b.getAttribute('role'), b.getAttribute('aria-label')])""")
        assert boxes and all(b == [0, "region", "figure, scrolls sideways"] for b in boxes), boxes
    # wide matrices scroll inside their own box
    wide = page.page.evaluate("""() => [...document.querySelectorAll('.matrix-wrap')]
        .filter(d => d.scrollWidth > d.clientWidth + 1)
        .map(d => getComputedStyle(d).overflowX)""")
    assert all(o in ("auto", "scroll") for o in wide)
    if path.startswith("posts/"):
        assert wide, "expected some matrix wider than a phone screen"


# Every control of every figure: its box, and whether the element under its centre is the control.
PHONE_CONTROLS_JS = """(sel) => [...document.querySelectorAll('.plotly-graph-div')].flatMap(g =>
  [...g.querySelectorAll(sel)].map(c => {
    c.scrollIntoView({block: 'center'});
    const r = c.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const own = c.closest('.updatemenu-button, .updatemenu-header, .updatemenu-dropdown-button, .slider-container');
    return {where: g.id + ' ' + c.textContent.trim(), left: r.left, right: r.right,
            ours: !!hit && own.contains(hit)};
  }))"""


def _out_of_reach(p, sel=".updatemenu-button, .updatemenu-header, .slider-rail-touch-rect") -> list:
    return [b for b in p.evaluate(PHONE_CONTROLS_JS, sel) if b["left"] < 0 or b["right"] > 375 or not b["ours"]]


@pytest.fixture(scope="module")
def phone(browser, http_server):
    """phone(stem) -> the lesson opened on a phone (375 x 800, touch), every figure drawn: one open per lesson for
    this module's phone tests, which read it first and tap it last (the tap test comes last in the file)."""
    opened = {}

    def open_lesson(stem: str):
        if stem not in opened:
            opened[stem] = new_visit(browser, http_server, width=375, height=800, touch=True)
            opened[stem][0].open(f"posts/{stem}.html")
        return opened[stem][0].page

    yield open_lesson
    for v, context in opened.values():
        context.close()
        assert v.external_requests == []


def test_at_375_px_a_bar_chart_names_every_word(phone):
    """A figure keeps its minimum width on a phone (it scrolls in its box), so plotly has room for every
    tick label: the next-word bars name all the vocabulary, not every other word."""
    from compute.lessons.byhand import model as m
    p = phone("attention-by-hand")
    for div in ("bh-s02-predict", "bh-s03-baseline"):
        ticks = p.evaluate(f"() => [...document.querySelectorAll('#{div} .xtick text')].map(t => t.textContent)")
        assert ticks == list(m.VOCAB), (div, ticks)


SMALL_TARGETS_JS = """() => {
  // every control a finger can aim at: the page's own, plotly's menus, and a slider's rail (a tap or drag anywhere
  // on it moves the grip, so the rail is the slider's target)
  const sel = 'article button, article input:not([type=hidden]), article select, article summary, article textarea, '
            + '.updatemenu-button, .updatemenu-header, .slider-rail-touch-rect';
  return [...document.querySelectorAll(sel)].map((el) => [el, el.getBoundingClientRect()])
    .filter(([el, r]) => (r.width || r.height) && getComputedStyle(el).visibility !== 'hidden')
    .filter(([, r]) => r.width < 24 || r.height < 24)
    .map(([el, r]) => `${el.tagName} ${el.getAttribute('class') || el.type || ''} ${Math.round(r.width)}x${Math.round(r.height)}`);
}"""


@pytest.mark.parametrize("stem", LESSONS)
def test_at_375_px_every_control_is_at_least_24_px_square(phone, stem):
    """Buttons, fields, summaries, plotly's menu buttons and slider rails (a lesson without controls has none to
    check; the live box's own test checks its words too)."""
    p = phone(stem)
    assert p.evaluate(SMALL_TARGETS_JS) == []


@pytest.mark.parametrize("stem", LESSONS)
def test_at_375_px_every_figure_control_is_on_screen_and_takes_a_tap(phone, stem):
    """On a phone a row of buttons wider than the figure is a drop-down: its header and each of its
    items lie inside the screen, are what a tap there hits, and a tap on an item presses it; no x-axis title
    covers a legend."""
    from helpers import TITLES_OVER_LEGEND_JS
    p = phone(stem)                          # last of the module's phone tests: it taps
    assert _out_of_reach(p) == []
    assert p.evaluate(TITLES_OVER_LEGEND_JS)["out"] == []              # no axis title over a legend either
    headers = p.locator(".updatemenu-header")
    for k in range(headers.count()):
        header = headers.nth(k)
        gd = header.locator("xpath=ancestor::div[contains(@class, 'plotly-graph-div')]")
        div, menu = gd.get_attribute("id"), header.evaluate("h => h.parentNode.__data__._index")
        header.scroll_into_view_if_needed()
        header.tap()
        p.wait_for_timeout(200)
        items = p.locator(f"#{div} .updatemenu-dropdown-button")
        assert items.count() >= 2, div
        assert _out_of_reach(p, ".updatemenu-dropdown-button") == [], div  # the open list covers what is below it
        last = items.count() - 1
        label = items.nth(last).text_content().strip()
        items.nth(last).tap()
        p.wait_for_timeout(300)
        assert p.evaluate(f"document.getElementById('{div}').layout.updatemenus[{menu}].active") == last
        assert label in [t.strip() for t in gd.locator(".updatemenu-header").all_text_contents()]  # it shows the choice
