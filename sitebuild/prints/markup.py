"""A finished lesson page's article as Typst markup: the same sections, prose (values glued), math, tables, code,
figures' printed states and questions the web page shows, with nothing of its controls.

What the web page shows only on screen (`.web-only`, controls, live figures, links to a figure's files) is left
out; what it keeps for paper (`.print-only`) is printed. Headings, figures and tables carry their page ids as Typst
labels, so a link inside the page becomes a reference with its number and page. Every character of text is
escaped: nothing a lesson writes can turn into Typst markup.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bs4 import NavigableString, Tag

from sitebuild.prints.code import listing, string
from sitebuild.prints.mathml import formula
from sitebuild.prints.tables import table

# What paper leaves out: controls, live figures, the figure's download links, headings' anchors.
SKIPPED = ("web-only", "headerlink", "handout-link", "figure-scroll", "plotly-graph-div", "figure-summary",
           "cell-inspect", "figure-files", "figure-error", "modebar-container", "live-generate", "circuit-box",
           "train-box",
           "live-field", "live-error", "front-box")
SKIPPED_TAGS = {"script", "style", "button", "select", "input", "option", "textarea", "noscript", "template",
                "nav", "form", "canvas"}
LABEL = re.compile(r"[^A-Za-z0-9_.:-]")
# Inline elements and the Typst function each becomes (sitebuild/prints/chapter.typ defines `mark`).
WRAPS = {"em": "emph", "i": "emph", "cite": "emph", "strong": "strong", "b": "strong", "sub": "sub", "sup": "super",
         "mark": "mark"}


def escape(text: str) -> str:
    """Text as Typst markup prints it: every ASCII mark escaped, line breaks as spaces."""
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", text)


def label(ident: str) -> str:
    return LABEL.sub("-", ident)


def classes(el: Tag) -> set[str]:
    return set(el.get("class") or [])


@dataclass
class Page:
    """What converting one page collects beside its markup."""
    page_dir: Path                      # the page's folder in the built site, for its images' paths
    root: Path                          # the folder Typst reads from (paths start at it)
    labels: set[str] = field(default_factory=set)       # ids the document labels (sections, figures, tables)
    terms: dict[str, str] = field(default_factory=dict)  # glossary terms used: anchor -> the words printed
    stem: str = ""
    folder: Path | None = None          # where the lesson's sources are written (its drawings beside them)
    css: str = ""                       # the site's style sheet, for the page's inline drawings
    questions: dict[int, dict] = field(default_factory=dict)  # n -> its question (sitebuild.prints.lesson)
    apart: dict[str, str] = field(default_factory=dict)   # id -> the appendix's letter it is printed in
    figures: int = 0
    tables: int = 0

    def path(self, src: str) -> str:
        """An image's path from the Typst root."""
        return "/" + (self.page_dir / src.split("#")[0]).resolve().relative_to(self.root.resolve()).as_posix()


def skipped(el: Tag) -> bool:
    """Whether print leaves the element out: a tag or a class of what only the screen shows (SKIPPED_TAGS,
    SKIPPED), or an element hidden from assistive technology (MathJax's visual half of a formula, whose
    assistive MathML prints instead), except a span so marked, which prints."""
    if el.name in SKIPPED_TAGS or classes(el) & set(SKIPPED):
        return True
    return el.get("aria-hidden") == "true" and el.name != "span"


def inline(el, page: Page) -> str:
    """An element's inline content as markup."""
    if isinstance(el, NavigableString):
        return "" if el.__class__.__name__ in ("Comment", "Doctype") else escape(str(el))
    if skipped(el):
        return ""
    name, cls = el.name, classes(el)
    if name == "mjx-container":
        math = el.select_one("mjx-assistive-mml math")
        return formula(math) if math else ""
    if name in ("mjx-assistive-mml", "math"):
        return ""
    body = "".join(inline(c, page) for c in el.children)
    if name in WRAPS:
        return f"#{WRAPS[name]}[{body}]" if body.strip() else body
    if name == "code" or (name == "span" and "pre" in cls):
        return f"#raw({string(el.get_text())})"
    if name == "br":
        return " \\ "
    if name == "img":
        return f"#box(image({string(page.path(el['src']))}, height: 1em))" if el.get("src") else ""
    if name == "a":
        return anchor(el, body, page)
    if name == "svg":
        return ""
    return body


def anchor(el: Tag, body: str, page: Page) -> str:
    """A link: to a part of this page, a reference with its number and page; to another page of the site, its
    words alone (paper cannot follow it); to the world, a link."""
    href = el.get("href", "")
    if "glossary-link" in classes(el):
        page.terms[href.partition("#")[2]] = el.get_text(" ", strip=True)
        return body
    if href.startswith("#") and href[1:] in page.apart:     # printed apart: the appendix that holds it
        return f"{body} (appendix {page.apart[href[1:]]})"
    if href.startswith("#") and len(href) > 1:
        return f"#xref({string(label(href[1:]))})[{body}]"
    if href.startswith(("http://", "https://")) and "localhost" not in href and "127.0.0.1" not in href:
        return f"#link({string(href)})[{body}]"
    return body


def blocks(el: Tag, page: Page) -> list[str]:
    """An element's block content, as a list of Typst blocks."""
    out: list[str] = []
    run: list[str] = []

    def flush():
        text = "".join(run).strip()
        if text:
            out.append(f"#par[{text}]" if not text.startswith("#") else text)
        run.clear()

    for child in el.children:
        if isinstance(child, NavigableString):
            run.append(inline(child, page))
            continue
        made = block(child, page)
        if made is None:
            run.append(inline(child, page))
        else:
            flush()
            out.extend(made)
    flush()
    return out


def block(el: Tag, page: Page) -> list[str] | None:
    """One block element as Typst blocks (None: it is inline content)."""
    if skipped(el):
        return []
    name, cls = el.name, classes(el)
    if name == "section":
        return section(el, page)
    if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
        text = "".join(inline(c, page) for c in el.children).strip()
        return [f"#heading(level: {int(name[1]) - 1 or 1})[{text}]"]
    if name == "p" and el.get("data-question"):
        q = page.questions[int(el["data-question"])]
        return [f"#question({q['n']}, [{q['question']}], [{q['answer']}])"]
    if name == "p":
        text = "".join(inline(c, page) for c in el.children).strip()
        if not text:
            return []
        kind = "note" if "print-only" in cls else "caption-note" if "figure-why" in cls else "par"
        return [f"#{kind}[{text}]"]
    if name in ("ul", "ol"):
        items = [blocks(li, page) for li in el.find_all("li", recursive=False)]
        fn = "enum" if name == "ol" else "list"
        return [f"#{fn}(" + ", ".join("[" + "\n".join(item) + "]" for item in items) + ")"]
    if name == "pre" or (name == "div" and cls & {"highlight"}):
        pre = el if name == "pre" else el.find("pre")
        return [listing(pre.get_text() if pre else "", output="output" in " ".join(
            " ".join(p.get("class") or []) for p in el.parents if p.name == "div"))]
    if name == "div" and "math" in cls and el.find("mjx-container"):
        math = el.select_one("mjx-assistive-mml math")
        return [formula(math)] if math else []
    if name == "table":
        page.tables += 1
        return [table(el, page, inline, label)]
    if name == "figure":
        return figure(el, page)
    if name == "blockquote":
        return ["#quote(block: true)[" + "\n\n".join(blocks(el, page)) + "]"]
    if name == "details":
        return details(el, page)
    if name == "hr":
        return ["#line(length: 100%, stroke: 0.4pt + luma(160))"]
    if name == "svg":
        return inline_drawing(el, page)
    if name in ("div", "aside", "article", "main", "dl", "dd", "dt", "header", "footer", "summary"):
        made = blocks(el, page)
        ident = el.get("id")
        if ident and made and ident not in page.labels and not el.find("figure"):
            page.labels.add(ident)
            made[0] = f"#block[{made[0]}] <{label(ident)}>"
        return made
    return None


def section(el: Tag, page: Page) -> list[str]:
    out = blocks(el, page)
    if el.get("data-answers"):      # the exercises' answers (sitebuild.prints.lesson): printed with the others
        return ["#answers-section[" + "\n\n".join(out) + "]"]
    ident = el.get("id")
    for k, made in enumerate(out):
        if made.startswith("#heading(") and ident and ident not in page.labels:
            page.labels.add(ident)
            out[k] = f"{made} <{label(ident)}>"
            break
    return out


def inline_drawing(svg: Tag, page: Page, caption: str | None = None) -> list[str]:
    """An inline SVG drawing (the model's block diagram, a training curve) as a picture on paper."""
    from sitebuild.prints.svgs import drawing
    path = drawing(svg, page.css, page.folder) if page.folder else None
    if path is None:
        return []
    width = svg.get("width") or (svg.get("viewbox", "0 0 400 0").split()[2])
    where = "/" + path.resolve().relative_to(page.root.resolve()).as_posix()
    if caption is None:
        return [f"#drawing({string(where)}, {float(width):.0f})"]
    page.figures += 1
    return [f"#drawing-figure({string(where)}, {float(width):.0f}, [{caption}])"]


def figure(el: Tag, page: Page) -> list[str]:
    """A figure: its printed states side by side under their labels, numbered, with its caption."""
    if el.find("svg", recursive=False) is not None and not el.select(".figure-print"):
        caption = el.find("figcaption")
        text = "".join(inline(c, page) for c in caption.children).strip() if caption else ""
        return inline_drawing(el.find("svg", recursive=False), page, text)
    states = el.select(".figure-print .figure-state")
    if not states:
        images = el.find_all("img")
        states = images
    if not states:
        return []
    columns = 1
    grid = el.select_one(".figure-print")
    if grid and "--columns:" in grid.get("style", ""):
        columns = int(re.search(r"--columns:(\d+)", grid["style"]).group(1))
    cells = []
    for state in states:
        img = state if state.name == "img" else state.find("img")
        if not img or not img.get("src"):
            continue
        name = state.select_one(".figure-state-label") if state.name != "img" else None
        title = string(name.get_text(" ", strip=True)) if name else "none"
        cells.append(f"fig-state({title}, {string(page.path(img['src']))}, {img.get('width', 0)}, "
                     f"{img.get('height', 0)})")
    caption = el.find("figcaption")
    text = "".join(inline(c, page) for c in caption.children).strip() if caption else ""
    why = el.select_one(".figure-why")
    note = "".join(inline(c, page) for c in why.children).strip() if why else ""
    graph = el.select_one(".plotly-graph-div")
    ident = (graph.get("id") if graph else None) or el.get("id")
    page.figures += 1
    tag = f" <{label(ident)}>" if ident and ident not in page.labels else ""
    if ident:
        page.labels.add(ident)
    return [f"#states-figure(columns: {columns}, ({', '.join(cells)},), [{text}], note: [{note}]){tag}"]


def details(el: Tag, page: Page) -> list[str]:
    """A folded part opens on paper, its summary as a bold line ("check yourself" answers are questions,
    taken out before: sitebuild.prints.lesson.mark_questions)."""
    summary = el.find("summary", recursive=False)
    title = "".join(inline(c, page) for c in summary.children).strip() if summary else ""
    if summary:
        summary.extract()
    return ([f"#strong[{title}]"] if title else []) + blocks(el, page)
