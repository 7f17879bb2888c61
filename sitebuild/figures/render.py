"""Every figure drawn when the site builds: its picture on the page, its printed states, its files.

Each plotly figure of a built page (compute.present.figures.figure_html: the spec, and the states of its
controls that its text cites) is drawn in headless Chromium with the site's own plotly.js and
_static/figures.js (sitebuild/figures/render.js), and becomes:

* the page's picture: plotly's SVG at the wide and the phone width, light and dark
  (`_static/rendered/<key>-<mode>-<width>.svg`), shown as the figure box's background from the first paint by
  rules in the page's <head>; the live figure replaces it when the reader first touches it;
* its printed states: one SVG per state the text cites, at the handout's width, no control drawn
  (`_static/rendered/<key>-print-<k>.svg`), shown on paper only, side by side under their labels;
* its files, linked beside it: `figures/<lesson>/<figure id>.svg` and `.png` (the printed states together) and
  `.csv` (the numbers each state plots).

The figures to draw are shared among two browsers side by side (one per core, `draw_missing`): a browser draws
on one renderer process, and two on 2 cores take two thirds of the time one does. A figure is drawn again only
when its spec, its declared states or the drawing code change: what was drawn is
kept in `_build/figure-renders/<key>/`, sealed (sitebuild.sealed: each file's size and digest), so a rebuild with
no change starts no browser; an entry whose files are not as sealed is drawn again and the summary says so. The pages are rewritten
on every build (from the markup figure_html wrote, whatever an earlier build added), so the step can run over
pages Sphinx did not rewrite.
"""
from __future__ import annotations

import base64
import hashlib
import html
import json
import queue
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from sitebuild import browser, cores, progress, sealed

from sitebuild.figures import forms as forms
from sitebuild.pages.extension import PLOTLY
from sitebuild.serve import serve

HERE = Path(__file__).resolve().parent
RENDER_JS = HERE / "render.js"
# What a figure's drawing depends on besides its own JSON: a change to any of these draws every figure again.
DRAWING_CODE = (Path(__file__), HERE / "forms.py", RENDER_JS)
STATIC_CODE = ("figures.js", "plotly-menus.js", "plotly-theme.js", "site.css", PLOTLY)
IMAGES = "_static/rendered"
FILES = "figures"
CACHE = "figure-renders"
PNG_SCALE = 2

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


def code_digest(html_dir: Path) -> str:
    h = hashlib.sha256()
    for path in [*DRAWING_CODE, *(html_dir / "_static" / name for name in STATIC_CODE)]:
        h.update(path.name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"missing"))
    return h.hexdigest()


# ------------------------------------------------------------------ drawing, in Chromium

HARNESS = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>figures</title>
<link rel="stylesheet" href="_static/site.css"></head>
<body style="margin:0">
<script src="_static/{PLOTLY}"></script>
<script src="_static/plotly-menus.js"></script>
<script src="_static/plotly-theme.js"></script>
<script src="_static/figures.js" data-plotly="_static/{PLOTLY}"></script>
<script src="figurerender.js"></script>
</body></html>
"""


class Harness:
    """A Chromium page with the site's plotly.js and figure scripts, opened on first use."""

    def __init__(self, html_dir: Path):
        self.html_dir = html_dir
        self._stack = None
        self.page = None

    def __enter__(self):
        return self

    def open(self):
        from contextlib import ExitStack
        from playwright.sync_api import sync_playwright

        stack = ExitStack()
        try:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            (folder / "_static").symlink_to(self.html_dir.resolve() / "_static")
            (folder / "render.html").write_text(HARNESS)
            shutil.copy2(RENDER_JS, folder / "figurerender.js")
            base = stack.enter_context(serve(folder))
            pw = stack.enter_context(sync_playwright())
            chromium = browser.launch(pw)
            stack.callback(chromium.close)
            page = chromium.new_page(viewport={"width": 1280, "height": 900})
            self.external, self.errors = browser.watch(page)
            page.goto(base + "render.html", wait_until="load")
            page.wait_for_function("() => window.renderFigure && window.siteFigures && window.Plotly && window.siteTheme")
        except BaseException:
            stack.close()
            raise
        self._stack, self.page = stack, page
        return page

    def __exit__(self, *exc):
        if self._stack is not None:
            self._stack.close()

    def draw(self, figure: Figure) -> dict:
        page = self.page or self.open()
        prints = figure.prints
        job = {"spec": json.loads(figure.spec),
               "web": {name: dict(g) for name, g in forms.geometry(figure.min_width).items()},
               "print": {"width": forms.state_width(figure.columns), "columns": figure.columns,
                         "height": prints.get("height"),
                         "states": prints["states"] or [{"label": "", "steps": []}]}}
        try:
            out = page.evaluate("job => renderFigure(job)", job)
        except Exception as exc:  # playwright's errors: a JS exception, a timeout
            raise FigureError(f"{figure.page}: figure {figure.id} could not be drawn: {exc}") from exc
        if self.errors or self.external:
            raise FigureError(f"{figure.page}: figure {figure.id} could not be drawn: "
                              f"{' | '.join(self.errors + self.external)}")
        return out

    def png(self, svg: str) -> bytes:
        url = (self.page or self.open()).evaluate("([svg, scale]) => rasterize(svg, scale)", [svg, PNG_SCALE])
        return base64.b64decode(url.split(",", 1)[1])


def draw_one(harness: Harness, figure: Figure, key: str, folder: Path) -> None:
    """Draw `figure` and keep every form of it in `folder` (written last: meta.json)."""
    out = harness.draw(figure)
    folder.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for which, drawn in out["web"].items():
        for mode in ("light", "dark"):
            svg = forms.steady_svg(drawn[mode], f"{key[:8]}{which[0]}{mode[0]}",
                                   drawn["pressedLight" if mode == "light" else "pressedDark"])
            (folder / f"{mode}-{which}.svg").write_text(svg)
        sizes[which] = {**forms.geometry(figure.min_width)[which], "height": drawn["height"]}
    states = figure.prints["states"] or [{"label": "", "steps": []}]
    printed, data = [], []
    for k, (state, drawn) in enumerate(zip(states, out["print"])):
        svg = forms.steady_svg(drawn["svg"], f"{key[:8]}p{k}")
        (folder / f"print-{k}.svg").write_text(svg)
        width, height = forms.svg_size(svg)
        printed.append({"label": state["label"], "width": round(width), "height": round(height)})
        data.append((state["label"], drawn["data"]))
    together = forms.side_by_side([forms.Printed(s["label"], (folder / f"print-{k}.svg").read_text())
                                   for k, s in enumerate(printed)], figure.columns)
    (folder / "figure.svg").write_text(together)
    (folder / "figure.png").write_bytes(harness.png(together))
    (folder / "figure.csv").write_text(forms.figure_csv(data))
    (folder / "meta.json").write_text(json.dumps({"sizes": sizes, "printed": printed}, indent=1))
    sealed.seal_folder(folder)


BROWSERS = 2   # at most this many browsers draw side by side, one per core: each draws on one renderer process
               # (the 37 figures of the site: 39 s in one, 26 s in two, on 2 cores)


def draw_missing(html_dir: Path, todo: list[tuple[Figure, str]], cache: Path):
    """Draw each (figure, key) of `todo` into `cache`/key, shared among up to BROWSERS browsers, each driven by a
    thread of its own (Playwright's objects belong to the thread that made them); yields each figure as it is
    done. The first error stops the other browsers after the figure each is drawing, and is raised."""
    if not todo:
        return
    n = max(1, min(BROWSERS, cores.at_once(), len(todo)))
    done: queue.Queue = queue.Queue()
    stop = threading.Event()

    def work(share):
        try:
            with Harness(html_dir) as harness:
                for figure, key in share:
                    if stop.is_set():
                        break
                    draw_one(harness, figure, key, cache / key)
                    done.put(figure)
        except BaseException as exc:        # a FigureError, or Playwright's own once its browser is gone
            stop.set()
            done.put(exc)
        finally:
            done.put(None)                  # this browser is closed

    for k in range(n):
        threading.Thread(target=work, args=(todo[k::n],), daemon=True).start()
    closed, error = 0, None
    while closed < n:
        item = done.get()
        if item is None:
            closed += 1
        elif isinstance(item, BaseException):
            error = error or item
        elif error is None:
            yield item
    if error is not None:
        raise error


# ------------------------------------------------------------------ the pages

def place(figure: Figure, key: str, folder: Path, html_dir: Path) -> tuple[str, tuple[str, tuple[str, str]]]:
    """Copy the figure's forms into the site; the page's rules for it and its new markup."""
    meta = json.loads((folder / "meta.json").read_text())
    pictures = {}
    for name in ("light-wide", "dark-wide", "light-narrow", "dark-narrow"):
        pictures[name] = f"{IMAGES}/{key}-{name}.svg"
        shutil.copyfile(folder / f"{name}.svg", html_dir / pictures[name])
    states = []
    for k, printed in enumerate(meta["printed"]):
        image = f"{IMAGES}/{key}-print-{k}.svg"
        shutil.copyfile(folder / f"print-{k}.svg", html_dir / image)
        states.append({**printed, "image": image})
    stem = f"{FILES}/{figure.stem}/{figure.id}"
    (html_dir / stem).parent.mkdir(parents=True, exist_ok=True)
    for ext in ("svg", "png", "csv"):
        shutil.copyfile(folder / f"figure.{ext}", html_dir / f"{stem}.{ext}")
    up = "../" * figure.page.count("/")
    rules = forms.page_rules(figure.id, pictures, meta["sizes"], up)
    files = forms.FileNames(f"{stem}.svg", f"{stem}.png", f"{stem}.csv")
    extras = (forms.extras_html(states, figure.columns, figure.prints.get("why", ""), files, up, figure.caption),
              forms.files_note_html(files))
    tag = forms.figure_tag(figure.id, figure.height, figure.min_width, meta["sizes"], figure.controls)
    return rules, (tag, extras)


def rewrite(page_html: str, markup: dict[str, tuple[str, tuple[str, str]]], rules: str) -> str:
    """The page with each figure's box, extras and caption's end as drawn this build, and its rules in <head>."""
    def one(m: re.Match) -> str:
        block = forms.EXTRAS.sub("", m.group(0))
        fid = SPEC.search(block)["id"]
        tag, (before, in_caption) = markup[fid]
        block = forms.GRAPH_TAG.sub(lambda _: tag, block, count=1)
        block = block.replace("<figcaption>", before + "<figcaption>", 1)
        return block.replace("</figcaption>", in_caption + "</figcaption>", 1)
    return forms.with_page_style(FIGURE.sub(one, page_html), rules)


def kept(figure: Figure, folder: Path) -> bool:
    """Whether `folder` holds the figure as an earlier build drew it, every file as it was sealed; a damaged
    one is noted (sitebuild.sealed) and drawn again."""
    if not folder.exists():
        return False
    flaw = sealed.folder_flaw(folder)
    if flaw:
        sealed.heal(f"figure {figure.id} ({figure.page}), {CACHE}/{folder.name}", flaw)
    return flaw is None


@dataclass
class Drawn:
    figures: int = 0
    drawn: int = 0     # drawn in Chromium this build (the rest were kept from an earlier one)

    def summary(self) -> str:
        return f"{self.figures} drawn to SVG, PNG and CSV ({self.drawn} new, {self.figures - self.drawn} kept)"


def render_figures(html_dir: Path, build_dir: Path) -> Drawn:
    """Draw every figure of the built pages under `html_dir` (kept in `build_dir`/figure-renders) and put
    their forms and markup into the site. Raises FigureError."""
    cache = build_dir / CACHE
    code = code_digest(html_dir)
    pages = {}
    for path in sorted(html_dir.rglob("*.html")):
        rel = path.relative_to(html_dir).as_posix()
        if rel.startswith(("_static/", f"{FILES}/")):
            continue
        text = path.read_text(encoding="utf-8")
        if "plotly-figure" in text:
            pages[path] = (text, figures_in(text, rel))
    ids = [f.id for _, figs in pages.values() for f in figs]
    if len(ids) != len(set(ids)):
        raise FigureError(f"figure ids used twice: {sorted({i for i in ids if ids.count(i) > 1})}")
    result = Drawn(figures=len(ids))
    progress.expect(len(ids))
    todo = {}                                   # key -> the first figure drawn under it
    for _, figs in pages.values():
        for figure in figs:
            key = figure.key(code)
            if key in todo or kept(figure, cache / key):
                progress.advance(figure.id)
            else:
                shutil.rmtree(cache / key, ignore_errors=True)
                todo[key] = figure
    for figure in draw_missing(html_dir, [(figure, key) for key, figure in todo.items()], cache):
        result.drawn += 1
        progress.advance(figure.id)
    for folder in (html_dir / IMAGES, html_dir / FILES):
        shutil.rmtree(folder, ignore_errors=True)
    (html_dir / IMAGES).mkdir(parents=True)
    used = set()
    for path, (text, figs) in pages.items():
        rules, markup = [], {}
        for figure in figs:
            key = figure.key(code)
            used.add(key)
            rule, markup[figure.id] = place(figure, key, cache / key, html_dir)
            rules.append(rule)
        new = rewrite(text, markup, "".join(rules))
        if new != text:
            path.write_text(new, encoding="utf-8")
    for stale in cache.iterdir() if cache.is_dir() else ():
        if stale.name not in used:
            shutil.rmtree(stale, ignore_errors=True)
    return result
