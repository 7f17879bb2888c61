"""Every link of every published page resolves inside site/; a lesson links off the site only to the sources it cites."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from conftest import LESSONS
from sitebuild.sitecheck import check_links, page_urls

# Hosts a lesson may link to, each with its reason: cited sources, which a reader follows by
# choice. A link is not a load: pages still fetch nothing from outside (tests/browser).
CITED_HOSTS = {
    "arxiv.org": "the papers the lessons cite",
    "www.3blue1brown.com": "the video series the walkthrough credits",
    "nlp.seas.harvard.edu": "The Annotated Transformer, further reading",
    "github.com": "nanoGPT, further reading",
}


def test_every_internal_link_resolves(built_site):
    report = check_links(built_site)
    assert not report.broken, "\n".join(f"{page}: {url} ({why})" for page, url, why in report.broken)
    unexpected = [(page, url) for page, url in report.external
                  if not (page.startswith(("posts/", "slides/")) and urlsplit(url).scheme == "https"  # a deck: its page's
                          and urlsplit(url).hostname in CITED_HOSTS)]
    assert not unexpected, f"links leaving the site: {unexpected}"


def test_external_links_are_anchors_only(built_site):
    """A cited source is a link to follow, never something the page loads."""
    for stem in LESSONS:
        html = (built_site / "posts" / f"{stem}.html").read_text()
        loads = re.findall(r'<(?!a\b)\w+[^>]*\b(?:src|href)="https?://', html)
        assert loads == [], stem


def test_the_checked_links_include_downloads_assets_and_anchors(built_site):
    for stem in LESSONS:
        urls = page_urls(built_site / "posts" / f"{stem}.html")
        assert f"../handouts/{stem}.pdf" in urls
        assert f"../notebooks/{stem}.ipynb" in urls
        assert any(u.startswith("../_static/") for u in urls)
        assert any(u.startswith("#") and len(u) > 1 for u in urls)


def _fake_site(root):
    (root / "posts").mkdir(parents=True)
    (root / "_static").mkdir()
    (root / "_static" / "a.css").write_text("")
    (root / "index.html").write_text('<h1 id="top">Home</h1><a href="posts/">lessons</a>')
    (root / "posts" / "index.html").write_text("<p>list</p>")
    (root / "posts" / "l.html").write_text(
        '<link href="../_static/a.css?v=1"><a href="../index.html#top">ok</a><a href="#">top</a>'
        '<img src="data:image/png;base64,AAAA"><a href="/_static/a.css">root-relative</a>'
        '<a href="../index.html#gone">bad anchor</a><a href="#nowhere">bad local anchor</a>'
        '<script src="../_static/missing.js"></script><a href="../../x.html">outside</a>'
        '<a href="https://example.org/">external</a><a href="mailto:a@b.c">mail</a>'
    )
    return root


def test_check_links_reports_each_kind_of_problem(tmp_path):
    report = check_links(_fake_site(tmp_path / "site"))
    assert report.broken == [
        ("posts/l.html", "../index.html#gone", "no id 'gone' in index.html"),
        ("posts/l.html", "#nowhere", "no id 'nowhere' in posts/l.html"),
        ("posts/l.html", "../_static/missing.js", "no file _static/missing.js"),
        ("posts/l.html", "../../x.html", "points outside the site"),
    ]
    assert report.external == [("posts/l.html", "https://example.org/"), ("posts/l.html", "mailto:a@b.c")]
