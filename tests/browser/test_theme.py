"""The site's own theme in Chromium (sitebuild/theme, _static/site.js): the colour mode's button by mouse and
keyboard, kept across pages; the system followed while the mode is the system's; the lessons and the page's
sections as drawers on a phone, by touch."""
from __future__ import annotations

PAGE = "posts/lab.html"
MODE = "() => [document.documentElement.dataset.mode, document.documentElement.dataset.theme]"


def test_the_mode_button_goes_light_dark_and_back_to_the_system_and_is_kept(visit):
    v = visit()
    v.page.emulate_media(color_scheme="dark")
    v.open(PAGE, figures=[])
    p, button = v.page, v.page.locator(".mode-switch")
    assert p.evaluate(MODE) == ["auto", "dark"]                       # the system's, as the page opened
    button.click()
    assert p.evaluate(MODE) == ["light", "light"] and button.get_attribute("aria-label") == "Colour mode: light"
    button.focus()
    p.keyboard.press("Enter")                                           # the keyboard does what the mouse does
    assert p.evaluate(MODE) == ["dark", "dark"]
    p.goto(v.base + "posts/context-cost.html", wait_until="load")     # another page opens in the chosen mode
    assert p.evaluate(MODE) == ["dark", "dark"]
    p.emulate_media(color_scheme="light")                               # a chosen mode ignores the system
    p.wait_for_timeout(300)
    assert p.evaluate(MODE) == ["dark", "dark"]
    p.locator(".mode-switch").click()
    assert p.evaluate(MODE) == ["auto", "light"]                        # the system's again, and it is followed
    p.emulate_media(color_scheme="dark")
    p.wait_for_function("document.documentElement.dataset.theme === 'dark'", timeout=5000)
    assert v.console_errors == [] and v.external_requests == []


def test_on_a_phone_the_lessons_and_the_sections_open_by_a_tap_and_close(visit):
    v = visit(width=375, height=800, touch=True)
    v.open(PAGE, figures=[])
    p = v.page
    lessons, sections = p.locator(".primary-toggle"), p.locator(".secondary-toggle")
    assert not p.locator(".bd-sidebar-primary").is_visible() and not p.locator(".bd-sidebar-secondary").is_visible()
    for toggle in (lessons, sections):
        box = toggle.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24 and box["x"] >= 0 and box["x"] + box["width"] <= 375
    lessons.tap()
    assert lessons.get_attribute("aria-expanded") == "true"
    link = p.locator(".bd-sidebar-primary a[href='context-cost.html']")
    assert link.is_visible() and link.bounding_box()["x"] + link.bounding_box()["width"] <= 375
    p.keyboard.press("Escape")
    assert lessons.get_attribute("aria-expanded") == "false" and not p.locator(".bd-sidebar-primary").is_visible()
    sections.tap()
    entry = p.locator(".bd-sidebar-secondary .toc-entry a").nth(2)
    assert entry.is_visible()
    target = entry.get_attribute("href")[1:]
    entry.tap()                                                         # following a section closes the drawer
    assert not p.locator(".bd-sidebar-secondary").is_visible()
    p.wait_for_function(f"Math.abs(document.getElementById('{target}').getBoundingClientRect().top) < 200",
                        timeout=5000)
    assert p.evaluate("document.documentElement.scrollWidth") <= 375
