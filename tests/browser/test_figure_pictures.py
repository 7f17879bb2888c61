"""A lesson's figures in Chromium as a reader meets them: pictures drawn at build from the first paint, plotly.js
fetched only when the reader touches a figure, the live figure in the picture's place with nothing moved, dark
pictures on a dark page from the start, and one line and the figure in words where a file is missing."""
from __future__ import annotations

import base64
import re
import shutil

import pytest

from conftest import LESSONS, new_visit
from sitebuild.serve import serve

PATH = "posts/attention-by-hand.html"
PLOTLY = "plotly-lesson.min.js"
IDS_JS = "() => [...document.querySelectorAll('.plotly-graph-div')].map(g => g.id)"
DRAWN_JS = "id => !!document.querySelector('#' + id + ' svg.main-svg')"

# Every figure on the first screen: its picture's URL, and whether that picture has loaded.
FIRST_SCREEN_JS = """async () => {
  const shown = [...document.querySelectorAll('.plotly-graph-div')].filter((g) => {
    const r = g.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  });
  return Promise.all(shown.map(async (g) => {
    const url = (/url\\("?([^")]+)"?\\)/.exec(getComputedStyle(g).backgroundImage) || [])[1] || '';
    const img = new Image();
    img.src = url;
    const loaded = url ? await img.decode().then(() => img.naturalWidth > 0, () => false) : false;
    const r = g.getBoundingClientRect();
    return {id: g.id, url, loaded, width: r.width, height: r.height};
  }));
}"""

# Layout shifts from now on, summed (the figure swap must add none).
WATCH_SHIFTS_JS = """() => {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__shift += e.value;
  }).observe({type: 'layout-shift', buffered: false});
}"""


# The share of pixels whose grey level differs by more than 40 of 255 between two PNGs of one size.
DIFFER_JS = """async ([a, b]) => {
  const grey = async (data) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + data;
    await img.decode();
    const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight), ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data, out = [];
    for (let k = 0; k < px.length; k += 4) out.push(0.3 * px[k] + 0.59 * px[k + 1] + 0.11 * px[k + 2]);
    return [c.width, c.height, out];
  };
  const [[w1, h1, g1], [w2, h2, g2]] = await Promise.all([grey(a), grey(b)]);
  if (w1 !== w2 || h1 !== h2) return 1;
  let differ = 0;
  for (let k = 0; k < g1.length; k++) if (Math.abs(g1[k] - g2[k]) > 40) differ++;
  return differ / g1.length;
}"""


def requests_of(page) -> list[str]:
    urls = []
    page.on("request", lambda r: urls.append(r.url))
    return urls


TALL = 4000  # px: a screen tall enough to open on figures in every lesson, under its front box


@pytest.mark.parametrize("stem", LESSONS)
def test_a_lesson_opens_with_pictures_and_without_plotly(visit, stem):
    v = visit(width=1280, height=900)
    urls = requests_of(v.page)
    v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
    v.page.wait_for_timeout(2000)
    assert not any(PLOTLY in u for u in urls), "plotly.js was fetched with no interaction"
    v.page.locator(".plotly-graph-div").first.scroll_into_view_if_needed()  # scrolling is no interaction either
    v.page.wait_for_timeout(500)
    assert not any(PLOTLY in u for u in urls)
    first = v.page.evaluate(FIRST_SCREEN_JS)
    assert first
    for f in first:
        assert f["loaded"] and "-light-wide.svg" in f["url"], f
        assert not v.page.evaluate(DRAWN_JS, f["id"])
    assert v.console_errors == []


def test_a_linked_figure_is_its_picture_at_once(visit):
    v = visit()
    urls = requests_of(v.page)
    last = None
    v.page.goto(v.base + PATH, wait_until="load")
    last = v.page.evaluate(IDS_JS)[-1]
    v.page.goto(v.base + f"{PATH}#{last}", wait_until="load")
    v.page.wait_for_timeout(1000)
    shown = {f["id"]: f for f in v.page.evaluate(FIRST_SCREEN_JS)}
    assert last in shown and shown[last]["loaded"]
    assert not any(PLOTLY in u for u in urls)


def test_touching_a_figure_draws_it_in_the_pictures_place_moving_nothing(visit):
    v = visit(width=1280, height=900)
    p = v.page
    p.goto(v.base + PATH, wait_until="load")
    p.evaluate("window.sitePageLaidOut")
    fid = "bh-s10-blend"
    p.locator(f"#{fid}").scroll_into_view_if_needed()
    p.wait_for_timeout(300)
    before = p.locator(f"#{fid}").bounding_box()
    tops = p.evaluate("() => [...document.querySelectorAll('h2, .plotly-graph-div')].map(e => e.getBoundingClientRect().top)")
    p.evaluate(WATCH_SHIFTS_JS)
    # a click on the picture's slider rail, at λ = 1: it lands on the live figure once drawn
    p.mouse.click(before["x"] + before["width"] - 22, before["y"] + before["height"] - 48)
    p.wait_for_function(DRAWN_JS, arg=fid, timeout=10_000)
    p.wait_for_timeout(500)
    assert p.locator(f"#{fid}").bounding_box() == before
    assert p.evaluate("() => [...document.querySelectorAll('h2, .plotly-graph-div')].map(e => e.getBoundingClientRect().top)") == tops
    assert p.evaluate("window.__shift") == 0
    assert p.evaluate(f"getComputedStyle(document.getElementById('{fid}')).backgroundImage") == "none"
    # the click was made again on the live slider: λ moved off 0
    assert p.evaluate(f"document.getElementById('{fid}')._fullLayout.sliders[0].active") > 0
    assert v.console_errors == []


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_live_figure_looks_like_its_picture(visit, mode):
    """The build draws the picture with the page's own drawing code and colours: the live figure's pixels match
    it, in either mode."""
    dark = "localStorage.setItem('theme', 'dark'); localStorage.setItem('mode', 'dark');"
    v = visit(width=1280, height=900, init_script=dark if mode == "dark" else None)
    p = v.page
    p.goto(v.base + PATH, wait_until="load")
    fid = "bh-s02-predict"
    box = p.locator(f"#{fid}")
    box.scroll_into_view_if_needed()
    p.wait_for_timeout(300)
    picture = box.screenshot()
    p.evaluate("id => siteFigures.draw(document.getElementById(id))", fid)
    p.mouse.move(0, 0)
    p.wait_for_timeout(300)
    live = box.screenshot()
    share = p.evaluate(DIFFER_JS, [base64.b64encode(picture).decode(), base64.b64encode(live).decode()])
    assert share < 0.01


def test_tab_into_a_figure_draws_it_and_focus_lands_on_its_first_control(visit):
    v = visit(width=1280, height=900)
    p = v.page
    p.goto(v.base + PATH, wait_until="load")
    fid = "bh-s02-predict"
    # focus the element just before the figure, then Tab into it
    p.evaluate("id => { const b = document.getElementById(id); const a = document.createElement('a'); "
               "a.href = '#'; a.id = 'before-figure'; a.textContent = 'x'; b.closest('figure').before(a); a.focus(); }",
               fid)
    p.keyboard.press("Tab")
    p.wait_for_function(DRAWN_JS, arg=fid, timeout=10_000)
    p.wait_for_function(f"() => document.activeElement.closest('#{fid}') && document.activeElement.id !== '{fid}'",
                        timeout=5_000)
    assert p.evaluate("document.activeElement.getAttribute('role')") == "button"


@pytest.mark.parametrize("how", ["system", "toggle"])
def test_a_dark_page_shows_dark_pictures_from_the_first_paint(browser, http_server, how):
    script = "localStorage.setItem('theme', 'dark'); localStorage.setItem('mode', 'dark');" if how == "toggle" else None
    v, context = new_visit(browser, http_server, height=TALL, init_script=script)
    try:
        if how == "system":
            v.page.emulate_media(color_scheme="dark")
        urls = requests_of(v.page)
        v.page.goto(v.base + PATH, wait_until="load")
        v.page.wait_for_timeout(500)
        first = v.page.evaluate(FIRST_SCREEN_JS)
        assert first and all("-dark-wide.svg" in f["url"] and f["loaded"] for f in first), first
        pictures = [u for u in urls if "/_static/rendered/" in u]
        assert pictures and not any("-light-" in u for u in pictures), pictures  # no light picture was ever asked for
    finally:
        context.close()


def test_a_phone_shows_the_phone_pictures_at_their_width(visit):
    v = visit(width=375, height=TALL, touch=True)
    v.page.goto(v.base + PATH, wait_until="load")
    v.page.wait_for_timeout(500)
    first = v.page.evaluate(FIRST_SCREEN_JS)
    assert first and all("-light-narrow.svg" in f["url"] and f["loaded"] for f in first), first


@pytest.fixture
def broken_site(built_site, tmp_path):
    """A copy of the site whose first figure has lost its pictures, and whose second has lost its data."""
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    page = (site / PATH).read_text()
    ids = re.findall(r'<div id="([^"]+)" class="plotly-graph-div"', page)
    picture = re.search(rf"#{ids[0]}\{{[^}}]*url\(\.\./(_static/rendered/[^)]+-light-wide\.svg)\)", page).group(1)
    (site / picture).unlink()
    data = re.search(rf'data-for="{ids[1]}" data-src="\.\./([^"]+)"', page).group(1)
    (site / data).unlink()
    with serve(site) as base:
        yield base, ids


def test_a_missing_picture_or_data_file_leaves_a_line_and_the_words_not_an_empty_box(browser, broken_site):
    base, ids = broken_site
    v, context = new_visit(browser, base)
    try:
        p = v.page
        p.goto(base + PATH, wait_until="load")
        lost = p.locator(f"figure:has(#{ids[0]})")
        lost.scroll_into_view_if_needed()
        lost.locator(".figure-error").wait_for(timeout=5_000)
        assert "could not be loaded" in lost.locator(".figure-error").inner_text()
        assert lost.locator(".figure-summary").is_visible()
        assert not p.locator(f"#{ids[0]}").is_visible()  # no empty box
        # the second figure's picture is there; touching it finds its data missing
        second = p.locator(f"figure:has(#{ids[1]})")
        second.scroll_into_view_if_needed()
        p.locator(f"#{ids[1]}").hover()
        second.locator(".figure-error").wait_for(timeout=10_000)
        assert "could not be loaded" in second.locator(".figure-error").inner_text()
        assert second.locator(".figure-summary").is_visible()
    finally:
        context.close()


def test_a_reader_without_javascript_sees_every_figure(browser, http_server):
    """The pictures are CSS: with scripts off, each figure still shows its picture (light, the system's mode)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    try:
        page = context.new_page()
        urls = requests_of(page)
        page.goto(http_server + PATH, wait_until="load")
        first = page.locator(".plotly-graph-div").first
        first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        picture = first.evaluate("g => getComputedStyle(g).backgroundImage")
        assert "-light-wide.svg" in picture
        assert any(picture.split("/")[-1].rstrip('")') in u for u in urls)  # and it was fetched
        assert not any(PLOTLY in u for u in urls)
    finally:
        context.close()
