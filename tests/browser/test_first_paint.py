"""A lesson's first paint skips the sections off screen (site.css, content-visibility); site.js then lays out the
whole page once the first screen is drawn, and a reader who followed a link is still looking at what it named."""
from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from conftest import LESSONS

SECTIONS = ".bd-article > section > section"
# At DOMContentLoaded, before any figure or idle callback: whether each subsection is skipped (its content not
# rendered) and the page's class.
RECORD_AT_PARSE = """
document.addEventListener('DOMContentLoaded', () => {
  const sections = [...document.querySelectorAll('%s')];
  window.__atParse = {
    laidOut: document.documentElement.classList.contains('page-laid-out'),
    skipped: sections.map((s) => !s.firstElementChild.checkVisibility({contentVisibilityAuto: true})),
  };
});
""" % SECTIONS
AFTER_JS = """async () => {
  await window.sitePageLaidOut;
  const sections = [...document.querySelectorAll('%s')];
  return {
    laidOut: document.documentElement.classList.contains('page-laid-out'),
    skipped: sections.map((s) => !s.firstElementChild.checkVisibility({contentVisibilityAuto: true})),
    visibility: sections.map((s) => getComputedStyle(s).contentVisibility),
  };
}""" % SECTIONS


def built(site: Path, stem: str, selector: str) -> list[str]:
    """The ids of what `selector` picks in a lesson as built, read from its HTML (no load of the page in a
    browser): the same the page's DOM gives."""
    page = BeautifulSoup((site / "posts" / f"{stem}.html").read_text(encoding="utf-8"), "html.parser")
    return [element["id"] for element in page.select(selector)]


@pytest.mark.parametrize("stem", LESSONS)
def test_the_first_paint_skips_sections_off_screen_and_the_page_is_then_laid_out_whole(visit, stem):
    v = visit(init_script=RECORD_AT_PARSE)
    v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
    after = v.page.evaluate(AFTER_JS)
    at_parse = v.page.evaluate("window.__atParse")
    assert not at_parse["laidOut"]
    assert len(at_parse["skipped"]) >= 3, "a lesson has subsections"
    assert at_parse["skipped"][-1], "the last subsection, far below the first screen, was rendered at parse"
    assert after["laidOut"]
    assert not any(after["skipped"]), after
    assert set(after["visibility"]) == {"visible"}, after


def test_the_first_screen_is_never_skipped(visit):
    """What the reader sees first is rendered: the subsections whose top is within the first screen."""
    v = visit(init_script=RECORD_AT_PARSE, height=1600)   # the title and front box, then the first sections
    v.page.goto(v.base + "posts/trained-walkthrough.html", wait_until="load")
    v.page.evaluate(AFTER_JS)
    tops = v.page.evaluate(f"() => [...document.querySelectorAll('{SECTIONS}')].map((s) => s.getBoundingClientRect().top)")
    height = v.page.evaluate("innerHeight")
    skipped = v.page.evaluate("window.__atParse.skipped")
    on_screen = [i for i, top in enumerate(tops) if top < height]
    assert on_screen, tops
    assert not any(skipped[i] for i in on_screen), (tops, skipped)


@pytest.mark.parametrize("stem", ["trained-walkthrough", "attention-by-hand"])
def test_a_link_to_a_late_section_stays_in_view_once_the_page_is_laid_out(visit, built_site, stem):
    """The sections above a linked one are skipped, at a guessed height, when the browser scrolls to it; laying
    them out later must not move what the reader is looking at."""
    late = built(built_site, stem, SECTIONS)[-2]
    v = visit()
    v.page.goto(v.base + f"posts/{stem}.html#{late}", wait_until="load")
    v.page.evaluate(AFTER_JS)
    v.page.wait_for_timeout(300)
    top = v.page.evaluate(f"document.getElementById('{late}').getBoundingClientRect().top")
    assert 0 <= top < 150, (late, top)
    assert v.page.evaluate("scrollY") > 2 * v.page.evaluate("innerHeight")


# requestIdleCallback held until the test runs it: the page stays as the first paint left it for as long as needed.
HOLD_IDLE = "window.requestIdleCallback = (fn) => { window.__idle = fn; return 1; };"
# A page opened at a link, as its first paint left it: the parts of the article before the target's section that
# are rendered (not display: none, not skipped), whether the target's section is, and where the target is.
AT_LINK_JS = """(id) => {
  const target = document.getElementById(id);
  const top = [...document.querySelectorAll('.bd-article > section > *')];
  const own = top.find((e) => e.contains(target));
  return {
    rendered: top.slice(0, top.indexOf(own)).filter((e) => e.checkVisibility({contentVisibilityAuto: true}))
      .map((e) => e.tagName + '#' + e.id),
    own: own.checkVisibility({contentVisibilityAuto: true}),
    top: target.getBoundingClientRect().top,
  };
}"""


@pytest.mark.parametrize("stem", ["attention-by-hand", "trained-walkthrough"])
def test_a_link_to_a_late_figure_opens_at_it_with_nothing_before_its_section_laid_out(visit, built_site, stem):
    """The sections before a linked figure cost no layout before the first paint (site.css): the page opens at
    the figure's section; laid out whole later, the figure stays where the reader sees it."""
    figure = built(built_site, stem, ".plotly-graph-div")[-1]
    v = visit(init_script=HOLD_IDLE)                # the page as its first paint left it, for as long as needed
    v.page.goto(v.base + f"posts/{stem}.html#{figure}", wait_until="load")
    v.page.wait_for_function("typeof window.__idle === 'function'", timeout=15_000)
    first = v.page.evaluate(AT_LINK_JS, figure)
    assert first["rendered"] == [] and first["own"], (figure, first)
    assert 0 <= first["top"] < v.page.evaluate("innerHeight") / 2, (figure, first)
    v.page.evaluate("window.__idle()")
    v.page.evaluate("window.sitePageLaidOut")
    after = v.page.evaluate(AT_LINK_JS, figure)
    assert len(after["rendered"]) >= 3 and abs(after["top"] - first["top"]) <= 1, (figure, first, after)
    assert v.page.evaluate("scrollY") > 2 * v.page.evaluate("innerHeight")


# Each animation frame before the page is parsed: whether the linked element existed when it was drawn.
FRAMES_AT_LINK = """window.__frames = [];
(function tick() {
  window.__frames.push(!!document.getElementById(decodeURIComponent(location.hash.slice(1))));
  if (document.readyState === 'loading') requestAnimationFrame(tick);
})();"""


@pytest.mark.parametrize("stem", ["attention-by-hand", "story-models"])
def test_a_link_draws_no_frame_before_its_target_is_parsed(visit, built_site, stem):
    """A page opened at a link draws its first frame once the target is parsed (sitebuild/theme's TARGET_SCRIPT),
    not a frame of the page's top and then another: every frame before then laid out what was parsed so far. A
    page opened without a link is left whole: no frame held, nothing left out."""
    figure = built(built_site, stem, ".plotly-graph-div")[-1]
    linked = visit(init_script=FRAMES_AT_LINK)
    linked.page.goto(linked.base + f"posts/{stem}.html#{figure}", wait_until="load")
    frames = linked.page.evaluate("window.__frames")
    assert len(frames) >= 2 and frames[0] is False and all(frames[1:]), (figure, frames)
    plain = visit(init_script=HOLD_IDLE)            # as the first paint left it
    plain.page.goto(plain.base + f"posts/{stem}.html", wait_until="load")
    plain.page.wait_for_function("typeof window.__idle === 'function'", timeout=15_000)
    assert plain.page.evaluate("document.querySelectorAll('link[rel=expect]').length") == 0
    assert plain.page.evaluate(AT_LINK_JS, figure)["rendered"][:1] == ["H1#"]


# What a reader looks at: headings, paragraphs, list items, code, tables and figures (a screen of the lab can hold
# nothing but code).
READ = ".bd-article :is(h2, h3, p, li, pre, table, .plotly-graph-div)"
# The tops of those the reader can see (rendered, on screen at least in part), by index.
IN_VIEW_JS = """() => [...document.querySelectorAll('%s')]
  .map((e, i) => [i, e.getBoundingClientRect(), e.checkVisibility({contentVisibilityAuto: true})])
  .filter(([, box, seen]) => seen && box.bottom > 0 && box.top < innerHeight).map(([i, box]) => [i, box.top])""" % READ
TOPS_JS = "() => [...document.querySelectorAll('%s')].map((e) => e.getBoundingClientRect().top)" % READ


@pytest.mark.parametrize("stem", LESSONS)
def test_laying_out_the_page_moves_nothing_the_reader_sees(visit, stem):
    """A reader who scrolled before the page was laid out whole (the End key, the scroll bar) sees nothing move
    when it is: the sections above have guessed heights until then."""
    moved = {}
    for share in (0.3, 0.6, 0.9):
        v = visit(init_script=HOLD_IDLE)
        v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
        v.page.wait_for_function("typeof window.__idle === 'function'", timeout=15_000)
        v.page.evaluate(f"window.scrollTo(0, {share} * document.documentElement.scrollHeight)")
        v.page.wait_for_timeout(300)
        before = dict(v.page.evaluate(IN_VIEW_JS))
        assert before, (stem, share, "nothing in view")
        assert not v.page.evaluate("document.documentElement.classList.contains('page-laid-out')")
        v.page.evaluate("window.__idle()")
        v.page.evaluate("window.sitePageLaidOut")
        after = v.page.evaluate(TOPS_JS)
        moved[share] = max(abs(after[i] - top) for i, top in before.items())
    assert all(px <= 1 for px in moved.values()), (stem, moved)


RECORD_AT_LAY_OUT = r"""
new MutationObserver((changes, observer) => {
  if (!document.documentElement.classList.contains('page-laid-out')) return;   // another element's class
  observer.disconnect();
  window.__atLayOut = [...document.querySelectorAll('.plotly-graph-div')]
    .filter((g) => { const r = g.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })
    .map((g) => {  // its picture has arrived
      const url = (/url\("?([^")]+)"?\)/.exec(getComputedStyle(g).backgroundImage) || [])[1];
      return [g.id, !!url && performance.getEntriesByName(new URL(url, document.baseURI).href).length > 0];
    });
}).observe(document, {attributes: true, attributeFilter: ['class'], subtree: true});   // before <html> exists
"""


def test_the_page_is_laid_out_whole_only_after_its_first_screen_is_drawn(visit):
    """Laying out the whole page takes the main thread for a while: it waits for the figures' pictures on
    screen."""
    v = visit(init_script=RECORD_AT_LAY_OUT, height=3000)   # a screen tall enough to open on figures
    v.page.goto(v.base + "posts/attention-by-hand.html", wait_until="load")
    v.page.evaluate("window.sitePageLaidOut")
    at_lay_out = v.page.evaluate("window.__atLayOut")
    assert at_lay_out, "expected figures on a 3000 px first screen of Attention by hand"
    assert all(drawn for _, drawn in at_lay_out), at_lay_out


MATH_FONTS_JS = """async () => {
  await window.sitePageLaidOut;
  await document.fonts.ready;
  const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, '').startsWith('MJX'));
  return {
    loaded: faces.filter((f) => f.status === 'loaded').map((f) => f.family.replace(/"/g, '')),
    failed: faces.filter((f) => f.status === 'error').map((f) => f.family),
    fetched: performance.getEntriesByType('resource').map((r) => r.name)
      .filter((n) => /\\.(woff2?|ttf|otf)(\\?|$)/.test(n)),
  };
}"""


@pytest.mark.parametrize("stem", ["trained-walkthrough", "story-models", "attention-by-hand"])
def test_the_whole_page_s_math_is_drawn_without_fetching_a_font(visit, stem):
    """sitebuild.math.fonts writes each font the page's math draws in into the page, cut to its characters: with
    every section laid out, the math's fonts are loaded and none was fetched (they were six requests before
    the first paint, which the first screen waited for)."""
    v = visit()
    v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
    fonts = v.page.evaluate(MATH_FONTS_JS)
    assert len(fonts["loaded"]) >= 2, ("expected the page's math to use a few fonts", fonts)
    assert fonts["failed"] == [] and fonts["fetched"] == [], fonts


# Every animation frame's start until the page has loaded (a frame's rAF callbacks, then its paint, run in one task).
RECORD_FRAMES = """window.__frames = [];
(function tick(t) {
  if (t !== undefined) window.__frames.push(t);
  if (document.readyState !== 'complete' || window.__frames.length < 3) requestAnimationFrame(tick);
})();"""
# The requests for a box's modules (the module its markup names and every module that one imports), each with when it
# began, once they have begun; and when the page was first painted.
BOX_MODULES_JS = """async () => {
  const modules = () => performance.getEntriesByType('resource')
    .filter((r) => /\\/_static\\/(generate|train)\\/[^/?]+\\.js/.test(r.name))
    .map((r) => [r.name.split('/').pop().split('?')[0], r.startTime]);
  // the paint's entry is reported once the frame is presented, which a busy machine may do after the modules began
  const painted = () => performance.getEntriesByType('paint').find((p) => p.name === 'first-paint');
  for (let i = 0; i < 100 && (modules().length < 2 || !painted()); i++) await new Promise((done) => setTimeout(done, 100));
  const paint = painted();
  // the frame that painted first: the last to start before the paint was presented
  const frame = paint ? Math.max(...window.__frames.filter((t) => t <= paint.startTime)) : null;
  return {paint: paint ? paint.startTime : null, frame, modules: modules()};
}"""


@pytest.mark.parametrize("stem", ["story-models", "trained-walkthrough"])
def test_a_boxs_modules_are_fetched_only_after_the_first_paint(visit, stem):
    """A box's module and the modules it imports are not among the requests a page starts before its first paint
    (a module script is fetched, with its imports, as soon as the parser sees it: Part III's two boxes made 9
    requests before its first paint); site.js imports it once the first screen is painted, and the box still
    comes alive (its tests: tests/browser/test_live_box.py, test_circuit_box.py, test_train_box.py). The paint is
    timed as its frame began: the paint entry's time is when the frame was presented, which on a busy machine
    comes after the next task, the import's, has begun (once seen: the module at 407.1 ms, the paint at 408)."""
    v = visit(init_script=RECORD_FRAMES)
    v.page.goto(v.base + f"posts/{stem}.html", wait_until="load")
    got = v.page.evaluate(BOX_MODULES_JS)
    assert got["paint"] is not None and len(got["modules"]) >= 2, got    # the box's module and what it imports
    assert got["frame"] is not None and 0 < got["frame"] <= got["paint"], got   # a frame began before the paint
    early = [name for name, start in got["modules"] if start < got["frame"]]
    assert early == [], got


# Whether html.first-screen was ever set (sitebuild/theme FIRST_SCREEN_SCRIPT), recorded from before <html> exists.
RECORD_FIRST_SCREEN = r"""
window.__firstScreen = false;
new MutationObserver(() => {
  if (document.documentElement && document.documentElement.classList.contains('first-screen')) window.__firstScreen = true;
}).observe(document, {attributes: true, attributeFilter: ['class'], subtree: true, childList: true});
"""
# The style rules that skip something until the first frame: each one's selector (html.first-screen taken off) and the
# tallest window its media query lets it apply in (Infinity: no such limit).
FIRST_SCREEN_RULES_JS = r"""() => {
  const rules = [];
  const walk = (list, tallest) => [...list].forEach((rule) => {
    if (rule.cssRules && rule.media) {
      const limit = /max-height:\s*(\d+)px/.exec(rule.media.mediaText);
      walk(rule.cssRules, limit ? Math.min(tallest, +limit[1]) : tallest);
    } else if (rule.selectorText && rule.selectorText.includes('html.first-screen')) {
      rule.selectorText.split(',').forEach((s) => rules.push([s.replace('html.first-screen', '').trim(), tallest,
                                                              rule.style.contentVisibility]));
    }
  });
  [...document.styleSheets].forEach((sheet) => walk(sheet.cssRules, Infinity));
  return rules;
}"""
# Each skipped element's top in the page (laid out whole), and whether its content is skipped once the class is put back.
SKIPPED_JS = """(rules) => {
  const root = document.documentElement, out = {};
  rules.forEach(([selector]) => {
    out[selector] = [...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect().top + scrollY);
  });
  root.classList.add('first-screen');
  const skipped = rules.every(([selector]) => [...document.querySelectorAll(selector)]
    .every((e) => !e.firstElementChild || !e.firstElementChild.checkVisibility()));
  root.classList.remove('first-screen');
  return {tops: out, skipped};
}"""
FIRST_SCREEN_PAGES = ["guide.html", "glossary.html", "index.html", "search.html", "404.html",
                      *(f"posts/{stem}.html" for stem in LESSONS)]


@pytest.mark.parametrize("path", FIRST_SCREEN_PAGES)
def test_what_the_first_frame_skips_starts_below_the_first_screen(visit, path):
    """Until its first frame, a page opened at its top skips outright what starts below its first screen
    (content-visibility: hidden; `auto` did not keep the glossary and the guide from being laid out whole before
    that frame): the guide's sections after the second, a lesson's after its first, the glossary's later terms.
    Whatever a rule skips starts below the tallest window the rule applies in, on a phone and on wide screens, so the
    first frame draws the whole first screen; the rule does skip it; and it is given back after that frame."""
    v = visit(init_script=RECORD_FIRST_SCREEN)
    v.page.goto(v.base + path, wait_until="load")
    v.page.wait_for_function("!document.documentElement.classList.contains('first-screen')", timeout=5_000)
    assert v.page.evaluate("window.__firstScreen"), "html.first-screen was never set on a page opened at its top"
    rules = v.page.evaluate(FIRST_SCREEN_RULES_JS)
    assert rules and all(visibility == "hidden" for _, _, visibility in rules), rules
    found = 0
    for width in (375, 600, 768, 1024, 1280, 1920):
        v.page.set_viewport_size({"width": width, "height": 900})
        v.page.evaluate("window.sitePageLaidOut || null")
        got = v.page.evaluate(SKIPPED_JS, rules)
        assert got["skipped"], (path, width)
        for selector, tallest, _ in rules:
            tops = got["tops"][selector]
            found += len(tops)
            assert tallest < 10_000 and all(top >= tallest for top in tops), (path, width, selector, tallest, tops)
    if path in ("guide.html", "glossary.html") or path.startswith("posts/"):
        assert found, f"{path}: nothing skipped before its first frame"


def test_a_page_opened_at_a_link_skips_nothing_for_its_first_frame(visit):
    """A link into a page (#id) is the target's business (TARGET_SCRIPT): nothing is skipped outright, or the browser
    could not scroll to a target inside what is skipped (a glossary term, linked from every lesson)."""
    v = visit(init_script=RECORD_FIRST_SCREEN)
    v.page.goto(v.base + "glossary.html#term-seed", wait_until="load")
    assert not v.page.evaluate("window.__firstScreen")
    term = v.page.locator("#term-seed").bounding_box()
    assert 0 <= term["y"] < 900, term
