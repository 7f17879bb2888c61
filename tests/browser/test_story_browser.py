"""Part III in Chromium: every control of its figures driven, and what each state shows checked against compute."""
from __future__ import annotations

import re

import numpy as np
import pytest

from compute.lessons.story import comparison, heads as heads_page, training
from compute.published.story import MODELS, story_corpus
from compute.lessons.story.states import evaluation as ev, heads
from compute.probes import KIND_NAMES

PATH = "posts/story-models.html"
DATA_JS = """(id) => JSON.parse(JSON.stringify(document.getElementById(id).data,
    (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v))"""
TITLE_JS = "(id) => document.getElementById(id).layout.title.text"


@pytest.fixture
def lesson(page):
    page.open(PATH)
    yield page
    assert page.external_requests == []
    assert page.console_errors == []


def click(p, div, label):
    button = p.page.locator(f"#{div} .updatemenu-button").filter(has_text=re.compile(f"^{re.escape(label)}$"))
    assert button.count() == 1, (div, label)
    button.click()
    p.page.wait_for_timeout(60)


def data(p, div):
    return p.page.evaluate(DATA_JS, div)


def test_attention_buttons_show_every_heads_row_for_each_query(lesson):
    div = heads_page.ATTENTION.id
    A = heads.attention_on("story-four-head", heads.worked_story())
    L, H = A.shape[:2]
    for q in heads_page.query_positions():
        st = heads_page._state(q)
        click(lesson, div, st["query"])
        z = np.array(data(lesson, div)[0]["z"], dtype=float)
        assert z.shape == (L * H, q + 1) and np.allclose(z, A[:, :, q, : q + 1].reshape(L * H, -1), atol=1e-6)
        words = ["<eos>", *story_corpus().val[heads.worked_story()].tokens[:q]]      # keys labelled by word
        assert data(lesson, div)[0]["x"] == [f"{j} {w}" for j, w in enumerate(words)]
        assert lesson.page.evaluate(TITLE_JS, div) == heads_page._title(st)
        assert st["word"] == story_corpus().val[heads.worked_story()].tokens[q]


def test_curve_buttons_switch_the_accuracy_panel(lesson):
    div = training.CURVES.id
    for kind in KIND_NAMES:
        click(lesson, div, kind)
        traces = data(lesson, div)
        for m, trace in zip(MODELS, traces[1:6:2]):
            assert np.allclose(trace["y"], [p[kind] for p in ev.learning_curve(f"story-{m}")])
        assert np.allclose(traces[6]["y"], ev.chances()[kind])


def test_distance_buttons_switch_the_kind(lesson):
    div = comparison.DISTANCE.id
    for kind in KIND_NAMES:
        click(lesson, div, kind)
        traces = data(lesson, div)
        for m, trace in zip(MODELS, traces):
            want = [np.nan if v is None else v for v in ev.by_distance(f"story-{m}", kind)]
            got = [np.nan if v is None else v for v in trace["y"]]
            assert np.allclose(got, want, equal_nan=True)


def test_knockout_cells_and_marked_probes(lesson):
    z = np.array(data(lesson, heads_page.KNOCKOUTS.id)[0]["z"], dtype=float)
    assert np.allclose(z, heads_page.knockout_grid())
    probes = sum(len(story_corpus().val[i].probes) for i in range(len(story_corpus().val))[:2])
    assert lesson.page.locator("mark.probe:not(div.hand-written mark)").count() == probes


def test_every_hand_written_story_is_readable_with_its_probes_and_wrong_picks(lesson):
    """All the hand-written stories are on the page: the first few open, the rest behind a summary that opens by
    mouse and by keyboard; every probe is marked, and a bracketed word follows exactly the four-head model's misses."""
    stories = ev.handwritten()
    block = lesson.page.locator("div.hand-written")
    assert block.locator(".story-sample").count() == len(stories)
    assert block.locator("mark.probe").count() == sum(len(h.story.probes) for h in stories)
    r = ev.results("story-four-head", "hand-written")
    assert block.locator(".probe-miss").count() == int((~r.within_kind).sum()) > 0
    folded = block.locator("details.hand-stories")
    last = folded.locator(".story-label").last
    assert last.text_content().startswith(f"{stories[-1].number}.") and not last.is_visible()
    summary = folded.locator("summary")
    summary.click()
    assert last.is_visible()
    summary.focus()
    lesson.page.keyboard.press("Enter")
    assert not last.is_visible()
    lesson.page.keyboard.press("Enter")
    assert last.is_visible()


def test_the_hand_written_summary_is_a_touch_target_at_375_px(visit):
    p = visit(PATH, width=375, height=800, touch=True).page
    summary = p.locator("details.hand-stories summary")
    box = summary.bounding_box()
    assert box["height"] >= 24 and box["width"] >= 24 and box["x"] >= 0 and box["x"] + box["width"] <= 375
    summary.tap()
    assert p.locator("details.hand-stories").evaluate("d => d.open")


def test_at_375_px_the_learning_curves_stack_and_fit_the_screen(visit):
    """Loss above accuracy: a phone shows both panels without scrolling sideways in a box."""
    p = visit(PATH, width=375, height=800, touch=True).page
    div = p.locator(f"#{training.CURVES.id}")
    div.scroll_into_view_if_needed()
    p.wait_for_function(f"document.querySelector('#{training.CURVES.id} .main-svg') !== null", timeout=30_000)
    assert div.evaluate("(d) => !d.parentElement.classList.contains('figure-scroll')")
    box = div.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    panels = p.evaluate(f"[...document.querySelectorAll('#{training.CURVES.id} .draglayer .nsewdrag')]"
                        ".map((s) => s.getBoundingClientRect()).map((r) => [r.top, r.bottom, r.right])")
    assert len(panels) == 2 and panels[0][1] <= panels[1][0] and all(r <= 375 for _, _, r in panels)


def _heatmap_box(p, div):
    """The heatmap's plot area on screen, its last column's key, and its title's bottom against the menu's top."""
    return p.evaluate("""(id) => {
        const gd = document.getElementById(id), plot = gd.querySelector('.draglayer .nsewdrag').getBoundingClientRect();
        const title = gd.querySelector('.gtitle').getBoundingClientRect();
        const menu = gd.querySelector('.updatemenu-header, .updatemenu-button').getBoundingClientRect();
        const x = gd._fullLayout.xaxis;
        return {left: plot.left, right: plot.right, last: x._categories[Math.floor(x.range[1])],
                keys: gd.data[0].x.length, titleBottom: title.bottom, menuTop: menu.top};
    }""", div)


@pytest.mark.parametrize("width", [375, 1000])
def test_the_heads_heatmap_shows_every_key_to_the_newest_on_screen(visit, width):
    """On a phone the heatmap fits the screen, so its newest keys (beside the query) are in view, for the
    shortest and the longest query; the two-line title stays clear of the query buttons."""
    p = visit(PATH, width=width, height=800, touch=width < 400).page
    div = heads_page.ATTENTION.id
    p.locator(f"#{div}").scroll_into_view_if_needed()
    p.wait_for_function(f"document.querySelector('#{div} .gtitle') !== null", timeout=30_000)
    assert p.locator(f"#{div}").evaluate("(d) => !d.parentElement.classList.contains('figure-scroll')")
    for q in (heads_page.query_positions()[0], heads_page.query_positions()[-1]):
        st = heads_page._state(q)
        if q != heads_page.query_positions()[0]:
            if width < 400:
                p.locator(f"#{div} .updatemenu-header").tap()
                p.wait_for_timeout(200)
                p.locator(f"#{div} .updatemenu-dropdown-button").filter(
                    has_text=re.compile(f"^{re.escape(st['query'])}$")).tap()
            else:
                p.locator(f"#{div} .updatemenu-button").filter(has_text=re.compile(f"^{re.escape(st['query'])}$")).click()
            p.wait_for_timeout(200)
        box = _heatmap_box(p, div)
        assert box["left"] >= 0 and box["right"] <= width, box
        assert box["keys"] == q + 1 and box["last"] == st["keys"][-1], box
        assert box["titleBottom"] <= box["menuTop"], box
