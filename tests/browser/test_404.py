"""404.html: a friendly page for missing URLs, working at any depth of the site.

A static host serves 404.html for a missing URL at that URL, so its links
are absolute from the site's base path (sitebuild.pages.extension.root_relative; "/" by
default, `--base /project/` for a site served under a path).
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import LESSONS, ROOT, ROOT_READ, new_visit
from sitebuild.pages.extension import root_relative
from sitebuild.publish.site import publish
from sitebuild.serve import serve
from sitebuild.sitecheck import page_urls


def test_root_relative_rewrites_only_relative_urls():
    html = ('<html data-content_root="./"><link href="_static/a.css?v=1"><script src="./x.js"></script>'
            '<form action="search.html"></form><a href="posts/l.html#s">l</a><a href="#top">t</a><a href="/index.html">i</a>'
            '<a href="https://example.org/">e</a><img src="data:image/png;base64,AA"></html>')
    assert root_relative(html) == (
        '<html data-content_root="/"><link href="/_static/a.css?v=1"><script src="/x.js"></script>'
        '<form action="/search.html"></form><a href="/posts/l.html#s">l</a><a href="#top">t</a><a href="/index.html">i</a>'
        '<a href="https://example.org/">e</a><img src="data:image/png;base64,AA"></html>'
    )
    assert root_relative(root_relative(html)) == root_relative(html)


def test_404_page_links_home_and_every_lesson_from_the_root(built_site):
    page = built_site / "404.html"
    html = page.read_text()
    assert '<meta content="noindex" name="robots" />' in html
    assert 'data-content_root="/"' in html
    urls = page_urls(page)
    assert "/index.html" in urls
    for stem in LESSONS:
        assert f"/posts/{stem}.html" in urls
    relative = [u for u in urls if not re.match(r"^(/|#|data:)", u)]
    assert not relative, relative


def test_404_page_is_in_no_menu_and_not_searchable(built_site):
    for page in ("index.html", "posts/trained-walkthrough.html"):
        assert "404.html" not in (built_site / page).read_text()
    index = json.loads(re.search(r"Search\.setIndex\((.*)\)", (built_site / "searchindex.js").read_text()).group(1))
    titles = dict(zip(index["docnames"], index["titles"]))
    assert titles["404"] == ""  # nosearch: indexed with no title and no words
    assert "Page not found" not in (built_site / "searchindex.js").read_text()


@pytest.fixture
def missing_page(browser, built_site):
    """A browser tab on a server that answers misses with 404.html."""
    with serve(built_site, not_found="404.html") as base:
        v, context = new_visit(browser, base)
        tab = v.page
        failed = []
        tab.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        yield tab, base, v.external_requests, v.console_errors, failed
        context.close()


@pytest.mark.parametrize("path", ["no-such-page.html", "posts/deeper/still/missing.html"])
def test_a_missing_url_gets_the_styled_404_page(missing_page, path):
    tab, base, external, errors, failed = missing_page
    response = tab.goto(base + path, wait_until="load")
    assert response.status == 404
    assert tab.locator("h1").first.inner_text().startswith("Page not found")
    # Styled: the theme's stylesheet applies (its header bar is laid out) and every sheet loaded.
    assert tab.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--pst-color-primary')").strip()
    assert tab.evaluate("getComputedStyle(document.querySelector('.bd-header-article')).display") != "none"
    assert tab.evaluate("[...document.styleSheets].every((s) => s.cssRules.length > 0)")
    assert failed == [f"404 {base}{path}"]  # only the page itself; every asset loaded
    assert not external
    # Chromium reports the page's own 404 status on the console; nothing else may appear.
    assert errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"]
    for stem in LESSONS:
        link = tab.locator(f'article a[href="/posts/{stem}.html"]')
        assert link.count() == 1
    tab.locator('article a[href="/index.html"]').click()
    tab.wait_for_load_state("load")
    assert tab.url == base + "index.html"
    assert failed == [f"404 {base}{path}"]


@ROOT_READ  # copies the repository's _build/html
def test_the_site_works_under_a_path_prefix(browser, built_site, tmp_path):
    """A project page lives under /<project>/: built with --base, every page and the 404 page load whole."""
    publish(ROOT / "_build" / "html", [], tmp_path / "course", base="/course/")
    with serve(tmp_path, not_found="course/404.html") as root:
        v, context = new_visit(browser, root)
        tab, external = v.page, v.external_requests
        failed = []
        tab.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        missing = root + "course/posts/deeper/missing.html"
        assert tab.goto(missing, wait_until="load").status == 404
        assert tab.evaluate("[...document.styleSheets].every((s) => s.cssRules.length > 0)")
        assert failed == [f"404 {missing}"]  # every asset of the 404 page came from under /course/
        for stem in LESSONS:
            failed.clear()
            tab.locator(f'article a[href="/course/posts/{stem}.html"]').click()
            tab.wait_for_load_state("load")
            assert tab.url == f"{root}course/posts/{stem}.html"
            tab.wait_for_timeout(200)
            assert failed == [], stem  # the lesson's own links are relative: nothing escapes the prefix
            tab.go_back(wait_until="load")
        assert not external
        context.close()


def test_a_base_that_is_no_url_path_is_refused(capsys):
    from sitebuild.__main__ import main
    with pytest.raises(SystemExit) as stop:
        main(["--base", "project"])
    assert stop.value.code == 2
    assert "'project' is not a URL path like /project/" in capsys.readouterr().err
