"""Sphinx extension: the lesson lists of the landing page and the 404 page, written from the lessons' records.

index.md and 404.md hold marker lines (`% lessons: summary`, `% lessons: table`, `% lessons: handouts`, `% lessons: toctree`,
`% lessons: links`); on `source-read` each is replaced by MyST made from compute's lesson records
(compute.checks.lesson_records(): page, order, what the reader will do, the handout's words). The comparison
audit reads the pages with the same replacement, so the records' sentences are bound or marked like any other.
A project without records keeps its markers, which MyST reads as comments.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from sitebuild.prints.editions import EDITIONS

MARKER = re.compile(r"^% lessons: (summary|table|handouts|toctree|links)[ \t]*$", re.M)
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
PAGES = ("index", "404")


def records(root: Path | None = None) -> list:
    """compute's lesson records in the site's order, or [] for a project without them (or, given `root`, when
    the compute that imports is another project's)."""
    try:
        checks = importlib.import_module("compute.checks")
    except ModuleNotFoundError as exc:
        if exc.name in ("compute", "compute.checks"):
            return []
        raise
    where = getattr(checks, "__file__", None)
    if root is not None and where and Path(where).resolve().parent.parent != Path(root).resolve():
        return []
    return checks.lesson_records() if hasattr(checks, "lesson_records") else []


def _cell(text: str) -> str:
    """A list-table cell: the text as one line (a role then stays on its sentence's line, where
    sitebuild.pages.claimroles removes the space before it)."""
    return " ".join(text.split())


def summary(lessons: list) -> str:
    """How many lessons there are, counted from the records."""
    n = len(lessons)
    count = NUMBERS[n] if n < len(NUMBERS) else f"{n:,}"
    return (f"The site has {count} {'lesson' if n == 1 else 'lessons'}; the table says what each asks of you, "
            "what it builds on and how long it takes to read.")


def table(lessons: list) -> str:
    models = any(r.models for r in lessons)
    rows = ["```{list-table}", ":header-rows: 1", ":widths: 25 35 25 15" if models else ":widths: 35 45 20", "",
            "* - Lesson", "  - What you will do", *(["  - Builds on"] if models else []), "  - Reading time"]
    for r in lessons:
        minutes = "{{ minutes_" + r.page.replace("-", "_") + " }}"
        rows += [f"* - {{doc}}`posts/{r.page}`", f"  - {_cell(r.does)}", *([f"  - {_cell(r.models)}"] if models else []),
                 f"  - {_cell(f'about {minutes} min of text{r.reading}')}"]
    return "\n".join(rows + ["```"])




def handouts(lessons: list) -> str:
    if not lessons:
        return ""
    def link(r, suffix, words):
        file = f"handouts/{r.page}{suffix}.pdf"
        return f'<a href="{file}">{words}</a> <span class="pdf-size" data-file="{file}"></span>'
    # each link followed by an empty size mark that sitebuild.publish.site fills in with the printed file's size
    rows = [f"- {r.handout}: " + ", ".join(link(r, s, w) for s, w in EDITIONS.values())
            + f'; <a href="slides/{r.page}.html">present it (slides)</a>, ' + link(r, "-slides", "slides as PDF")
            for r in lessons]
    return ("Each lesson prints three ways (PDF, A4): the handout, with the answers at its end; a student "
            "edition, with room to write under each question and no answer; and the answer key alone. Each is "
            "also a deck of slides for a projector, cut from its page, and the deck as a PDF (a slide a page) for a "
            "room with no network.\n\n"
            + "\n".join(rows))


def toctree(lessons: list) -> str:
    return "\n".join(["```{toctree}", ":maxdepth: 1", ":hidden:", "", *(f"posts/{r.page}" for r in lessons),
                      "glossary", "```"])


def links(lessons: list) -> str:
    return "\n".join(f"- [](posts/{r.page}.md)" for r in lessons)


WRITERS = {"summary": summary, "table": table, "handouts": handouts, "toctree": toctree, "links": links}


def expand(text: str, lessons: list | None = None) -> str:
    """The page's text with every marker line replaced by its list (the line count changes, so the audit reads
    the lists' sentences after the page's own)."""
    if not MARKER.search(text):
        return text
    lessons = records() if lessons is None else lessons
    if not lessons:
        return text
    return MARKER.sub(lambda m: WRITERS[m.group(1)](lessons), text)


def _on_source_read(app, docname: str, source: list[str]) -> None:
    if docname in PAGES:
        root = Path(app.srcdir)
        lessons = records(root)
        for path in [root / "compute" / "lessons" / "record.py",
                     *(root / "compute" / "lessons" / r.package / "__init__.py" for r in lessons)]:
            app.env.note_dependency(path)            # an edited record writes the lists again
        source[0] = expand(source[0], lessons)


def setup(app):
    app.connect("source-read", _on_source_read)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
