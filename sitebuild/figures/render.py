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

The figures are drawn in Chromium (sitebuild.figures.draw: two browsers side by side), in a thread started once
Sphinx has written the pages (Drawing), while the prose and math stages run. A figure is drawn again only
when its spec, its declared states or the drawing code change: what was drawn is
kept in `_build/figure-renders/<key>/`, sealed (sitebuild.sealed: each file's size and digest), so a rebuild with
no change starts no browser; an entry whose files are not as sealed is drawn again and the summary says so. The pages are rewritten
on every build (from the markup figure_html wrote, whatever an earlier build added), so the step can run over
pages Sphinx did not rewrite.
"""
from __future__ import annotations

import hashlib
import json
import queue
import re
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from sitebuild import progress, sealed
from sitebuild.figures import forms as forms
from sitebuild.figures.draw import draw_missing
from sitebuild.figures.figure import FIGURE, SPEC, Figure, FigureError, figures_in
from sitebuild.pages.extension import PLOTLY

HERE = Path(__file__).resolve().parent
# What a figure's drawing depends on besides its own JSON: a change to any of these draws every figure again.
DRAWING_CODE = (HERE / "draw.py", HERE / "figure.py", HERE / "forms.py", HERE / "render.js")
STATIC_CODE = ("figures.js", "plotly-menus.js", "plotly-theme.js", "site.css", PLOTLY)
IMAGES = "_static/rendered"
FILES = "figures"
CACHE = "figure-renders"

def code_digest(html_dir: Path) -> str:
    h = hashlib.sha256()
    for path in [*DRAWING_CODE, *(html_dir / "_static" / name for name in STATIC_CODE)]:
        h.update(path.name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"missing"))
    return h.hexdigest()


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


def _pages(html_dir: Path) -> dict[Path, tuple[str, list[Figure]]]:
    """Each built page with figures: its text and its figures. Raises FigureError for an id used twice."""
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
    return pages


class Drawing:
    """The figures of the built pages drawn in a thread of their own (draw_missing), started once Sphinx has
    written the pages, so that the prose and math stages run meanwhile (they rewrite the pages' text, never a
    figure's JSON, nor the scripts and style sheet its drawing reads); finish() waits for it and puts every
    figure's forms and markup into the pages as they are then. Whatever fails in the thread is raised by
    finish(), in the figures stage."""

    def __init__(self, html_dir: Path, build_dir: Path):
        self.html_dir, self.cache = html_dir, build_dir / CACHE
        self._stop = threading.Event()
        self._done: queue.Queue = queue.Queue()   # (figures, kept), each figure drawn, an error; None at the end
        self._thread = threading.Thread(target=self._draw, name="figures", daemon=True)
        self._thread.start()

    def _draw(self) -> None:
        try:
            code, pages = code_digest(self.html_dir), _pages(self.html_dir)
            todo, total = {}, 0                     # key -> the first figure drawn under it
            for _, figs in pages.values():
                for figure in figs:
                    total, key = total + 1, figure.key(code)
                    if key not in todo and not kept(figure, self.cache / key):
                        shutil.rmtree(self.cache / key, ignore_errors=True)
                        todo[key] = figure
            self._done.put((total, total - len(todo)))
            for figure in draw_missing(self.html_dir, [(f, key) for key, f in todo.items()], self.cache, self._stop):
                self._done.put(figure)
        except BaseException as exc:              # raised again by finish(), in the build's own thread
            self._done.put(exc)
        self._done.put(None)

    def stop(self) -> None:
        """The build failed meanwhile: each browser stops after the figure it is drawing, and closes."""
        self._stop.set()
        self._thread.join()

    def finish(self) -> Drawn:
        """Wait for the drawing (the stage's bar counts the figures), then place every figure. Raises
        FigureError."""
        result = Drawn()
        while (item := self._done.get()) is not None:
            if isinstance(item, BaseException):
                self._thread.join()
                raise item
            if isinstance(item, tuple):
                result.figures, kept_ones = item
                progress.expect(result.figures)
                for _ in range(kept_ones):
                    progress.advance()
            else:
                result.drawn += 1
                progress.advance(item.id)
        self._thread.join()
        return place_all(self.html_dir, self.cache, code_digest(self.html_dir), result)


def place_all(html_dir: Path, cache: Path, code: str, result: Drawn) -> Drawn:
    """Every figure's forms and markup into the pages as they are now; a figure none drew (its JSON changed
    since the drawing started) is drawn here."""
    pages = _pages(html_dir)
    missing = {figure.key(code): figure for _, figs in pages.values() for figure in figs
               if not (cache / figure.key(code) / "meta.json").is_file()}
    for _ in draw_missing(html_dir, [(figure, key) for key, figure in missing.items()], cache):
        result.drawn += 1
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


def render_figures(html_dir: Path, build_dir: Path) -> Drawn:
    """Draw every figure of the built pages under `html_dir` (kept in `build_dir`/figure-renders) and put
    their forms and markup into the site. Raises FigureError."""
    return Drawing(html_dir, build_dir).finish()
