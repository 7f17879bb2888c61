"""A plotly figure as figure_html (compute.present.figures) wrote it into a built page: its JSON, its declared
printed states, its box's size and its caption."""
from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

from sitebuild.figures import forms as forms

FIGURE = re.compile(r'<figure class="plotly-figure" aria-describedby="[^"]*" data-print="(?P<print>[^"]*)"[^>]*>'
                    r'(?P<body>.*?)</figure>', re.S)
SPEC = re.compile(r'<script type="application/json" class="plotly-figure-spec" data-for="(?P<id>[^"]+)">'
                  r'(?P<json>.*?)</script>', re.S)
CAPTION = re.compile(r"<figcaption>(?P<text>.*?)</figcaption>", re.S)
WEB_ONLY = re.compile(r'<span class="web-only">.*?</span>', re.S)


class FigureError(Exception):
    """A figure could not be drawn."""


@dataclass(frozen=True)
class Figure:
    page: str        # the page's path in the site, e.g. posts/attention-by-hand.html
    id: str
    spec: str        # plotly JSON as the page holds it
    prints: dict     # compute.present.figures.Print.as_json
    height: int
    min_width: int
    caption: str     # as printed: without its web-only words

    @property
    def stem(self) -> str:
        return Path(self.page).stem

    @property
    def columns(self) -> int:
        return forms.columns(self.prints["columns"], len(self.prints["states"]))

    @property
    def controls(self) -> bool:
        layout = json.loads(self.spec).get("layout", {})
        return (any(m.get("buttons") for m in layout.get("updatemenus", []))
                or any(s.get("steps") for s in layout.get("sliders", [])))

    def key(self, code: str) -> str:
        h = hashlib.sha256(code.encode())
        for part in (self.spec, json.dumps(self.prints, sort_keys=True), str(self.height), str(self.min_width)):
            h.update(b"\0" + part.encode())
        return h.hexdigest()[:20]


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def figures_in(page_html: str, page: str) -> list[Figure]:
    """The figures figure_html wrote into one page."""
    found = []
    for m in FIGURE.finditer(page_html):
        body = forms.EXTRAS.sub("", m["body"])  # as figure_html wrote it, whatever an earlier build added
        spec, tag = SPEC.search(body), forms.GRAPH_TAG.search(body)
        if not spec or not tag:
            raise FigureError(f"{page}: a figure without its JSON or its box")
        caption = CAPTION.search(body)
        if not caption or not _text(caption["text"]):
            raise FigureError(f"{page}: figure {spec['id']} has no caption; every figure is captioned, on the page, "
                              "its slide and paper (compute.present.figures.figure_html)")
        found.append(Figure(page, spec["id"], spec["json"], json.loads(html.unescape(m["print"])),
                            int(tag["height"]), int(tag["min"]), _text(WEB_ONLY.sub("", caption["text"]))))
    unread = page_html.count('<figure class="plotly-figure"') - len(found)   # none left undrawn and unprinted
    if unread:
        raise FigureError(f"{page}: {unread} figure(s) written in a form the build does not read "
                          "(compute.present.figures.figure_html)")
    return found
