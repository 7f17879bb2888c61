"""A drawing the page holds as inline SVG (the model's block diagram, compute.present.diagram; the training curve
a print note carries) as a file Typst can place: the page's own style rules for it (site.css, light mode, each
`var(--name, fallback)` as its fallback) written into the SVG, so paper shows what a light screen shows."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from bs4 import Tag

# The style rules that draw the page's inline drawings, by the class of the drawing's root.
ROOTS = {"block-diagram": (".block-diagram",),
         "train-curve": ("svg.train-curve", ".train-line", ".train-grid", ".train-earlier", ".train-mark", ".train-tick")}
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_VAR = re.compile(r"var\(--[\w-]+,\s*([^()]+?)\)")
_CASE = {"viewbox": "viewBox", "preserveaspectratio": "preserveAspectRatio", "textlength": "textLength"}


def rules(css: str, prefixes: tuple[str, ...]) -> str:
    """site.css's rules for one kind of drawing, light mode, variables resolved to their fallbacks."""
    out = []
    for selectors, body in _RULE.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        chosen = [s.strip() for s in selectors.split(",") if s.strip().startswith(prefixes)]
        if chosen and "data-theme" not in selectors:
            declarations = _VAR.sub(lambda m: m.group(1), body).strip()
            out.append(f"{', '.join(chosen)} {{{declarations}}}")
    return "\n".join(out)


def drawing(svg: Tag, css: str, folder: Path) -> Path | None:
    """The drawing as a standalone SVG file under folder (named by its content); None for a drawing the page
    styles with rules this module does not know."""
    kind = next((k for k in ROOTS if k in (svg.get("class") or [])), None)
    if kind is None:
        return None
    text = str(svg)
    for lower, right in _CASE.items():
        text = re.sub(rf"(\s){lower}=", rf"\1{right}=", text)
    style = f"<style>{rules(css, ROOTS[kind])}\ntext {{ font-family: 'Libertinus Serif', serif; }}</style>"
    text = re.sub(r"^<svg\b", '<svg xmlns="http://www.w3.org/2000/svg"', text, count=1)
    text = re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + style, text, count=1)
    head, rest = text.split(">", 1)
    box = re.search(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ([\d.]+)"', head)
    if box:                                   # its size from its view box (a width alone would leave its height open)
        head = re.sub(r'\s(width|height)="[^"]*"', "", head)
        head = head.replace("<svg ", f'<svg width="{box.group(1)}" height="{box.group(2)}" ', 1)
    text = head + ">" + rest
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"drawing-{hashlib.sha256(text.encode()).hexdigest()[:12]}.svg"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path
