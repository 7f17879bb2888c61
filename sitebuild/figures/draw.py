"""The figures drawn in headless Chromium with the site's own plotly.js and figure scripts (render.js runs there):
each figure's pictures, printed states and files kept in its cache folder (sitebuild.figures.render places them).

The figures to draw are shared among two browsers side by side (one per core, `draw_missing`): a browser draws
on one renderer process, and two on 2 cores take two thirds of the time one does.
"""
from __future__ import annotations

import base64
import json
import queue
import shutil
import tempfile
import threading
from pathlib import Path

from sitebuild import browser, cores, sealed
from sitebuild.figures import forms as forms
from sitebuild.figures.figure import Figure, FigureError
from sitebuild.pages.extension import PLOTLY
from sitebuild.serve import serve

RENDER_JS = Path(__file__).resolve().parent / "render.js"
PNG_SCALE = 2

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
                         "height": prints.get("height"), "least": forms.least_px(figure.columns),
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


def require_legible(figure: Figure, label: str, smallest: dict) -> None:
    """A FigureError naming the figure's state and its text that would print under forms.LEAST_PRINTED_PT."""
    least = forms.least_px(figure.columns)
    if smallest["size"] < least - 0.005:
        pt = smallest["size"] * forms.printed_scale(figure.columns)
        state = f" (printed state {label!r})" if label else ""
        raise FigureError(f"{figure.page}: figure {figure.id}{state} would print {smallest['text']!r} at {pt:.1f} pt, "
                          f"under the {forms.LEAST_PRINTED_PT:g} pt a printed figure's text needs: a font plotly "
                          f"shrinks that the print cannot raise (sitebuild/figures/render.js, legible)")


def require_clear(figure: Figure, label: str, crowded: list) -> None:
    """A FigureError naming the figure's state, a title and the tick label it would print over."""
    if crowded:
        title, tick = crowded[0]
        state = f" (printed state {label!r})" if label else ""
        raise FigureError(f"{figure.page}: figure {figure.id}{state} would print its title {title!r} over the tick "
                          f"label {tick!r}: give the title room (the layout's margin, or a shorter title)")


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
        require_legible(figure, state["label"], drawn["smallest"])
        require_clear(figure, state["label"], drawn["crowded"])
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


def draw_missing(html_dir: Path, todo: list[tuple[Figure, str]], cache: Path, stop: threading.Event | None = None):
    """Draw each (figure, key) of `todo` into `cache`/key, shared among up to BROWSERS browsers, each driven by a
    thread of its own (Playwright's objects belong to the thread that made them); yields each figure as it is
    done. The first error stops the other browsers after the figure each is drawing, and is raised; so does
    `stop`, set by the caller (the build failed meanwhile), which raises nothing."""
    if not todo:
        return
    n = max(1, min(BROWSERS, cores.at_once(), len(todo)))
    done: queue.Queue = queue.Queue()
    stop = stop or threading.Event()

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
